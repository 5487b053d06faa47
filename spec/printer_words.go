package spec

import (
	"strconv"
	"strings"
)

// Comments between the tokens of the clauses without operands: Fetch,
// Confirm, From and To, Every and Compare. The printer writes such a
// clause as words, one for each token the source wrote (see words). A
// comment written between two of them stays between the same two: the
// clause is broken there, as one with operands is (see operands), the
// comment ending the line before (when code came before it on its line)
// or on a line of its own, and the clause goes on on the next line:
//
//	From 06/01/2030 # the launch
//		+ 2 weeks
//
// A comment is attached to the word whose token follows it in the
// source (Comment.next), by the token's offset. attach and the printer
// take the words from one function, so that every comment attached to a
// word is printed before it; a clause whose words do not match the tokens
// the parser recorded for it (one built or changed by a program) has no
// such place, and a comment inside it goes before it.
//
// From and To are written on one line: a comment between the From that
// the source writes first and the To after it (at the end of From's last
// line, or on a line of its own before To) stays between them, the line
// broken before To.

// word is a token of a clause as the printer writes it.
type word struct {
	text string
	// pos is the position of the source's token that the word prints;
	// none for a clause the parser did not read as it is, or for the
	// count of the seed's glued "moving4", written "moving 4".
	pos Pos
	// glued words are written without a space before them: the
	// parentheses of start(s1) and the name between them.
	glued bool
}

// words returns the words of the clause n, its keyword first, placed at
// the tokens the parser recorded (toks) when they match: a
// *FetchClause, a *ConfirmClause, an *EveryClause, a *CompareClause, or a
// *TimeSpec after keyword ("From" or "To"; the keyword's word is there
// for any, so that the words match the tokens). Other nodes have none.
func words(n Node, keyword string) []word {
	var ws []word
	add := func(texts ...string) {
		for _, t := range texts {
			ws = append(ws, word{text: t})
		}
	}
	interval := func(iv *Interval) {
		if iv != nil {
			add(strings.Fields(iv.Duration.String())...)
		}
	}
	var toks []Pos
	switch n := n.(type) {
	case *FetchClause:
		add("Fetch")
		if n.OnChange {
			add("on", "change")
		} else {
			interval(n.Interval)
		}
		if n.Render {
			add("render")
		}
		toks = n.toks
	case *ConfirmClause:
		add("Confirm", "after")
		interval(n.After)
		toks = n.toks
	case *TimeSpec:
		add(keyword)
		switch b := n.Base.(type) {
		case *Date:
			add(strings.Fields(b.String())...)
		case *Now:
			add("Now")
		case *Event:
			add(b.Kind.String())
			ws = append(ws, word{text: "(", glued: true})
			if b.Name != nil {
				ws = append(ws, word{text: b.Name.Name, glued: true})
			}
			ws = append(ws, word{text: ")", glued: true})
		}
		for _, off := range n.Offsets {
			add("+")
			interval(off)
		}
		toks = n.toks
	case *EveryClause:
		add("Every")
		if n.Mode == Periodic {
			interval(n.Interval)
		} else {
			add(strings.Fields(n.Mode.String())...)
		}
		toks = n.toks
	case *CompareClause:
		add("Compare", n.Method.String())
		if n.Method != Pairwise {
			add(strconv.FormatInt(n.N, 10))
			if len(n.toks) == 2 { // the glued form: its count has no token
				toks = append(n.toks[:2:2], Pos{})
				break
			}
		}
		toks = n.toks
	default:
		return nil
	}
	if len(toks) == len(ws) {
		for i := range ws {
			ws[i].pos = toks[i]
		}
	}
	return ws
}

// wordAt reports whether a word of the clause n, but its keyword, prints
// the token at offset off: a comment before that token is printed
// before the word (see gap).
func wordAt(n Node, off int) bool {
	ws := words(n, "")
	for i := 1; i < len(ws); i++ {
		if ws[i].pos.IsValid() && ws[i].pos.Offset == off {
			return true
		}
	}
	return false
}

// words writes ws, each but the first after its gap.
func (p *printer) words(ws []word) {
	for i, w := range ws {
		if i > 0 {
			p.gap(w)
		}
		p.str(w.text)
	}
}

// gap writes what goes before the word w after another: a space (none
// before a glued word), or a line break with the comments attached to w
// (see breakLine).
func (p *printer) gap(w word) {
	var cs []*Comment
	if w.pos.IsValid() {
		cs = p.gaps[w.pos.Offset]
	}
	switch {
	case len(cs) > 0:
		p.breakLine(cs, true)
	case !w.glued:
		p.str(" ")
	}
}

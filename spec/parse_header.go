package spec

import "strings"

// Headers written wrong. A sentinel whose header ("Create Sentinel NAME
// Using TARGET") has a syntax error is never valid, but when the text
// gives its name all the same, the parser reads it: the sentinel is then
// known by it, as one with errors (Checker.Failed), and another that uses
// it, or refers to its events, is told so rather than that it is unknown.
// A name is read only where the text gives one: never the misspelt
// keyword itself, nor a quoted title made a name. When the parser reads
// past the mistake to the end of the target (a misspelt Sentinel or
// Using, a quoted name), the sentinel is checked in full
// (Checker.CheckPartial); when not, without its target (see
// checking.headless).

// parseHeader reads into s the header of a sentinel after its Create:
// the Sentinel keyword, the name and the Using clause.
func (p *parser) parseHeader(s *Sentinel) {
	p.targetStart, p.targetEnd = -1, -1 // until its target is read
	p.sentinelKeyword(s)
	if s.Name == nil {
		s.Name = p.quotedName()
	}
	if s.Name == nil {
		s.Name = p.parseName("sentinel name")
		p.titleName(s.Name)
	}
	p.using()
	p.targetFrom, p.targetStart = p.mark(), p.pos.Offset
	s.Target = p.parseTarget()
	p.targetEnd = p.prevEnd.Offset
}

// secondUsing reads a Using that comes after a header read cleanly
// ("Using a Using b"): a duplicate, told at it with how to write what
// was surely meant, one Using whose targets OR joins ("Using a OR b"),
// and the target after it read, so that the clauses after it are read
// and checked, but not made the sentinel's target. The sentinel is then
// checked as one whose header broke, the pieces of its first target
// (header) alone (see checking.headless): which target was meant, and
// so what it inherits, is not known.
func (p *parser) secondUsing(s *Sentinel, header []part) {
	e := &Error{Pos: p.pos.Position(p.filename), Found: p.lit, Msg: "duplicate Using: a sentinel has one Using; join the pages and sentinels of its target with OR or AND"}
	p.record(e)
	if s.broken&brokenHeader == 0 {
		s.parts = append(s.parts, header...)
	}
	s.broken |= brokenHeader
	read := p.targetEnd >= 0 // the target of its header, read to its end
	p.next()
	start, n := p.pos.Offset, p.mark()
	var second Target
	if !p.try(func() { second = p.parseTarget() }) || p.erredSince(n) {
		p.skipTo(Token.clauseStart)
		return
	}
	if !read || s.Target == nil {
		return
	}
	e.Msg = secondUsingError(s.Target, second, p.joinText(p.targetStart, p.targetEnd), p.joinText(start, p.prevEnd.Offset))
}

// joinText returns the source text from start to end for joinWithOr,
// cut after 2*maxQuoted+1 bytes: it quotes no longer text, and a long
// target is not copied again at each Using after it.
func (p *parser) joinText(start, end int) string {
	end = min(end, start+2*maxQuoted+1)
	return string(p.sc.src[start:end])
}

// secondUsingError is the message of a second Using after a header
// whose target, first in the text, is x, the second's y (second).
func secondUsingError(x, y Target, first, second string) string {
	_, xSite := x.(*SiteTarget)
	_, ySite := y.(*SiteTarget)
	if xSite || ySite {
		return "duplicate Using: a sentinel has one Using, and a site is watched alone: write another sentinel for the second target"
	}
	if join := joinWithOr(x, y, first, second); join != "" {
		return "duplicate Using: a sentinel has one Using; " + join
	}
	return "duplicate Using: a sentinel has one Using; to watch both, join the targets with OR after one Using"
}

// joinWithOr returns how to write the target x, written first, and y,
// written second, as one with OR ("to watch both pages, join them with
// OR: Using a OR b"); "" when either is a site, which is watched alone,
// or the text is too long for a message or on several lines. first and
// second are the targets' source text; a target whose URL holds a
// password is written in its canonical form, the password hidden.
func joinWithOr(x, y Target, first, second string) string {
	_, xSite := x.(*SiteTarget)
	_, ySite := y.(*SiteTarget)
	// A URL's password is not written again: the text of a target
	// that holds one is its canonical form, with the password hidden.
	if shown := hideTargetPasswords(x); shown != x {
		first = Print(shown)
	}
	if shown := hideTargetPasswords(y); shown != y {
		second = Print(shown)
	}
	if xSite || ySite || strings.ContainsAny(first+second, "\n\r#") || len(first)+len(second) > 2*maxQuoted {
		return ""
	}
	what := "both"
	_, xURL := x.(*URLTarget)
	_, yURL := y.(*URLTarget)
	if b, ok := x.(*BinaryTarget); ok && b.Op == Or {
		what = "them all"
	} else if xURL && yURL {
		what = "both pages"
	}
	return "to watch " + what + ", join them with OR: Using " + orOperand(x, first) + " OR " + orOperand(y, second)
}

// orOperand returns text, the text of the target t, as an operand of
// OR in a message: in parentheses when t is an AND, which OR needs not
// but a reader may (a AND b OR c is (a AND b) OR c).
func orOperand(t Target, text string) string {
	if b, ok := t.(*BinaryTarget); ok && b.Op == And && !(strings.HasPrefix(text, "(") && strings.HasSuffix(text, ")")) {
		return "(" + text + ")"
	}
	return text
}

// using reads the Using after the name. A word that is Using misspelt
// ("Usin", "Usign": see misspelt) is the error expect reports, recorded
// there, and read as Using, so that the target after it is read, and
// the sentinel checked in full (CheckPartial); anything else fails as
// expect does.
func (p *parser) using() {
	if p.tok == IDENT && misspelt(p.lit, "using") {
		p.errorAt(p.pos, p.lit, USING.String(), "expected Using, found "+p.describe()+": write Using")
		p.next()
		return
	}
	p.expect(USING)
}

// sentinelKeyword reads the Sentinel after Create. A word in its place
// is a mistake, recorded there: when a second word and Using follow it
// ("Create Sentinal b Using"), it is Sentinel misspelt and the second
// word the name; when Using follows it ("Create b Using") and it is no
// misspelling of Sentinel, it is the name, Sentinel left out. Either way
// s.Name is set and the header is read on from Using. Anything else
// fails as expect does.
func (p *parser) sentinelKeyword(s *Sentinel) {
	if p.tok == SENTINEL {
		p.next()
		return
	}
	if p.tok != IDENT {
		p.failExpected(SENTINEL.String())
	}
	word := &Ident{NamePos: p.pos, Name: CanonicalName(p.lit)}
	if !p.sentinelTold {
		p.errorAt(p.pos, p.lit, SENTINEL.String(), "expected Sentinel, found "+p.describe())
	}
	p.sentinelTold = false
	p.next()
	switch {
	case p.tok == USING && !misspeltSentinel(word.Name):
		s.Name = word
	case p.tok == IDENT && misspeltSentinel(word.Name):
		// Not two words of a title ("Create my shop Using"): the first
		// must be Sentinel misspelt for the second to be a name.
		name := &Ident{NamePos: p.pos, Name: CanonicalName(p.lit)}
		p.next()
		if p.tok != USING {
			panic(bailout{}) // the error is recorded at the first word
		}
		s.Name = name
	default:
		panic(bailout{})
	}
}

// quotedName reads a name written quoted (Create Sentinel "b"), when
// the quotes hold a name as it is: the error parseName reports is
// recorded, and the name returned. It returns nil otherwise, nothing
// read: a title ("my shop") is not made a name.
func (p *parser) quotedName() *Ident {
	if p.tok != STRING {
		return nil
	}
	name := p.litValue()
	if tok, ok := scanOne(name); !ok || tok != IDENT {
		return nil
	}
	id := &Ident{NamePos: p.pos, Name: CanonicalName(name)}
	p.errorAt(p.pos, p.lit, "sentinel name", quotedNameError(p.describe(), name))
	p.next()
	return id
}

// quotedNameError is the message of a sentinel name written quoted,
// found, of which name is the name.
func quotedNameError(found, name string) string {
	return "expected sentinel name, found " + found + ": a name is one word, unquoted, as in " + name
}

// misspeltSentinel reports whether word is the keyword Sentinel
// misspelt: letters only, at most two of them added, left out or
// changed, without regard to case ("Sentinal", "sentinels", "Sentnel").
// A word with a digit, "-" or "_" ("sentinel-a", "sentinel1") is a
// name.
func misspeltSentinel(word string) bool { return misspelt(word, "sentinel") }

// misspelt reports whether word is the keyword kw, in lower case,
// misspelt as misspeltSentinel tells Sentinel.
func misspelt(word, kw string) bool {
	for _, r := range word {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return false
		}
	}
	return editDistance(strings.ToLower(word), kw, 2) <= 2
}

// editDistance returns the Levenshtein distance between a and b, counted
// in bytes, or max+1 when it is more than max.
func editDistance(a, b string, max int) int {
	if d := len(a) - len(b); d > max || -d > max {
		return max + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], max+1)
}

// misspeltCreate records msg at the current token, which does not begin
// a sentinel, as errorAt does, with the text expected there, and moves
// past it. When the token is a word and Sentinel follows it, it is
// Create misspelt ("Crate Sentinel b"): the error then says that Create
// Sentinel was expected, and misspeltCreate returns the sentinel the
// word begins, to be read from its Sentinel on (parseSentinel). Inside
// a sentinel (inSentinel), only a word that begins its line and is
// Create misspelt is taken so: a mistake in a clause ("ORR sentinel b")
// is the clause's, and the sentinel it is in stays faulty. It returns
// nil otherwise.
func (p *parser) misspeltCreate(expected, msg string, inSentinel bool) *Sentinel {
	s := &Sentinel{Create: p.pos, blank: p.prevLine > 0 && p.pos.Line > p.prevLine+1}
	if p.tok != IDENT || inSentinel && !(p.pos.Line > p.prevEnd.Line && misspelt(p.lit, "create")) {
		p.errorAt(p.pos, p.lit, expected, msg)
		p.next()
		return nil
	}
	e := &Error{Pos: p.pos.Position(p.filename), Msg: msg, Found: p.lit, Expected: expected}
	p.record(e)
	p.next()
	if p.tok == IDENT && p.pos.Line == e.Pos.Line && misspelt(e.Found, "create") && misspeltSentinel(p.lit) {
		// Crate Sentinal b: both keywords misspelt, told as one
		// mistake; a sentinel when a name and Using follow.
		both := string(p.sc.src[e.Pos.Offset : p.pos.Offset+len(p.lit)])
		e.Msg, e.Expected, e.Found = "expected Create Sentinel, found "+quote(both)+": write Create Sentinel", CREATE.String(), both
		if !p.nameAndUsingAhead() {
			return nil
		}
		p.sentinelTold = true
		s.broken |= brokenOther
		return s
	}
	if p.tok != SENTINEL {
		return nil
	}
	e.Msg, e.Expected = "expected Create Sentinel, found "+quote(e.Found), CREATE.String()
	s.broken |= brokenOther // its error, recorded before its header is read
	return s
}

// nameAndUsingAhead reports whether the current token, a word, is
// followed on its line by a name and Using ("Sentinal b Using"), read
// ahead three tokens.
func (p *parser) nameAndUsingAhead() bool {
	var sc Scanner
	sc.Init(p.sc.src[p.pos.Offset:], nil)
	for _, want := range []Token{IDENT, IDENT, USING} {
		if pos, tok, _ := sc.Scan(); pos.Line > 1 || tok != want {
			return false
		}
	}
	return true
}

// titleName fails at name, a sentinel's name read, when words follow it
// up to a Using on its line ("Create Sentinel my shop Using"): a title
// of several words, told to write them joined as one name (my-shop).
// It returns, failing nothing, when the next token is no word, or is
// Using misspelt (see using).
func (p *parser) titleName(name *Ident) {
	if p.tok != IDENT || misspelt(p.lit, "using") {
		return
	}
	var sc Scanner // the rest of the line, read ahead a word at a time
	sc.Init(p.sc.src[p.pos.Offset:], nil)
	words := []string{string(p.sc.src[name.NamePos.Offset:p.prevEnd.Offset])}
	last := p.prevEnd.Offset
	for len(words) < 8 {
		pos, tok, lit := sc.Scan()
		if pos.Line > 1 {
			return // the next line's
		}
		switch tok {
		case IDENT:
			words, last = append(words, lit), p.pos.Offset+pos.Offset+len(lit)
			continue
		case USING:
			joined := strings.Join(words, "-")
			if t, ok := scanOne(joined); ok && t == IDENT {
				text := string(p.sc.src[name.NamePos.Offset:last])
				p.fail(name.NamePos, text, USING.String(), "a name is one word: write "+short(joined))
			}
		}
		return
	}
}

// letterFirst returns a name for lit, a word or number that begins
// with a digit and is so no name ("1s", "2"): its letters before its
// digits (s1) when it is digits and then letters, else lit after an s
// (s2); "" when lit does not begin with a digit or makes no name so.
func letterFirst(lit string) string {
	if lit == "" || !isDigit(lit[0]) {
		return ""
	}
	rest := strings.TrimLeft(lit, "0123456789")
	name := "s" + lit
	if rest != "" && strings.Trim(rest, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" {
		name = rest + lit[:len(lit)-len(rest)]
	}
	if t, ok := scanOne(name); !ok || t != IDENT {
		return ""
	}
	return name
}

// targetWithoutOr returns, at a URL right after the target of s's
// header, read cleanly (Using a b), how to join the two with OR (see
// joinWithOr); "" otherwise.
func (p *parser) targetWithoutOr(s *Sentinel) string {
	if p.tok != WORD && p.tok != STRING || s.Target == nil || s.broken&brokenHeader != 0 || p.targetEnd < 0 || p.prevEnd.Offset != p.targetEnd {
		return ""
	}
	y := &URLTarget{URLPos: p.pos, URL: p.litValue()}
	return joinWithOr(s.Target, y, p.joinText(p.targetStart, p.targetEnd), p.lit)
}

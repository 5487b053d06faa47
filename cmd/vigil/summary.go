package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/render"
	"github.com/vigil-web/vigil/tree"
	"golang.org/x/text/unicode/norm"
)

// lineName is a file's name as a line of the summary shows it: as it is,
// or quoted as Go quotes a string (and %q the texts of the changes) when
// it holds a character that quoting escapes, one a terminal would act on
// rather than show (a line break or a line separator would split the
// line, a bidirectional override reorder it), or is not UTF-8. The
// messages of diff, patch and compose name their inputs so too
// (inputName).
func lineName(name string) string {
	if !utf8.ValidString(name) || strings.IndexFunc(name, func(r rune) bool { return !strconv.IsPrint(r) }) >= 0 {
		return strconv.Quote(name)
	}
	return name
}

// writeSummary writes one line of counts, then one line per change: the
// path of the node in the old version, and for moves and inserts where it
// goes in the new one (for updates and attribute changes too, where a
// move of an ancestor took it elsewhere, and for renames). Attribute changes and renames come first, then
// deletes, moves and updates in the old version's document order, then
// inserts in the new one's. Attribute values and DOCTYPEs are clipped as
// texts are.
func writeSummary(w io.Writer, d *delta.Delta, old, new *tree.Flat) error {
	bw := bufio.NewWriter(w)
	// A page's texts are joined as a reader reads them (markup.JoinTexts).
	html := new.Len() > 0 && strings.EqualFold(new.Name(new.Root()), "html")
	fmt.Fprintf(bw, "%s -> %s: %s\n", lineName(d.From), lineName(d.To), statsText(d.Stats(), false))
	if o := d.Outside; o != nil {
		doctype, prolog, epilog := o.Changed()
		if doctype && strings.Join(strings.Fields(o.Old.Doctype), " ") != strings.Join(strings.Fields(o.New.Doctype), " ") {
			fmt.Fprintf(bw, "outside DOCTYPE: %s\n", change(o.Old.Doctype, o.New.Doctype))
		}
		if o.Old.Doctype != "" && o.New.Doctype != "" && o.Old.DoctypeAfter != o.New.DoctypeAfter {
			fmt.Fprintf(bw, "outside DOCTYPE place: after %d comments and processing instructions -> after %d\n", o.Old.DoctypeAfter, o.New.DoctypeAfter)
		}
		for _, part := range []struct {
			changed  bool
			where    string
			old, new []*tree.Node
		}{{prolog, "before the root", o.Old.Prolog, o.New.Prolog}, {epilog, "after the root", o.Old.Epilog, o.New.Epilog}} {
			a, b := texts(part.old), texts(part.new)
			switch {
			case !part.changed:
			case a != b:
				fmt.Fprintf(bw, "outside %s: %s\n", part.where, change(a, b))
			case len(part.old) != len(part.new):
				fmt.Fprintf(bw, "outside %s: %d comments and processing instructions -> %d\n", part.where, len(part.old), len(part.new))
			default:
				fmt.Fprintf(bw, "outside %s: white space changed\n", part.where)
			}
		}
	}
	oldIdx, newIdx := byXID(old), byXID(new)
	path := func(idx xidPaths, x tree.XID) string {
		if i, ok := idx.index[x]; ok {
			return idx.paths.Path(i)
		}
		return fmt.Sprintf("node %d", x)
	}
	// oldPlace names a node that is in both versions by its old path, and
	// by its new one too where that differs (inside a moved subtree): an
	// update's old path alone can name another node of the new version.
	oldPlace := func(x tree.XID) string {
		from := path(oldIdx, x)
		if _, ok := newIdx.index[x]; ok {
			if to := path(newIdx, x); to != from {
				return from + " (now " + to + ")"
			}
		}
		return from
	}
	// The insert halves of moves and updates, by XID.
	halves := map[tree.XID]*delta.Op{}
	for i := range d.Ops {
		if op := &d.Ops[i]; op.Kind == delta.Insert && (op.Move || op.Update) {
			halves[op.Root()] = op
		}
	}
	for _, i := range readingOrder(d) {
		op := &d.Ops[i]
		switch {
		case op.Kind == delta.Delete && op.Move:
			from, to := path(oldIdx, op.Root()), path(newIdx, op.Root())
			h := halves[op.Root()]
			switch {
			case h == nil || from != to:
				fmt.Fprintf(bw, "move    %s -> %s\n", from, to)
			case h.Parent != op.Parent:
				// To another parent that took the old one's place (a
				// key attribute's value moved between elements).
				where := "was deleted"
				if _, ok := newIdx.index[op.Parent]; ok {
					where = "is now " + path(newIdx, op.Parent)
				}
				fmt.Fprintf(bw, "move    %s -> %s: to another parent (the old one %s)\n", from, to, where)
			case h.Pos != op.Pos:
				// Reordered among siblings of other names: the path
				// cannot tell, the positions do.
				fmt.Fprintf(bw, "move    %s: child %d -> child %d\n", from, op.Pos, h.Pos)
			default:
				// Its siblings moved around it.
				fmt.Fprintf(bw, "move    %s: its siblings were reordered around it; still child %d\n", from, op.Pos)
			}
		case op.Kind == delta.Delete && op.Update:
			fmt.Fprintf(bw, "update  %s: %s\n", oldPlace(op.Root()), updateChange(op, halves[op.Root()]))
		case op.Kind == delta.Delete:
			fmt.Fprintf(bw, "delete  %s: %q\n", path(oldIdx, op.Root()), snippet(op.Content, html))
		case op.Kind == delta.Insert && (op.Move || op.Update):
			// printed with its delete half
		case op.Kind == delta.Insert:
			fmt.Fprintf(bw, "insert  %s: %q\n", path(newIdx, op.Root()), snippet(op.Content, html))
		case op.Kind == delta.Rename:
			fmt.Fprintf(bw, "rename  %s: %s -> %s\n", renamedPlace(path(oldIdx, op.Node), path(newIdx, op.Node), op.OldValue, op.NewValue), op.OldValue, op.NewValue)
		case op.Kind == delta.AttrInsert:
			fmt.Fprintf(bw, "attr    %s: @%s added %q\n", oldPlace(op.Node), op.Name, clip(op.NewValue))
		case op.Kind == delta.AttrDelete:
			fmt.Fprintf(bw, "attr    %s: @%s removed (was %q)\n", oldPlace(op.Node), op.Name, clip(op.OldValue))
		case op.Kind == delta.AttrUpdate:
			fmt.Fprintf(bw, "attr    %s: @%s %s\n", oldPlace(op.Node), op.Name, change(op.OldValue, op.NewValue))
		}
	}
	return bw.Flush()
}

// statsText gives the counts of a delta's operations, as the first line
// of a summary does; compact leaves out the kinds of operation that did
// not occur.
func statsText(s delta.Stats, compact bool) string {
	parts := []struct {
		n    int
		text string
	}{
		{s.Inserts, fmt.Sprintf("%d inserted (%s)", s.Inserts, count(s.InsertedNodes, "node"))},
		{s.Deletes, fmt.Sprintf("%d deleted (%s)", s.Deletes, count(s.DeletedNodes, "node"))},
		{s.Moves, fmt.Sprintf("%d moved", s.Moves)},
		{s.Updates, count(s.Updates, "text update")},
		{s.AttrInserts + s.AttrDeletes + s.AttrUpd, count(s.AttrInserts+s.AttrDeletes+s.AttrUpd, "attribute change")},
		{s.Renames, count(s.Renames, "rename")},
	}
	var out []string
	for _, p := range parts {
		if p.n > 0 || !compact {
			out = append(out, p.text)
		}
	}
	if s.Outside {
		out = append(out, "changes outside the root element")
	}
	if len(out) == 0 {
		return "no change"
	}
	return strings.Join(out, ", ")
}

// updateChange returns the text before and after a text update, given its
// delete half and its insert half (nil if missing), as a summary shows
// them (change): clipped around the change, white space shown when only it
// changed.
func updateChange(del, ins *delta.Op) string {
	var from, to string
	if ins != nil {
		to = flatText(ins.Content, false)
	}
	from = flatText(del.Content, false)
	if from == to && ins != nil {
		// Only white space changed: show it.
		from, to = del.Content.Value, ins.Content.Value
	}
	return change(from, to)
}

// change returns a text before and after a change as a line of a summary
// shows them, `"before" -> "after"`, each quoted as %q quotes it and
// clipped around the change (contrast). Where the two clipped texts would
// read alike, the same characters written otherwise in Unicode (an e and
// a combining acute accent for é), both are quoted with every character
// past ASCII escaped, so that the change shows, and said to be the same
// text in another normalisation form when they are (NFC).
func change(before, after string) string {
	a, b := contrast(before, after)
	if before == after || norm.NFC.String(a) != norm.NFC.String(b) {
		return fmt.Sprintf("%q -> %q", a, b)
	}
	line := strconv.QuoteToASCII(a) + " -> " + strconv.QuoteToASCII(b)
	if norm.NFC.String(before) == norm.NFC.String(after) {
		line += " (the same text in another Unicode normalisation form)"
	}
	return line
}

// renamedPlace names an element renamed from name to newName by its old
// path from, and by its new one to too where that is not from with the new
// name in its last step: inside a moved subtree, or after a change of rank
// among the siblings of its name.
func renamedPlace(from, to, name, newName string) string {
	dir, last := from[:strings.LastIndexByte(from, '/')+1], from[strings.LastIndexByte(from, '/')+1:]
	if rest, ok := strings.CutPrefix(last, name+"["); ok && to == dir+newName+"["+rest {
		return from
	}
	return from + " (now " + to + ")"
}

// count writes n things, as "1 node" or "5 nodes".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// texts is flatText of a list of comments and processing instructions.
func texts(nodes []*tree.Node) string {
	s := make([]string, len(nodes))
	for i, n := range nodes {
		s[i] = flatText(n, false)
	}
	return strings.Join(s, " ")
}

// xidPaths names the nodes of a flat tree by path, given their XIDs.
type xidPaths struct {
	index map[tree.XID]int32
	paths *tree.FlatPaths
}

// byXID indexes the nodes of f by XID, to name them by path.
func byXID(f *tree.Flat) xidPaths {
	idx := xidPaths{index: make(map[tree.XID]int32, len(f.XID)), paths: tree.NewFlatPaths(f)}
	for i, x := range f.XID {
		idx.index[x] = int32(i)
	}
	return idx
}

// snippet returns the start of a subtree's text, or its element name;
// html tells whether it is a page's.
func snippet(n *tree.Node, html bool) string { return clip(flatText(n, html)) }

// clipRunes is how many characters of a text clip keeps.
const clipRunes = 60

// clip cuts a text to at most clipRunes characters, "..." the last three,
// at the end of a character as a reader sees it (render.ClusterCutBefore:
// ClusterCut would keep a cluster that ends past the limit, as long as
// render.MaxClusterRunes).
func clip(text string) string {
	if r := []rune(text); len(r) > clipRunes {
		text = string(r[:render.ClusterCutBefore(r, clipRunes-3)]) + "..."
	}
	return text
}

// contrast returns a text before and after a change, each clipped as
// snippet clips it but from a little before the first character where they
// differ (at the start of a character as a reader sees it,
// render.ClusterCutBefore): a change past the first sixty characters would
// otherwise show the same text twice.
func contrast(before, after string) (string, string) {
	a, b := []rune(before), []rune(after)
	k := 0
	for k < len(a) && k < len(b) && a[k] == b[k] {
		k++
	}
	if k > 40 {
		// From the start of a character as a reader sees it, at or
		// before k-20: whether a place is a boundary depends on the
		// text up to it, and a and b are alike up to k, so the place is
		// one in both. ClusterCut, which looks after k-20 in a cluster
		// longer than render.MaxClusterRunes, could pass the end of b.
		from := render.ClusterCutBefore(a, k-20)
		a = append([]rune("..."), a[from:]...)
		b = append([]rune("..."), b[from:]...)
	}
	return clip(string(a)), clip(string(b))
}

// flatText returns a subtree's text on one line, its texts joined as a
// reader reads them (markup.JoinTexts: a page's when html is set) and
// their white space collapsed, no further text read once it holds more
// than clip shows; its element name when it has none; a comment or
// processing instruction as written.
func flatText(n *tree.Node, html bool) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	letters := 0 // the characters that are not white space
	markup.JoinTexts(n, html, func(sep, text string) bool {
		b.WriteString(sep)
		b.WriteString(text)
		for _, r := range text {
			if !unicode.IsSpace(r) {
				letters++
			}
		}
		return letters <= clipRunes
	})
	text := strings.Join(strings.Fields(b.String()), " ")
	switch {
	case text == "" && n.Kind == tree.Text:
		return n.Value // white space: the space between two inline elements
	case text == "" && n.Kind == tree.Element:
		return "<" + n.Name + ">"
	case n.Kind == tree.Comment:
		text = "<!--" + oneLine(n.Value) + "-->"
	case n.Kind == tree.ProcInst:
		text = "<?" + n.Name + " " + oneLine(n.Value) + "?>"
	}
	return text
}

// oneLine puts s on one line: each run of white space becomes one space,
// the runs at its ends too, so that "<!-- a -->" reads as written and a
// change of its spaces alone still shows.
func oneLine(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}

// readingOrder returns the indexes of d's operations in the order a summary
// lists them: the deletes (in XyScript order from right to left, each
// descendant before its ancestor) reversed, so that they read from the top
// of the document down.
func readingOrder(d *delta.Delta) []int {
	var other, deletes, inserts []int
	for i := range d.Ops {
		switch d.Ops[i].Kind {
		case delta.Delete:
			deletes = append(deletes, i)
		case delta.Insert:
			inserts = append(inserts, i)
		default:
			other = append(other, i)
		}
	}
	slices.Reverse(deletes)
	return append(append(other, deletes...), inserts...)
}

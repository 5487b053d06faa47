package intent

import (
	"cmp"
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// nouns are what a reader calls an object of each kind, one and several.
var nouns = map[ObjectKind][2]string{
	KindNode:       {"text", "texts"},
	KindWord:       {"run of words", "runs of words"},
	KindKeyword:    {"keyword", "keywords"},
	KindPhrase:     {"phrase", "phrases"},
	KindLink:       {"link", "links"},
	KindImage:      {"image", "images"},
	KindTableRow:   {"row", "rows"},
	KindTableCell:  {"cell", "cells"},
	KindListItem:   {"list item", "list items"},
	KindRegexMatch: {"match", "matches"},
	KindValue:      {"value", "values"},
	KindPage:       {"page", "pages"},
}

// noun returns what a reader calls n objects of kind k: "1 row", "3 rows".
func (k ObjectKind) noun(n int) string {
	w, ok := nouns[k]
	if !ok {
		w = [2]string{string(k), string(k)}
	}
	if n == 1 {
		return w[0]
	}
	return w[1]
}

// attribute returns the name of the attribute a node change (any change)
// is on, from the last step of its path ("/html[1]/body[1]/a[1]/@href"),
// and false for a text or a change of another kind.
func (c Change) attribute() (string, bool) {
	if c.Kind != KindNode {
		return "", false
	}
	path := cmp.Or(c.NewPath, c.OldPath)
	step := path[strings.LastIndexByte(path, '/')+1:]
	if name, ok := strings.CutPrefix(step, "@"); ok && name != "" {
		return name, true
	}
	return "", false
}

// stateMove returns, for the move of an HTML state attribute (a leaf
// whose value is its name: disabled, checked, selected, hidden, open)
// from one element to another, the state's name and the element's (its
// local name, from the new path: "option"), and false for any other
// change. The leaf's value tells a state from an XML attribute of the
// same name.
func (c Change) stateMove() (state, elem string, ok bool) {
	name, ok := c.attribute()
	if !ok || c.Op != Move || !isStateAttr(name) || cmp.Or(c.New, c.Old) != name {
		return "", "", false
	}
	path := strings.TrimSuffix(cmp.Or(c.NewPath, c.OldPath), "/@"+name)
	step := path[strings.LastIndexByte(path, '/')+1:]
	if i := strings.IndexByte(step, '['); i >= 0 {
		step = step[:i]
	}
	if step == "" {
		return "", "", false
	}
	return name, localName(step), true
}

// participles are the operations as a reader says what happened.
var participles = map[Operation]string{Insert: "added", Delete: "removed", Update: "changed", Move: "moved"}

func (op Operation) participle() string {
	if p, ok := participles[op]; ok {
		return p
	}
	return string(op)
}

// Count returns the changes counted by kind and operation, in words, in
// the order each first occurs: "2 list items added, 1 cell changed"; a
// node change on an attribute is counted by the attribute's name, as
// Heading names it: "1 attribute disabled removed", "2 attributes href
// added, 2 texts added".
func Count(changes []Change) string {
	type key struct {
		kind ObjectKind
		attr string // the attribute a node change is on, "" for a text
		op   Operation
	}
	counts := map[key]int{}
	var keys []key
	for _, c := range changes {
		attr, _ := c.attribute()
		k := key{c.Kind, attr, c.Op}
		if counts[k] == 0 {
			keys = append(keys, k)
		}
		counts[k]++
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		noun := k.kind.noun(counts[k])
		if k.attr != "" {
			noun = "attributes " + k.attr
			if counts[k] == 1 {
				noun = "attribute " + k.attr
			}
		}
		parts[i] = fmt.Sprintf("%d %s %s", counts[k], noun, k.op.participle())
	}
	return strings.Join(parts, ", ")
}

// Heading says what happened to the change's object, in words: "list item
// added", "cell changed", "value decreased by 50", "value rose above 100",
// "row moved"; for a state that leaves one element for another of its
// kind, the state and the element: "selected moved to another option"
// (rather than "attribute selected moved", whose text would only repeat
// "selected"); for a cell, where it is: "cell changed in row Bravo,
// column Price"; for an item of a nested list, where it is: "list item
// added in Food > Mains", "list item removed from Food", "list item moved
// from Food to Drinks"; for a value among several, which: "value
// decreased by 200 in Canon EOS R8".
func (c Change) Heading() string {
	noun := c.Kind.noun(1)
	if c.Kind == KindWord {
		noun = "words" // a run of them, as the line shows
	}
	if state, elem, ok := c.stateMove(); ok {
		return state + " moved to another " + elem
	}
	if name, ok := c.attribute(); ok {
		noun = "attribute " + name
	}
	if t := c.Table; t != nil && t.HeaderRow {
		return t.headerHeading(c.Kind, c.Op)
	}
	h := noun + " " + c.Op.participle()
	if c.Kind == KindTableCell && c.Table != nil {
		h += c.Table.where(c.Old, c.New)
	}
	if c.List != nil {
		h += c.List.where(c.Op)
	}
	if v := c.Value; v != nil {
		h = v.heading(h, c.Op)
	}
	return h
}

// heading says what happened to a value, h saying it of any object:
// "value decreased by 50", "value rose above 100", and, for a value
// among several, which: "value decreased by 200 in Canon EOS R8", "value
// removed from Nikon Z5".
func (v *ValueInfo) heading(h string, op Operation) string {
	if op == Update {
		switch {
		case v.Crossed == "above" && v.Threshold != nil:
			h = "value rose above " + formatNumber(*v.Threshold)
		case v.Crossed == "below" && v.Threshold != nil:
			h = "value fell below " + formatNumber(*v.Threshold)
		case v.Direction == "increased" || v.Direction == "decreased":
			d := v.Delta
			if d < 0 {
				d = -d
			}
			h = "value " + v.Direction + " by " + formatNumber(d)
		}
	}
	switch {
	case v.Item == "":
	case op == Delete:
		h += " from " + showParents([]string{v.Item})
	default:
		h += " in " + showParents([]string{v.Item})
	}
	return h
}

// where says where in its table a cell is, to follow the participle: " in
// row Bravo, column Price" (the row's name, TableInfo.Row: its first
// cell, after the cells of rowspans above it; the column's header, else
// its number), leaving out what the cell's own texts, old and new,
// already show (its row's first cell, or its header, changed). A cell
// after the first whose text is its row's first cell's ("Paris -> Lyon"
// in the row Paris) is not that cell, and says its row.
func (t *TableInfo) where(old, new string) string {
	var at []string
	if t.Row != "" && (t.Column > 1 || t.Row != old && t.Row != new) {
		at = append(at, "row "+showParents([]string{t.Row}))
	}
	switch {
	case t.Header != "" && t.Header != old && t.Header != new:
		at = append(at, "column "+showParents([]string{t.Header}))
	case t.Header == "" && t.Column > 0:
		at = append(at, "column "+strconv.Itoa(t.Column))
	}
	if len(at) == 0 {
		return ""
	}
	return " in " + strings.Join(at, ", ")
}

// headerHeading says what happened to a table's header row (a change of
// kind k: the row, or one of its cells) as what happened to its columns:
// a header cell added or removed is the column ("column added", "column
// removed"), one changed its header ("column header changed"), and the
// header row itself is named so ("header row added").
func (t *TableInfo) headerHeading(k ObjectKind, op Operation) string {
	if k == KindTableRow {
		return "header row " + op.participle()
	}
	if op == Update {
		return "column header changed"
	}
	return "column " + op.participle()
}

// where says where in its list a nested item's change happened, to follow
// the participle: " in Food > Mains" (added, changed, moved within), " from
// Food" (removed), " from Food to Drinks", " into Food" (from the outer
// list), " out of Food" (to the outer list); "" for the outer list's own
// items.
func (l *ListInfo) where(op Operation) string {
	old, new := showParents(l.OldParents), showParents(l.NewParents)
	switch {
	case op == Delete && old != "":
		return " from " + old
	case op == Move && !slices.Equal(l.OldParents, l.NewParents):
		switch {
		case old == "":
			return " into " + new
		case new == "":
			return " out of " + old
		}
		return " from " + old + " to " + new
	case new != "":
		return " in " + new
	}
	return ""
}

// Limits of the labels a heading shows of the items a nested list item
// sits in.
const (
	maxLabel  = 40 // bytes of one label
	maxLabels = 3  // labels; past them, the outermost, "…" and the two innermost
)

// showParents writes labels as a path: "Food > Mains".
func showParents(labels []string) string {
	if len(labels) > maxLabels {
		labels = []string{labels[0], "…", labels[len(labels)-2], labels[len(labels)-1]}
	}
	var b strings.Builder
	for i, s := range labels {
		if i > 0 {
			b.WriteString(" > ")
		}
		s = shownText(s)
		if len(s) > maxLabel {
			s = strings.ToValidUTF8(s[:maxLabel], "") + "…"
		}
		b.WriteString(s)
	}
	return b.String()
}

// formatNumber writes a number as briefly as it reads: 50, 12.5, 0.01.
func formatNumber(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// noText stands in Texts for the side of a link's text or an image's
// alternative text that has none (an image link that gained a text, an
// alt removed), which would otherwise show as a blank, leaving the target
// in parentheses to read as the new text.
const noText = "(no text)"

// maxShown is the most bytes of one side of a change that Texts returns.
const maxShown = 300

// Texts returns the old and new text a reader is shown for the change: its
// values, or for a link or an image its target, or its text (alternative
// text; noText for none) followed by the target when only that changed;
// each is cut to 300 bytes, with an ellipsis, both from a little before
// their first difference when they are longer (see clipPair).
func (c Change) Texts() (old, new string) {
	old, new = c.Old, c.New
	if l := c.Link; l != nil {
		old, new = cmp.Or(old, l.OldHref), cmp.Or(new, l.NewHref)
		if unsignedURL(l.OldHref) == unsignedURL(l.NewHref) && l.OldText != l.NewText {
			old, new = cmp.Or(l.OldText, noText), cmp.Or(l.NewText, noText)+" ("+l.NewHref+")"
		}
	}
	if im := c.Image; im != nil {
		old, new = cmp.Or(old, im.OldSrc), cmp.Or(new, im.NewSrc)
		if unsignedURL(im.OldSrc) == unsignedURL(im.NewSrc) && im.OldAlt != im.NewAlt {
			old, new = cmp.Or(im.OldAlt, noText), cmp.Or(im.NewAlt, noText)+" ("+im.NewSrc+")"
		}
	}
	old, new = shownText(old), shownText(new)
	if old != "" && new != "" {
		return clipPair(old, new)
	}
	return clip(old), clip(new)
}

// shownText returns s, a text of a page, as a change shows it to a
// reader: without soft hyphens, which a browser does not show within a
// line, and the other invisible characters (leaveOutInvisible), which
// matching leaves out (spec.WordKey), so that a keyword found in
// Donau&shy;dampf or Re&#8203;funds reads Donaudampf or Refunds, as the
// user wrote it, not with an invisible character a mail or a chat message
// may show as one. The texts of the leaves are read without them already
// (normalizeSpace); this catches those a record keeps as written.
func shownText(s string) string { return leaveOutInvisible(s) }

// shownBefore is about how many bytes of the text the two sides share are
// shown before their first difference, when the sides are cut.
const shownBefore = 40

// clipPair cuts the two sides of a change to maxShown bytes each, with
// ellipses, from a little before their first difference rather than from
// their start, which both sides share: a long text changed in its middle
// shows the change.
func clipPair(old, new string) (string, string) {
	return clipPairTo(old, new, maxShown)
}

// clipPairTo is clipPair cutting to n bytes a side.
func clipPairTo(old, new string, n int) (string, string) {
	if len(old) <= n && len(new) <= n {
		return old, new
	}
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	start := max(p-shownBefore, 0)
	for start > 0 && !utf8.RuneStart(old[start]) {
		start--
	}
	if i := strings.IndexByte(old[start:p], ' '); start > 0 && i >= 0 {
		start += i + 1 // at a word
	}
	cut := func(s string) string {
		out := clipTo(s[start:], n)
		if start > 0 {
			out = "…" + out
		}
		return out
	}
	return cut(old), cut(new)
}

// clip cuts s to maxShown bytes, with an ellipsis.
func clip(s string) string {
	return clipTo(s, maxShown)
}

// clipTo cuts s to n bytes, not in a character, with an ellipsis.
func clipTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	end := n
	for end > 0 && !utf8.RuneStart(s[end]) {
		end-- // not half a character
	}
	return strings.ToValidUTF8(s[:end], "") + "…"
}

// Line returns the change as a line of text: "+ list item added: Council
// approves new bridge", "- keyword removed: 5324", "~ value decreased by
// 50: $499.00 -> $449.00".
func (c Change) Line() string {
	if c.Page != nil {
		return c.Page.line(c.Op)
	}
	old, new := c.Texts()
	switch c.Op {
	case Insert:
		return "+ " + c.Heading() + ": " + new
	case Delete:
		return "- " + c.Heading() + ": " + old
	case Move:
		return "~ " + c.Heading() + ": " + cmp.Or(new, old)
	}
	return "~ " + c.Heading() + ": " + old + " -> " + new
}

// LineHTML returns Line as HTML, the inserted text in <ins> and the
// deleted in <del>, every text escaped.
func (c Change) LineHTML() string {
	if c.Page != nil {
		return c.Page.lineHTML(c.Op)
	}
	old, new := c.Texts()
	head := html.EscapeString(c.Heading())
	switch c.Op {
	case Insert:
		return head + ": <ins>" + html.EscapeString(new) + "</ins>"
	case Delete:
		return head + ": <del>" + html.EscapeString(old) + "</del>"
	case Move:
		return head + ": " + html.EscapeString(cmp.Or(new, old))
	}
	return head + ": <del>" + html.EscapeString(old) + "</del> <ins>" + html.EscapeString(new) + "</ins>"
}

package intent

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vigil-web/vigil/tree"
)

// findItems sets the item of each value (valueItem): the element that
// names it among the others of its version.
func findItems(vs []valueMatch) {
	if len(vs) == 0 {
		return
	}
	// held is 1 for a node that holds one value, and 2 for the first
	// node holding more that a climb up from a value meets: a climb from
	// a value towards the root stops at the first node another climb
	// passed, which holds both. The nodes above it are left at 1, but
	// a climb from a value stops before them (valueItem). Each node is
	// climbed through once, so that values nested n deep cost n steps,
	// not n².
	held := make(map[*tree.Node]int)
	for _, v := range vs {
		for n := v.node; n != nil; n = n.Parent {
			if held[n] > 0 {
				held[n] = 2
				break
			}
			held[n] = 1
		}
	}
	for i := range vs {
		vs[i].item = valueItem(vs[i].node, held, len(vs) > 1)
	}
}

// valueItems is the values of a version with what names them: the nodes
// their items' texts leave out and, counted where first needed, how many
// values each element holds, and the labels of their groups.
type valueItems struct {
	vs   []valueMatch
	skip func(*tree.Node) bool
	// held counts the values each element holds (groupLabel).
	held map[*tree.Node]int
	// groups holds the label of each group's item read.
	groups map[*tree.Node]string
}

// itemLabel returns the label of v, a value of in: the text of its item
// without the value's own text and the symbols left at its ends
// (trimLabel), read as skip leaves out, or "" when it
// sits in none. Where that text holds no word (a sale price and the
// regular one side by side, each its own item: "$"), it is the label of
// the value's group (groupLabel), when that holds one. It is read the
// first time it is asked for.
func (v *valueMatch) itemLabel(in *valueItems) string {
	if v.labelled {
		return v.label
	}
	v.labelled = true
	v.namer = v.item
	switch {
	case v.item == nil:
	case v.item == v.node && v.read != "":
		v.label = ownLabel(v.read)
	case v.item == v.node:
		v.label = ownLabel(v.text)
	default:
		v.label = itemText(v.item, v.node, in.skip)
	}
	if v.item != nil && len(in.vs) > 1 && !hasLetter(v.label) {
		if g, l := in.groupLabel(v.item); hasLetter(l) {
			v.namer, v.label = g, l
		}
	}
	v.label = trimLabel(v.label)
	return v.label
}

// trimLabel returns a value's label without the currency symbol, code
// or abbreviation and the punctuation that stood next to its number at
// its ends: "Nikon Z5 $" (from "Nikon Z5 $2,299") is "Nikon Z5", and so
// are "Nikon Z5 EUR" and "Nikon Z5 Rp"; "Price:" is "Price", so that a
// heading reads "value decreased by 200 in Nikon Z5", as it does for
// "Nikon Z5 kr" (from "Nikon Z5 12.990 kr"). A code is taken off only
// where it stood next to the number: "Learn PHP $" is "Learn PHP".
func trimLabel(s string) string {
	s = strings.TrimFunc(s, isLabelPunct)
	if n := currencyWordAtEnd(s); n > 0 {
		s = s[:len(s)-n]
	}
	return strings.TrimFunc(s, func(r rune) bool { return isLabelPunct(r) || unicode.Is(unicode.Sc, r) })
}

// isLabelPunct reports whether r is a space or the punctuation that joins
// a label to its number (: = - / | ·), which trimLabel takes off.
func isLabelPunct(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune(":=-–—/|·", r)
}

// currencyWordAtEnd returns the length of the currency code
// (afterCurrencyCode), abbreviation (afterCurrencyPrefix) or sign written
// after amounts (currencySuffixes: kr, zł, 円) that ends s as a word of its
// own, or 0. Not the currencies written with a letter (Q, L, R), which
// end the names of sizes and models as often (Size L, Model R).
func currencyWordAtEnd(s string) int {
	if afterCurrencyCode(s) {
		return 3
	}
	for _, p := range currencyPrefixes {
		if strings.HasSuffix(s, p) && afterCurrencyPrefix(s) {
			return len(p)
		}
	}
	for _, sign := range currencySuffixes {
		if !strings.HasSuffix(s, sign) {
			continue
		}
		if r, _ := utf8.DecodeLastRuneInString(s[:len(s)-len(sign)]); !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return len(sign)
		}
	}
	return 0
}

// groupLabel returns the element of the group of the value whose item
// is item, the outermost that holds the values of the item's parent and
// no other, and its label: its text without those values, read as skip
// leaves out (a shop's card holding a sale price and the regular one: its
// name and "Add to cart"). It is nil and "" where the parent holds every
// value of the version, which a group's text would not tell apart.
func (in *valueItems) groupLabel(item *tree.Node) (*tree.Node, string) {
	g := item.Parent
	if g == nil {
		return nil, ""
	}
	if in.held == nil {
		in.held = make(map[*tree.Node]int)
		in.groups = make(map[*tree.Node]string)
		for _, v := range in.vs {
			for n := v.node; n != nil; n = n.Parent {
				in.held[n]++
			}
		}
	}
	if in.held[g] == len(in.vs) {
		return nil, ""
	}
	for g.Parent != nil && in.held[g.Parent] == in.held[g] {
		g = g.Parent
	}
	if l, ok := in.groups[g]; ok {
		return g, l
	}
	l := itemText(g, nil, func(n *tree.Node) bool { return in.skip(n) || in.isValue(n) })
	in.groups[g] = l
	return g, l
}

// isValue reports whether n is the node of a value of in: an element
// that holds values and no child holding one (held, of groupLabel).
func (in *valueItems) isValue(n *tree.Node) bool {
	h := in.held[n]
	if h == 0 {
		return false
	}
	for _, c := range n.Children {
		h -= in.held[c]
	}
	return h > 0
}

// hasLetter reports whether s holds a letter: a label that does, names.
func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// ownLabel returns the label of a value that is its own item (the scope
// selects the items themselves, In css "tr"): its text without its
// number.
func ownLabel(text string) string {
	if start, end, ok := findValue(text); ok {
		return normalizeSpace(text[:start] + " " + text[end:])
	}
	return ""
}

// sameKey reports whether a value of old, a, and one of new, b, have the
// same key (pairValues): the same text and label. Where both sit in none,
// or both are their own items and their texts without their numbers hold
// a word, the label follows from the text and is not read.
func sameKey(a, b *valueMatch, old, new *valueItems) bool {
	if a.text != b.text {
		return false
	}
	if a.item == nil && b.item == nil || a.item == a.node && b.item == b.node && ownLabelNames(a.text) {
		return true
	}
	return a.itemLabel(old) == b.itemLabel(new)
}

// ownLabelNames reports whether the label of a value that is its own
// item, its text without its number (ownLabel), holds a letter.
func ownLabelNames(text string) bool {
	start, end, ok := findValue(text)
	return ok && (hasLetter(text[:start]) || hasLetter(text[end:]))
}

// valueItem returns the item a value at node m sits in, or nil: among
// the elements holding m (m included) and no other value (held, of
// labelValues), with several values the outermost (the row of a table,
// the item of a list, the card of a grid, whatever the markup), and with
// one the nearest row or list item (tr, li, dt, dd, article), as the
// outermost would be the whole page.
func valueItem(m *tree.Node, held map[*tree.Node]int, several bool) *tree.Node {
	var item *tree.Node
	for n := m; n != nil && held[n] == 1; n = n.Parent {
		if several {
			item = n
			continue
		}
		if elementIs(n, "tr", "li", "dt", "dd", "article") {
			return n
		}
	}
	return item
}

// itemText returns the text of item without the subtree of m, the value
// in it (nil for none), nor the nodes below item that skip selects, white
// space normalised, a feed's escaped HTML read as the text it shows
// (feedReading).
func itemText(item, m *tree.Node, skip func(*tree.Node) bool) string {
	var b strings.Builder
	feed := feedReadingOf(item)
	tree.Walk(item, func(n *tree.Node) bool {
		if n == m || n != item && skip(n) {
			return false
		}
		if n.Kind == tree.Text {
			b.WriteString(feed.text(n))
			b.WriteByte(' ')
		}
		return true
	})
	return normalizeSpace(b.String())
}

// pairValues pairs the values of two versions as the package pairs
// objects (alignObjects): an LCS over their items' labels and texts
// together keeps the values unchanged in place, a value whose label and
// text are both elsewhere in the other version moved, the values left
// are paired by their items' labels (a price changed in its row), then by
// position between the pairs found, where as many are left on both
// sides. The LCS is over the label and the text, not the label alone, so
// that items alike but for their values (cards whose only other text is
// "Add to cart") pair with their own, not in order; and a label that
// names several items on a side pairs their values only between the same
// two pairs of the LCS (labelKeys), so that a card removed first and one
// added last are not taken for one card whose price changed. The values
// are not paired by the diff's node identities: a Pair's versions are
// read apart, their XIDs numbered afresh. A value alone in its version
// pairs, when nothing else pairs it, with the first value left in the
// other, as a scope with one match compares its first number.
//
// The values of the two versions' common prefix and suffix, the same key
// in the same place, are left out of the LCS, as it leaves them out first
// itself, so that only the others have their labels read.
func pairValues(old, new *valueItems) []objEdit {
	ov, nv := old.vs, new.vs
	pre, suf := 0, 0
	for pre < len(ov) && pre < len(nv) && sameKey(&ov[pre], &nv[pre], old, new) {
		pre++
	}
	for suf < len(ov)-pre && suf < len(nv)-pre && sameKey(&ov[len(ov)-1-suf], &nv[len(nv)-1-suf], old, new) {
		suf++
	}
	oldObjs, oldLabels := valueObjects(old, pre, len(ov)-suf)
	newObjs, newLabels := valueObjects(new, pre, len(nv)-suf)
	labelKeys(oldObjs, newObjs, oldLabels, newLabels)
	return pairAlone(shiftEdits(diffObjects(oldObjs, newObjs, true), pre), ov, nv)
}

// shiftEdits moves the places of edits, found between the values from
// place by on, to the places of the whole lists; it returns edits.
func shiftEdits(edits []objEdit, by int) []objEdit {
	for k := range edits {
		if edits[k].a >= 0 {
			edits[k].a += by
		}
		if edits[k].b >= 0 {
			edits[k].b += by
		}
	}
	return edits
}

// valueName is what names a value among the others of its version: its
// label and the element whose text it is (valueMatch.namer).
type valueName struct {
	label string
	by    *tree.Node
}

// valueObjects returns the values of in from index from to index to, as
// objects keyed by their labels and texts, and their names.
func valueObjects(in *valueItems, from, to int) ([]object, []valueName) {
	vs := in.vs[from:to]
	objs := make([]object, len(vs))
	names := make([]valueName, len(vs))
	for i := range vs {
		v := &vs[i]
		names[i] = valueName{v.itemLabel(in), v.namer}
		objs[i] = object{key: names[i].label + "\x00" + v.text, node: v.node, pos: from + i + 1}
	}
	return objs, names
}

// labelKeys gives each value off the LCS over the whole keys of old and
// new that has a label its label as partial key, by which alignObjects
// pairs it: the label alone where it names one element on each side at
// most (a row, or a card holding a sale price and the regular one); else
// the label and the gap between two pairs of the LCS the value stands in,
// so that values of items alike (cards whose only other text is "Add to
// cart") pair only with their neighbours. old and new are the values
// between the versions' common ends (pairValues), whose labels are read.
// The first partial key is "": the LCS is over whole keys, as
// alignObjects runs it again.
func labelKeys(old, new []object, oldNames, newNames []valueName) {
	ids := make(map[string]int32, len(old)+len(new))
	id := func(key string) int32 {
		v, ok := ids[key]
		if !ok {
			v = int32(len(ids))
			ids[key] = v
		}
		return v
	}
	t1, t2 := make([]int32, len(old)), make([]int32, len(new))
	for i := range old {
		t1[i] = id(old[i].key)
	}
	for j := range new {
		t2[j] = id(new[j].key)
	}
	onLCS1, onLCS2 := make([]bool, len(old)), make([]bool, len(new))
	for _, p := range lcs(t1, t2) {
		onLCS1[p.a], onLCS2[p.b] = true, true
	}
	// shared holds the labels that name several elements on a side.
	shared := map[string]bool{}
	for _, names := range [][]valueName{oldNames, newNames} {
		by := map[string]*tree.Node{}
		for _, n := range names {
			if first, ok := by[n.label]; !ok {
				by[n.label] = n.by
			} else if first != n.by {
				shared[n.label] = true
			}
		}
	}
	set := func(objs []object, names []valueName, onLCS []bool) {
		gap := 0
		for i := range objs {
			if onLCS[i] {
				gap++
				continue
			}
			l := names[i].label
			if l == "" {
				continue
			}
			if shared[l] {
				l += "\x00" + strconv.Itoa(gap)
			}
			objs[i].keys = []string{"", l}
		}
	}
	set(old, oldNames, onLCS1)
	set(new, newNames, onLCS2)
}

// pairAlone pairs, where a version holds one value, the value of that
// version the edits delete or insert with a value of the other left with
// the same text, the same value in its place, else with the first left,
// as a scope with one match compares its first number. A lone value has
// no item (valueItem), so it takes no part in the LCS over items and
// labels: a price added before the one a page held is an insert, not that
// price's change. Deletes come first in the edits, by old index, then
// updates, then inserts by new index: the first of each is the first
// left.
func pairAlone(edits []objEdit, old, new []valueMatch) []objEdit {
	if len(old) != 1 && len(new) != 1 {
		return edits
	}
	first := func(op Operation) int {
		for k, e := range edits {
			if e.op == op {
				return k
			}
		}
		return -1
	}
	del, ins := first(Delete), first(Insert)
	if del < 0 || ins < 0 {
		return edits
	}
	if len(old) == 1 {
		for k, e := range edits {
			if e.op == Insert && new[e.b].text == old[edits[del].a].text {
				ins = k
				break
			}
		}
	} else {
		for k, e := range edits {
			if e.op == Delete && old[e.a].text == new[edits[ins].b].text {
				del = k
				break
			}
		}
	}
	edits[del] = objEdit{Update, edits[del].a, edits[ins].b}
	return append(edits[:ins], edits[ins+1:]...)
}

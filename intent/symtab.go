package intent

import (
	"strings"

	"github.com/vigil-web/vigil/spec"
)

// symtab numbers the strings of a pair of versions (values, signatures and
// word keys), so that the phases compare and hash small integers instead
// of strings. One symtab serves both versions of a Pair.
//
// A signature (the labels from the root down, joined by "-") is numbered by
// its last label and the number of the signature above it, and its string
// is built only when asked for (sig): built for every element, the strings
// of a page nested n deep would cost n² bytes.
type symtab struct {
	ids   map[string]int32 // words
	names []string
	vals  map[string]int32 // leaf values, numbered apart (a large table)
	steps map[sigStep]int32
	sigs  []sigStep       // by signature number: the signature it extends and its last label
	cache [1024]stepEntry // direct-mapped cache in front of steps

	// The words of each text value, so that a leaf whose value is in
	// both versions is split and numbered once: words[span[vid]].
	words []valueWord
	span  [][2]int32 // by value number; {0, 0} when not known yet
}

type stepEntry struct {
	parent int32
	id     int32
	label  string
}

// valueWord is a word of a value: its byte range, its 1-based index among
// the value's fields and its number.
type valueWord struct {
	off, n, idx, id int32
}

// sigStep is a signature extended by one label.
type sigStep struct {
	parent int32 // -1 for none
	label  string
}

func newSymtab() *symtab {
	return &symtab{ids: make(map[string]int32), vals: make(map[string]int32), steps: make(map[sigStep]int32)}
}

// reserve makes room for about n more strings.
func (t *symtab) reserve(n int) {
	if len(t.vals) == 0 && n > 1024 {
		t.vals = make(map[string]int32, n)
		t.span = make([][2]int32, 0, n)
	}
}

// val returns the number of the leaf value s.
func (t *symtab) val(s string) int32 {
	if v, ok := t.vals[s]; ok {
		return v
	}
	v := int32(len(t.vals))
	t.vals[s] = v
	return v
}

// id returns the number of the word s.
func (t *symtab) id(s string) int32 {
	if v, ok := t.ids[s]; ok {
		return v
	}
	v := int32(len(t.names))
	t.ids[s] = v
	t.names = append(t.names, s)
	return v
}

// sig returns the signature numbered sid, "" for -1.
func (t *symtab) sig(sid int32) string {
	return strings.Join(t.sigLabels(sid), "-")
}

// sigLabels returns the labels of the signature numbered sid, from the
// root down; none for -1.
func (t *symtab) sigLabels(sid int32) []string {
	n := 0
	for s := sid; s >= 0; s = t.sigs[s].parent {
		n++
	}
	labels := make([]string, n)
	for s := sid; s >= 0; s = t.sigs[s].parent {
		n--
		labels[n] = t.sigs[s].label
	}
	return labels
}

// path returns the number of the signature of labels, from the root down.
func (t *symtab) path(labels []string) int32 {
	sid := int32(-1)
	for _, l := range labels {
		sid = t.step(sid, l)
	}
	return sid
}

// step returns the number of the signature parent-label ("label" alone when
// parent is -1).
func (t *symtab) step(parent int32, label string) int32 {
	h := uint32(parent)*0x9e3779b1 + uint32(len(label))*31
	if len(label) > 0 {
		h += uint32(label[0])*7 + uint32(label[len(label)-1])
	}
	e := &t.cache[(h^h>>16)&1023]
	if e.parent == parent && e.label == label && e.label != "" {
		return e.id
	}
	k := sigStep{parent, label}
	v, ok := t.steps[k]
	if !ok {
		v = int32(len(t.sigs))
		t.sigs = append(t.sigs, k)
		t.steps[k] = v
	}
	*e = stepEntry{parent, v, label}
	return v
}

// valueWords returns the words of the text value numbered vid, splitting
// and numbering them the first time.
func (t *symtab) valueWords(vid int32, value string, caseSensitive bool) []valueWord {
	for int(vid) >= len(t.span) {
		t.span = append(t.span, [2]int32{})
	}
	if sp := t.span[vid]; sp[1] > 0 {
		return t.words[sp[0]-1 : sp[1]-1]
	}
	start := len(t.words)
	j := int32(0)
	forEachField(value, func(o int, w string) {
		j++
		k := spec.WordKey(w, caseSensitive)
		if k == "" {
			return
		}
		t.words = append(t.words, valueWord{off: int32(o), n: int32(len(w)), idx: j, id: t.id(k)})
	})
	t.span[vid] = [2]int32{int32(start) + 1, int32(len(t.words)) + 1}
	return t.words[start:]
}

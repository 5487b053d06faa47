package intent

// symtab numbers the strings of a pair of versions (values, signatures and
// word keys), so that the phases compare and hash small integers instead
// of strings. One symtab serves both versions of a Pair.
type symtab struct {
	ids   map[string]int32
	names []string
	steps map[sigStep]int32
}

// sigStep is a signature extended by one label.
type sigStep struct {
	parent int32 // -1 for none
	label  string
}

func newSymtab() *symtab {
	return &symtab{ids: make(map[string]int32), steps: make(map[sigStep]int32)}
}

// reserve makes room for about n more strings.
func (t *symtab) reserve(n int) {
	if len(t.names) == 0 && n > 1024 {
		t.ids = make(map[string]int32, n)
		t.names = make([]string, 0, n)
	}
}

// id returns the number of s.
func (t *symtab) id(s string) int32 {
	if v, ok := t.ids[s]; ok {
		return v
	}
	v := int32(len(t.names))
	t.ids[s] = v
	t.names = append(t.names, s)
	return v
}

// step returns the number of the signature parent-label ("label" alone when
// parent is -1), building its string only the first time.
func (t *symtab) step(parent int32, label string) int32 {
	k := sigStep{parent, label}
	if v, ok := t.steps[k]; ok {
		return v
	}
	s := label
	if parent >= 0 {
		s = t.names[parent] + "-" + label
	}
	v := t.id(s)
	t.steps[k] = v
	return v
}

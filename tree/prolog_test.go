package tree

import "testing"

func TestSplitProlog(t *testing.T) {
	decl := &Node{Kind: ProcInst, Name: "xml", Value: `version="1.0"`}
	a, b := &Node{Kind: Comment, Value: "a"}, &Node{Kind: Comment, Value: "b"}
	for name, c := range map[string]struct {
		prolog        []*Node
		after         int
		decl          *Node
		before, later int
	}{
		"empty":                                  {nil, 3, nil, 0, 0},
		"doctype first":                          {[]*Node{a, b}, 0, nil, 0, 2},
		"doctype between":                        {[]*Node{a, b}, 1, nil, 1, 1},
		"doctype last":                           {[]*Node{a, b}, 5, nil, 2, 0},
		"negative count":                         {[]*Node{a, b}, -1, nil, 0, 2},
		"declaration leads":                      {[]*Node{decl, a, b}, 1, decl, 1, 1},
		"declaration past end":                   {[]*Node{decl, a}, 2, decl, 1, 0},
		"declaration not first, a node like any": {[]*Node{a, decl}, 1, nil, 1, 1},
	} {
		d, before, after := SplitProlog(c.prolog, c.after)
		if d != c.decl || len(before) != c.before || len(after) != c.later {
			t.Errorf("%s: SplitProlog = %v, %d before, %d after; want %v, %d, %d", name, d, len(before), len(after), c.decl, c.before, c.later)
		}
		doc := &Document{Prolog: c.prolog, DoctypeAfter: c.after}
		if d2, before2, after2 := doc.SplitProlog(); d2 != d || !SameLeaves(before2, before) || !SameLeaves(after2, after) {
			t.Errorf("%s: Document.SplitProlog differs from SplitProlog", name)
		}
	}
}

func TestSameLeaves(t *testing.T) {
	c := func(v string) *Node { return &Node{Kind: Comment, Value: v} }
	pi := &Node{Kind: ProcInst, Name: "a", Value: "x"}
	withAttr := &Node{Kind: ProcInst, Name: "a", Value: "x", Attrs: []Attr{{Name: "k", Value: "v"}}}
	for name, c := range map[string]struct {
		a, b []*Node
		want bool
	}{
		"both empty":           {nil, []*Node{}, true},
		"same":                 {[]*Node{c("x"), pi}, []*Node{c("x"), pi}, true},
		"value differs":        {[]*Node{c("x")}, []*Node{c("y")}, false},
		"kind differs":         {[]*Node{c("x")}, []*Node{{Kind: Text, Value: "x"}}, false},
		"name differs":         {[]*Node{pi}, []*Node{{Kind: ProcInst, Name: "b", Value: "x"}}, false},
		"length differs":       {[]*Node{c("x")}, []*Node{c("x"), c("x")}, false},
		"attributes are aside": {[]*Node{pi}, []*Node{withAttr}, true},
	} {
		if got := SameLeaves(c.a, c.b); got != c.want {
			t.Errorf("%s: SameLeaves = %v, want %v", name, got, c.want)
		}
	}
}

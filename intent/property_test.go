package intent

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

// randomXML writes a small random document over a tiny alphabet, so that
// values and signatures repeat.
func randomXML(r *rand.Rand) string {
	var b strings.Builder
	var elem func(depth int)
	elem = func(depth int) {
		name := string(rune('a' + r.IntN(3)))
		b.WriteString("<" + name)
		if r.IntN(4) == 0 {
			fmt.Fprintf(&b, ` k="%d"`, r.IntN(3))
		}
		b.WriteString(">")
		for n := r.IntN(4); n > 0; n-- {
			if depth < 3 && r.IntN(2) == 0 {
				elem(depth + 1)
			} else {
				fmt.Fprintf(&b, "<t>v%d</t>", r.IntN(5))
			}
		}
		b.WriteString("</" + name + ">")
	}
	b.WriteString("<R>")
	for n := 1 + r.IntN(4); n > 0; n-- {
		elem(1)
	}
	b.WriteString("</R>")
	return b.String()
}

// checkAccounting checks that every leaf of each version is reported at
// most once and that the leaves left unreported pair up: old leaves minus
// deletes, moves and updates equal new leaves minus inserts, moves and
// updates.
func checkAccounting(t *testing.T, old, new string, opt *Options) {
	t.Helper()
	p := NewPair(parseDoc(t, old), parseDoc(t, new), nil, opt)
	r, err := p.Evaluate(&spec.ChangeType{Kind: spec.AnyChange})
	if err != nil {
		t.Fatal(err)
	}
	cp, _ := p.content(&spec.ChangeType{})
	n1, n2 := len(cp.old.leaves), len(cp.new.leaves)
	seen1, seen2 := map[int]bool{}, map[int]bool{}
	var del, ins, mov, upd int
	for _, c := range r.Changes {
		if c.OldPos > 0 {
			if seen1[c.OldPos] || c.OldPos > n1 {
				t.Fatalf("old leaf %d reported twice or out of range\nold %s\nnew %s\n%v", c.OldPos, old, new, briefs(r.Changes))
			}
			seen1[c.OldPos] = true
		}
		if c.NewPos > 0 {
			if seen2[c.NewPos] || c.NewPos > n2 {
				t.Fatalf("new leaf %d reported twice or out of range\nold %s\nnew %s\n%v", c.NewPos, old, new, briefs(r.Changes))
			}
			seen2[c.NewPos] = true
		}
		switch c.Op {
		case Delete:
			del++
		case Insert:
			ins++
		case Move:
			mov++
			if c.Old != c.New {
				t.Fatalf("move changes the value: %+v", c)
			}
		case Update:
			upd++
		}
	}
	if n1-del-mov-upd != n2-ins-mov-upd {
		t.Fatalf("unchanged leaves do not pair up: %d old, %d new\nold %s\nnew %s\n%v", n1-del-mov-upd, n2-ins-mov-upd, old, new, briefs(r.Changes))
	}
	if old == new && len(r.Changes) > 0 {
		t.Fatalf("changes between equal documents: %v", briefs(r.Changes))
	}
}

func TestAnyChangeAccounting(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 300; i++ {
		old, new := randomXML(r), randomXML(r)
		if i%3 == 0 {
			new = old
		}
		for _, opt := range []*Options{nil, {SeedOnly: true}, {Optimize: true}} {
			checkAccounting(t, old, new, opt)
		}
	}
}

func FuzzAnyChange(f *testing.F) {
	f.Add(`<R><S><P>A</P><P>D</P><Q>G</Q></S></R>`, `<R><S><Q>F</Q><P>A</P></S></R>`, false)
	f.Add(books, booksWith("Sorcerer's", "Philosopher's"), true)
	f.Fuzz(func(t *testing.T, old, new string, optimize bool) {
		p := NewPair(nil, nil, nil, nil)
		var err1, err2 error
		p.Old, err1 = parseOrNil(old)
		p.New, err2 = parseOrNil(new)
		if err1 != nil || err2 != nil || p.Old == nil || p.New == nil {
			return
		}
		checkAccounting(t, old, new, &Options{Optimize: optimize})
	})
}

func parseOrNil(s string) (*tree.Document, error) {
	d, _, err := markup.ParseBytes([]byte(s), nil)
	return d, err
}

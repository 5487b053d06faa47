package xmlpatch

import (
	"bytes"
	"testing"

	"github.com/vigil-web/vigil/markup"
)

// TestApplyPrologKeepsDoctypePlace: a comment added or removed before the
// DOCTYPE moves the DOCTYPE's place with it, so that the other comments
// stay on their side of it.
func TestApplyPrologKeepsDoctypePlace(t *testing.T) {
	const doc = `<!--c1--><!DOCTYPE r><!--c2--><r/>`
	for _, c := range []struct{ name, patch, want string }{
		{"add before the first comment", `<diff><add sel="comment()[1]" pos="before"><!--new--></add></diff>`,
			`<!--new--><!--c1--><!DOCTYPE r><!--c2--><r/>`},
		{"add after the first comment", `<diff><add sel="comment()[1]" pos="after"><!--new--></add></diff>`,
			`<!--c1--><!--new--><!DOCTYPE r><!--c2--><r/>`},
		{"add before the second comment", `<diff><add sel="comment()[2]" pos="before"><!--new--></add></diff>`,
			`<!--c1--><!DOCTYPE r><!--new--><!--c2--><r/>`},
		{"add before the root", `<diff><add sel="r" pos="before"><!--new--></add></diff>`,
			`<!--c1--><!DOCTYPE r><!--c2--><!--new--><r/>`},
		{"remove the first comment", `<diff><remove sel="comment()[1]"/></diff>`,
			`<!DOCTYPE r><!--c2--><r/>`},
		{"remove the second comment", `<diff><remove sel="comment()[2]"/></diff>`,
			`<!--c1--><!DOCTYPE r><r/>`},
		{"replace the first comment", `<diff><replace sel="comment()[1]"><!--new--></replace></diff>`,
			`<!--new--><!DOCTYPE r><!--c2--><r/>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := applyXML(t, doc, c.patch)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := markup.WriteXML(&b, got, nil); err != nil {
				t.Fatal(err)
			}
			if s := b.String(); s != c.want && s != c.want+"\n" {
				t.Errorf("got %q, want %q", s, c.want)
			}
		})
	}
}

package xmlpatch

import (
	"bytes"
	"errors"
	"strings"
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

// TestExportRefusesDoctypePlace: an XML patch adds comments beside the
// root only after the DOCTYPE, so Export refuses a delta that moves the
// DOCTYPE or changes what stands before it, as inexpressible, rather than
// give a patch whose result has the comments on the wrong side.
func TestExportRefusesDoctypePlace(t *testing.T) {
	for _, c := range []struct{ old, new string }{
		{`<!-- a --><!DOCTYPE r><r>x</r>`, `<!DOCTYPE r><!-- a --><r>x</r>`},
		{`<!-- a --><!DOCTYPE r><r>x</r>`, `<!-- b --><!DOCTYPE r><r>x</r>`},
	} {
		_, err := tryRoundTrip(t, parseXML(t, c.old), parseXML(t, c.new), nil)
		if !errors.Is(err, ErrInexpressible) || !strings.Contains(err.Error(), "DOCTYPE") {
			t.Errorf("Export(%s to %s): %v, want ErrInexpressible naming the DOCTYPE", c.old, c.new, err)
		}
	}
	// Comments after the DOCTYPE still change.
	if _, err := tryRoundTrip(t, parseXML(t, `<!DOCTYPE r><!-- a --><r>x</r>`), parseXML(t, `<!DOCTYPE r><!-- b --><r>x</r>`), nil); err != nil {
		t.Errorf("Export of a comment after the DOCTYPE: %v", err)
	}
}

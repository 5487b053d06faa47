package markup_test

import (
	"bytes"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// TestPrologOrderRoundTrip checks that the DOCTYPE is written where the
// source had it among the comments and processing instructions before the
// root, the XML declaration first, in XML and HTML.
func TestPrologOrderRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		html           bool
	}{
		{"xml comment before doctype",
			`<!-- a --><!DOCTYPE r><r/>`,
			"<!-- a --><!DOCTYPE r><r/>", false},
		{"xml declaration, comment, pi, doctype, comment",
			`<?xml version="1.0"?><!-- a --><?p x?><!DOCTYPE r><!-- b --><r/>`,
			"<?xml version=\"1.0\"?><!-- a --><?p x?><!DOCTYPE r><!-- b --><r/>", false},
		{"xml doctype first",
			`<!DOCTYPE r><!-- a --><r/>`,
			"<!DOCTYPE r><!-- a --><r/>", false},
		{"html comment before doctype",
			`<!-- a --><!DOCTYPE html><html><body><p>x</p></body></html>`,
			"<!-- a --><!DOCTYPE html><html><head></head><body><p>x</p></body></html>", true},
		{"html comments around doctype",
			`<!-- a --><!DOCTYPE html><!-- b --><html><body><p>x</p></body></html>`,
			"<!-- a --><!DOCTYPE html><!-- b --><html><head></head><body><p>x</p></body></html>", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if tc.html {
				d, err := markup.ParseHTMLBytes([]byte(tc.in), nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := markup.WriteHTML(&buf, d, nil); err != nil {
					t.Fatal(err)
				}
			} else {
				d, err := markup.ParseXMLBytes([]byte(tc.in), nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := markup.WriteXML(&buf, d, nil); err != nil {
					t.Fatal(err)
				}
			}
			if got := buf.String(); got != tc.want {
				t.Errorf("round trip of %q: got %qwant %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestWriteXMLDeclarationAnyCase: a tree built by hand whose prolog leads
// with a processing instruction XML (tree.IsXMLDeclaration, any case) is
// written with it as the XML declaration, which reads back; the same
// target elsewhere in the prolog is refused, XML reserving it.
func TestWriteXMLDeclarationAnyCase(t *testing.T) {
	d, err := markup.ParseXMLBytes([]byte(`<!--a--><r/>`), nil)
	if err != nil {
		t.Fatal(err)
	}
	d.Prolog = append([]*tree.Node{d.NewNode(tree.ProcInst, "XML", `version="1.0"`)}, d.Prolog...)
	var buf bytes.Buffer
	if err := markup.WriteXML(&buf, d, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), `<?xml version="1.0"?><!--a--><r/>`; got != want {
		t.Errorf("written %q, want %q", got, want)
	}
	if _, err := markup.ParseXMLBytes(buf.Bytes(), nil); err != nil {
		t.Errorf("reading it back: %v", err)
	}
	d.Prolog[0], d.Prolog[1] = d.Prolog[1], d.Prolog[0]
	if err := markup.WriteXML(&bytes.Buffer{}, d, nil); err == nil {
		t.Error("a processing instruction XML after a comment is written")
	}
}

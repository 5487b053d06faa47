package intent

import (
	"slices"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestXPathDocumentNode: a path that selects the document node ("/")
// selects the document's content, its top element,
// the whole page, and its value is the page's text. It was dropped, so
// that a sentinel's In xpath "/", which the checker takes, matched
// nothing on every page and found no change, however the page changed.
func TestXPathDocumentNode(t *testing.T) {
	d := parseDoc(t, selDoc)
	top := describe([]*tree.Node{d.Root})
	for _, sel := range []string{"/", "/self::node()", "/ | /html"} {
		s, err := CompileXPath(sel)
		if err != nil {
			t.Errorf("%s: %v", sel, err)
			continue
		}
		if got := describe(s.Select(d.Root)); !slices.Equal(got, top) {
			t.Errorf("%s: got %v, want the top element %v", sel, got, top)
		}
		if got, want := s.Values(d.Root), []string{normalizeSpace(textValue(d.Root))}; !slices.Equal(got, want) {
			t.Errorf("%s: values %q, want the page's text %q", sel, got, want)
		}
	}
}

// TestXPathParentOfTop: the parent of the top element is the document
// node, as XPath 1.0 has it, and a path that selects it selects the
// document's content as "/" does; the document has no parent. "/html/.."
// and "self::html/.." selected nothing.
func TestXPathParentOfTop(t *testing.T) {
	d := parseDoc(t, selDoc)
	top := []string{describe([]*tree.Node{d.Root})[0]}
	tests := map[string]struct {
		sel  string
		want []string // nil: the top element
	}{
		"parent of the top element":      {sel: "/html/.."},
		"parent axis":                    {sel: "/html/parent::node()"},
		"relative":                       {sel: "self::html/.."},
		"self then parent":               {sel: "./.."},
		"up twice from body":             {sel: "//body/../.."},
		"down again":                     {sel: "/html/../html/body/footer/p", want: []string{"p:foot"}},
		"descendants of the document":    {sel: "/html/..//footer/p", want: []string{"p:foot"}},
		"child of the document":          {sel: "/html/../*", want: top},
		"parent of an attribute's owner": {sel: "//div/@id/../../..", want: top},
		"ancestors reach the document":   {sel: "//footer/ancestor::node()", want: []string{top[0], "body:Title First"}},
		"ancestor elements only":         {sel: "//footer/ancestor::*", want: []string{top[0], "body:Title First"}},
		"many contexts, then descendant": {sel: "//footer/ancestor-or-self::node()/descendant::html", want: top},
		"no parent above the document":   {sel: "/..", want: []string{}},
		"nor twice above the top":        {sel: "/html/../..", want: []string{}},
		"not an element":                 {sel: "/html/parent::*", want: []string{}},
		"in a predicate":                 {sel: "/html[count(..) = 1]/body/footer", want: []string{"footer:foot"}},
	}
	for name, tc := range tests {
		s, err := CompileXPath(tc.sel)
		if err != nil {
			t.Errorf("%s: %s: %v", name, tc.sel, err)
			continue
		}
		want := tc.want
		if want == nil {
			want = top
		}
		if got := describe(s.Select(d.Root)); !slices.Equal(got, want) && (len(got) != 0 || len(want) != 0) {
			t.Errorf("%s: %s: got %v, want %v", name, tc.sel, got, want)
		}
	}
}

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

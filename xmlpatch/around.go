package xmlpatch

import (
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// What stands around the root element: the comments and processing
// instructions of the document level, and the DOCTYPE's place among those
// before the root (tree.Document.DoctypeAfter). XPath's data model has no
// DOCTYPE, so a selector addresses only the nodes around it; Apply adds
// beside one of them as a DOM does, next to it on its side of the DOCTYPE,
// and Export, which works out its selectors on a copy of the document,
// changes the copy with the same functions.

// insertAround inserts nodes, comments and processing instructions,
// before or after anchor, the root or a node of the document level. Next
// to a node before the DOCTYPE they stand before it too; before the root,
// after everything else of the prolog, the DOCTYPE included.
func insertAround(doc *tree.Document, anchor *tree.Node, after bool, nodes []*tree.Node) {
	if anchor == doc.Root {
		if after {
			doc.Epilog = slices.Insert(doc.Epilog, 0, nodes...)
		} else {
			doc.Prolog = append(doc.Prolog, nodes...)
		}
		return
	}
	list, i := whereAround(doc, anchor)
	if before, _ := beforeDoctype(doc, i); list == &doc.Prolog && before {
		doc.DoctypeAfter += len(nodes) // the new nodes stand on the anchor's side of the DOCTYPE
	}
	if after {
		i++
	}
	*list = slices.Insert(*list, i, nodes...)
}

// removeAround removes n, a comment or processing instruction of the
// document level; the DOCTYPE stays after the others that preceded it.
func removeAround(doc *tree.Document, n *tree.Node) {
	list, i := whereAround(doc, n)
	if before, decl := beforeDoctype(doc, i); list == &doc.Prolog && before && !decl {
		doc.DoctypeAfter--
	}
	*list = slices.Delete(*list, i, i+1)
}

// beforeDoctype reports whether the prolog node at index i counts toward
// the document's DoctypeAfter: it stands before the DOCTYPE, and is not
// the XML declaration that leads the prolog (nodes added after which
// stand before the DOCTYPE too). A comment an HTML parser made of a
// declaration counts, as tree.Document.DoctypeAfter counts it.
func beforeDoctype(doc *tree.Document, i int) (before, decl bool) {
	p := doc.Prolog
	if len(p) > 0 && tree.IsXMLDeclaration(p[0]) {
		if i == 0 {
			return true, true
		}
		i--
	}
	return i < doc.DoctypeAfter, false
}

// whereAround returns the list (prolog or epilog) of a comment or processing
// instruction at the document level, and its index there.
func whereAround(doc *tree.Document, n *tree.Node) (*[]*tree.Node, int) {
	if i := slices.Index(doc.Prolog, n); i >= 0 {
		return &doc.Prolog, i
	}
	return &doc.Epilog, slices.Index(doc.Epilog, n)
}

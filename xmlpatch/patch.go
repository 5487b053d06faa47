package xmlpatch

import (
	"fmt"

	"github.com/vigil-web/vigil/tree"
)

// Kind is the kind of a patch operation.
type Kind uint8

// The operations of RFC 5261, section 4.
const (
	Add     Kind = iota + 1 // <add>: new nodes, an attribute or a namespace declaration
	Replace                 // <replace>: a node, an attribute value or a namespace URI
	Remove                  // <remove>: a node, an attribute or a namespace declaration
)

// String returns the element name of the kind.
func (k Kind) String() string {
	switch k {
	case Add:
		return "add"
	case Replace:
		return "replace"
	case Remove:
		return "remove"
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// DefaultRoot is the name of a patch document's element when Patch.Root
// is empty.
const DefaultRoot = "diff"

// Patch is an RFC 5261 patch document: an element (Root, "diff" unless
// the caller chooses another) holding operations applied one after the
// other, each to the result of the one before.
type Patch struct {
	// Root is the document element's name as written, such as "diff" or
	// "p:diff"; empty means DefaultRoot. Operations are written with its
	// prefix (p:add) and read by their local name.
	Root string
	// Namespaces are the namespace declarations on the document element,
	// prefix to URI ("" for the default namespace). Selectors name
	// elements and attributes with these prefixes, and the nodes an
	// operation adds are read in their scope.
	Namespaces map[string]string
	Ops        []Op
	// WorkLimit bounds the work of Apply over the whole patch: the nodes
	// its selectors visit and compare (string values included), the
	// subtrees its operations walk and the children their edits shift. 0 (or less) means the default:
	// DefaultWorkFactor times the size of the input (the nodes of the
	// document and of the patch's content, and the bytes of its
	// selectors), and at least MinWork. Past it Apply fails with a
	// *WorkLimitError and leaves the document as it was. Decode leaves
	// it 0, and Encode does not write it.
	WorkLimit int64
}

// Op is one patch operation.
type Op struct {
	Kind Kind
	// Sel is the selector: the restricted XPath of RFC 5261 that locates
	// the one node the operation acts on.
	Sel string
	// Pos is where an Add puts its nodes: "" (after the last child of the
	// selected element), "prepend" (before its first child), "before" or
	// "after" (the selected node).
	Pos string
	// Type makes an Add add an attribute ("@name") or a namespace
	// declaration ("namespace::prefix") to the selected element.
	Type string
	// WS makes a Remove remove the white-space text node before the
	// selected node, after it, or both ("before", "after", "both").
	WS string
	// Content is what an Add adds or a Replace puts in place: nodes whose
	// names are as written in the patch, namespace declarations as xmlns
	// attributes, read in the scope of the operation element. The text
	// of an attribute or namespace operation is a text node.
	Content []*tree.Node
	// Namespaces are the namespace declarations on the operation element
	// itself (prefix to URI), which add to and override the patch's.
	Namespaces map[string]string
	// Line and Column are where the operation element starts in the patch
	// document it was decoded from (1-based); 0 for one built in memory.
	Line, Column int
}

// text returns the concatenated text of nodes, and false if any of them is
// not a text node.
func text(nodes []*tree.Node) (string, bool) {
	if len(nodes) == 1 && nodes[0].Kind == tree.Text {
		return nodes[0].Value, true
	}
	var b []byte
	for _, n := range nodes {
		if n.Kind != tree.Text {
			return "", false
		}
		b = append(b, n.Value...)
	}
	return string(b), true
}

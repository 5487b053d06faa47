package xmlpatch

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Condition is one of the error conditions of RFC 5261, section 5, by the
// name of its element in the urn:ietf:params:xml:ns:patch-ops-error
// namespace. errors.Is(err, xmlpatch.UnlocatedNode) tells a failed patch
// by its condition.
type Condition string

// The error conditions of RFC 5261, section 5.
const (
	// InvalidAttributeValue: a sel, type, ws or pos attribute that does
	// not follow the RFC's schema, a selector outside its XPath subset
	// among them.
	InvalidAttributeValue Condition = "invalid-attribute-value"
	// InvalidCharacterSet: the patch and the document use different
	// character sets (Vigil reads UTF-8 patches only).
	InvalidCharacterSet Condition = "invalid-character-set"
	// InvalidDiffFormat: the patch is not well-formed XML, or not a patch.
	InvalidDiffFormat Condition = "invalid-diff-format"
	// InvalidEntityDeclaration: an entity the patch does not declare.
	InvalidEntityDeclaration Condition = "invalid-entity-declaration"
	// InvalidNamespacePrefix: a prefix in a selector or type that the
	// patch does not declare, or the removal of a namespace declaration
	// whose prefix names still use.
	InvalidNamespacePrefix Condition = "invalid-namespace-prefix"
	// InvalidNamespaceURI: an empty or wrong namespace URI, or a
	// namespace declaration the element does not have (a namespace it
	// inherits).
	InvalidNamespaceURI Condition = "invalid-namespace-uri"
	// InvalidNodeTypes: content of another kind than the node it
	// replaces, or more than one node for a node.
	InvalidNodeTypes Condition = "invalid-node-types"
	// InvalidPatchDirective: a directive that cannot be carried out, such
	// as ws on an attribute, or an attribute added twice.
	InvalidPatchDirective Condition = "invalid-patch-directive"
	// InvalidRootElementOperation: removing the root element, or adding
	// a second one, or text beside it.
	InvalidRootElementOperation Condition = "invalid-root-element-operation"
	// InvalidXMLPrologOperation: an operation the prolog cannot take.
	InvalidXMLPrologOperation Condition = "invalid-xml-prolog-operation"
	// InvalidWhitespaceDirective: ws names a white-space text node that
	// is not there.
	InvalidWhitespaceDirective Condition = "invalid-whitespace-directive"
	// UnlocatedNode: the selector matches no node, or more than one.
	UnlocatedNode Condition = "unlocated-node"
	// UnsupportedIDFunction: id() is not supported (Vigil supports it).
	UnsupportedIDFunction Condition = "unsupported-id-function"
	// UnsupportedXMLID: xml:id is not supported (Vigil supports it).
	UnsupportedXMLID Condition = "unsupported-xml-id"
)

// Error returns the condition's name, so that a Condition is an error
// errors.Is can look for.
func (c Condition) Error() string { return string(c) }

// Error is the failure of one operation of a patch: the patch is not
// applied.
type Error struct {
	Op           int    // the operation, 1-based in the patch's order
	Kind         Kind   // its kind
	Sel          string // its selector
	Line, Column int    // where it starts in the patch document, 0 if unknown
	Cond         Condition
	Msg          string
}

// Error returns the message: the position, the operation and its
// selector, the condition and what went wrong.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Column)
	}
	fmt.Fprintf(&b, "operation %d (<%s sel=%q>): %s: %s", e.Op, e.Kind, clip(e.Sel, 120), e.Cond, e.Msg)
	return b.String()
}

// Unwrap returns the condition.
func (e *Error) Unwrap() error { return e.Cond }

// SyntaxError is a patch document that cannot be read: not well-formed
// XML, or not a patch. Its condition is InvalidDiffFormat unless said
// otherwise. The column counts characters (runes), as an editor shows
// them.
type SyntaxError struct {
	Line, Column int
	Cond         Condition
	Msg          string
}

// Error returns the message, with the line and column where known.
func (e *SyntaxError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("xml patch: %s", e.Msg)
	}
	return fmt.Sprintf("xml patch: line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Unwrap returns the condition.
func (e *SyntaxError) Unwrap() error { return e.Cond }

// ErrInexpressible is returned by Export for a change that an RFC 5261
// patch cannot state: a changed DOCTYPE, a comment or processing
// instruction added before a DOCTYPE that nothing precedes (no selector
// addresses that place), or content that XML cannot hold
// (a name that is not an XML name, a comment holding "--", a character
// XML forbids), which an HTML parser keeps, or a carriage return in a
// comment or processing instruction.
var ErrInexpressible = errors.New("not expressible as an RFC 5261 patch")

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n-3], "") + "..."
}

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}

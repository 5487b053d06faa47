package main

import (
	"fmt"
	"strings"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/tree"
)

// A delta may give an element xmlns:p="": Vigil's XML parser reads it,
// as XML 1.1 does, as un-declaring prefix p, and a delta of such a
// version says so. Namespaces in XML 1.0 forbid it: written into a
// document of XML 1.0, it would not be namespace-well-formed, and other
// parsers would refuse it. vigil patch refuses the operation instead, in
// a document that does not declare itself XML 1.1.

// undeclaringOp returns the error of the first operation of ds that
// un-declares a namespace prefix, nil for none. undone tells the deltas
// inverted by --reverse (the file's last first), which name is the delta
// file's.
func undeclaringOp(ds []*delta.Delta, undone bool, name string) error {
	for i, d := range ds {
		for j := range d.Ops {
			op := &d.Ops[j]
			decl := undeclaration(op)
			if decl == "" {
				continue
			}
			where := fmt.Sprintf("operation %d (%s)", j+1, op)
			step := i + 1
			if undone {
				step = len(ds) - i
				where += " of the delta undone"
			}
			if len(ds) > 1 {
				where = fmt.Sprintf("delta %d: %s", step, where)
			}
			return fmt.Errorf("%s: %s: %s=\"\" un-declares a namespace prefix, which XML 1.1 allows and XML 1.0 does not: the patched document would not be namespace-well-formed XML 1.0 (a document that begins <?xml version=\"1.1\"?> takes it)", name, where, decl)
		}
	}
	return nil
}

// undeclaration returns the declaration xmlns:p that op makes empty: an
// attribute added or changed, or one of an element it inserts; "" for
// none.
func undeclaration(op *delta.Op) string {
	empty := func(name, value string) bool {
		return strings.HasPrefix(name, "xmlns:") && value == ""
	}
	switch op.Kind {
	case delta.AttrInsert, delta.AttrUpdate:
		if empty(op.Name, op.NewValue) {
			return op.Name
		}
	case delta.Insert:
		found := ""
		if op.Content == nil {
			return ""
		}
		tree.Walk(op.Content, func(n *tree.Node) bool {
			for _, a := range n.Attrs {
				if found == "" && empty(a.Name, a.Value) {
					found = a.Name
				}
			}
			return found == ""
		})
		return found
	}
	return ""
}

// declaresXML11 reports whether doc's XML declaration says version 1.1.
func declaresXML11(doc *tree.Document) bool {
	for _, n := range doc.Prolog {
		if n.Kind == tree.ProcInst && n.Name == "xml" {
			return strings.Contains(n.Value, `version="1.1"`) || strings.Contains(n.Value, `version='1.1'`)
		}
	}
	return false
}

package xmlpatch

import (
	"fmt"

	"github.com/vigil-web/vigil/tree"
)

// located is the one node a selector found.
type located struct {
	kind stepKind   // stepElement for an element, the root included
	node *tree.Node // the node; for an attribute or a namespace declaration, its element
	// parent is the node's parent, nil at the document level (the root
	// element, and the comments and processing instructions around it).
	parent *tree.Node
	attr   int    // the index in node.Attrs of the attribute or declaration; -1 for a namespace the element inherits
	prefix string // a namespace node's prefix
	scope  *scope // the namespaces in scope at an element (its own declarations included), or at the parent of another node
}

// ctxNode is a node of a node-set while a selector is evaluated: an
// element with its scope, or the document node (nil).
type ctxNode struct {
	n     *tree.Node
	scope *scope
}

// docChildren returns the children of the document node as XPath sees
// them: the comments and processing instructions before the root (the XML
// declaration, tree.IsXMLDeclaration, is not a node), the root, and those
// after it. The comment an HTML parser makes of a declaration
// (tree.IsXMLDeclarationComment) is a comment here, where package delta
// takes it for the declaration: a selector addresses the document as it
// was read, in which it is a comment() node as in a browser's DOM, and
// leaving it out would make the comment() steps of patches written before
// count other nodes.
func docChildren(doc *tree.Document) []*tree.Node {
	out := make([]*tree.Node, 0, len(doc.Prolog)+1+len(doc.Epilog))
	for _, n := range doc.Prolog {
		if !tree.IsXMLDeclaration(n) {
			out = append(out, n)
		}
	}
	out = append(out, doc.Root)
	return append(out, doc.Epilog...)
}

// locateError is a failure to locate, with the condition to report.
type locateError struct {
	cond Condition
	msg  string
}

func (e *locateError) Error() string { return e.msg }

func locErr(cond Condition, format string, args ...any) *locateError {
	return &locateError{cond, fmt.Sprintf(format, args...)}
}

// errOverWork is the failure of an evaluation that passed the work
// limit; the caller tells it by the work spent.
var errOverWork = &locateError{cond: UnlocatedNode, msg: "the work limit is passed"}

// locate evaluates sel on doc, with the patch's namespaces in scope ps,
// and returns the one node it selects. It finds the children a step
// selects with sib when it is not nil, and compares string values with
// sv, which counts the work, and reads the attributes of large elements
// with at; it returns errOverWork once the work is over its limit.
func locate(doc *tree.Document, sel *selector, ps *scope, sib *siblings, sv *stringValues, at *attrTables) (*located, *locateError) {
	w := sv.w
	sv.reset()
	set := []ctxNode{{scope: docScope(w)}}
	if sel.hasID {
		set = set[:0]
		for _, n := range findID(doc, sel.id, w) {
			set = append(set, ctxNode{n, at.scopeOf(n)})
		}
		if w.over() {
			return nil, errOverWork
		}
		if len(sel.steps) == 0 {
			if len(set) != 1 {
				return nil, locErr(UnlocatedNode, "%d elements have the ID %q", len(set), sel.id)
			}
			return &located{kind: stepElement, node: set[0].n, parent: set[0].n.Parent, scope: set[0].scope}, nil
		}
	}
	for i, st := range sel.steps {
		if st.kind != stepElement {
			if i != len(sel.steps)-1 {
				return nil, locErr(InvalidAttributeValue, "%s must be the last step", stepName(st))
			}
			return lastStep(doc, set, st, ps, sib, w, at)
		}
		test, err := nameTest(st.name, ps)
		if err != nil {
			return nil, err
		}
		var next []ctxNode
		for _, c := range set {
			var cand []ctxNode
			preds := st.preds
			if sib != nil && c.n != nil {
				key := groupKey{kind: tree.Element, group: groupExpanded, name: test.name}
				if test.any {
					key = groupKey{kind: tree.Element, group: groupAll}
				}
				cand, preds = candidates(sib.of(c.n, c.scope), key, c.scope, preds, at)
				w.add(1 + len(cand))
			} else {
				kids := childrenOf(doc, c.n)
				w.add(1 + len(kids))
				for _, k := range kids {
					if k.Kind != tree.Element || !test.mayMatch(k.Name) {
						continue
					}
					ks := at.push(c.scope, k)
					if test.matches(k.Name, ks) {
						cand = append(cand, ctxNode{k, ks})
					}
				}
			}
			for _, pr := range preds {
				if cand, err = filter(cand, pr, ps, sv, at); err != nil {
					return nil, err
				}
				if w.over() {
					return nil, errOverWork
				}
			}
			next = append(next, cand...)
			if w.over() {
				return nil, errOverWork
			}
		}
		set = next
		if len(set) == 0 {
			return nil, locErr(UnlocatedNode, "no element matches step %d (%s)", i+1, st.name)
		}
	}
	if len(set) != 1 {
		return nil, locErr(UnlocatedNode, "%d elements match", len(set))
	}
	n := set[0].n
	var parent *tree.Node
	if n != doc.Root {
		parent = n.Parent
	}
	return &located{kind: stepElement, node: n, parent: parent, scope: set[0].scope}, nil
}

// candidates returns the members of group key among the children of the
// element ci indexes, whose scope is s, and the predicates left to
// apply: a leading position is taken from the index, without a look at
// the other members. at reads the attributes of large elements.
func candidates(ci *childIndex, key groupKey, s *scope, preds []pred, at *attrTables) ([]ctxNode, []pred) {
	var members []*tree.Node
	if len(preds) > 0 && preds[0].kind == predPos {
		if k := ci.nth(key, preds[0].n); k != nil {
			members = []*tree.Node{k}
		}
		preds = preds[1:]
	} else {
		members = ci.all(key)
	}
	cand := make([]ctxNode, len(members))
	for i, k := range members {
		cand[i] = ctxNode{k, at.push(s, k)}
	}
	return cand, preds
}

func childrenOf(doc *tree.Document, n *tree.Node) []*tree.Node {
	if n == nil {
		return docChildren(doc)
	}
	return n.Children
}

// findID returns the elements whose ID is id: an attribute the DTD
// declares of type ID, or xml:id. w counts the nodes it visits; it stops
// once the work is over its limit.
func findID(doc *tree.Document, id string, w *work) []*tree.Node {
	var out []*tree.Node
	tree.Walk(doc.Root, func(n *tree.Node) bool {
		w.add(1 + len(n.Attrs))
		if n.Kind != tree.Element || w.over() {
			return false
		}
		if v, ok := n.Attr("xml:id"); ok && v == id {
			out = append(out, n)
		} else if a, ok := doc.IDAttrs[n.Name]; ok {
			if v, ok := n.Attr(a); ok && v == id {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

// test is a name test: any element, or an expanded name.
type test struct {
	any  bool
	name expanded
}

// nameTest resolves a step's name with the patch's namespaces: an
// unprefixed name is in the patch's default namespace (RFC 5261,
// section 4.2.1, a departure from XPath 1.0).
func nameTest(name string, ps *scope) (test, *locateError) {
	if name == "*" {
		return test{any: true}, nil
	}
	p, l := splitQName(name)
	u, ok := ps.lookup(p)
	if !ok && p != "" {
		return test{}, locErr(InvalidNamespacePrefix, "prefix %s is not declared in the patch", p)
	}
	return test{name: expanded{u, l}}, nil
}

func (t test) matches(name string, s *scope) bool {
	return t.any || elementExpanded(name, s) == t.name
}

// mayMatch reports whether an element named name may pass the test, by
// its local part alone: most siblings differ there, and it needs no
// namespace scope.
func (t test) mayMatch(name string) bool {
	if t.any {
		return true
	}
	_, l := splitQName(name)
	return l == t.name.local
}

// attrTest resolves an attribute's name: an unprefixed one is in no
// namespace, as in XPath.
func attrTest(name string, ps *scope) (expanded, *locateError) {
	p, l := splitQName(name)
	if p == "" {
		return expanded{"", l}, nil
	}
	u, ok := ps.lookup(p)
	if !ok {
		return expanded{}, locErr(InvalidNamespacePrefix, "prefix %s is not declared in the patch", p)
	}
	return expanded{u, l}, nil
}

// attrIndex returns the index of the attribute of n named name (an
// expanded name) that is not a namespace declaration, -1 for none, -2 for
// more than one.
func attrIndex(n *tree.Node, s *scope, name expanded) int {
	found := -1
	for i, a := range n.Attrs {
		if _, decl := declaration(a.Name); decl || attrExpanded(a.Name, s) != name {
			continue
		}
		if found >= 0 {
			return -2
		}
		found = i
	}
	return found
}

// filter applies a predicate to the candidates of one context node,
// comparing string values with sv, which counts the work, and reading the
// attributes of large elements with at.
func filter(cand []ctxNode, pr pred, ps *scope, sv *stringValues, at *attrTables) ([]ctxNode, *locateError) {
	w := sv.w
	if pr.kind == predPos {
		if pr.n < 1 || pr.n > len(cand) {
			return nil, nil
		}
		return cand[pr.n-1 : pr.n], nil
	}
	var out []ctxNode
	switch pr.kind {
	case predAttr:
		name, err := attrTest(pr.name, ps)
		if err != nil {
			return nil, err
		}
		for _, c := range cand {
			if i := at.index(c.n, c.scope, name); i >= 0 && c.n.Attrs[i].Value == pr.value {
				out = append(out, c)
			}
			if w.over() {
				return nil, errOverWork
			}
		}
	case predChild:
		t, err := nameTest(pr.name, ps)
		if err != nil {
			return nil, err
		}
		for _, c := range cand {
			for _, k := range c.n.Children {
				w.add(1)
				if k.Kind == tree.Element && t.mayMatch(k.Name) && t.matches(k.Name, at.push(c.scope, k)) && sv.equals(k, pr.value) {
					out = append(out, c)
					break
				}
				if w.over() {
					return nil, errOverWork
				}
			}
		}
	case predSelf:
		for _, c := range cand {
			if sv.equals(c.n, pr.value) {
				out = append(out, c)
			}
			if w.over() {
				return nil, errOverWork
			}
		}
	}
	return out, nil
}

// lastStep evaluates a final text(), comment(), processing-instruction(),
// attribute or namespace step, reading the attributes of large elements
// with at.
func lastStep(doc *tree.Document, set []ctxNode, st step, ps *scope, sib *siblings, w *work, at *attrTables) (*located, *locateError) {
	var found []*located
	switch st.kind {
	case stepAttr:
		name, err := attrTest(st.name, ps)
		if err != nil {
			return nil, err
		}
		for _, c := range set {
			if c.n == nil {
				continue
			}
			i := at.index(c.n, c.scope, name)
			if w.over() {
				return nil, errOverWork
			}
			switch {
			case i == -2:
				return nil, locErr(UnlocatedNode, "element %s has two attributes named %s", c.n.Name, st.name)
			case i >= 0:
				found = append(found, &located{kind: stepAttr, node: c.n, parent: c.n.Parent, attr: i, scope: c.scope})
			}
		}
	case stepNamespace:
		// The namespace axis: the namespaces in scope at the element, its
		// own declarations and those it inherits (XPath 1.0, section 5.4).
		for _, c := range set {
			if c.n == nil {
				continue
			}
			w.add(1 + len(c.n.Attrs))
			if w.over() {
				return nil, errOverWork
			}
			own := false
			for i, a := range c.n.Attrs {
				if a.Name == "xmlns:"+st.name {
					found = append(found, &located{kind: stepNamespace, node: c.n, parent: c.n.Parent, attr: i, prefix: st.name, scope: c.scope})
					own = true
				}
			}
			if own || st.name == "xmlns" {
				continue
			}
			if u, ok := c.scope.lookup(st.name); ok && u != "" {
				found = append(found, &located{kind: stepNamespace, node: c.n, parent: c.n.Parent, attr: -1, prefix: st.name, scope: c.scope})
			}
		}
	default:
		kind := map[stepKind]tree.Kind{stepText: tree.Text, stepComment: tree.Comment, stepPI: tree.ProcInst}[st.kind]
		for _, c := range set {
			var cand []*tree.Node
			preds := st.preds
			if sib != nil && c.n != nil {
				ci := sib.of(c.n, c.scope)
				key := groupKey{kind: kind, group: groupAll}
				if st.target {
					key = groupKey{kind: kind, group: groupTarget, name: expanded{local: st.name}}
				}
				if len(preds) > 0 {
					if k := ci.nth(key, preds[0].n); k != nil {
						cand = []*tree.Node{k}
					}
					preds = preds[1:]
				} else {
					cand = ci.all(key)
				}
				w.add(1 + len(cand))
			} else {
				kids := childrenOf(doc, c.n)
				w.add(1 + len(kids))
				for _, k := range kids {
					if k.Kind == kind && (!st.target || k.Name == st.name) {
						cand = append(cand, k)
					}
				}
			}
			if w.over() {
				return nil, errOverWork
			}
			for _, pr := range preds {
				if pr.n < 1 || pr.n > len(cand) {
					cand = nil
				} else {
					cand = cand[pr.n-1 : pr.n]
				}
			}
			for _, k := range cand {
				found = append(found, &located{kind: st.kind, node: k, parent: c.n, scope: c.scope})
			}
		}
	}
	switch len(found) {
	case 0:
		return nil, locErr(UnlocatedNode, "no node matches %s", stepName(st))
	case 1:
		return found[0], nil
	}
	return nil, locErr(UnlocatedNode, "%d nodes match", len(found))
}

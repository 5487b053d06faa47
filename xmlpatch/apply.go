package xmlpatch

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// Apply applies the patch p to doc, operation after operation, each to the
// result of the one before (RFC 5261, section 4). It is atomic: a patch that
// fails leaves doc as it was, and the error, an *Error, names the operation
// (1-based), its selector and its position in the patch document, and wraps
// the RFC's error condition (errors.Is(err, xmlpatch.UnlocatedNode)). A
// selector must locate exactly one node. Apply keeps to XPath's data model,
// as RFC 5261 does: the texts an operation puts side by side become one text
// node, which text()[k] counts once. Nodes an operation adds get fresh XIDs
// when doc has XIDs, above every XID it holds; the operation fails
// (InvalidPatchDirective) when they would reach the largest XID,
// math.MaxUint64, which a later diff refuses. Apply never panics on a patch or a document (a broken
// invariant of its own, a bug, is an "internal error" that leaves doc as it
// was), and its work is bounded: the nodes its selectors visit and compare,
// and the subtrees its operations walk, are counted over the whole patch
// against p.WorkLimit (by default, DefaultWorkFactor times the size of the
// input); past it Apply fails with a *WorkLimitError (errors.Is(err,
// xmlpatch.ErrWorkLimit)) that names the operation.
func Apply(doc *tree.Document, p *Patch) (err error) {
	defer recoverInternal(&err)
	if doc.Root == nil {
		return errors.New("xml patch: document without a root element")
	}
	if len(p.Ops) > MaxOps {
		return fmt.Errorf("xml patch: %d operations, more than the limit of %d", len(p.Ops), MaxOps)
	}
	clone := doc.Clone()
	a := &applier{doc: clone, orig: doc.Root, p: p, xids: clone.Root.XID != 0, base: (*scope)(nil).declare(p.Namespaces), w: &work{limit: workLimit(doc, p)}}
	a.sv.w = a.w
	a.attrs = newAttrTables(a.w)
	if !noSiblingIndex {
		a.sib = newSiblings(a.w)
	}
	for i := range p.Ops {
		if err := a.op(i); err != nil {
			return err
		}
	}
	if a.sib != nil {
		a.sib.flush()
	}
	a.attrs.compact()
	*doc = *clone
	return nil
}

type applier struct {
	doc  *tree.Document
	p    *Patch
	xids bool // give added nodes XIDs
	// orig is the document's root as it came, left untouched; the
	// first fresh XID is above every XID it holds (see giveXIDs).
	orig *tree.Node
	// nextKnown says that doc.NextXID has been raised above orig's XIDs.
	nextKnown bool
	base      *scope // the namespaces the patch's document element declares
	// sib indexes the children of the elements selectors went through;
	// every change to children, names and namespace declarations below
	// goes through the methods that keep it up to date.
	sib *siblings
	w   *work // the work done, against the patch's limit
	// attrs indexes the attributes of large elements; every change to
	// their attributes goes through its methods.
	attrs *attrTables
	sv    stringValues // the selectors' string values, counted in w
	// texts joins the texts operations put side by side; a text whose
	// value is set otherwise is forgotten there.
	texts textJoiner
}

// An edit of a list of children shifts those after it, which costs
// about as much as a unit of work (a node visited, some 20 ns) every
// childrenMovedPerUnit children (a copy of a kilobyte); finding a
// child's index by a scan, as much every childrenScannedPerUnit.
const (
	childrenMovedPerUnit   = 128
	childrenScannedPerUnit = 64
)

// moved counts the work of an edit at index i of parent's children.
func (a *applier) moved(parent *tree.Node, i int) {
	a.w.add(1 + (len(parent.Children)-i)/childrenMovedPerUnit)
}

// indexOf returns the index of n among parent's children: from the
// sibling index when it holds n, else by a scan, which it counts.
func (a *applier) indexOf(parent, n *tree.Node) int {
	if a.sib != nil {
		if i, ok := a.sib.position(n); ok {
			return i
		}
	}
	i := slices.Index(parent.Children, n)
	a.w.add(1 + i/childrenScannedPerUnit)
	return i
}

func (a *applier) insertChild(parent *tree.Node, i int, n *tree.Node) {
	a.moved(parent, i)
	if a.sib == nil {
		parent.InsertChild(i, n)
		return
	}
	a.sib.insert(parent, i, n)
}

func (a *applier) removeChild(parent *tree.Node, i int) {
	a.moved(parent, i)
	if a.sib == nil {
		parent.RemoveChild(i)
		return
	}
	a.sib.detach(parent.Children[i])
	parent.RemoveChild(i)
}

// replaceChild puts n in the place of child i of parent, which leaves
// it: no child shifts, so a run of replaces along a long list takes time
// linear in the list, where a removal and an insertion shifted the
// children after the replaced one twice.
func (a *applier) replaceChild(parent *tree.Node, i int, n *tree.Node) {
	a.w.add(1)
	if a.sib == nil {
		parent.Children[i].Parent = nil
		n.Parent = parent
		parent.Children[i] = n
		return
	}
	a.sib.replace(parent, i, n)
}

// indexOnly reports whether sel locates its node by the sibling index
// alone, without id() or a predicate that reads children or string
// values ([name='v'], [.='v']): a selector that a run of removes, which
// leave the nodes they remove in their parents' lists, can take.
func indexOnly(sel *selector) bool {
	if sel.hasID {
		return false
	}
	for _, st := range sel.steps {
		for _, pr := range st.preds {
			if pr.kind != predPos && pr.kind != predAttr {
				return false
			}
		}
	}
	return true
}

// keepsPending reports whether op may run with the removes before it
// pending in the lists: a remove, or a replace of a text by an empty
// value (which removes the text), by a selector that locates its node by
// the sibling index alone (indexOnly).
func keepsPending(op *Op, sel *selector) bool {
	if !indexOnly(sel) {
		return false
	}
	switch op.Kind {
	case Remove:
		return true
	case Replace:
		value, ok := text(op.Content)
		l := sel.last()
		return ok && value == "" && l != nil && l.kind == stepText
	}
	return false
}

// removeText removes text child i of parent, pending where the sibling
// index is kept (kill), and makes one text of the texts it leaves side
// by side.
func (a *applier) removeText(parent *tree.Node, i int) {
	if a.sib != nil {
		first, last := a.kill(parent, i)
		a.joinAround(parent, first, last)
		return
	}
	a.removeChild(parent, i)
	a.joinTexts(parent, i)
}

// kill removes child i of parent, pending until the sibling index's
// flush, which counts the children it shifts; it returns the run of
// removed positions that holds i, first and last.
func (a *applier) kill(parent *tree.Node, i int) (int, int) {
	a.w.add(1)
	return a.sib.kill(parent, i)
}

// joinAround makes one text of the children before and after positions
// first to last of parent, removed, where both are texts, as joinTexts
// does, the second removed pending.
func (a *applier) joinAround(parent *tree.Node, first, last int) {
	kids := parent.Children
	l, r := first-1, last+1
	if l < 0 || r >= len(kids) || kids[l].Kind != tree.Text || kids[r].Kind != tree.Text {
		return
	}
	a.texts.join(kids[l], kids[r])
	a.kill(parent, r)
}

func (a *applier) joinTexts(parent *tree.Node, i int) {
	if i > 0 && i < len(parent.Children) && parent.Children[i-1].Kind == tree.Text && parent.Children[i].Kind == tree.Text {
		a.moved(parent, i)
	}
	if a.sib == nil {
		a.texts.joinTexts(parent, i)
		return
	}
	a.sib.join(&a.texts, parent, i)
}

// declarationsChanged is called after a namespace declaration changed.
func (a *applier) declarationsChanged() {
	if a.sib != nil {
		a.sib.reset()
	}
	a.attrs.reset()
}

// opError builds the error of operation i.
func (a *applier) opError(i int, cond Condition, format string, args ...any) error {
	op := &a.p.Ops[i]
	return &Error{Op: i + 1, Kind: op.Kind, Sel: op.Sel, Line: op.Line, Column: op.Column, Cond: cond, Msg: fmt.Sprintf(format, args...)}
}

func (a *applier) op(i int) error {
	op := &a.p.Ops[i]
	fail := func(cond Condition, format string, args ...any) error { return a.opError(i, cond, format, args...) }
	switch {
	case op.Kind < Add || op.Kind > Remove:
		return fail(InvalidDiffFormat, "unknown operation kind %d", op.Kind)
	case op.Pos != "" && (op.Kind != Add || op.Type != ""):
		return fail(InvalidPatchDirective, "pos=%q on a %s", op.Pos, map[bool]string{true: "typed add", false: op.Kind.String()}[op.Kind == Add])
	case op.Type != "" && op.Kind != Add:
		return fail(InvalidPatchDirective, "type on a %s", op.Kind)
	case op.WS != "" && op.Kind != Remove:
		return fail(InvalidPatchDirective, "ws on a %s", op.Kind)
	case op.Pos != "" && op.Pos != "before" && op.Pos != "after" && op.Pos != "prepend":
		return fail(InvalidAttributeValue, "pos=%q: want before, after or prepend", op.Pos)
	case op.WS != "" && op.WS != "before" && op.WS != "after" && op.WS != "both":
		return fail(InvalidAttributeValue, "ws=%q: want before, after or both", op.WS)
	}
	sel, err := parseSelector(op.Sel)
	if err != nil {
		return fail(InvalidAttributeValue, "sel: %v", err)
	}
	if op.Kind == Add && op.Type == "" {
		if l := sel.last(); l != nil && (l.kind == stepAttr || l.kind == stepNamespace) {
			return fail(InvalidAttributeValue, "sel of an add locates an attribute or a namespace; type adds one")
		}
	}
	if a.sib != nil && !keepsPending(op, sel) {
		// The removes before it leave their nodes in the lists, which
		// only the sibling index can tell from the others.
		a.sib.flush()
	}
	ps := a.base.declare(op.Namespaces) // in scope at the operation
	loc, lerr := locate(a.doc, sel, ps, a.sib, &a.sv, a.attrs)
	if a.w.over() {
		return a.overWork(i)
	}
	if lerr != nil {
		return fail(lerr.cond, "%s", lerr.msg)
	}
	var cond Condition
	var msg string
	switch op.Kind {
	case Add:
		if op.Type != "" {
			cond, msg = a.addTyped(op, loc, ps)
		} else {
			cond, msg = a.add(op, loc, ps)
		}
	case Replace:
		cond, msg = a.replace(op, loc, ps)
	case Remove:
		cond, msg = a.remove(op, loc)
	}
	if a.w.over() {
		return a.overWork(i)
	}
	if cond != "" {
		return fail(cond, "%s", msg)
	}
	return nil
}

// overWork builds the error of operation i, at which the work passed the
// limit.
func (a *applier) overWork(i int) error {
	op := &a.p.Ops[i]
	return &WorkLimitError{Op: i + 1, Kind: op.Kind, Sel: op.Sel, Line: op.Line, Column: op.Column, Limit: a.w.limit}
}

// problem is a failure: a condition and a message ("" for success).
func problem(cond Condition, format string, args ...any) (Condition, string) {
	return cond, fmt.Sprintf(format, args...)
}

// giveXIDs numbers added nodes after the document's: from its NextXID, or
// past the largest XID it held when it came, when that is larger, as a
// diff allocates. It gives none and fails when the fresh XIDs would reach
// the largest XID, math.MaxUint64, kept unallocated so that NextXID stays
// above every XID (as treediff, tree.Document.SetXIDMap and delta.Apply
// keep it): a document that holds it, or whose next XID leaves too few
// below it for the nodes added.
func (a *applier) giveXIDs(nodes []*tree.Node) (Condition, string) {
	var count uint64
	for _, n := range nodes {
		tree.PostOrder(n, func(*tree.Node) { count++ })
	}
	if !a.xids || count == 0 {
		// An operation that adds no node needs no XID.
		return "", ""
	}
	if !a.nextKnown {
		a.nextKnown = true
		var top tree.XID
		tree.PostOrder(a.orig, func(m *tree.Node) { top = max(top, m.XID) })
		if top == math.MaxUint64 {
			return problem(InvalidPatchDirective, "the document holds XID %d, the largest, which leaves none to allocate next", top)
		}
		a.doc.NextXID = max(a.doc.NextXID, top+1)
	}
	if next := a.doc.NextXID; math.MaxUint64-uint64(next) <= count {
		return problem(InvalidPatchDirective, "the document's next XID %d leaves too few below %d, the largest, for the %d nodes the operation adds", next, uint64(math.MaxUint64), count)
	}
	for _, n := range nodes {
		tree.PostOrder(n, func(m *tree.Node) {
			m.XID = a.doc.NextXID
			a.doc.NextXID++
		})
	}
	return "", ""
}

func (a *applier) addTyped(op *Op, loc *located, ps *scope) (Condition, string) {
	if loc.kind != stepElement {
		return problem(InvalidNodeTypes, "type=%q needs an element, not %s", op.Type, kindName(loc))
	}
	value, ok := text(op.Content)
	if !ok {
		return problem(InvalidNodeTypes, "the value of %s is not text", op.Type)
	}
	n := loc.node
	if prefix, ok := strings.CutPrefix(op.Type, "namespace::"); ok {
		if !isNCName(prefix) || prefix == "xml" || prefix == "xmlns" {
			return problem(InvalidAttributeValue, "type=%q: not a namespace prefix", op.Type)
		}
		if value == "" {
			return problem(InvalidNamespaceURI, "an empty namespace URI for prefix %s", prefix)
		}
		if !validDeclaration(prefix, value) {
			return problem(InvalidNamespaceURI, "%s cannot be bound to prefix %s", value, prefix)
		}
		if _, has := n.Attr("xmlns:" + prefix); has {
			return problem(InvalidPatchDirective, "element %s already declares prefix %s", n.Name, prefix)
		}
		n.Attrs = append(n.Attrs, tree.Attr{Name: "xmlns:" + prefix, Value: value})
		a.declarationsChanged()
		return "", ""
	}
	name, ok := strings.CutPrefix(op.Type, "@")
	if !ok || !isQName(name) || strings.HasPrefix(name, "xmlns:") || name == "xmlns" {
		return problem(InvalidAttributeValue, "type=%q: want @name or namespace::prefix", op.Type)
	}
	x, lerr := attrTest(name, ps)
	if lerr != nil {
		return lerr.cond, lerr.msg
	}
	if a.attrs.index(n, loc.scope, x) != -1 {
		return problem(InvalidPatchDirective, "element %s already has attribute %s", n.Name, name)
	}
	if p, l := splitQName(name); p != "" {
		switch q, found := loc.scope.prefixFor(x.uri); {
		case loc.scope.uri(p) == x.uri:
		case found:
			name = q + ":" + l
		default:
			// A declaration on n binds its prefix for all of n's subtree:
			// it takes one that no name there uses.
			q := freePrefix(n, loc.scope, p, a.w)
			n.Attrs = append(n.Attrs, tree.Attr{Name: "xmlns:" + q, Value: x.uri})
			a.declarationsChanged()
			name = q + ":" + l
		}
	}
	n.Attrs = append(n.Attrs, tree.Attr{Name: name, Value: value})
	a.attrs.appended(n, x)
	return "", ""
}

// freePrefix returns want, or want followed by a number, whichever is the
// first that the scope s of element n does not bind and no name in n's
// subtree uses: a prefix n can declare without changing another name. w
// counts the nodes it visits.
func freePrefix(n *tree.Node, s *scope, want string, w *work) string {
	used := map[string]bool{}
	tree.Walk(n, func(m *tree.Node) bool {
		w.add(1 + len(m.Attrs))
		if m.Kind != tree.Element {
			return true
		}
		p, _ := splitQName(m.Name)
		used[p] = true
		for _, a := range m.Attrs {
			p, l := splitQName(a.Name)
			used[p] = true
			if p == "xmlns" {
				used[l] = true
			}
		}
		return true
	})
	q := want
	for i := 1; ; i++ {
		if _, bound := s.lookup(q); !bound && !used[q] {
			return q
		}
		q = want + strconv.Itoa(i)
	}
}

func kindName(loc *located) string {
	switch loc.kind {
	case stepText:
		return "a text node"
	case stepComment:
		return "a comment"
	case stepPI:
		return "a processing instruction"
	case stepAttr:
		return "an attribute"
	case stepNamespace:
		return "a namespace declaration"
	}
	return "an element"
}

func (a *applier) add(op *Op, loc *located, ps *scope) (Condition, string) {
	if loc.kind == stepAttr || loc.kind == stepNamespace {
		return problem(InvalidNodeTypes, "nodes cannot be added to %s", kindName(loc))
	}
	var parent *tree.Node
	at := 0
	switch op.Pos {
	case "", "prepend":
		if loc.kind != stepElement {
			return problem(InvalidNodeTypes, "children cannot be added to %s", kindName(loc))
		}
		parent = loc.node
		if op.Pos == "" {
			at = len(parent.Children)
		}
	default:
		if loc.parent == nil {
			return a.addAround(op, loc)
		}
		parent = loc.parent
		at = a.indexOf(parent, loc.node)
		if op.Pos == "after" {
			at++
		}
	}
	nodes, lerr := adopt(a.doc, op.Content, ps, a.attrs.scopeOf(parent))
	if lerr != nil {
		return lerr.cond, lerr.msg
	}
	nodes = normalizeTexts(nodes)
	if cond, msg := a.giveXIDs(nodes); cond != "" {
		return cond, msg
	}
	for i, n := range nodes {
		a.insertChild(parent, at+i, n)
	}
	// A text added beside a text is one with it.
	a.joinTexts(parent, at+len(nodes))
	a.joinTexts(parent, at)
	return "", ""
}

// addAround adds comments and processing instructions before or after a
// node at the document level.
func (a *applier) addAround(op *Op, loc *located) (Condition, string) {
	var nodes []*tree.Node
	for _, c := range op.Content {
		switch {
		case c.Kind == tree.Comment || c.Kind == tree.ProcInst:
			n := a.doc.NewNode(c.Kind, c.Name, c.Value)
			nodes = append(nodes, n)
		case c.Kind == tree.Text && (c.Value == "" || isSpace(c.Value)):
			// White space outside the root element is not kept.
		default:
			return problem(InvalidRootElementOperation, "only comments and processing instructions can stand beside the root element")
		}
	}
	insertAround(a.doc, loc.node, op.Pos == "after", nodes)
	return "", ""
}

func (a *applier) replace(op *Op, loc *located, ps *scope) (Condition, string) {
	n := loc.node
	switch loc.kind {
	case stepAttr, stepNamespace, stepText:
		if loc.kind == stepNamespace && loc.attr < 0 {
			return inheritedNamespace(loc)
		}
		value, ok := text(op.Content)
		if !ok {
			return problem(InvalidNodeTypes, "%s is replaced by text only", kindName(loc))
		}
		switch {
		case loc.kind == stepText && value == "":
			// XPath's data model has no empty text node: the text is
			// removed, as a remove removes it, pending in a run.
			a.removeText(loc.parent, a.indexOf(loc.parent, n))
		case loc.kind == stepText:
			n.Value = value
			a.texts.forget(n)
		case loc.kind == stepNamespace && value == "":
			return problem(InvalidNamespaceURI, "an empty namespace URI")
		case loc.kind == stepNamespace && !validDeclaration(n.Attrs[loc.attr].Name[len("xmlns:"):], value):
			return problem(InvalidNamespaceURI, "%s cannot be bound to %s", value, n.Attrs[loc.attr].Name)
		default:
			n.Attrs[loc.attr].Value = value
			if loc.kind == stepNamespace {
				a.declarationsChanged()
			}
		}
		return "", ""
	}
	var one *tree.Node
	for _, c := range op.Content {
		if c.Kind == tree.Text && (c.Value == "" || isSpace(c.Value)) {
			continue
		}
		if one != nil {
			return problem(InvalidNodeTypes, "%s is replaced by one node, not several", kindName(loc))
		}
		one = c
	}
	want := map[stepKind]tree.Kind{stepElement: tree.Element, stepComment: tree.Comment, stepPI: tree.ProcInst}[loc.kind]
	if one == nil || one.Kind != want {
		return problem(InvalidNodeTypes, "%s is replaced by a node of its kind", kindName(loc))
	}
	if want != tree.Element {
		n.Name, n.Value = one.Name, one.Value
		return "", ""
	}
	var ts *scope
	if loc.parent != nil {
		ts = a.attrs.scopeOf(loc.parent)
	}
	nodes, lerr := adopt(a.doc, []*tree.Node{one}, ps, ts)
	if lerr != nil {
		return lerr.cond, lerr.msg
	}
	nodes = normalizeTexts(nodes)
	if cond, msg := a.giveXIDs(nodes); cond != "" {
		return cond, msg
	}
	if loc.parent == nil {
		a.doc.Root = nodes[0]
		a.declarationsChanged()
		return "", ""
	}
	a.replaceChild(loc.parent, a.indexOf(loc.parent, n), nodes[0])
	return "", ""
}

func (a *applier) remove(op *Op, loc *located) (Condition, string) {
	n := loc.node
	switch loc.kind {
	case stepAttr, stepNamespace, stepText:
		if op.WS != "" {
			return problem(InvalidPatchDirective, "ws on the removal of %s", kindName(loc))
		}
		if a.sib != nil && loc.kind != stepText {
			// A namespace declaration's check walks the subtree.
			a.sib.flush()
		}
		switch loc.kind {
		case stepText:
			a.removeText(loc.parent, a.indexOf(loc.parent, n))
		case stepAttr:
			a.attrs.remove(n, loc.attr, attrExpanded(n.Attrs[loc.attr].Name, loc.scope))
		case stepNamespace:
			return a.removeDeclaration(loc)
		}
		return "", ""
	}
	if n == a.doc.Root {
		return problem(InvalidRootElementOperation, "the root element cannot be removed")
	}
	if loc.parent == nil {
		if op.WS != "" {
			return problem(InvalidWhitespaceDirective, "no white space is kept beside the root element")
		}
		removeAround(a.doc, n)
		return "", ""
	}
	kids := loc.parent.Children
	i := a.indexOf(loc.parent, n)
	space := func(j int) bool {
		return j >= 0 && j < len(kids) && kids[j].Kind == tree.Text && isSpace(kids[j].Value)
	}
	// The neighbours, past the children removed and not yet taken out.
	h := a.sib.holesOf(loc.parent)
	prev, next := h.prev(i), h.next(i)
	before, after := op.WS == "before" || op.WS == "both", op.WS == "after" || op.WS == "both"
	if before && !space(prev) {
		return problem(InvalidWhitespaceDirective, "no white-space text node before the node")
	}
	if after && !space(next) {
		return problem(InvalidWhitespaceDirective, "no white-space text node after the node")
	}
	if a.sib != nil {
		if after {
			a.kill(loc.parent, next)
		}
		first, last := a.kill(loc.parent, i)
		if before {
			first, last = a.kill(loc.parent, prev)
		}
		// The texts it leaves side by side are one (RFC 5261, section 4.5).
		a.joinAround(loc.parent, first, last)
		return "", ""
	}
	from, to := i, i+1
	if before {
		from--
	}
	if after {
		to++
	}
	for j := to - 1; j >= from; j-- {
		a.removeChild(loc.parent, j)
	}
	// The texts it leaves side by side are one (RFC 5261, section 4.5).
	a.joinTexts(loc.parent, from)
	return "", ""
}

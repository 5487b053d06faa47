package intent

import (
	"math"
	"strconv"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// CompileXPath compiles an XPath 1.0 subset: absolute and relative location
// paths with / and //, unions with |, the axes child, descendant,
// descendant-or-self, self, parent, ancestor, ancestor-or-self,
// following-sibling, preceding-sibling and attribute (abbreviated as ., ..
// and @), name tests and *, text(), node() and comment(), and predicates:
// a position [n], last(), paths ([@a], [name], [a/b]), comparisons with =,
// !=, <, <=, >, >= against strings and numbers, and, or, not(), contains(),
// starts-with(), normalize-space(), string(), position() and count().
func CompileXPath(s string) (Selector, error) {
	toks, err := xpathTokens(s)
	if err != nil {
		return nil, err
	}
	p := &xpathParser{src: s, toks: toks}
	e, err := p.union()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != xtEOF {
		return nil, p.errorf(t.off, "unexpected %q", t.text)
	}
	return &xpathSel{src: s, e: e}, nil
}

type xpathSel struct {
	src string
	e   *xpathUnion
}

func (x *xpathSel) String() string { return x.src }

// xitem is a node, or an attribute of an element (attr >= 0).
type xitem struct {
	n    *tree.Node
	attr int
}

func (it xitem) value() string {
	if it.attr >= 0 {
		return it.n.Attrs[it.attr].Value
	}
	if it.n.Kind == tree.Comment {
		return it.n.Value
	}
	return textValue(it.n)
}

func (x *xpathSel) eval(root *tree.Node) []xitem {
	items := x.e.eval(&xeval{}, root)
	return orderItems(items)
}

// xeval is the state of one evaluation: each node's index among its
// parent's children, numbered once for each parent met, so that a
// sibling axis from each of n siblings does not cost n scans for the
// context's place.
type xeval struct {
	index tree.Indexes
	doc   *tree.Node // the document node, made by document
}

// document returns the document node above top, the tree's top node: a
// virtual node (Kind 0) whose only child is top, as the tree holds none.
// It is one node for the whole evaluation, so that the document "/"
// starts from and the one ".." reaches from the top element are one.
func (x *xeval) document(top *tree.Node) *tree.Node {
	if x.doc == nil || x.doc.Children[0] != top {
		x.doc = &tree.Node{Children: []*tree.Node{top}}
	}
	return x.doc
}

// parent returns n's parent on the parent and ancestor axes: the
// document node for the top node, as XPath 1.0 has it (the root
// element's parent is the root node), and nil for the document node.
func (x *xeval) parent(n *tree.Node) *tree.Node {
	if n.Parent != nil {
		return n.Parent
	}
	if n.Kind == 0 {
		return nil
	}
	return x.document(n)
}

func (x *xpathSel) Select(root *tree.Node) []*tree.Node {
	var out []*tree.Node
	seen := map[*tree.Node]bool{}
	for _, it := range x.eval(root) {
		if it.n.Kind == tree.ProcInst || it.n.Kind == tree.Comment || it.n == nil {
			continue
		}
		if !seen[it.n] {
			seen[it.n] = true
			out = append(out, it.n)
		}
	}
	return out
}

func (x *xpathSel) Values(root *tree.Node) []string {
	var out []string
	for _, it := range x.eval(root) {
		out = append(out, normalizeSpace(it.value()))
	}
	return out
}

// orderItems puts items in document order (an element's attributes right
// after it) without duplicates; the virtual document node is dropped.
func orderItems(items []xitem) []xitem {
	if len(items) == 0 {
		return nil
	}
	var top *tree.Node
	for _, it := range items {
		if it.n != nil && it.n.Kind != 0 {
			top = it.n
			break
		}
	}
	if top == nil {
		return nil
	}
	for top.Parent != nil {
		top = top.Parent
	}
	want := map[xitem]bool{}
	for _, it := range items {
		want[it] = true
	}
	out := make([]xitem, 0, len(want))
	tree.Walk(top, func(n *tree.Node) bool {
		if want[xitem{n, -1}] {
			out = append(out, xitem{n, -1})
		}
		for i := range n.Attrs {
			if want[xitem{n, i}] {
				out = append(out, xitem{n, i})
			}
		}
		return true
	})
	return out
}

// ---- AST

type xpathUnion struct{ paths []*xpathPath }

type xpathPath struct {
	abs   bool
	steps []*xstep
}

type xaxis int

const (
	axChild xaxis = iota
	axDescendant
	axDescendantOrSelf
	axSelf
	axParent
	axAncestor
	axAncestorOrSelf
	axFollowingSibling
	axPrecedingSibling
	axAttribute
)

var axisNames = map[string]xaxis{
	"child": axChild, "descendant": axDescendant, "descendant-or-self": axDescendantOrSelf,
	"self": axSelf, "parent": axParent, "ancestor": axAncestor, "ancestor-or-self": axAncestorOrSelf,
	"following-sibling": axFollowingSibling, "preceding-sibling": axPrecedingSibling,
	"attribute": axAttribute,
}

type xtest int

const (
	testName    xtest = iota // name (or "*" when name is "*")
	testText                 // text()
	testNode                 // node()
	testComment              // comment()
)

type xstep struct {
	axis  xaxis
	test  xtest
	name  string
	preds []xexpr
}

// xexpr is a predicate expression.
type xexpr interface {
	eval(x *xeval, ctx xitem, pos, size int) xval
}

type xvalKind int

const (
	xvNum xvalKind = iota
	xvStr
	xvBool
	xvNodes
)

type xval struct {
	kind  xvalKind
	num   float64
	str   string
	b     bool
	nodes []xitem
}

func (v xval) boolean() bool {
	switch v.kind {
	case xvNum:
		return v.num != 0 && !math.IsNaN(v.num)
	case xvStr:
		return v.str != ""
	case xvBool:
		return v.b
	}
	return len(v.nodes) > 0
}

func (v xval) string() string {
	switch v.kind {
	case xvNum:
		return strconv.FormatFloat(v.num, 'f', -1, 64)
	case xvStr:
		return v.str
	case xvBool:
		return strconv.FormatBool(v.b)
	}
	if len(v.nodes) == 0 {
		return ""
	}
	return v.nodes[0].value()
}

func (v xval) number() float64 {
	if v.kind == xvNum {
		return v.num
	}
	if v.kind == xvBool {
		if v.b {
			return 1
		}
		return 0
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v.string()), 64)
	if err != nil {
		return math.NaN()
	}
	return f
}

// ---- evaluation

func (u *xpathUnion) eval(x *xeval, root *tree.Node) []xitem {
	var out []xitem
	for _, p := range u.paths {
		out = append(out, p.eval(x, xitem{root, -1})...)
	}
	return out
}

func (p *xpathPath) eval(x *xeval, ctx xitem) []xitem {
	cur := []xitem{ctx}
	if p.abs {
		top := ctx.n
		for top.Parent != nil {
			top = top.Parent
		}
		cur = []xitem{{x.document(top), -1}}
	}
	for _, s := range p.steps {
		var next []xitem
		seen := map[xitem]bool{}
		if (s.axis == axDescendant || s.axis == axDescendantOrSelf) && len(s.preds) == 0 && len(cur) > 1 {
			next = s.descendants(cur)
			cur = next
			continue
		}
		for _, c := range cur {
			for _, it := range s.apply(x, c) {
				if !seen[it] {
					seen[it] = true
					next = append(next, it)
				}
			}
		}
		cur = next
	}
	// The virtual document node selected ("/") is the document's
	// content, its top element: the whole page, not nothing.
	out := cur[:0]
	for _, it := range cur {
		if it.n.Kind == 0 {
			if len(it.n.Children) == 0 {
				continue
			}
			it = xitem{it.n.Children[0], -1}
		}
		out = append(out, it)
	}
	return out
}

// descendants applies a descendant or descendant-or-self step without
// predicates to many contexts, walking each node once: the contexts are
// taken outermost first, and a context inside a subtree already walked adds
// nothing new. (Walking each context's subtree would be quadratic on
// deeply nested pages: //a//a on a thousand nested a elements.)
func (s *xstep) descendants(cur []xitem) []xitem {
	in := make(map[*tree.Node]bool, len(cur))
	var top *tree.Node
	for _, c := range cur {
		if c.attr < 0 {
			in[c.n] = true
			// The document node, reached by .. or ancestor, is above
			// the top node: the walk starts from it.
			if top == nil || c.n.Kind == 0 {
				top = c.n
				for top.Parent != nil {
					top = top.Parent
				}
			}
		}
	}
	if top == nil {
		return nil
	}
	var out []xitem
	// One walk in document order: below a context, every node is a
	// descendant of it.
	type frame struct {
		n     *tree.Node
		under bool // inside a context's subtree
	}
	stack := []frame{{top, false}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		isCtx := in[f.n]
		if (f.under || (isCtx && s.axis == axDescendantOrSelf)) && s.matches(f.n) {
			out = append(out, xitem{f.n, -1})
		}
		under := f.under || isCtx
		for i := len(f.n.Children) - 1; i >= 0; i-- {
			stack = append(stack, frame{f.n.Children[i], under})
		}
	}
	return out
}

// apply returns the items the step selects from ctx, in axis order.
func (s *xstep) apply(x *xeval, ctx xitem) []xitem {
	var cand []xitem
	n := ctx.n
	add := func(m *tree.Node) {
		if s.matches(m) {
			cand = append(cand, xitem{m, -1})
		}
	}
	// On the child, sibling and ancestor axes, a step whose first
	// predicate is a position k stops after the axis's first k nodes
	// that pass the test: the predicate keeps none of the others.
	limit := s.positional()
	full := func() bool { return limit > 0 && len(cand) >= limit }
	if ctx.attr >= 0 {
		switch s.axis {
		case axSelf:
			if s.test == testNode || (s.test == testName && s.name == "*") {
				cand = append(cand, ctx)
			}
		case axParent, axAncestorOrSelf, axAncestor:
			for m := n; m != nil; m = x.parent(m) {
				add(m)
				if s.axis == axParent {
					break
				}
			}
		}
		return s.filter(x, cand)
	}
	switch s.axis {
	case axChild:
		for j := 0; j < len(n.Children) && !full(); j++ {
			add(n.Children[j])
		}
	case axDescendant, axDescendantOrSelf:
		tree.Walk(n, func(m *tree.Node) bool {
			if m != n || s.axis == axDescendantOrSelf {
				add(m)
			}
			return true
		})
	case axSelf:
		add(n)
	case axParent:
		if m := x.parent(n); m != nil {
			add(m)
		}
	case axAncestor, axAncestorOrSelf:
		m := n
		if s.axis == axAncestor {
			m = x.parent(n)
		}
		for ; m != nil && !full(); m = x.parent(m) {
			add(m)
		}
	case axFollowingSibling, axPrecedingSibling:
		if n.Parent != nil {
			i := x.index.Of(n)
			sibs := n.Parent.Children
			if s.axis == axFollowingSibling {
				for j := i + 1; j < len(sibs) && !full(); j++ {
					add(sibs[j])
				}
			} else {
				for j := i - 1; j >= 0 && !full(); j-- {
					add(sibs[j])
				}
			}
		}
	case axAttribute:
		if n.Kind == tree.Element {
			for i, a := range n.Attrs {
				if s.test == testNode || (s.test == testName && (s.name == "*" || s.name == a.Name)) {
					cand = append(cand, xitem{n, i})
				}
			}
		}
	}
	return s.filter(x, cand)
}

// positional returns k when the step's first predicate is the number k, a
// positive integer (a position: [1], [3]), and 0 otherwise.
func (s *xstep) positional() int {
	if len(s.preds) == 0 {
		return 0
	}
	l, ok := s.preds[0].(xlit)
	if !ok || l.v.kind != xvNum {
		return 0
	}
	if k := l.v.num; k >= 1 && k <= math.MaxInt32 && k == math.Trunc(k) {
		return int(k)
	}
	return 0
}

func (s *xstep) matches(m *tree.Node) bool {
	switch s.test {
	case testNode:
		return true
	case testText:
		return m.Kind == tree.Text
	case testComment:
		return m.Kind == tree.Comment
	}
	if m.Kind != tree.Element {
		return false
	}
	return s.name == "*" || m.Name == s.name
}

func (s *xstep) filter(x *xeval, cand []xitem) []xitem {
	for _, pr := range s.preds {
		var kept []xitem
		for i, it := range cand {
			v := pr.eval(x, it, i+1, len(cand))
			ok := false
			if v.kind == xvNum {
				ok = v.num == float64(i+1)
			} else {
				ok = v.boolean()
			}
			if ok {
				kept = append(kept, it)
			}
		}
		cand = kept
	}
	return cand
}

// expression nodes

type xlit struct{ v xval }

func (e xlit) eval(*xeval, xitem, int, int) xval { return e.v }

type xpathExpr struct{ p *xpathPath }

func (e xpathExpr) eval(x *xeval, ctx xitem, _, _ int) xval {
	return xval{kind: xvNodes, nodes: e.p.eval(x, ctx)}
}

type xbinary struct {
	op   string // and or = != < <= > >=
	x, y xexpr
}

func (e xbinary) eval(x *xeval, ctx xitem, pos, size int) xval {
	switch e.op {
	case "and":
		return xval{kind: xvBool, b: e.x.eval(x, ctx, pos, size).boolean() && e.y.eval(x, ctx, pos, size).boolean()}
	case "or":
		return xval{kind: xvBool, b: e.x.eval(x, ctx, pos, size).boolean() || e.y.eval(x, ctx, pos, size).boolean()}
	}
	a, b := e.x.eval(x, ctx, pos, size), e.y.eval(x, ctx, pos, size)
	return xval{kind: xvBool, b: compareValues(e.op, a, b)}
}

// compareValues compares as XPath 1.0 does: a node-set compares true if
// some member does.
func compareValues(op string, a, b xval) bool {
	if a.kind == xvNodes {
		for _, it := range a.nodes {
			if compareValues(op, xval{kind: xvStr, str: it.value()}, b) {
				return true
			}
		}
		return false
	}
	if b.kind == xvNodes {
		for _, it := range b.nodes {
			if compareValues(op, a, xval{kind: xvStr, str: it.value()}) {
				return true
			}
		}
		return false
	}
	switch op {
	case "=", "!=":
		var eq bool
		switch {
		case a.kind == xvBool || b.kind == xvBool:
			eq = a.boolean() == b.boolean()
		case a.kind == xvNum || b.kind == xvNum:
			eq = a.number() == b.number()
		default:
			eq = a.string() == b.string()
		}
		return eq == (op == "=")
	}
	x, y := a.number(), b.number()
	switch op {
	case "<":
		return x < y
	case "<=":
		return x <= y
	case ">":
		return x > y
	case ">=":
		return x >= y
	}
	return false
}

type xcall struct {
	name string
	args []xexpr
}

func (e xcall) eval(x *xeval, ctx xitem, pos, size int) xval {
	arg := func(i int) xval { return e.args[i].eval(x, ctx, pos, size) }
	str := func(i int) string {
		if i < len(e.args) {
			return arg(i).string()
		}
		return ctx.value()
	}
	switch e.name {
	case "position":
		return xval{kind: xvNum, num: float64(pos)}
	case "last":
		return xval{kind: xvNum, num: float64(size)}
	case "not":
		return xval{kind: xvBool, b: !arg(0).boolean()}
	case "true":
		return xval{kind: xvBool, b: true}
	case "false":
		return xval{kind: xvBool}
	case "contains":
		return xval{kind: xvBool, b: strings.Contains(str(0), str(1))}
	case "starts-with":
		return xval{kind: xvBool, b: strings.HasPrefix(str(0), str(1))}
	case "normalize-space":
		return xval{kind: xvStr, str: normalizeSpaceOnly(str(0), false)}
	case "string":
		return xval{kind: xvStr, str: str(0)}
	case "count":
		v := arg(0)
		return xval{kind: xvNum, num: float64(len(v.nodes))}
	}
	return xval{kind: xvBool}
}

// arity gives the accepted argument counts of the functions.
var xpathFuncs = map[string][2]int{
	"position": {0, 0}, "last": {0, 0}, "not": {1, 1}, "true": {0, 0}, "false": {0, 0},
	"contains": {2, 2}, "starts-with": {2, 2}, "normalize-space": {0, 1}, "string": {0, 1},
	"count": {1, 1},
}

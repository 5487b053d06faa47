package delta

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// This file tells Compose when the binding it takes for a content's place
// from the other delta (a namespace declaration in scope in the middle
// version) may not hold in the version the content is in, and what it is
// there when the deltas say.

// scopeChanges is what one delta, read from one of its versions (from) to
// the other (to), does to the namespace declarations in scope at places
// it does not name: the declarations it changes (xmlns and xmlns:p
// attribute operations), by attribute name and element.
type scopeChanges struct {
	backwards bool // read from the delta's target to its source
	decls     map[string]map[tree.XID]declChange
	root      tree.XID // the root of the to version, 0 when unknown
	// post is the XID map of the to version, its XIDs in post-order (an
	// element after its descendants), empty when unknown; order is its
	// runs by XID, with the place of each, built when first asked
	// (before).
	post  tree.XIDRanges
	order []placedRun
	// defaults is the default namespace in scope below elements of the
	// to version, "" for none, as the delta's own contents there say it
	// (built from the documents): below the parent of a content whose
	// root declares none, by its binding, and below each element of a
	// content.
	defaults map[tree.XID]string
}

// declChange is a declaration's value in the two versions (has: there is
// one).
type declChange struct {
	from, to       string
	hasFrom, hasTo bool
}

// newScopeChanges reads d forwards (from its source to its target) or,
// backwards, from its target to its source.
func newScopeChanges(d *Delta, backwards bool) *scopeChanges {
	s := &scopeChanges{backwards: backwards}
	if backwards {
		s.post = d.FromXIDMap
	} else {
		s.post = d.ToXIDMap
	}
	s.root = s.post.Root()
	in := Insert // the operations whose contents are in the to version
	if backwards {
		in = Delete
	}
	for i := range d.Ops {
		op := &d.Ops[i]
		switch op.Kind {
		case in:
			if c := op.Content; c != nil && c.Kind == tree.Element {
				s.learnDefaults(op)
			}
		case AttrInsert, AttrDelete, AttrUpdate:
			if op.Name != defaultNamespace && !isPrefixDecl(op.Name) {
				continue
			}
			c := declChange{from: op.OldValue, to: op.NewValue, hasFrom: op.Kind != AttrInsert, hasTo: op.Kind != AttrDelete}
			if backwards {
				c.from, c.to, c.hasFrom, c.hasTo = c.to, c.from, c.hasTo, c.hasFrom
			}
			if s.decls == nil {
				s.decls = map[string]map[tree.XID]declChange{}
			}
			if s.decls[op.Name] == nil {
				s.decls[op.Name] = map[tree.XID]declChange{}
			}
			s.decls[op.Name][op.Node] = c
		}
	}
	return s
}

// learnDefaults adds to s.defaults what op's content, an element in the
// to version, says of the default namespaces there.
func (s *scopeChanges) learnDefaults(op *Op) {
	if s.defaults == nil {
		s.defaults = map[tree.XID]string{}
	}
	above := op.Namespaces[""] // what the content's place binds, "" for none
	if !hasAttr(op.Content.Attrs, defaultNamespace) {
		s.defaults[op.Parent] = above
	}
	type frame struct {
		n  *tree.Node
		in string // the default namespace above n
	}
	stack := []frame{{op.Content, above}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		in := f.in
		if v, ok := f.n.Attr(defaultNamespace); ok {
			in = v
		}
		if f.n.XID != 0 {
			s.defaults[f.n.XID] = in
		}
		for _, c := range f.n.Children {
			if c.Kind == tree.Element {
				stack = append(stack, frame{c, in})
			}
		}
	}
}

// isPrefixDecl reports whether an attribute name declares a prefix.
func isPrefixDecl(name string) bool {
	p, ok := strings.CutPrefix(name, "xmlns:")
	return ok && p != ""
}

// scopeQuestion is a binding of decl (xmlns, or xmlns:p) that Compose took
// at a content's place in the from version of a scopeChanges, to be
// carried to its to version: uri (bound: ok) at the content's place below
// fromParent, for the content of op, placed below op.Parent in the to
// version, whose XIDs inside reports. from is the parent of the
// content's root in the from version, 0 when not known or not asked
// about.
type scopeQuestion struct {
	decl   string
	uri    string
	ok     bool
	op     *Op
	inside func(tree.XID) bool
	from   tree.XID
}

// carry returns the binding of q.decl at q.op's place in the to version
// of s. When s's own contents in the to version say what the default
// namespace below the content's parent is (a content of s below the same
// parent, or the parent inside one), that is the binding. When s changes
// the declaration on the content's parent, the binding is the new value; when the parent is the root and s leaves its
// declaration, it is the same as in the from version. When s's operations
// may change it and do not say to what (a declaration taken off the
// parent, a declaration changed or added on an element that may be an
// ancestor), carry fails with an error wrapping
// ErrNeedsDocuments that names the operation and the element: only the
// documents tell (ComposeWith). The deltas do not say which elements are
// ancestors of a place, only which are not: an element before the place
// in the to version's XID map, whose post-order lists an element after
// its descendants (an <svg> in a page's header that gains an xmlns, for a
// paragraph inserted in its main part), is left out (before); so is a
// declaration whose value in the from version is
// not the one in scope cannot be the nearest, and one left or put with
// the value in scope changes nothing, so those are left out.
//
// A move of the content itself by s to another parent (q.from is not
// its parent in the to version) out of a declared default namespace
// makes carry fail the same way, unless s's contents say what is in
// scope below the new parent, or s changes the declaration on it: the
// binding taken is that of the place it left, and a move says nothing
// about the declarations at either end. Compose asks so of the default
// namespace (an <svg> or <math> part of an XHTML page is in another), not
// of a prefix, which a document seldom binds two ways, where refusing
// refused right compositions (a content moved out of the element that
// declared its prefix); and not of a content that left no default
// namespace (a page in none, an HTML page, whose <svg> parts declare
// theirs), which keeps none, where refusing refused right compositions
// of real histories (an HTML page's content moved after another delta
// added an inline SVG icon): one moved from there into an <svg> part
// keeps none, and only ComposeWith is exact. A move of
// an element that may be an ancestor of its place is not looked at: the
// deltas of a page with a default namespace move elements across parents
// often, seldom away from the declarations in scope (refusing them
// refused compositions of real histories that were right). Compose keeps
// the binding of the middle version there, and only ComposeWith is
// exact.
func (s *scopeChanges) carry(q scopeQuestion) (string, bool, error) {
	p := q.op.Parent
	if u, ok := s.defaults[p]; ok && q.decl == defaultNamespace {
		return u, u != "", nil
	}
	fail := func(x tree.XID, what string) (string, bool, error) {
		name := "the default namespace"
		if q.decl != defaultNamespace {
			name = "the namespace of prefix " + q.decl[len("xmlns:"):]
		}
		return "", false, fmt.Errorf("%w: %s at the place of %s: the other delta %s element %d, and the deltas do not say what is in scope there; use ComposeWith",
			ErrNeedsDocuments, name, q.op.header(), what, x)
	}
	c, onParent := s.decls[q.decl][p]
	switch {
	case onParent && c.hasTo:
		return c.to, true, nil
	case q.from != 0 && q.from != p && q.ok && q.uri != "":
		// Moved by s to another parent out of a declared default
		// namespace: the binding taken is of the place it left. A
		// content that left none (a page in no namespace, an HTML
		// page, whose <svg> parts declare theirs) keeps none.
		from, to := q.from, p
		if s.backwards {
			from, to = to, from
		}
		return "", false, fmt.Errorf("%w: the default namespace at the place of %s: the other delta moves it from below element %d to below element %d, and the deltas do not say what is in scope there; use ComposeWith",
			ErrNeedsDocuments, q.op.header(), from, to)
	case onParent && p != s.root:
		return fail(p, "takes the declaration off")
	case onParent:
		return "", false, nil
	case p == s.root:
		// Nothing above: the root's declaration, which s leaves as it was.
		return q.uri, q.ok, nil
	}
	u := ""
	if q.ok {
		u = q.uri
	}
	for _, a := range slices.Sorted(maps.Keys(s.decls[q.decl])) {
		c := s.decls[q.decl][a]
		switch {
		case q.inside(a):
			// In the content, below its place.
		case s.before(a, p):
			// Before the place in document order, not above it (an
			// <svg> in a page's header, a paragraph in its main part).
		case c.hasFrom && c.from != u:
			// Not the nearest declaration: a nearer one binds u.
		case c.hasTo && c.to == u:
			// Bound as it was, wherever a stands.
		case c.hasFrom:
			return fail(a, "changes the declaration of")
		default:
			return fail(a, "adds a declaration to")
		}
	}
	return q.uri, q.ok, nil
}

// before reports whether element a comes before element p in the to
// version's post-order (its XID map), and so is no ancestor of p, which
// comes after all of its descendants. False when the map does not hold
// both, as the map of a delta read without one.
func (s *scopeChanges) before(a, p tree.XID) bool {
	if s.order == nil {
		s.order = placeRuns(s.post)
	}
	i, ok := placeOf(s.order, a)
	j, ok2 := placeOf(s.order, p)
	return ok && ok2 && i < j
}

// placedRun is a run of an XID-map with the place of its first XID in the
// map.
type placedRun struct {
	tree.XIDRun
	at int
}

// placeRuns returns the runs of m sorted by XID, each with its place, for
// placeOf: the place of an XID costs a search among the runs, where a map
// from each XID to its place would cost the map's whole length.
func placeRuns(m tree.XIDRanges) []placedRun {
	out := make([]placedRun, 0, len(m.Runs())+1)
	at := 0
	for _, r := range m.Runs() {
		out = append(out, placedRun{r, at})
		at += int(r.Last-r.First) + 1
	}
	slices.SortFunc(out, func(a, b placedRun) int { return cmp.Compare(a.First, b.First) })
	return out
}

// placeOf returns the place of XID x in the map whose runs are runs
// (placeRuns), and whether the map holds it.
func placeOf(runs []placedRun, x tree.XID) (int, bool) {
	k, _ := slices.BinarySearchFunc(runs, x, func(r placedRun, x tree.XID) int {
		switch {
		case r.Last < x:
			return -1
		case r.First > x:
			return 1
		}
		return 0
	})
	if k == len(runs) || runs[k].First > x || runs[k].Last < x {
		return 0, false
	}
	return runs[k].at + int(x-runs[k].First), true
}

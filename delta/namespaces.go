package delta

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// This file keeps a delta namespace-well-formed when written as XML: the
// prefixes its contents use are declared (Delta.Namespaces on the <t>,
// Op.Namespaces on an operation whose place binds one otherwise), the
// default namespace at a content's place is declared on the content's root
// (Op.Namespaces[""], see defaultNamespace), and the names the namespace
// rules reserve are escaped (writtenAsName).

// The namespaces XML binds itself.
const (
	xmlNamespace   = "http://www.w3.org/XML/1998/namespace"
	xmlnsNamespace = "http://www.w3.org/2000/xmlns/"
)

// prefixOf returns the namespace prefix of a qualified name ("dc" of
// "dc:creator"), "" for none and for the prefixes XML binds itself (xml,
// xmlns), which are never declared.
func prefixOf(name string) string {
	i := strings.IndexByte(name, ':')
	if i <= 0 {
		return ""
	}
	p := name[:i]
	if p == "xml" || p == "xmlns" {
		return ""
	}
	return p
}

// elementAsName reports whether an element's name is written as its tag:
// an XML name (plainName) whose prefix is not xmlns, which no element may
// have. The others are written as xy:element.
func elementAsName(name string) bool {
	return plainName(name) && !strings.HasPrefix(name, "xmlns:")
}

// attrAsName reports whether an attribute of an element (written as tag,
// the element's tag) is written in the tag: a plain XML name, and, for a
// namespace declaration, one the namespace rules allow (not xmlns:p="",
// nor a declaration of xmlns, nor xml bound to another namespace, nor
// another prefix bound to either of XML's). The others are written as
// xy:attr children, as are, on an xy:element, its name and a declaration of
// xy (the tag's own).
func attrAsName(tag string, a tree.Attr) bool {
	if !plainName(a.Name) {
		return false
	}
	if tag == xyElement && (a.Name == "name" || a.Name == "xmlns:xy") {
		return false
	}
	p, ok := strings.CutPrefix(a.Name, "xmlns:")
	if !ok {
		return true
	}
	switch {
	case p == "xmlns", a.Value == "", a.Value == xmlnsNamespace:
		return false
	case p == "xml", a.Value == xmlNamespace:
		return p == "xml" && a.Value == xmlNamespace
	}
	return true
}

// usedPrefixes calls use with the prefix of each element and attribute
// name in content that is written as a name (elementAsName, attrAsName) and
// that no declaration inside content binds where it is used, as often as
// it occurs, and the element that uses it. The encoder runs it over every content it writes: most names
// have no colon, and cost one look each.
func usedPrefixes(content *tree.Node, use func(prefix string, at *tree.Node)) {
	if content.Kind != tree.Element {
		return
	}
	type frame struct {
		n        *tree.Node
		next     int
		declares bool // n declares prefixes, to be undone when it ends
	}
	var declared map[string]int // prefixes declared in scope, with their count
	scope := func(n *tree.Node, by int) {
		for _, a := range n.Attrs {
			if p, ok := strings.CutPrefix(a.Name, "xmlns:"); ok && attrAsName(n.Name, a) {
				if declared == nil {
					declared = map[string]int{}
				}
				declared[p] += by
			}
		}
	}
	check := func(name string) string {
		if p := prefixOf(name); p != "" && declared[p] == 0 {
			return p
		}
		return ""
	}
	visit := func(n *tree.Node) (declares bool) {
		colons := false
		for _, a := range n.Attrs {
			if strings.IndexByte(a.Name, ':') >= 0 {
				colons = true
				break
			}
		}
		if colons {
			scope(n, 1)
			declares = true
		}
		if p := check(n.Name); p != "" && elementAsName(n.Name) {
			use(p, n)
		}
		if colons {
			tag := n.Name
			if !elementAsName(tag) {
				tag = xyElement
			}
			for _, a := range n.Attrs {
				if p := check(a.Name); p != "" && attrAsName(tag, a) {
					use(p, n)
				}
			}
		}
		return declares
	}
	stack := []frame{{content, 0, visit(content)}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == len(top.n.Children) {
			if top.declares {
				scope(top.n, -1)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		c := top.n.Children[top.next]
		top.next++
		if c.Kind == tree.Element {
			stack = append(stack, frame{c, 0, visit(c)})
		}
	}
}

// bindPrefixes finds how the place of op's content, node k of version t,
// binds each prefix the content uses: the delta's binding when it has none
// yet (b.namespaces), the operation's own when the delta's differs. A
// prefix no ancestor declares (an HTML page used it undeclared) is left
// out.
func (b *builder) bindPrefixes(t *tree.Measure, k int32, op *Op) {
	var seen []string // few prefixes per content: a list is cheaper than a map
	usedPrefixes(op.Content, func(p string, _ *tree.Node) {
		if slices.Contains(seen, p) {
			return
		}
		seen = append(seen, p)
		decl := "xmlns:" + p
		for a := t.Parent[k]; a >= 0; a = t.Parent[a] {
			uri, ok := t.Attr(a, decl)
			if !ok {
				continue
			}
			if !attrAsName(t.Name(a), tree.Attr{Name: decl, Value: uri}) {
				// A declaration the namespace rules forbid (an HTML
				// page's xmlns:og=""): the prefix is bound nowhere.
				return
			}
			bindPrefix(&b.namespaces, op, p, uri)
			return
		}
	})
}

// bindDefault finds the default namespace at the place of op's content,
// node k of version t, when the content is an element that does not
// declare its own (an xmlns attribute): the value of the xmlns attribute
// of its nearest ancestor that has one. It binds it in op's own bindings
// under the empty prefix (see defaultNamespace), unless it is no namespace
// or one that cannot be declared as the default (XML's own two, which an
// HTML parser keeps as any attribute): the delta's elements are in no
// namespace, so is a content without a declaration.
func (b *builder) bindDefault(t *tree.Measure, k int32, op *Op) {
	if op.Content == nil || op.Content.Kind != tree.Element || hasAttr(op.Content.Attrs, defaultNamespace) {
		return
	}
	uri := b.defaultAt(t, t.Parent[k])
	if uri == "" || uri == xmlNamespace || uri == xmlnsNamespace {
		return
	}
	if op.Namespaces == nil {
		op.Namespaces = map[string]string{}
	}
	op.Namespaces[""] = uri
}

// defaultAt returns the default namespace that node a of version t and its
// ancestors declare, "" for none. It remembers what it finds for every
// node it passes, so that the operations of a delta cost one look at each
// ancestor in all, not one per operation; a document without an xmlns
// attribute costs one pass over its attributes.
func (b *builder) defaultAt(t *tree.Measure, a int32) string {
	s := &b.defaults[0]
	if t == b.new {
		s = &b.defaults[1]
	}
	if !s.scanned {
		s.scanned = true
		s.declares = t.HasAttrNamed(defaultNamespace)
		s.at = map[int32]string{}
	}
	if !s.declares {
		return ""
	}
	var path []int32 // the nodes passed, which take what is found
	uri := ""
	for ; a >= 0; a = t.Parent[a] {
		if u, ok := s.at[a]; ok {
			uri = u
			break
		}
		if u, ok := t.Attr(a, defaultNamespace); ok {
			uri = u
			s.at[a] = u
			break
		}
		path = append(path, a)
	}
	for _, p := range path {
		s.at[p] = uri
	}
	return uri
}

// defaultScope is what builder.defaultAt knows of one version: whether
// the version has a default namespace declaration at all (declares, once
// scanned), and the default namespace in scope at the nodes it looked at.
type defaultScope struct {
	scanned, declares bool
	at                map[int32]string
}

// defaultNamespace is the name of a default namespace declaration: in
// Vigil's tree an attribute like any other of the element that declares
// it. The default namespace at a content's place is bound in its
// operation's Namespaces under the empty prefix; the encoder declares it on
// the content's root, with addedXmlns="yes" on the operation (addedXmlns)
// so that the decoder can tell that declaration from the root's own
// attribute.
const (
	defaultNamespace = "xmlns"
	addedXmlns       = "addedXmlns"
)

// bindPrefix binds prefix p to uri for op's content: in the delta's
// bindings (delta) when they have none for p yet, in op's own when the
// delta's differs.
func bindPrefix(delta *map[string]string, op *Op, p, uri string) {
	switch cur, bound := (*delta)[p]; {
	case !bound:
		if *delta == nil {
			*delta = map[string]string{}
		}
		(*delta)[p] = uri
	case cur != uri:
		if op.Namespaces == nil {
			op.Namespaces = map[string]string{}
		}
		op.Namespaces[p] = uri
	}
}

// declaredPrefixes returns, sorted, the prefixes an encoded delta declares
// on its <t>: those of its Namespaces and those its contents use besides,
// bound nowhere (see undeclaredNamespace).
func declaredPrefixes(d *Delta) []string {
	var seen map[string]bool
	var op *Op
	use := func(p string, _ *tree.Node) {
		_, bound := d.Namespaces[p]
		if _, own := op.Namespaces[p]; !bound && !own {
			if seen == nil {
				seen = map[string]bool{}
			}
			seen[p] = true
		}
	}
	for i := range d.Ops {
		op = &d.Ops[i]
		if op.Content != nil && op.Content.Kind == tree.Element {
			usedPrefixes(op.Content, use)
		}
	}
	if len(seen) == 0 && len(d.Namespaces) == 0 {
		return nil
	}
	out := slices.Collect(maps.Keys(d.Namespaces))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// composeNamespaces binds the prefixes the contents of d, composed from d1
// and d2, use. The middle version Compose rebuilds lacks the ancestors of
// most contents, so a prefix's binding in a content is taken from the first
// node that uses it, as the operation of d1 or d2 whose content held that
// node bound it (an insert's node from d2's inserts, then d1's; a delete's
// from d1's deletes, then d2's): a declaration above the node inside that
// content, on a node that is not in d's content (a move can take a node out
// of the element that declared its prefix; d's content has its own
// declarations, which an attribute operation of d2 may have changed), else
// the binding at that content's place. Failing that, what the
// build found, then any binding or declaration the two deltas hold. The
// first binding of a prefix is d's; an operation whose binding differs has
// its own.
//
// The default namespace at a content's place (when its root, an element,
// has no xmlns attribute) is taken likewise from the operation of d1 or d2
// whose content held the root: a declaration above it in that content, or
// that operation's binding; failing that, what the build found.
//
// A binding taken from the other delta's content (d1's for an insert, d2's
// for a delete) holds in the middle version, and the delta written at the
// content's version may have changed a declaration in scope since:
// scopeChanges.carry takes it there (the default namespace that delta's
// own contents show below the content's parent; the new value of the
// parent's declaration; the same binding when no declaration that may be
// the nearest one changed), or returns an error wrapping ErrNeedsDocuments
// when the deltas do not say what it is (a declaration changed, added or
// taken off on an element that may be an ancestor: the deltas do not say
// which elements are, only that one before the place in the post-order of
// their XID maps is none). So for the default namespace and for a prefix.
// A content that the other delta moves to another parent out of a
// declared default namespace is refused so when its default namespace is
// asked and not shown there (see carry); a content that left none, a
// content placed below an element the other delta moves, and a prefix's
// binding at a content moved, keep the binding of the place in the
// middle version; ComposeWith is exact.
func composeNamespaces(d, d1, d2 *Delta) error {
	uses := false // most deltas' contents use no prefix: nothing to index
	for i := 0; i < len(d.Ops) && !uses; i++ {
		if c := d.Ops[i].Content; c != nil {
			usedPrefixes(c, func(string, *tree.Node) { uses = true })
		}
	}
	defaults := hasDefaults(d1) || hasDefaults(d2)
	if !uses && !defaults {
		return nil
	}
	type source struct {
		d    *Delta
		op   *Op
		node *tree.Node // the node in op's content
	}
	index := func(x *Delta, kind OpKind) map[tree.XID]source {
		m := map[tree.XID]source{}
		for i := range x.Ops {
			if op := &x.Ops[i]; op.Kind == kind && op.Content != nil {
				tree.Walk(op.Content, func(n *tree.Node) bool {
					if n.XID != 0 {
						m[n.XID] = source{x, op, n}
					}
					return true
				})
			}
		}
		return m
	}
	inserts := []map[tree.XID]source{index(d2, Insert), index(d1, Insert)}
	deletes := []map[tree.XID]source{index(d1, Delete), index(d2, Delete)}
	known := map[string]string{}
	learn := func(p, uri string) {
		if _, ok := known[p]; !ok {
			known[p] = uri
		}
	}
	for _, x := range []*Delta{d2, d1} {
		for p, uri := range x.Namespaces {
			learn(p, uri)
		}
		for i := range x.Ops {
			for p, uri := range x.Ops[i].Namespaces {
				learn(p, uri)
			}
			if c := x.Ops[i].Content; c != nil {
				tree.Walk(c, func(n *tree.Node) bool {
					for _, a := range n.Attrs {
						if p, ok := strings.CutPrefix(a.Name, "xmlns:"); ok && attrAsName(n.Name, a) {
							learn(p, a.Value)
						}
					}
					return n.Kind == tree.Element
				})
			}
		}
	}
	// bindingAt returns how the source content s binds p at its node,
	// leaving out the declarations of the source's nodes that are in the
	// composed content (inside): usedPrefixes has read that content's own,
	// which a later delta's attribute operations may have changed since the
	// source was written (an xmlns:p deleted from the node that uses p).
	bindingAt := func(s source, p string, inside func(tree.XID) bool) (string, bool) {
		decl := "xmlns:" + p
		if p == "" {
			decl = defaultNamespace
		}
		for a := s.node; a != nil; a = a.Parent {
			if inside(a.XID) {
				continue
			}
			for _, at := range a.Attrs {
				if at.Name == decl && attrAsName(a.Name, at) {
					return at.Value, true
				}
			}
		}
		if uri, ok := s.op.Namespaces[p]; ok {
			return uri, true
		}
		uri, ok := s.d.Namespaces[p]
		return uri, ok
	}
	built := d.Namespaces
	d.Namespaces = nil
	// What the delta not written at a content's version (d2 for an
	// insert, d1 for a delete) does to the declarations in scope: a
	// binding taken from the other delta's operation holds in the middle
	// version, and carry takes it to the content's.
	var scopes [2]*scopeChanges
	carry := func(op *Op, q scopeQuestion) (string, bool, error) {
		k := 0
		if op.Kind == Delete {
			k = 1
		}
		if scopes[k] == nil {
			if k == 0 {
				scopes[k] = newScopeChanges(d2, false)
			} else {
				scopes[k] = newScopeChanges(d1, true)
			}
		}
		return scopes[k].carry(q)
	}
	var err error
	for i := 0; i < len(d.Ops) && err == nil; i++ {
		op := &d.Ops[i]
		builtOwn := op.Namespaces
		op.Namespaces = nil
		if op.Content == nil {
			continue
		}
		sources := inserts
		if op.Kind == Delete {
			sources = deletes
		}
		var content map[tree.XID]bool // op's XIDs, once a source is looked at
		inside := func(x tree.XID) bool {
			if content == nil {
				content = make(map[tree.XID]bool, len(op.XIDs.XIDs))
				for _, y := range op.XIDs.XIDs {
					content[y] = true
				}
			}
			return content[x]
		}
		// The parent of the content's root in the middle version, when
		// its binding comes from the other delta: a move there by the
		// delta written at the content's version leaves it (carry).
		var from tree.XID
		if s, found := sources[1][op.Content.XID]; found {
			if s.node.Parent != nil {
				from = s.node.Parent.XID
			} else {
				from = s.op.Parent
			}
		}
		var seen []string
		usedPrefixes(op.Content, func(p string, at *tree.Node) {
			if slices.Contains(seen, p) {
				return
			}
			seen = append(seen, p)
			uri, ok := "", false
			for k, m := range sources {
				s, found := m[at.XID]
				if !found {
					continue
				}
				if uri, ok = bindingAt(s, p, inside); !ok {
					continue
				}
				if k == 1 && err == nil {
					// A prefix's binding where a move takes the content is
					// the middle version's (see carry): a document seldom
					// binds a prefix two ways, and the deltas seldom say.
					uri, ok, err = carry(op, scopeQuestion{decl: "xmlns:" + p, uri: uri, ok: ok, op: op, inside: inside})
				}
				break
			}
			if !ok {
				if uri, ok = builtOwn[p]; !ok {
					uri, ok = built[p]
				}
			}
			if !ok {
				if uri, ok = known[p]; !ok {
					return
				}
			}
			bindPrefix(&d.Namespaces, op, p, uri)
		})
		if c := op.Content; defaults && c.Kind == tree.Element && !hasAttr(c.Attrs, defaultNamespace) {
			uri, ok := builtOwn[""]
			for k, m := range sources {
				if s, found := m[c.XID]; found {
					uri, ok = bindingAt(s, "", inside)
					if k == 1 && err == nil {
						uri, ok, err = carry(op, scopeQuestion{decl: defaultNamespace, uri: uri, ok: ok, op: op, inside: inside, from: from})
					}
					break
				}
			}
			if ok && uri != "" && uri != xmlNamespace && uri != xmlnsNamespace {
				if op.Namespaces == nil {
					op.Namespaces = map[string]string{}
				}
				op.Namespaces[""] = uri
			}
		}
	}
	return err
}

// hasDefaults reports whether an operation of d binds the default
// namespace, changes a declaration of it (an xmlns attribute) or holds a
// content that declares one.
func hasDefaults(d *Delta) bool {
	for i := range d.Ops {
		op := &d.Ops[i]
		if _, ok := op.Namespaces[""]; ok {
			return true
		}
		if op.Name == defaultNamespace && (op.Kind == AttrDelete || op.Kind == AttrInsert || op.Kind == AttrUpdate) {
			return true
		}
		declares := false
		if op.Content != nil {
			tree.Walk(op.Content, func(n *tree.Node) bool {
				declares = declares || hasAttr(n.Attrs, defaultNamespace)
				return !declares && n.Kind == tree.Element
			})
		}
		if declares {
			return true
		}
	}
	return false
}

// validateOpNamespaces checks an operation's bindings: only a d or an i
// has any, each can be written as an XML namespace declaration, and a
// binding of the default namespace (the empty prefix) as one on the root
// of the content, which must be an element without an xmlns attribute of
// its own.
func validateOpNamespaces(op *Op) error {
	if op.Kind != Delete && op.Kind != Insert {
		if len(op.Namespaces) > 0 {
			return fmt.Errorf("only a d or an i has a content whose names an operation binds")
		}
		return nil
	}
	uri, ok := op.Namespaces[""]
	if !ok {
		return validateNamespaces(op.Namespaces)
	}
	switch c := op.Content; {
	case c == nil || c.Kind != tree.Element:
		return fmt.Errorf("the default namespace binds an element content's root, and the operation has none")
	case hasAttr(c.Attrs, defaultNamespace):
		return fmt.Errorf("the default namespace is bound where the content's root has an xmlns attribute of its own")
	case uri == "":
		return fmt.Errorf("the default namespace is bound to no URI")
	case uri == xmlNamespace || uri == xmlnsNamespace:
		return fmt.Errorf("the default namespace cannot be bound to %s", uri)
	}
	if err := checkXMLChars(uri); err != nil {
		return fmt.Errorf("the default namespace: %v", err)
	}
	others := maps.Clone(op.Namespaces)
	delete(others, "")
	return validateNamespaces(others)
}

// validateNamespaces checks that each binding can be written as an XML
// namespace declaration on a delta's <t> or operation, which is in no
// namespace and so binds no default namespace.
func validateNamespaces(ns map[string]string) error {
	for _, p := range slices.Sorted(maps.Keys(ns)) {
		uri := ns[p]
		switch {
		case p == "":
			return fmt.Errorf("the default namespace is not bound on the delta, whose elements are in no namespace, but on a content's root")
		case !plainName(p) || strings.ContainsRune(p, ':'):
			return fmt.Errorf("namespace prefix %q is not an XML name without a colon", p)
		case p == "xml" || p == "xmlns":
			return fmt.Errorf("namespace prefix %q cannot be declared", p)
		case uri == "":
			return fmt.Errorf("namespace prefix %q is bound to no URI", p)
		case uri == xmlNamespace || uri == xmlnsNamespace:
			return fmt.Errorf("namespace prefix %q cannot be bound to %s", p, uri)
		}
		if err := checkXMLChars(uri); err != nil {
			return fmt.Errorf("namespace prefix %q: %v", p, err)
		}
	}
	return nil
}

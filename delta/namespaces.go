package delta

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/vigil-web/vigil/tree"
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

// usedPrefixes calls use with the prefix of each element and attribute
// name in content that XML writes as a name (see plainName; the others are
// escaped) and that no declaration inside content binds where it is used,
// as often as it occurs.
func usedPrefixes(content *tree.Node, use func(prefix string)) {
	if content.Kind != tree.Element {
		return
	}
	type frame struct {
		n    *tree.Node
		next int
	}
	var declared map[string]int // prefixes declared in scope, with their count
	enter := func(n *tree.Node, by int) {
		for _, a := range n.Attrs {
			if p, ok := strings.CutPrefix(a.Name, "xmlns:"); ok {
				if declared == nil {
					declared = map[string]int{}
				}
				declared[p] += by
			}
		}
	}
	used := func(name string) {
		if p := prefixOf(name); p != "" && declared[p] == 0 && plainName(name) {
			use(p)
		}
	}
	stack := []frame{{content, 0}}
	enter(content, 1)
	used(content.Name)
	for _, a := range content.Attrs {
		used(a.Name)
	}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == len(top.n.Children) {
			enter(top.n, -1)
			stack = stack[:len(stack)-1]
			continue
		}
		c := top.n.Children[top.next]
		top.next++
		if c.Kind != tree.Element {
			continue
		}
		enter(c, 1)
		used(c.Name)
		for _, a := range c.Attrs {
			used(a.Name)
		}
		stack = append(stack, frame{c, 0})
	}
}

// declaredPrefixes returns, sorted, the prefixes an encoded delta declares:
// those of its Namespaces and those its contents use besides.
func declaredPrefixes(d *Delta) []string {
	var seen map[string]bool
	for i := range d.Ops {
		if c := d.Ops[i].Content; c != nil && c.Kind == tree.Element {
			usedPrefixes(c, func(p string) {
				if _, ok := d.Namespaces[p]; !ok {
					if seen == nil {
						seen = map[string]bool{}
					}
					seen[p] = true
				}
			})
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

// bindPrefixes adds to b.namespaces the binding of each prefix content
// uses that it does not have yet, as the ancestors of node k of version t
// declare it. A prefix no ancestor declares (the content declares it
// itself, or an HTML page used it undeclared) is left out.
func (b *builder) bindPrefixes(t *tree.Measure, k int32, content *tree.Node) {
	usedPrefixes(content, func(p string) {
		if _, ok := b.namespaces[p]; ok {
			return
		}
		decl := "xmlns:" + p
		for a := t.Parent[k]; a >= 0; a = t.Parent[a] {
			if uri, ok := t.Attr(a, decl); ok {
				if b.namespaces == nil {
					b.namespaces = map[string]string{}
				}
				b.namespaces[p] = uri
				return
			}
		}
	})
}

// mergeNamespaces returns the bindings of a and b, a's where both bind a
// prefix; nil for none.
func mergeNamespaces(a, b map[string]string) map[string]string {
	if len(b) == 0 {
		return maps.Clone(a)
	}
	out := maps.Clone(b)
	maps.Copy(out, a)
	return out
}

// validateNamespaces checks that each binding can be written as an XML
// namespace declaration.
func validateNamespaces(ns map[string]string) error {
	for _, p := range slices.Sorted(maps.Keys(ns)) {
		switch {
		case !plainName(p) || strings.ContainsRune(p, ':'):
			return fmt.Errorf("namespace prefix %q is not an XML name without a colon", p)
		case p == "xml" || p == "xmlns":
			return fmt.Errorf("namespace prefix %q cannot be declared", p)
		case ns[p] == "":
			return fmt.Errorf("namespace prefix %q is bound to no URI", p)
		}
	}
	return nil
}

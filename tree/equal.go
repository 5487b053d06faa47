package tree

import (
	"fmt"
	"slices"
	"strings"
)

// EqualMode selects what Diff compares.
type EqualMode uint8

// Modes for Diff.
const (
	// Content compares kinds, names, values, children in order and
	// attributes as sets (their order is not significant).
	Content EqualMode = iota
	// ContentAndXIDs also requires equal XIDs on every node.
	ContentAndXIDs
)

// Equal reports whether the subtrees a and b have the same content.
func Equal(a, b *Node) bool { return Diff(a, b, Content) == "" }

// Diff returns "" if the subtrees a and b are equal under mode, and otherwise
// a description of the first difference in document order, with the path of
// the node where it is, for test failures and error messages.
func Diff(a, b *Node, mode EqualMode) string {
	type pair struct{ a, b *Node }
	stack := []pair{{a, b}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := p.a, p.b
		switch {
		case x.Kind != y.Kind:
			return fmt.Sprintf("%s: kind %s != %s", Path(x), x.Kind, y.Kind)
		case x.Name != y.Name:
			return fmt.Sprintf("%s: name %q != %q", Path(x), x.Name, y.Name)
		case x.Value != y.Value:
			return fmt.Sprintf("%s: value %q != %q", Path(x), truncate(x.Value, 60), truncate(y.Value, 60))
		case mode == ContentAndXIDs && x.XID != y.XID:
			return fmt.Sprintf("%s: XID %d != %d", Path(x), x.XID, y.XID)
		case !equalAttrs(x.Attrs, y.Attrs):
			return fmt.Sprintf("%s: attributes %v != %v", Path(x), x.Attrs, y.Attrs)
		case len(x.Children) != len(y.Children):
			return fmt.Sprintf("%s: %d children != %d", Path(x), len(x.Children), len(y.Children))
		}
		for i := len(x.Children) - 1; i >= 0; i-- {
			stack = append(stack, pair{x.Children[i], y.Children[i]})
		}
	}
	return ""
}

// SameLeaf reports whether a and b have the same kind, name and value,
// their attributes and children aside: the whole of a comment or a
// processing instruction, as a prolog or an epilog holds them.
func SameLeaf(a, b *Node) bool {
	return a.Kind == b.Kind && a.Name == b.Name && a.Value == b.Value
}

// SameLeaves reports whether a and b hold as many nodes, each the same
// leaf as its counterpart (SameLeaf): two prologs or epilogs alike.
func SameLeaves(a, b []*Node) bool {
	return slices.EqualFunc(a, b, SameLeaf)
}

func equalAttrs(a, b []Attr) bool {
	if len(a) != len(b) {
		return false
	}
	if slices.Equal(a, b) {
		return true
	}
	sa, sb := slices.Clone(a), slices.Clone(b)
	cmp := func(x, y Attr) int { return strings.Compare(x.Name, y.Name) }
	slices.SortFunc(sa, cmp)
	slices.SortFunc(sb, cmp)
	return slices.Equal(sa, sb)
}

package intent

import (
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// SourceLink is a link written in the text of a document read as its
// source text (SourceLinks).
type SourceLink struct {
	// Node is the text node where it starts.
	Node *tree.Node
	// Ref is the URL as written: as TextLinks reads it (TextLink.URL:
	// with its http:// for a www. one, JSON's escapes read) for an
	// absolute URL, the attribute's value (its character references read,
	// white space around it trimmed) for one written relative in a tag
	// (Relative).
	Ref string
	// Relative tells a URL written relative in a tag's href or src
	// (markupRefs) from an absolute one (TextLinks).
	Relative bool
	// Resource is set for a URL, relative or absolute, written as a
	// resource's address in a tag: an img's or a script's src, a
	// stylesheet's href; not the href of an a or area element nor an
	// xlink:href, which are a parsed page's links, nor a URL in prose.
	Resource bool
	// Base is what Ref resolves against: the text's first base element's
	// href, resolved against the document's address, for a relative Ref
	// when the text has one and it is http or https (PageBase passes
	// over another scheme), else the document's address (nil if
	// unknown).
	Base *url.URL
	// Label is the label of a Markdown link, "" for a bare URL and for a
	// tag's href or src.
	Label string
}

// URL returns l's target as it resolves against l.Base, an http(s) host
// by its key (spec.HostKey), as a links sentinel compares links; as
// written when there is no base or it does not resolve.
func (l *SourceLink) URL() string {
	return ResolveURL(l.Base, l.Ref)
}

// SourceLinks returns the links written in the text of root, a document
// read as its source text (a page whose body is one <pre> of its text,
// one text node a line) fetched from base (nil if unknown), in the order
// they are written, as a links sentinel reads them from a page read as
// text (see the package doc, Pages read as text): the absolute http(s)
// URLs of each text node (TextLinks), and the URLs its tags write
// relative in their href and src attributes (markupRefs: the text nodes
// read as one text, as a tag may run over lines), resolved against the
// text's first base element's href if it has one that is http or https
// (or relative), else against base, as PageBase takes a page's.
// Comments and processing instructions are not read.
func SourceLinks(root *tree.Node, base *url.URL) []SourceLink {
	if root == nil {
		return nil
	}
	return sourceLinks(root, base, func(*tree.Node) bool { return false })
}

// sourceLinks is SourceLinks, with the elements under root that skip
// reports (a content's ignored regions) left out.
func sourceLinks(root *tree.Node, base *url.URL, skip func(*tree.Node) bool) []SourceLink {
	var nodes []*tree.Node
	var starts []int
	var b strings.Builder
	tree.Walk(root, func(n *tree.Node) bool {
		switch n.Kind {
		case tree.Text:
			nodes, starts = append(nodes, n), append(starts, b.Len())
			b.WriteString(n.Value)
		case tree.Element:
			return n == root || !skip(n)
		}
		return false
	})
	refs := markupRefs(b.String())
	refBase := base
	for _, ref := range refs {
		if ref.base {
			from := base
			if from == nil {
				from = &url.URL{} // a relative base resolves to itself
			}
			// Only the first base element with an href counts, and
			// one that is not http or https is passed over, as a
			// parsed page's (PageBase).
			if u, ok := baseHref(from, ref.url); ok {
				refBase = u
			}
			break
		}
	}
	// spans are the base elements' hrefs and the resources' absolute
	// addresses, where TextLinks reads a URL as any other, in text order
	// (their values do not overlap).
	var spans []markupRef
	for _, ref := range refs {
		if ref.base || ref.absolute {
			spans = append(spans, ref)
		}
	}
	// in returns the span whose value holds offset at of the text: the
	// last one starting at or before it, found by a binary search, so
	// that a text of many such tags is read in n log n, not n².
	in := func(at int) (markupRef, bool) {
		k := sort.Search(len(spans), func(i int) bool { return spans[i].start > at })
		if k > 0 && at < spans[k-1].end {
			return spans[k-1], true
		}
		return markupRef{}, false
	}
	var out []SourceLink
	addRef := func(ref markupRef) {
		if ref.base || ref.absolute {
			return // a base element's href is no link; TextLinks reads an absolute one
		}
		// The last node starting at or before it (an empty one starts
		// where the next does).
		k, _ := slices.BinarySearch(starts, ref.start+1)
		out = append(out, SourceLink{Node: nodes[k-1], Ref: ref.url, Relative: true, Resource: ref.resource, Base: refBase})
	}
	for k, n := range nodes {
		end := b.Len()
		if k+1 < len(nodes) {
			end = starts[k+1]
		}
		for _, l := range TextLinks(n.Value) {
			for len(refs) > 0 && refs[0].start < starts[k]+l.Start {
				addRef(refs[0])
				refs = refs[1:]
			}
			sp, inTag := in(starts[k] + l.Start)
			if inTag && sp.base {
				continue // a base element's href is no link
			}
			label := l.Text
			if label == l.URL {
				label = ""
			}
			out = append(out, SourceLink{Node: n, Ref: l.URL, Base: base, Label: label, Resource: inTag})
		}
		for len(refs) > 0 && refs[0].start < end {
			addRef(refs[0])
			refs = refs[1:]
		}
	}
	return out
}

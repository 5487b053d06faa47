package intent

import (
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// leafKind tells text leaves, attribute leaves and the phrase leaves of
// the realigned trees apart.
type leafKind uint8

const (
	leafText leafKind = iota + 1
	leafAttr
	leafPhrase
)

// leaf is a content leaf of the seed's data model (§4.1): a text node or an
// attribute, with its value and signature.
type leaf struct {
	kind  leafKind
	node  *tree.Node // the text node, or the element of an attribute; for a phrase its first text node
	attr  string     // the attribute's name
	value string     // white-space-normalised value
	sig   string     // path(x): element labels from the root to the parent, joined by "-" (+ "-" + attribute name)
	group int32      // the second-level subtree holding the leaf (index among the group root's children), -1 if none
	pos   int        // 1-based ordinal among the leaves of its sequence

	display  string // a phrase leaf: the phrase as the user wrote it
	wlo, whi int    // a phrase leaf: its first and last word (indexes into content.words)
}

// word is a word of a text leaf.
type word struct {
	text string // as written
	key  string // comparison form (wordKey)
	leaf int32  // index of its leaf in content.leaves
	idx  int32  // 1-based index among the words of its leaf
}

// content is the part of one version a change type looks at: the whole
// document, or the subtrees its scope selects, less the ignored regions.
type content struct {
	doc  *tree.Document
	html bool
	root string // label of the document root (Assumption 1 compares them)

	roots   []*tree.Node
	ignored map[*tree.Node]bool

	leaves    []leaf // text and attribute leaves, document order
	textLeafs int    // number of text leaves
	words     []word // words of the text leaves, document order

	links, images  []object // built lazily
	linksDone      bool
	imagesDone     bool
	tables, lists  []*container
	tablesDone     bool
	listsDone      bool
	text           string // text leaves joined by spaces, for regular expressions
	textDone       bool
	caseSensitive  bool
	textLeafOffset []int // byte offset of each leaf's text in text, -1 for attributes
}

// nonContent are the HTML elements whose text is not content: scripts,
// styles, noscript fallbacks and templates.
var nonContent = map[string]bool{"script": true, "style": true, "noscript": true, "template": true}

// contentAttrs are the HTML attributes that are content: link targets,
// image sources and alternative texts. In XML every attribute is content.
var contentAttrs = map[string]bool{"href": true, "src": true, "alt": true}

// isHTML reports whether d is an HTML (or XHTML) document.
func isHTML(d *tree.Document) bool {
	if d == nil || d.Root == nil {
		return false
	}
	name := d.Root.Name
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	return strings.EqualFold(name, "html")
}

// newContent extracts the leaves and words of d inside the scope's
// matches (the whole document when scope is nil), leaving out what the
// ignore selectors match.
func newContent(d *tree.Document, scope Selector, ignore []Selector, caseSensitive bool) *content {
	c := &content{doc: d, caseSensitive: caseSensitive}
	if d == nil || d.Root == nil {
		return c
	}
	c.html = isHTML(d)
	c.root = d.Root.Name
	if len(ignore) > 0 {
		c.ignored = make(map[*tree.Node]bool)
		for _, s := range ignore {
			for _, n := range s.Select(d.Root) {
				c.ignored[n] = true
			}
		}
	}
	if scope == nil {
		c.roots = []*tree.Node{d.Root}
	} else {
		sel := scope.Select(d.Root)
		in := make(map[*tree.Node]bool, len(sel))
		for _, n := range sel {
			in[n] = true
		}
		for _, n := range sel {
			nested := false
			for p := n.Parent; p != nil; p = p.Parent {
				if in[p] {
					nested = true
					break
				}
			}
			if !nested {
				c.roots = append(c.roots, n)
			}
		}
	}
	groupRoot := d.Root
	if c.html {
		for _, ch := range d.Root.Children {
			if ch.Kind == tree.Element && strings.EqualFold(ch.Name, "body") {
				groupRoot = ch
			}
		}
	}
	for _, r := range c.roots {
		c.extract(r, groupRoot)
	}
	c.textLeafs = 0
	for i := range c.leaves {
		c.leaves[i].pos = i + 1
		if c.leaves[i].kind != leafText {
			continue
		}
		c.textLeafs++
		for j, w := range splitWords(c.leaves[i].value) {
			k := wordKey(w, caseSensitive)
			if k == "" {
				continue
			}
			c.words = append(c.words, word{text: w, key: k, leaf: int32(i), idx: int32(j + 1)})
		}
	}
	return c
}

// skip reports whether n's subtree is left out.
func (c *content) skip(n *tree.Node) bool {
	switch n.Kind {
	case tree.Comment, tree.ProcInst:
		return true
	case tree.Element:
		if c.html && nonContent[strings.ToLower(n.Name)] {
			return true
		}
	}
	return c.ignored != nil && c.ignored[n]
}

func (c *content) extract(r *tree.Node, groupRoot *tree.Node) {
	type frame struct {
		n     *tree.Node
		sig   string
		group int32
	}
	// the signature of r's parent and r's group
	var labels []string
	group := int32(-1)
	for p := r.Parent; p != nil; p = p.Parent {
		labels = append(labels, p.Name)
	}
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	for m := r; m != nil && m.Parent != nil; m = m.Parent {
		if m.Parent == groupRoot {
			group = int32(m.Index())
		}
	}
	// skip r if an ancestor is ignored or not content
	for p := r; p != nil; p = p.Parent {
		if c.skip(p) {
			return
		}
	}
	stack := []frame{{r, strings.Join(labels, "-"), group}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := f.n
		if f.n != r && c.skip(n) {
			continue
		}
		switch n.Kind {
		case tree.Text:
			if v := normalizeSpace(n.Value); v != "" {
				c.leaves = append(c.leaves, leaf{kind: leafText, node: n, value: v, sig: f.sig, group: f.group})
			}
		case tree.Element:
			sig := n.Name
			if f.sig != "" {
				sig = f.sig + "-" + n.Name
			}
			for _, a := range n.Attrs {
				if c.html {
					if !contentAttrs[strings.ToLower(a.Name)] {
						continue
					}
				} else if a.Name == "xmlns" || strings.HasPrefix(a.Name, "xmlns:") {
					continue
				}
				if v := normalizeSpace(a.Value); v != "" {
					c.leaves = append(c.leaves, leaf{kind: leafAttr, node: n, attr: a.Name, value: v, sig: sig + "-" + a.Name, group: f.group})
				}
			}
			for i := len(n.Children) - 1; i >= 0; i-- {
				g := f.group
				if n == groupRoot {
					g = int32(i)
				}
				stack = append(stack, frame{n.Children[i], sig, g})
			}
		}
	}
}

// contentText returns the text leaves joined by single spaces, and the
// byte offset of each leaf in it (-1 for attribute leaves).
func (c *content) contentText() string {
	if c.textDone {
		return c.text
	}
	c.textDone = true
	var b strings.Builder
	c.textLeafOffset = make([]int, len(c.leaves))
	for i, l := range c.leaves {
		if l.kind != leafText {
			c.textLeafOffset[i] = -1
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		c.textLeafOffset[i] = b.Len()
		b.WriteString(l.value)
	}
	c.text = b.String()
	return c.text
}

// leafPath returns the readable location of a leaf: tree.Path of its node,
// with "/@name" for an attribute.
func leafPath(l *leaf) string {
	if l == nil || l.node == nil {
		return ""
	}
	p := tree.Path(l.node)
	if l.kind == leafAttr {
		p += "/@" + l.attr
	}
	return p
}

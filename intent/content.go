package intent

import (
	"net/url"
	"slices"
	"strings"
	"unicode"

	"github.com/vigil-web/vigil/markup"
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

// leaf is a content leaf of the seed's data model (§4.1): a text (one
// text node, or several that content.transparent nodes part) or an
// attribute, with its value and signature.
//
// A large page has hundreds of thousands of leaves, so a leaf holds only
// what every leaf needs (72 bytes): its signature is the symtab's name of
// sid, and a phrase leaf's own fields are apart.
type leaf struct {
	node   *tree.Node  // the (first non-blank) text node of a text, or the element of an attribute; for a phrase its first text node
	value  string      // white-space-normalised value
	phrase *phraseLeaf // a phrase leaf's own fields; nil for the others
	group  int32       // the second-level subtree holding the leaf (index among the group root's children), -1 if none
	pos    int32       // 1-based ordinal among the leaves of its sequence
	vid    int32       // symtab number of value
	sid    int32       // symtab number of the signature path(x): element labels from the root to the parent, joined by "-" (+ "-" + attribute name); -1 for none
	attr   int32       // an attribute leaf's index in node.Attrs (a name would cost 16 bytes a leaf)
	kind   leafKind
	brk    bool // a text leaf's text starts a block: see content.extract
	glue   bool // a text leaf's text continues the word the text leaf before ends: see content.extract
}

// phraseLeaf is what a phrase leaf has besides a leaf's fields.
type phraseLeaf struct {
	display  string // the phrase as the user wrote it
	wlo, whi int    // its first and last word (indexes into content.words)
}

// display returns the phrase as the user wrote it for a phrase leaf, ""
// for the others.
func (l *leaf) display() string {
	if l.phrase == nil {
		return ""
	}
	return l.phrase.display
}

// word is a word of a text leaf.
type word struct {
	text string // as written
	leaf int32  // index of its leaf in content.leaves
	idx  int32  // 1-based index among the words of its leaf
	id   int32  // symtab number of the comparison form (spec.WordKey)
	brk  bool   // the word starts a block of text (leaf.brk): no phrase spans it and the word before
}

// content is the part of one version a change type looks at: the whole
// document, or the subtrees its scope selects, less the ignored regions.
type content struct {
	doc  *tree.Document
	tab  *symtab
	html bool
	base *url.URL // the document's address, for links (at); nil if unknown
	// asText is set for a page read as its source text
	// (Pair.OldReadAsText): its links are the URLs in its text.
	asText bool
	root   string // label of the document root (Assumption 1 compares them)

	roots   []*tree.Node // the scope's outermost matches that are not left out, or the root
	ignored map[*tree.Node]bool

	leaves []leaf // text and attribute leaves, document order
	words  []word // words of the text leaves, document order
	// spans holds, for each word that spans several text leaves (a word
	// inline markup splits, leaf.glue), the index in leaves of the last
	// text leaf it spans; nil when there is none.
	spans map[int32]int32
	// feedBlocks holds, for each text leaf of a feed that holds escaped
	// HTML of several blocks (readFeedHTML), the byte offset in its value
	// of each block's start but the first; nil when there is none.
	feedBlocks map[int32][]int32
	// feed tells the texts of a feed that hold escaped HTML, for
	// numberText; its zero value for a document that is not a feed.
	feed feedReading

	links, images []object // built lazily, by collectObjects
	tables, lists []*container
	linksDone     bool
	text          string // text leaves joined by spaces, for regular expressions
	textDone      bool
	caseSensitive bool
	// textStarts is the byte offset in text of each text leaf, in order,
	// and textLeaves that leaf's index in leaves.
	textStarts []int
	textLeaves []int32
	// textBlocks is the byte offset in text of each block's start (the
	// text of a leaf with brk), in order, from 0.
	textBlocks []int
	attrBuf    []int32 // contentAttrs's list
	// listOwners, while collectObjects runs, holds where each nested list
	// found so far belongs.
	listOwners map[*tree.Node]listOwner
	absorbed   map[*tree.Node]listSpan // lists absorbed into another: where their items are
}

// HoldsNoLinks reports whether the links inside element n (and its
// frames, its link elements) are none of the page's, for a
// links sentinel as for a site crawl and the warehouse's links: those of
// a template, whose content is inert (a browser neither shows nor
// follows it), and of a noscript, whose content a browser that runs
// scripts does not show and the HTML parser reads as text (see the
// package doc: an XHTML page's noscript, which the XML parser reads as
// elements, is read alike). The name is compared without its case, and
// only unprefixed, as isNonContent compares it: an XML document's own
// prefixed element (an XSLT stylesheet's xsl:template) is not HTML's.
func HoldsNoLinks(n *tree.Node) bool {
	return n != nil && n.Kind == tree.Element && len(n.Name) == 8 && isNonContent(n.Name)
}

// isNonContent reports whether an HTML element's text is not content:
// scripts, styles, noscript fallbacks and templates.
func isNonContent(name string) bool {
	switch len(name) {
	case 5:
		return strings.EqualFold(name, "style")
	case 6:
		return strings.EqualFold(name, "script")
	case 8:
		return strings.EqualFold(name, "noscript") || strings.EqualFold(name, "template")
	}
	return false
}

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
func newContent(d *tree.Document, scope Selector, ignore []Selector, caseSensitive bool, tab *symtab) *content {
	c := &content{doc: d, caseSensitive: caseSensitive, tab: tab}
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
	groupRoot := d.Root
	if c.html {
		for _, ch := range d.Root.Children {
			if ch.Kind == tree.Element && strings.EqualFold(ch.Name, "body") {
				groupRoot = ch
			}
		}
	}
	pl := &placer{c: c, groupRoot: groupRoot}
	sel := []*tree.Node{d.Root}
	if scope != nil {
		sel = scope.Select(d.Root)
		pl.in = make(map[*tree.Node]bool, len(sel))
		for _, n := range sel {
			pl.in[n] = true
		}
	}
	var groups []int32
	for _, n := range sel {
		if p := pl.place(n); !p.skipped && (n.Parent == nil || !pl.place(n.Parent).inScope) {
			c.roots = append(c.roots, n)
			groups = append(groups, p.group)
		}
	}
	size := 0
	for _, r := range c.roots {
		tree.Walk(r, func(n *tree.Node) bool {
			size += len(c.contentAttrs(n))
			if n.Kind == tree.Text {
				size++
			}
			return true
		})
	}
	c.leaves = make([]leaf, 0, size)
	// Room for this version's values and a quarter more for the next
	// one's: a map sized for both at once would be twice what a page
	// whose values mostly stay needs.
	tab.reserve(size + size/4)
	for i, r := range c.roots {
		c.extract(r, pl.sig(r.Parent), groups[i], groupRoot)
	}
	c.readFeedHTML()
	if len(tab.words) == 0 { // the first version: room for about as many words again
		textBytes := 0
		for i := range c.leaves {
			textBytes += len(c.leaves[i].value)
		}
		tab.words = slices.Grow(tab.words, textBytes/5+1)
	}
	// The symtab splits each value into words once and keeps them: counting
	// them first sizes c.words exactly (a large page's words are tens of
	// megabytes, and growing by appends doubled them).
	nwords := 0
	for i := range c.leaves {
		c.leaves[i].pos = int32(i + 1)
		if c.leaves[i].kind == leafText {
			nwords += len(tab.valueWords(c.leaves[i].vid, c.leaves[i].value, caseSensitive))
		}
	}
	// A word that inline markup splits may make fewer words: nwords is
	// as many as there can be.
	c.words = make([]word, 0, nwords)
	wr := wordReader{c: c, caseSensitive: caseSensitive}
	for i := range c.leaves {
		if c.leaves[i].kind == leafText {
			wr.add(int32(i))
		}
	}
	wr.flush()
	return c
}

// skip reports whether n's subtree is left out.
func (c *content) skip(n *tree.Node) bool {
	switch n.Kind {
	case tree.Comment, tree.ProcInst:
		return true
	case tree.Element:
		if c.html && isNonContent(n.Name) {
			return true
		}
	}
	return c.ignored != nil && c.ignored[n]
}

// transparent reports whether n, a node left out of the content, stands
// within a text without parting it: a comment or a processing instruction,
// and in HTML a script, a style or a template (which the markup package
// looks through, keeping the white space around them) or an ignored inline
// element. The texts on both sides of it read as one, as a reader sees
// them: pri<!-- x -->ce is "price", and Price: <!-- -->$10 (as React's
// server rendering writes it) is "Price: $10".
func (c *content) transparent(n *tree.Node) bool {
	switch n.Kind {
	case tree.Comment, tree.ProcInst:
		return true
	case tree.Element:
		if !c.html {
			return false
		}
		switch name := strings.ToLower(localName(n.Name)); name {
		case "script", "style", "template":
			return true
		default:
			return c.ignored != nil && c.ignored[n] && markup.IsInline(name)
		}
	}
	return false
}

// endsLine reports whether raw, the text so far of a run of sibling texts
// under parent, ends a line of a <pre> in HTML: the next text of the run
// is a leaf of its own, in the same block (a phrase still spans the line
// break). A page read as its source text (a text/plain page, a body that
// does not parse) is a <pre> of one text node a line, so that a change
// of one line is a change of one leaf, not of the whole page.
func (c *content) endsLine(parent *tree.Node, raw string) bool {
	return c.html && parent != nil && elementIs(parent, "pre") && strings.HasSuffix(raw, "\n")
}

// partsText reports whether element n starts and ends a block of text:
// in HTML, an element that is not inline (markup.IsInline), and never in
// XML.
func (c *content) partsText(n *tree.Node) bool {
	return c.html && n.Kind == tree.Element && !markup.IsInline(strings.ToLower(localName(n.Name)))
}

// hasNonSpace reports whether s holds anything but white space.
func hasNonSpace(s string) bool { return strings.TrimSpace(s) != "" }

// placer answers the questions newContent asks about the ancestors of
// the scope's matches, remembering the answer for each ancestor: many
// matches in a long list or down a deep chain cost one step per ancestor
// rather than a walk to the top (and a scan of the siblings) each.
type placer struct {
	c         *content
	in        map[*tree.Node]bool // the scope's matches; nil without a scope
	groupRoot *tree.Node
	groupIdx  map[*tree.Node]int32 // index of each child of groupRoot, numbered once
	places    map[*tree.Node]place
	sigs      map[*tree.Node]int32
}

// place is what newContent needs to know about a node's ancestors-or-self.
type place struct {
	inScope bool  // the node or an ancestor is a match of the scope
	skipped bool  // the node or an ancestor is left out (content.skip)
	group   int32 // the child of groupRoot it is in or is (its index), -1 if none
}

// place returns the place of n.
func (pl *placer) place(n *tree.Node) place {
	if pl.places == nil {
		pl.places = make(map[*tree.Node]place)
	}
	return fromTop(pl.places, n, place{group: -1}, func(up place, m *tree.Node) place {
		p := place{inScope: up.inScope || pl.in[m], skipped: up.skipped || pl.c.skip(m), group: up.group}
		if m.Parent == pl.groupRoot {
			p.group = pl.groupIndex(m)
		}
		return p
	})
}

// groupIndex returns the index of a child of groupRoot.
func (pl *placer) groupIndex(m *tree.Node) int32 {
	if pl.groupIdx == nil {
		pl.groupIdx = make(map[*tree.Node]int32, len(pl.groupRoot.Children))
		for i, ch := range pl.groupRoot.Children {
			pl.groupIdx[ch] = int32(i)
		}
	}
	return pl.groupIdx[m]
}

// sig returns the symtab number of n's signature (the element labels from
// the root to n, see leaf.sig), -1 for nil. Signatures are numbered from
// the top down, the first time they are needed.
func (pl *placer) sig(n *tree.Node) int32 {
	if n == nil {
		return -1
	}
	if pl.sigs == nil {
		pl.sigs = make(map[*tree.Node]int32)
	}
	return fromTop(pl.sigs, n, -1, func(up int32, m *tree.Node) int32 {
		return pl.c.tab.step(up, m.Name)
	})
}

// fromTop returns v(n) where v(nil) = zero and v(m) = step(v(m.Parent), m),
// calling step from the top down on the ancestors-or-self of n that memo
// does not hold yet and recording their values there.
func fromTop[V any](memo map[*tree.Node]V, n *tree.Node, zero V, step func(up V, m *tree.Node) V) V {
	var path []*tree.Node
	v := zero
	for m := n; m != nil; m = m.Parent {
		if w, ok := memo[m]; ok {
			v = w
			break
		}
		path = append(path, m)
	}
	for i := len(path) - 1; i >= 0; i-- {
		v = step(v, path[i])
		memo[path[i]] = v
	}
	return v
}

// extract appends the leaves of r's subtree, a text leaf for each run of
// sibling text nodes that only transparent nodes part. r is not left out;
// sig0 is the symtab number of its parent's signature (-1 for none) and
// group the group holding it.
//
// In an HTML <pre>, a run also ends with a text that ends a line
// (endsLine).
//
// A text leaf has brk set when it starts a block of text: it is the first
// of r, or in HTML the start or the end of an element that is not inline
// (markup.IsInline: a heading, a paragraph, a cell, a list item, a line
// break, or an ignored one) comes between it and the text before it.
// Phrases and regular expressions match within a block, as a reader sees
// it on a line; in XML, as in the seed, elements do not part them.
//
// In HTML, a text leaf has glue set when it continues the word the text
// leaf before it ends, as a browser shows them: no white space ends the
// one nor starts the other, and only inline elements that show text
// (isInline: not an image, a control or media) start or end between them
// (<span class="dropcap">R</span>efunds, <b>price</b>list, <a>Ref</a>unds).
// Texts in two elements side by side (inSiblingElements: the links of a
// minified menu, <a>Home</a><a>About</a>, or tag pills) are not one word,
// a style sheet shows them apart, unless one is a single letter (a drop
// cap in an element of its own, or a word set a letter a span).
// A block's start parts words as it parts phrases.
func (c *content) extract(r *tree.Node, sig0, group int32, groupRoot *tree.Node) {
	type frame struct {
		n     *tree.Node
		sig   int32 // symtab number of the parent's signature, -1 for none
		group int32
		exit  bool // the end of element n, after its children
	}
	tab := c.tab
	stack := []frame{{r, sig0, group, false}}
	brk := true
	// joins is set when the last text leaf ends with a word the next
	// text may continue, and nothing that parts words came since.
	joins := false
	var lastText *tree.Node // the last text node of the last text leaf
	var lastValue string    // the last text leaf's value
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := f.n
		if f.exit {
			brk = true
			continue
		}
		if f.n != r && c.skip(n) {
			if !c.transparent(n) && c.partsText(n) {
				brk = true
			}
			continue
		}
		switch n.Kind {
		case tree.Text:
			// The texts that follow n with only transparent nodes
			// between are one text with it: their frames are next on
			// the stack, as n's following siblings.
			raw, node, first := n.Value, n, n
			if !hasNonSpace(raw) {
				node = nil
			}
			for len(stack) > 0 && n != r && !stack[len(stack)-1].exit {
				m := stack[len(stack)-1].n
				if m.Parent != n.Parent || !(m.Kind == tree.Text && !c.skip(m) || c.transparent(m)) || c.endsLine(n.Parent, raw) {
					break
				}
				stack = stack[:len(stack)-1]
				if m.Kind == tree.Text {
					n = m
					raw += m.Value
					if node == nil && hasNonSpace(m.Value) {
						node = m
					}
				}
			}
			if v := normalizeSpace(raw); v != "" {
				glue := joins && !brk && !startsSpace(raw) &&
					(!inSiblingElements(lastText, first) || oneLetter(lastValue) || oneLetter(v))
				c.leaves = append(c.leaves, leaf{kind: leafText, node: node, value: v, group: f.group, vid: tab.val(v), sid: f.sig, brk: brk, glue: glue})
				brk = false
				joins = c.html && !endsSpace(raw)
				lastText, lastValue = n, v
			} else if strings.ContainsFunc(raw, unicode.IsSpace) {
				// A text of invisible characters alone
				// (Re<span>&#8203;</span>funds) parts no word.
				joins = false
			}
		case tree.Element:
			if c.partsText(n) {
				brk = true
				stack = append(stack, frame{n: n, exit: true})
			}
			if !isInline(n.Name) {
				joins = false
			}
			sig := tab.step(f.sig, n.Name)
			for _, ai := range c.contentAttrs(n) {
				a := n.Attrs[ai]
				if v := c.attrValue(a); v != "" {
					as := tab.step(sig, a.Name)
					c.leaves = append(c.leaves, leaf{kind: leafAttr, node: n, attr: ai, value: v, group: f.group, vid: tab.val(v), sid: as})
				}
			}
			for i := len(n.Children) - 1; i >= 0; i-- {
				g := f.group
				if n == groupRoot {
					g = int32(i)
				}
				stack = append(stack, frame{n.Children[i], sig, g, false})
			}
		}
	}
}

// contentText returns the text leaves joined by single spaces (but a
// leaf that continues the word before it, leaf.glue, joined to it), and
// records the byte offset of each text leaf in it (textStarts) and of each
// block of text (textBlocks: a leaf with brk, and the blocks inside a
// feed's escaped HTML, feedBlocks).
func (c *content) contentText() string {
	if c.textDone {
		return c.text
	}
	c.textDone = true
	var b strings.Builder
	n := 0
	for i := range c.leaves {
		n += len(c.leaves[i].value) + 1
	}
	b.Grow(n)
	c.textStarts, c.textLeaves, c.textBlocks = c.textStarts[:0], c.textLeaves[:0], append(c.textBlocks[:0], 0)
	for i, l := range c.leaves {
		if l.kind != leafText {
			continue
		}
		if b.Len() > 0 && !l.glue {
			b.WriteByte(' ')
			if l.brk {
				c.textBlocks = append(c.textBlocks, b.Len())
			}
		}
		c.textStarts = append(c.textStarts, b.Len())
		c.textLeaves = append(c.textLeaves, int32(i))
		for _, off := range c.feedBlocks[int32(i)] {
			c.textBlocks = append(c.textBlocks, b.Len()+int(off))
		}
		b.WriteString(l.value)
	}
	c.text = b.String()
	return c.text
}

// valueMatches returns each of the content's roots (the scope's matches)
// with its text as a value change type reads a number from it: joined as
// textJoiner joins them, without what the content leaves out. Where an
// XPath @name step of the scope sel selects an attribute, it is the
// element that carries it with the attribute's value, as Selector.Values
// gives it, unless the element is left out.
func (c *content) valueMatches(sel Selector) []scopeMatch {
	out := make([]scopeMatch, 0, len(c.roots))
	x, ok := sel.(*xpathSel)
	if !ok || c.doc == nil || c.doc.Root == nil {
		for _, r := range c.roots {
			out = append(out, scopeMatch{r, c.numberText(r), false})
		}
		return out
	}
	roots := make(map[*tree.Node]bool, len(c.roots))
	for _, r := range c.roots {
		roots[r] = true
	}
	for _, it := range x.eval(c.doc.Root) {
		switch {
		case it.n == nil:
		case it.attr >= 0:
			if !c.leftOut(it.n) {
				out = append(out, scopeMatch{it.n, normalizeSpace(it.value()), true})
			}
		case roots[it.n]:
			delete(roots, it.n) // once, as Select gives it
			out = append(out, scopeMatch{it.n, c.numberText(it.n), false})
		}
	}
	return out
}

// numberText returns the text of r, a root of the content, as valueMatches
// reads it: a feed's escaped HTML as the text it shows (feedReading).
func (c *content) numberText(r *tree.Node) string {
	j := textJoiner{html: c.html}
	tree.Walk(r, func(n *tree.Node) bool {
		switch {
		case n.Kind == tree.Element:
			j.element(n)
			return !c.skip(n)
		case n.Kind == tree.Text && !c.skip(n):
			j.add(n, c.feed.text(n))
		}
		return false
	})
	return normalizeValueSpace(j.String())
}

// leftOut reports whether n is in a subtree the content leaves out: an
// ignored region, or in HTML a script, a style or the like.
func (c *content) leftOut(n *tree.Node) bool {
	for m := n; m != nil; m = m.Parent {
		if c.skip(m) {
			return true
		}
	}
	return false
}

// pathCache names nodes and leaves by path, numbering the children of
// each parent once (tree.NodePaths), so that a page with thousands of
// siblings costs one scan per parent rather than one per change.
type pathCache struct {
	paths tree.NodePaths
}

// node returns tree.Path(n).
func (pc *pathCache) node(n *tree.Node) string {
	if n == nil {
		return ""
	}
	return pc.paths.Path(n)
}

// leaf returns the readable location of a leaf: the path of its node, with
// "/@name" for an attribute.
func (pc *pathCache) leaf(l *leaf) string {
	if l == nil || l.node == nil {
		return ""
	}
	p := pc.node(l.node)
	if l.kind == leafAttr {
		p += "/@" + l.node.Attrs[l.attr].Name
	}
	return p
}

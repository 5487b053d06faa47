package intent

import (
	"net/url"
	"slices"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// The namespaces of the feed formats FeedLinks reads.
const (
	nsAtom   = "http://www.w3.org/2005/Atom"
	nsAtom03 = "http://purl.org/atom/ns#"
	nsRDF    = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	nsRSS1   = "http://purl.org/rss/1.0/"
	nsRSS090 = "http://my.netscape.com/rdf/simple/0.9/"
	nsXML    = "http://www.w3.org/XML/1998/namespace"
	// nsIANARel is the IRI a registered link relation's name is
	// appended to (RFC 4287, 4.2.7.2): rel="alternate" is
	// rel="http://www.iana.org/assignments/relation/alternate".
	nsIANARel = "http://www.iana.org/assignments/relation/"
)

// rssNamespaces are the namespaces, besides none, that an rss root may
// be in, in lower case: those RSS was published or written under, which
// feed readers read as RSS (Universal Feed Parser's list; it and
// SimplePie read Userland's in any case): Userland's RSS 2.0 and 0.91
// ones (http://backend.userland.com/rss2, .../RSS2, .../rss091: every
// one under .../rss), Harvard's RSS 2.0 one, RSS 1.0's and 0.90's, and
// the RSS 0.91 module's.
var rssNamespaces = []string{
	"http://blogs.law.harvard.edu/tech/rss",
	nsRSS1,
	nsRSS090,
	"http://purl.org/rss/1.0/modules/rss091#",
}

// isRSSNamespace reports whether ns is a namespace an rss root is RSS in
// (rssNamespaces): none, one of the list, or Userland's.
func isRSSNamespace(ns string) bool {
	if ns == "" {
		return true
	}
	ns = strings.ToLower(ns)
	if rest, ok := strings.CutPrefix(ns, "http://backend.userland.com/rss"); ok {
		return !strings.ContainsAny(rest, "/#?")
	}
	return slices.Contains(rssNamespaces, ns)
}

// feedKind is the format of a feed document; 0 for a document that is
// not one.
type feedKind uint8

const (
	feedRSS  feedKind = iota + 1 // RSS 0.9x and 2.0: root rss, in no namespace or an RSS one
	feedAtom                     // root feed in the Atom namespace
	feedRDF                      // RSS 1.0 (and 0.90): root rdf:RDF holding an RSS channel
)

// FeedLink is a link of a feed document (FeedLinks).
type FeedLink struct {
	// URL is the link's target as written, resolved against the
	// xml:base attributes in scope and the base FeedLinks is given, as
	// far as they resolve it.
	URL string
	// Text is the title of the item, entry, channel or feed the link
	// belongs to, white space normalised (an Atom title of type html
	// as the text it shows); "" when it has none.
	Text string
	// Node is the element that holds the link.
	Node *tree.Node
	// Paging is set on a link to another page of the feed itself (an
	// Atom link whose rel is an RFC 5005 paging relation: atomPagingRel),
	// which only FeedLinksWithPages gives.
	Paging bool
}

// IsFeed reports whether doc is a feed: a document whose root is rss
// (RSS 0.9x and 2.0) in no namespace or in one RSS was published under
// (Userland's http://backend.userland.com/rss2 and the like, Harvard's,
// RSS 1.0's: those feed readers read as RSS), feed in the Atom namespace
// (Atom 1.0 or 0.3), or rdf:RDF holding a channel in the RSS 1.0 (or
// 0.90) namespace. An rss root in another namespace is no feed.
func IsFeed(doc *tree.Document) bool {
	_, kind := feedRoot(doc)
	return kind != 0
}

// FeedLinks returns the links of a feed document, in document order: for
// Atom the href of every link element to content a reader follows (its
// rel absent, alternate, enclosure, related or via: atomContentRel) and
// every content element's src (an entry's out-of-line content); for RSS
// 2.0 the text of the channel's and each item's link, each item's
// enclosure url, and its guid when isPermaLink is "true", or is absent and
// the guid is an absolute http(s) URL (RSS 2.0's default), and any Atom
// link in it to such content (not its self link); for RSS 1.0 the
// channel's and each item's link and each item's rdf:about. The elements
// of RSS are those in its root's namespace (none, or an RSS one). A
// target is resolved against the xml:base attributes in scope and base
// (the document's address; nil if unknown). A target written twice in one
// item, entry or channel (an item's link and its guid) is given once.
// Each is labelled by the title of its item, entry, channel or feed. It
// returns nil for a document that is not a feed (IsFeed).
func FeedLinks(doc *tree.Document, base *url.URL) []FeedLink {
	root, kind := feedRoot(doc)
	if kind == 0 {
		return nil
	}
	return feedLinks(root, kind, base, false)
}

// FeedLinksWithPages returns the links FeedLinks returns and, in document
// order among them, the feed's links to its own other pages, Paging set:
// the href of every Atom link (in an Atom feed, or in RSS) whose rel is a
// paging relation of RFC 5005 (next, previous or prev, first, last,
// prev-archive, next-archive, current: atomPagingRel), labelled by the
// title of the feed (or entry) it is in. A links sentinel does not count
// these, which change as entries are added; a crawl follows them, to
// reach the older entries of a feed split in pages. It returns nil for a
// document that is not a feed (IsFeed), and reads a feed in time linear
// in it, as FeedLinks does.
func FeedLinksWithPages(doc *tree.Document, base *url.URL) []FeedLink {
	root, kind := feedRoot(doc)
	if kind == 0 {
		return nil
	}
	return feedLinks(root, kind, base, true)
}

// feedLinks walks the feed of format kind whose root element is root for
// its links (FeedLinks), and its paging links too when paging is set
// (FeedLinksWithPages).
func feedLinks(root *tree.Node, kind feedKind, base *url.URL, paging bool) []FeedLink {
	w := feedWalker{kind: kind, paging: paging}
	if kind == feedRSS {
		w.rssNS, _ = elementNS(root)
	}
	w.walk(root, base)
	if w.dropped {
		w.out = slices.DeleteFunc(w.out, func(l FeedLink) bool { return l.URL == "" })
	}
	return w.out
}

// feedRoot returns doc's root element and its feed format, 0 when it is
// not a feed.
func feedRoot(doc *tree.Document) (*tree.Node, feedKind) {
	if doc == nil {
		return nil, 0
	}
	return feedRootOf(doc.Root)
}

// feedRootOf is feedRoot for a document whose root element is root.
func feedRootOf(root *tree.Node) (*tree.Node, feedKind) {
	if root == nil || root.Kind != tree.Element {
		return nil, 0
	}
	ns, local := elementNS(root)
	switch {
	case local == "rss" && isRSSNamespace(ns):
		return root, feedRSS
	case local == "feed" && (ns == nsAtom || ns == nsAtom03):
		return root, feedAtom
	case local == "RDF" && ns == nsRDF:
		for _, c := range root.Children {
			if c.Kind != tree.Element {
				continue
			}
			if ns, local := elementNS(c); local == "channel" && (ns == nsRSS1 || ns == nsRSS090) {
				return root, feedRDF
			}
		}
	}
	return nil, 0
}

// elementNS returns the namespace and local name of element n, its
// prefix looked up in the xmlns attributes of n and its ancestors
// (lookupNS). It serves feedRoot, which reads two levels; the walk keeps
// the declarations in scope instead (feedWalker.nameNS).
func elementNS(n *tree.Node) (string, string) {
	prefix, local := splitQName(n.Name)
	return lookupNS(n, prefix), local
}

// splitQName returns the prefix ("" for none) and the local name of the
// element or attribute name name.
func splitQName(name string) (prefix, local string) {
	if prefix, local, found := strings.Cut(name, ":"); found {
		return prefix, local
	}
	return "", name
}

// lookupNS returns the namespace prefix names at element n: "xml" is
// XML's, else the one an xmlns attribute of n or an ancestor declares;
// "" when none does.
func lookupNS(n *tree.Node, prefix string) string {
	if prefix == "xml" {
		return nsXML
	}
	attr := "xmlns"
	if prefix != "" {
		attr += ":" + prefix
	}
	for m := n; m != nil && m.Kind == tree.Element; m = m.Parent {
		if v, ok := m.Attr(attr); ok {
			return v
		}
	}
	return ""
}

// feedWalker collects the links of a feed (FeedLinks). It walks the tree
// with a stack of its own and keeps the namespaces declared in scope in
// stacks, one a prefix, so that a document nested deep (the parser takes
// a million levels) is read in time linear in it, as tree.Walk reads one.
type feedWalker struct {
	kind   feedKind
	paging bool                // collect paging links too (FeedLinksWithPages)
	rssNS  string              // for RSS, its root's namespace, that of its elements
	ns     map[string][]string // prefix ("" the default) to the namespaces declared, innermost last
	out    []FeedLink
	// dropped is set when a paging link of out was given again as
	// content: its URL is "", and feedLinks leaves it out.
	dropped bool
}

// maxFeedBase bounds the length of a base xml:base sets (its path,
// query and host): a longer one is ignored, its parent's kept. Relative
// xml:base attributes nested deep ("a/" at each of 2^16 levels) would
// otherwise make bases as long as the document, each resolved from the
// last, in time and memory quadratic in the depth; no address is so long.
const maxFeedBase = 4 << 10

// feedFrame is an element of the feed being walked and what its
// descendants inherit from it.
type feedFrame struct {
	n         *tree.Node
	next      int      // the index of the next child to visit
	pushed    []string // the prefixes n declares, popped after its subtree
	base      *url.URL // the base n's references resolve against
	local     string   // n's local name when it is in the feed's namespace, else ""
	container bool     // n is the channel, an item, the feed or an entry
	title     string   // the title of the container n is in
	// seen maps each target the container has given to its index in the
	// walker's out.
	seen map[string]int
}

// walk collects the links of the subtree of root, the document element,
// resolved against base.
func (w *feedWalker) walk(root *tree.Node, base *url.URL) {
	w.ns = map[string][]string{}
	stack := []feedFrame{w.enter(root, nil, base)}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		for f.next < len(f.n.Children) && f.n.Children[f.next].Kind != tree.Element {
			f.next++
		}
		if f.next == len(f.n.Children) {
			for _, p := range f.pushed {
				w.ns[p] = w.ns[p][:len(w.ns[p])-1]
			}
			stack = stack[:len(stack)-1]
			continue
		}
		c := f.n.Children[f.next]
		f.next++
		parent := *f
		stack = append(stack, w.enter(c, &parent, parent.base))
	}
}

// enter visits element n, the child of parent (nil for the root), whose
// base is base: it collects the links n holds (collect) and returns its
// frame, its namespace declarations pushed.
func (w *feedWalker) enter(n *tree.Node, parent *feedFrame, base *url.URL) feedFrame {
	f := feedFrame{n: n, base: base}
	for _, a := range n.Attrs {
		if prefix, ok := xmlnsPrefix(a.Name); ok {
			w.ns[prefix] = append(w.ns[prefix], a.Value)
			f.pushed = append(f.pushed, prefix)
		}
	}
	if b, ok := n.Attr("xml:base"); ok {
		f.base = xmlBase(f.base, strings.TrimSpace(b))
	}
	ns, local := w.nameNS(n.Name)
	own := w.itemNS(ns)
	if own {
		f.local = local
	}
	if parent != nil {
		f.title, f.seen = parent.title, parent.seen
	}
	if own && w.isContainer(local, parent) {
		f.container = true
		f.title, f.seen = w.title(n), map[string]int{}
	}
	w.collect(&f, parent, ns, local, own)
	return f
}

// collect adds the links of the element of frame f, the child of parent
// (nil for the root), whose namespace is ns and local name local, own
// when ns is the feed's (itemNS): the targets FeedLinks lists for its
// format.
func (w *feedWalker) collect(f *feedFrame, parent *feedFrame, ns, local string, own bool) {
	n := f.n
	parentLocal, inContainer := "", false
	if parent != nil {
		parentLocal, inContainer = parent.local, parent.container
	}
	switch {
	case local == "link" && (ns == nsAtom || ns == nsAtom03):
		rel, _ := n.Attr("rel")
		href, ok := n.Attr("href")
		switch {
		case !ok:
		case atomContentRel(rel):
			w.add(f, href, false)
		case w.paging && atomPagingRel(rel):
			w.add(f, href, true)
		}
	case local == "content" && ns == nsAtom:
		if src, ok := n.Attr("src"); ok {
			w.add(f, src, false)
		}
	case !own || w.kind == feedAtom:
	case local == "link" && inContainer:
		w.add(f, elementText(n), false)
	case w.kind == feedRSS && local == "enclosure" && parentLocal == "item" && inContainer:
		if u, ok := n.Attr("url"); ok {
			w.add(f, u, false)
		}
	case w.kind == feedRSS && local == "guid" && parentLocal == "item" && inContainer:
		perma, ok := n.Attr("isPermaLink")
		text := elementText(n)
		if strings.EqualFold(strings.TrimSpace(perma), "true") || !ok && isHTTPURL(text) {
			w.add(f, text, false)
		}
	case w.kind == feedRDF && local == "item" && f.container:
		if about, ok := w.attrNS(n, nsRDF, "about"); ok {
			w.add(f, about, false)
		}
	}
}

// atomContentRel reports whether an Atom link whose rel attribute is rel
// points to content a reader follows, and so is a link of the feed: rel
// absent or blank (alternate, RFC 4287's default), alternate (the entry's
// or feed's page), enclosure (its media), related or via (a resource it
// refers to or its source), in any case and with white space around it,
// or written as the IANA IRI of one of those. The other relations point
// to the feed's or entry's own document or its machinery: self, edit,
// edit-media (RFC 5023), replies (RFC 4685: Blogger and WordPress give
// every entry a comments page and a comments feed), license (RFC 4946),
// hub (WebSub), first, next, previous, last (RFC 5005's pages, which
// FeedLinksWithPages gives apart: atomPagingRel) and extension
// relations (Blogger's http://schemas.google.com/g/2005#feed), which
// change with the blog's software, not its content.
func atomContentRel(rel string) bool {
	switch atomRel(rel) {
	case "", "alternate", "enclosure", "related", "via":
		return true
	}
	return false
}

// atomRel returns an Atom link's rel attribute as the relation it names:
// in lower case, without the white space around it nor the IANA IRI's
// prefix.
func atomRel(rel string) string {
	return strings.TrimPrefix(strings.ToLower(strings.TrimSpace(rel)), nsIANARel)
}

// atomPagingRel reports whether an Atom link whose rel attribute is rel
// points to another page of the feed itself, by a paging relation of RFC
// 5005: next, previous (or prev, its HTML alias), first, last (paged
// feeds, section 3), prev-archive, next-archive and current (archived
// feeds, section 4), in any case and with white space around it, or
// written as the IANA IRI of one of those.
func atomPagingRel(rel string) bool {
	switch atomRel(rel) {
	case "next", "previous", "prev", "first", "last", "prev-archive", "next-archive", "current":
		return true
	}
	return false
}

// add adds the link ref written in the element of frame f, resolved
// against its base and labelled by its container's title, Paging set to
// paging, unless ref is blank or the container has given its target
// already. A target given as a paging link and then as content counts as
// content, at its place as content, as FeedLinks gives it: the paging
// link is dropped.
func (w *feedWalker) add(f *feedFrame, ref string, paging bool) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return
	}
	target := resolveRef(f.base, ref)
	if i, ok := f.seen[target]; ok {
		if paging || !w.out[i].Paging {
			return
		}
		w.out[i].URL, w.dropped = "", true
	}
	if f.seen != nil {
		f.seen[target] = len(w.out)
	}
	w.out = append(w.out, FeedLink{URL: target, Text: f.title, Node: f.n, Paging: paging})
}

// xmlBase returns the base within an element whose xml:base is ref, its
// parent's being base: ref resolved against base; base when ref does not
// parse, or when the base it makes would be longer than maxFeedBase,
// which is told before resolving it.
func xmlBase(base *url.URL, ref string) *url.URL {
	u, err := url.Parse(ref)
	if err != nil {
		return base
	}
	size := func(u *url.URL) int { return len(u.Host) + len(u.Path) + len(u.RawQuery) }
	if base != nil && !u.IsAbs() {
		if size(base)+size(u) > maxFeedBase {
			return base
		}
		u = base.ResolveReference(u)
	}
	if size(u) > maxFeedBase {
		return base
	}
	return u
}

// resolveRef returns ref resolved against base, as written when there is
// none or it does not parse.
func resolveRef(base *url.URL, ref string) string {
	if base == nil {
		return ref
	}
	u, err := base.Parse(ref)
	if err != nil {
		return ref
	}
	return u.String()
}

// xmlnsPrefix returns the prefix an attribute named name declares ("" for
// xmlns, the default namespace), false when it declares none.
func xmlnsPrefix(name string) (string, bool) {
	if name == "xmlns" {
		return "", true
	}
	return strings.CutPrefix(name, "xmlns:")
}

// nameNS returns the namespace and local name of the element or
// attribute name in the scope walked.
func (w *feedWalker) nameNS(name string) (string, string) {
	prefix, local := splitQName(name)
	return w.lookup(prefix), local
}

// lookup returns the namespace prefix names in the scope walked: "xml" is
// XML's; "" when none is declared.
func (w *feedWalker) lookup(prefix string) string {
	if prefix == "xml" {
		return nsXML
	}
	if s := w.ns[prefix]; len(s) > 0 {
		return s[len(s)-1]
	}
	return ""
}

// itemNS reports whether ns is the namespace of the feed's own elements
// (channel, item, link...): its root's for RSS (none, or an RSS one),
// RSS 1.0's (or 0.90's) for RDF, Atom's for Atom.
func (w *feedWalker) itemNS(ns string) bool {
	switch w.kind {
	case feedRSS:
		return ns == w.rssNS
	case feedRDF:
		return ns == nsRSS1 || ns == nsRSS090
	}
	return ns == nsAtom || ns == nsAtom03
}

// isContainer reports whether an element of the feed's namespace named
// local, the child of parent (nil for the root), is one whose links its
// title labels, where the format puts it: in Atom the feed (the root)
// and its entries; in RSS the channel (in rss) and its items (or the
// root's: some RSS 0.9x); in RSS 1.0 the channel and the items, in
// rdf:RDF.
func (w *feedWalker) isContainer(local string, parent *feedFrame) bool {
	if parent == nil {
		return w.kind == feedAtom && local == "feed"
	}
	top := parent.n.Parent == nil || parent.n.Parent.Kind != tree.Element
	switch w.kind {
	case feedAtom:
		return local == "entry" && parent.container && parent.local == "feed"
	case feedRDF:
		return top && (local == "channel" || local == "item")
	}
	return top && (local == "channel" || local == "item") ||
		local == "item" && parent.container && parent.local == "channel"
}

// title returns the text of the title child of container n in the feed's
// namespace, white space normalised; "" when it has none.
func (w *feedWalker) title(n *tree.Node) string {
	for _, c := range n.Children {
		if c.Kind != tree.Element {
			continue
		}
		prefix, local := splitQName(c.Name)
		if local != "title" {
			continue
		}
		ns, declared := "", false
		for _, a := range c.Attrs { // a namespace the title declares itself
			if p, ok := xmlnsPrefix(a.Name); ok && p == prefix {
				ns, declared = a.Value, true
			}
		}
		if !declared {
			ns = w.lookup(prefix)
		}
		if !w.itemNS(ns) {
			continue
		}
		if t, _ := c.Attr("type"); w.kind == feedAtom && strings.TrimSpace(t) == "html" {
			return htmlText(elementText(c))
		}
		return elementText(c)
	}
	return ""
}

// attrNS returns the value of n's attribute local in namespace ns,
// whatever its prefix, n's declarations in scope.
func (w *feedWalker) attrNS(n *tree.Node, ns, local string) (string, bool) {
	for _, a := range n.Attrs {
		prefix, name, found := strings.Cut(a.Name, ":")
		if found && name == local && prefix != "xmlns" && w.lookup(prefix) == ns {
			return a.Value, true
		}
	}
	return "", false
}

// elementText returns the text of n's subtree, white space normalised.
func elementText(n *tree.Node) string {
	if len(n.Children) == 1 && n.Children[0].Kind == tree.Text {
		return normalizeSpace(n.Children[0].Value)
	}
	var b strings.Builder
	tree.Walk(n, func(m *tree.Node) bool {
		if m.Kind == tree.Text {
			b.WriteString(m.Value)
			b.WriteByte(' ')
		}
		return true
	})
	return normalizeSpace(b.String())
}

// isHTTPURL reports whether s is an absolute http(s) URL with a host.
func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

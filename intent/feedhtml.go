package intent

import (
	"strings"

	"golang.org/x/net/html"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// A feed carries its entries' HTML as text: an RSS description is HTML
// escaped (or in a CDATA section), as is content:encoded, and an Atom
// text construct of type html (a content, a summary, a title, a subtitle,
// rights; Atom 0.3's mode="escaped"). A reader of the feed sees that
// HTML's text, so its tags are no words: readFeedHTML reads each such
// text leaf as htmlText gives it, for all words, keywords, phrases and
// any change alike. The change of an entry's description is still the
// update of its text node in the tree delta; only its reading differs.

// nsRSSContent is the namespace of RSS's content module
// (content:encoded).
const nsRSSContent = "http://purl.org/rss/1.0/modules/content/"

// readFeedHTML reads the text leaves of c, a feed's content, that hold
// escaped HTML (isFeedHTML) as the text it shows (htmlText), and records
// where the blocks of that text start (content.feedBlocks), which part its
// words as an HTML page's blocks do. A leaf left with no text (a
// description holding an image alone) is left out, as an empty text is.
// It runs before the leaves are numbered and split into
// words (newContent).
func (c *content) readFeedHTML() {
	if c.html {
		return
	}
	root, kind := feedRoot(c.doc)
	if kind == 0 {
		return
	}
	c.feed = feedReading{root, kind}
	kept := c.leaves[:0]
	for _, l := range c.leaves {
		if l.kind == leafText && l.node != nil && isFeedHTML(l.node.Parent, root, kind) {
			v, starts := htmlBlocks(l.value, normalizeSpace)
			if v == "" {
				continue
			}
			if v != l.value {
				l.value, l.vid = v, c.tab.val(v)
			}
			if len(starts) > 0 {
				if c.feedBlocks == nil {
					c.feedBlocks = make(map[int32][]int32)
				}
				c.feedBlocks[int32(len(kept))] = starts
			}
		}
		kept = append(kept, l)
	}
	c.leaves = kept
}

// feedReading tells the text nodes of a feed that hold escaped HTML
// (isFeedHTML), to read them as the text they show: a value's number and
// its item's text (numberText, textValue, itemText) are read from that
// text, as all words and phrases read it, not from the HTML's tags (an
// image's width="600"). Its zero value, for a document that is not a
// feed, reads every text as it is.
type feedReading struct {
	root *tree.Node
	kind feedKind
}

// feedReadingOf returns the feedReading of the document n is in.
func feedReadingOf(n *tree.Node) feedReading {
	if n == nil || inHTML(n) {
		return feedReading{}
	}
	for n.Parent != nil {
		n = n.Parent
	}
	root, kind := feedRootOf(n)
	return feedReading{root, kind}
}

// text returns the value of text node n as a reader of the feed sees it:
// the text its escaped HTML shows (htmlText, with the no-break spaces
// that group a number's digits kept: normalizeValueSpace), or its value
// as it is.
func (f feedReading) text(n *tree.Node) string {
	if f.kind != 0 && n.Kind == tree.Text && isFeedHTML(n.Parent, f.root, f.kind) {
		t, _ := htmlBlocks(n.Value, normalizeValueSpace)
		return t
	}
	return n.Value
}

// isFeedHTML reports whether element e of the feed whose root is root
// holds escaped HTML: in RSS (2.0, 0.9x, 1.0) the description of an item
// or of the channel in the feed's namespace, or their content:encoded; in
// Atom a text construct of an entry, of the feed or of an entry's source
// whose type is html (mode="escaped" in Atom 0.3). Only where the format
// puts them: a container a level or two under the root, so that the
// namespaces are looked up in a few steps however deep the document.
func isFeedHTML(e, root *tree.Node, kind feedKind) bool {
	if e == nil || e.Kind != tree.Element {
		return false
	}
	k := e.Parent
	if k == nil || k.Kind != tree.Element || !(k == root || k.Parent == root || k.Parent != nil && k.Parent.Parent == root) {
		return false
	}
	prefix, local := splitQName(e.Name)
	_, container := splitQName(k.Name)
	switch kind {
	case feedAtom:
		switch local {
		case "content", "summary", "title", "subtitle", "rights":
		default:
			return false
		}
		if container != "entry" && container != "feed" && container != "source" {
			return false
		}
		ns := lookupNS(e, prefix)
		if ns != nsAtom && ns != nsAtom03 {
			return false
		}
		t, _ := e.Attr("type")
		t = strings.ToLower(strings.TrimSpace(t))
		if ns == nsAtom03 {
			m, _ := e.Attr("mode")
			return strings.TrimSpace(m) == "escaped" && (t == "" || t == "text/html")
		}
		return t == "html"
	default:
		if container != "item" && container != "channel" {
			return false
		}
		ns := lookupNS(e, prefix)
		switch local {
		case "description":
			rootNS, _ := elementNS(root)
			return ns == rootNS || kind == feedRSS && isRSSNamespace(ns) || ns == nsRSS1 || ns == nsRSS090
		case "encoded":
			return ns == nsRSSContent
		}
	}
	return false
}

// htmlText returns the text escaped HTML (an RSS description, an Atom
// title of type html: "&lt;em&gt;New&lt;/em&gt; post", read "<em>New</em>
// post") shows: its tags left out (and the text of scripts and styles),
// a space where an element that is not inline starts or ends
// (markup.IsInline: "<p>a</p><p>b</p>" is "a b", "<b>pri</b>ce" is
// "price"), its character references read, white space normalised
// (normalizeSpace).
func htmlText(s string) string {
	t, _ := htmlBlocks(s, normalizeSpace)
	return t
}

// htmlBlocks returns htmlText(s), its blocks' texts normalised by norm
// (normalizeSpace; normalizeValueSpace for a value, which keeps the
// no-break spaces that group a number's digits), and the byte offset in
// it of the start of each block of text but the first: the text after the start or the end of
// an element that is not inline (a paragraph, a heading, a list item, a
// line break), as content.extract parts an HTML page's texts into blocks
// (leaf.brk), so that a phrase or a regular expression does not run from
// one paragraph of a description to the next.
func htmlBlocks(s string, norm func(string) string) (string, []int32) {
	if !strings.ContainsAny(s, "<&") {
		return s, nil
	}
	var out, b strings.Builder
	var starts []int32
	// flush ends the block b holds: its text, normalised, is appended
	// to out, a block of its own where it is not the first.
	flush := func() {
		t := norm(b.String())
		b.Reset()
		if t == "" {
			return
		}
		if out.Len() > 0 {
			out.WriteByte(' ')
			starts = append(starts, int32(out.Len()))
		}
		out.WriteString(t)
	}
	z := html.NewTokenizer(strings.NewReader(s))
	skip := "" // the script or style whose text is left out
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			flush()
			return out.String(), starts
		case html.TextToken:
			if skip == "" {
				b.Write(z.Text())
			}
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			n := string(name)
			switch {
			case tt == html.StartTagToken && (n == "script" || n == "style"):
				skip = n
			case tt == html.EndTagToken && n == skip:
				skip = ""
			}
			if !markup.IsInline(n) {
				flush()
			}
		}
	}
}

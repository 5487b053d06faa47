package web

import (
	"bytes"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/render"
	"github.com/vigil-web/vigil/tree"
)

// A view of a page is shown in a frame that loads nothing (frameCSP):
// the page's relative links would lead into Vigil's own origin, and its
// images would be blocked, an image that changed never seen. rebaseFrame
// rewrites the sanitised view so that it names what it cannot load: each
// link and citation absolute, to the watched site, a link opening in a
// new tab without referrer or opener; each image a placeholder naming it
// by its alt text and absolute URL, carrying the image's diff mark. The
// frame's sandbox allows popups, and them to escape it (frameCSP), so
// that a plain click on such a link opens the watched page in a normal
// tab; it allows nothing else.

// urlAttrs are the attributes the sanitiser lets through that hold a
// URL: href (a, area), cite (blockquote, q, ins, del).
var urlAttrs = map[string]bool{"href": true, "cite": true}

// oldImage is what an image of the new version was in the old one, for
// an image whose attributes changed: its src and alt before.
type oldImage struct{ src, alt string }

// frameRebase is how rebaseFrame rewrites one view.
type frameRebase struct {
	// base is the URL the page's relative URLs resolve against, the one
	// its records resolve them against (intent.PageBase): its http(s)
	// <base href>, else its address; nil: none, only absolute URLs named.
	base *url.URL
	// oldBase is base in the old version, against which the old
	// version's nodes resolve: what a changed attribute was (was,
	// oldAttrValue), the side-by-side view's old column and what a view
	// shows deleted (oldSide); nil: base.
	oldBase *url.URL
	// was holds, by their src in the new version, the images whose src or
	// alt changed, as they were: the inline view shows only the new ones.
	was map[string]oldImage
	// side is set for the side-by-side view, whose old column shows what
	// an image was: the new one says only what that column cannot, that
	// its src was written otherwise, for the same URL (changedImageLabel).
	side bool
}

// changedImages returns the images of a's new version whose src or alt
// changed, as they were, by their src now.
func changedImages(a *render.Annotated) map[string]oldImage {
	was := map[string]oldImage{}
	for _, c := range a.Changes() {
		if c.Mark != render.AttrChanged || c.Node == nil || !strings.EqualFold(c.Node.Name, "img") || c.Attr != "src" && c.Attr != "alt" {
			continue
		}
		key := treeAttr(c.Node, "src")
		old, ok := was[key]
		if !ok {
			old = oldImage{src: key, alt: treeAttr(c.Node, "alt")}
		}
		if c.Attr == "src" {
			old.src = c.OldValue
		} else {
			old.alt = c.OldValue
		}
		was[key] = old
	}
	return was
}

// rebaseFrame rewrites sanitised, a sanitised view's body, as the comment
// above says. It adds no element or attribute that loads anything.
func (f *frameRebase) rebaseFrame(sanitised []byte) ([]byte, error) {
	context := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(bytes.NewReader(sanitised), context)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	for _, n := range nodes {
		f.rewrite(n)
		if err := html.Render(&out, n); err != nil {
			return nil, err
		}
	}
	return out.Bytes(), nil
}

// rewrite rebases n's URLs and replaces its images, and its descendants'.
// What is the old version's (the side-by-side view's old column, what a
// view shows deleted) resolves against the old version's base (old).
func (f *frameRebase) rewrite(n *html.Node) {
	if f.oldBase != nil && n.Type == html.ElementNode && oldSide(n) {
		f = f.old()
	}
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		f.rewrite(c)
		c = next
	}
	if n.Type != html.ElementNode {
		return
	}
	if n.DataAtom == atom.Img {
		f.replaceImage(n)
		return
	}
	kept := n.Attr[:0]
	for _, a := range n.Attr {
		if urlAttrs[a.Key] {
			abs := f.absolute(a.Val)
			if abs == "" {
				continue // a URL that leads nowhere outside Vigil
			}
			a.Val = abs
		}
		if a.Key == "rel" || a.Key == "target" {
			continue // set below, for a link
		}
		kept = append(kept, a)
	}
	n.Attr = kept
	if (n.DataAtom == atom.A || n.DataAtom == atom.Area) && hasAttr(n, "href") {
		n.Attr = append(n.Attr, html.Attribute{Key: "target", Val: "_blank"}, html.Attribute{Key: "rel", Val: "noopener noreferrer"})
	}
}

// oldSide reports whether the element n holds the old version's nodes,
// by its mark (render.Attr, which render writes and takes from no page):
// the side-by-side view's old column, or what a view shows deleted.
func oldSide(n *html.Node) bool {
	switch attrOf(n, render.Attr) {
	case "old", render.Deleted.String():
		return true
	}
	return false
}

// old returns f for the old version's nodes: its base the old version's.
func (f *frameRebase) old() *frameRebase {
	return &frameRebase{base: f.oldBase, oldBase: f.oldBase, side: f.side}
}

// absolute returns ref resolved against the page's base, as every view
// of Vigil resolves it (intent.ResolveURL), if it is then an http, https
// or mailto URL; "" otherwise.
func (f *frameRebase) absolute(ref string) string {
	return absoluteAgainst(f.base, ref)
}

// absoluteOld is absolute for a value of the old version.
func (f *frameRebase) absoluteOld(ref string) string {
	if f.oldBase == nil {
		return f.absolute(ref)
	}
	return absoluteAgainst(f.oldBase, ref)
}

// absoluteAgainst is absolute against base (nil: none, against which
// only an absolute URL is one).
func absoluteAgainst(base *url.URL, ref string) string {
	ref = strings.TrimSpace(ref)
	if base == nil {
		// ResolveURL keys an http(s) host against any base; an absolute
		// ref is itself whatever it resolves against.
		base = &url.URL{}
	}
	abs := intent.ResolveURL(base, ref)
	u, err := url.Parse(abs)
	if err != nil {
		return ""
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "mailto":
		return abs
	}
	return ""
}

// attrValue is how the view of only the changes and the text format show
// a value of a changed attribute (render.Annotated.AttrValue): a URL
// (intent.URLAttr: an img's src, a link's href) by the absolute URL the
// frame names it by; any other value, and a URL that leads nowhere
// outside Vigil, as written.
func (f *frameRebase) attrValue(element, attr, value string) string {
	return shownAttr(f.absolute, attr, value)
}

// oldAttrValue is attrValue for an old value
// (render.Annotated.OldAttrValue), resolved against the old version's
// base.
func (f *frameRebase) oldAttrValue(element, attr, value string) string {
	return shownAttr(f.absoluteOld, attr, value)
}

// shownAttr is attrValue with absolute the resolution.
func shownAttr(absolute func(string) string, attr, value string) string {
	if intent.URLAttr(attr) {
		if abs := absolute(value); abs != "" {
			return abs
		}
	}
	return value
}

// replaceImage turns img into a placeholder that names it: "Image
// “alt” URL", with what it was for an image whose src or alt changed,
// keeping its diff mark.
func (f *frameRebase) replaceImage(img *html.Node) {
	src, alt, mark := attrOf(img, "src"), strings.TrimSpace(attrOf(img, "alt")), attrOf(img, render.Attr)
	abs := f.absolute(src)
	now := describeImage(alt, abs)
	label := "Image " + now
	if mark == render.AttrChanged.String() {
		if old, ok := f.was[src]; ok {
			wasAbs := f.absoluteOld(old.src)
			was := describeImage(strings.TrimSpace(old.alt), wasAbs)
			if !f.side || was == now {
				label = changedImageLabel(alt, now, was, abs, wasAbs, src, old.src)
			}
		}
	}
	span := &html.Node{Type: html.ElementNode, Data: "span", DataAtom: atom.Span, Attr: []html.Attribute{{Key: "data-vigil-image"}}}
	if mark != "" {
		span.Attr = append(span.Attr, html.Attribute{Key: render.Attr, Val: mark})
	}
	span.AppendChild(&html.Node{Type: html.TextNode, Data: "[" + label + "]"})
	img.Parent.InsertBefore(span, img)
	img.Parent.RemoveChild(img)
}

// changedImageLabel names a changed image and says what it was, given
// its alt, how it is named now and was (now, was), by which absolute
// URLs (abs, wasAbs: "" for none) and with which src as written (src,
// oldSrc): "Image now (was …)", never with two names that read the same.
// An image whose src was rewritten to the URL it resolved to says so as
// only the changes and the text format say it (render.AttrChange): "Image
// “alt”, src "img/a.png" → "URL" (both resolve to URL)"; one whose src
// changed but is named by no URL (a data: URL) says its src changed; one
// named alike otherwise (its alt's spaces changed) says nothing more.
func changedImageLabel(alt, now, was, abs, wasAbs, src, oldSrc string) string {
	label := "Image " + now
	switch {
	case was != now:
		return label + " (was " + was + ")"
	case src == oldSrc:
		return label
	case abs != "" && abs == wasAbs:
		label = "Image "
		if alt != "" {
			label += "“" + alt + "”, "
		}
		return label + "src " + render.AttrChange(oldSrc, src, wasAbs, abs)
	case abs == "" && wasAbs == "":
		return label + " (its src changed)"
	}
	return label
}

// describeImage names an image by its alt text, quoted, and its URL,
// whichever it has.
func describeImage(alt, abs string) string {
	var parts []string
	if alt != "" {
		parts = append(parts, "“"+alt+"”")
	}
	if abs != "" {
		parts = append(parts, abs)
	}
	if len(parts) == 0 {
		return "without a name"
	}
	return strings.Join(parts, " ")
}

func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// treeAttr returns the value of n's attribute name, in any case; "" if
// it has none.
func treeAttr(n *tree.Node, name string) string {
	for _, a := range n.Attrs {
		if strings.EqualFold(a.Name, name) {
			return a.Value
		}
	}
	return ""
}

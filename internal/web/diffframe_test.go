package web

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestDiffFrameRebased: the diff frame shows a page's images and links
// without loading anything into Vigil's origin. Its links kept the page's
// relative href (<a href="/about">), which led into Vigil, and its
// images their relative src, which the frame's CSP (img-src data:)
// blocked anyway: an image that changed was never seen. Links now go to
// the watched site, absolute, in a new tab, without referrer or opener;
// an image is a placeholder naming it (alt text and absolute URL), marked
// as the diff marks it. The frame's CSP and the iframe's sandbox allow
// popups, and them to escape the sandbox, so that a click on a link opens
// the watched page in a new, normal tab; they allow nothing else (no
// script, form, top navigation or same origin).
func TestDiffFrameRebased(t *testing.T) {
	e := newReadAsTextEnv(t)
	ctx := context.Background()
	w := e.s.Warehouse.(*warehouse.Warehouse)
	at := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	put := func(body string) string {
		t.Helper()
		v, err := w.Put(ctx, &warehouse.Fetch{URL: "http://a.example/p", FetchedAt: at, Status: 200, ContentType: "text/html", Body: []byte(body)})
		if err != nil {
			t.Fatal(err)
		}
		at = at.Add(time.Hour)
		return strconv.FormatInt(v.ID, 10)
	}
	const page = `<html><body><h1>Shop</h1><p><a href="/about">About</a> <a href="news/today?x=1#top">News</a> <a href="#faq">FAQ</a> <a href="mailto:a@a.example">Mail</a></p>
<blockquote cite="/quoted">q</blockquote>
<div><img src="pics/kept.png" alt="Kept"></div>
<p>%s</p>%s</body></html>`
	version := func(logo, more string) string {
		return strings.Replace(strings.Replace(page, "%s", logo, 1), "%s", more, 1)
	}
	from := put(version(`<img src="/img1.png" alt="Old logo">`, `<ul><li>one</li><li><img src="/gone.png" alt="Gone"> gone</li></ul>`))
	to := put(version(`<img src="/img2.png" alt="New logo">`, `<ul><li>one</li></ul><figure><img src="/added.png" alt="Added"><figcaption>added</figcaption></figure>`))
	r := strconv.FormatInt(e.res, 10)

	for _, view := range []string{"inline", "side", "changes"} {
		path := "/resources/" + r + "/diff/frame?from=" + from + "&to=" + to + "&view=" + view
		frame := e.get(path)
		doc, err := html.Parse(strings.NewReader(frame))
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.TextNode {
				text.WriteString(n.Data)
			}
			if n.Type == html.ElementNode {
				if n.Data == "img" {
					if src := attrOf(n, "src"); !strings.HasPrefix(src, "data:") {
						t.Errorf("%s: an <img> loads %q", view, src)
					}
				}
				for _, a := range n.Attr {
					switch a.Key {
					case "href", "src", "cite", "srcset", "usemap", "action", "poster", "background", "longdesc":
						u, err := url.Parse(a.Val)
						if err != nil || !u.IsAbs() || u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "mailto" {
							t.Errorf("%s: <%s %s=%q> is not an absolute URL of the page", view, n.Data, a.Key, a.Val)
						}
					}
				}
				if n.Data == "a" && attrOf(n, "href") != "" {
					rel := " " + attrOf(n, "rel") + " "
					if attrOf(n, "target") != "_blank" || !strings.Contains(rel, " noopener ") || !strings.Contains(rel, " noreferrer ") {
						t.Errorf("%s: link %q opens with target %q, rel %q; want a new tab, noopener noreferrer", view, attrOf(n, "href"), attrOf(n, "target"), attrOf(n, "rel"))
					}
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(doc)
		if view == "changes" {
			// The changes only: the image added and the one removed, and
			// the attributes of the one replaced, old and new, by the
			// absolute URLs the other views name them by.
			for _, want := range []string{`“Added” http://a.example/added.png`, `“Gone” http://a.example/gone.png`, `"http://a.example/img1.png" → "http://a.example/img2.png"`} {
				if !strings.Contains(text.String(), want) {
					t.Errorf("%s: the frame's text lacks %q:\n%s", view, want, frame)
				}
			}
			continue
		}
		for _, want := range []string{
			`href="http://a.example/about"`, `href="http://a.example/news/today?x=1#top"`, `href="http://a.example/p#faq"`,
			`href="mailto:a@a.example"`, `cite="http://a.example/quoted"`,
		} {
			if !strings.Contains(frame, want) {
				t.Errorf("%s: the frame lacks %s:\n%s", view, want, frame)
			}
		}
		// Each image named as text, with the mark of its change: kept,
		// changed in place (the inline view says what it was), added,
		// removed.
		for _, c := range []struct{ text, mark string }{
			{`[Image “Kept” http://a.example/pics/kept.png]`, ""},
			{map[string]string{"inline": `[Image “New logo” http://a.example/img2.png (was “Old logo” http://a.example/img1.png)]`, "side": `[Image “New logo” http://a.example/img2.png]`}[view], "attr"},
			{`[Image “Added” http://a.example/added.png]`, "ins"},
			{`[Image “Gone” http://a.example/gone.png]`, "del"},
		} {
			if got, ok := markOf(doc, c.text); !ok || got != c.mark {
				t.Errorf("%s: %q shown %v, marked %q; want it shown, marked %q:\n%s", view, c.text, ok, got, c.mark, frame)
			}
		}
		if view == "side" {
			if got, ok := markOf(doc, `[Image “Old logo” http://a.example/img1.png]`); !ok || got != "attr" {
				t.Errorf("side: the old logo shown %v, marked %q:\n%s", ok, got, frame)
			}
		}
	}
	// The frame's policy and the iframe's sandbox: popups, escaping the
	// sandbox, and nothing more.
	diffPage := e.get("/resources/" + r + "/diff?from=" + from + "&to=" + to + "&view=inline")
	if !strings.Contains(diffPage, `<iframe class="page" id="diff-frame" sandbox="allow-popups allow-popups-to-escape-sandbox" referrerpolicy="no-referrer"`) {
		t.Errorf("the iframe's sandbox is not allow-popups allow-popups-to-escape-sandbox:\n%s", diffPage)
	}
	if frameCSP != "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; base-uri 'none'; form-action 'none'" {
		t.Errorf("the frame's CSP changed: %s", frameCSP)
	}
}

// markOf finds the text that holds want and returns the diff mark
// (data-vigil) nearest above it, on its element or an ancestor ("" if
// none is marked), and whether the text was found.
func markOf(doc *html.Node, want string) (string, bool) {
	var found *html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if found == nil && n.Type == html.TextNode && strings.Contains(n.Data, want) {
			found = n
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if found == nil {
		return "", false
	}
	for n := found; n != nil; n = n.Parent {
		if m := attrOf(n, "data-vigil"); m != "" && m != "old" && m != "new" && m != "sbs" {
			return m, true
		}
	}
	return "", true
}

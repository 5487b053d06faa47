package web

import (
	"context"
	"html"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestDiffChangesImageURL: an image whose relative src changed is named
// by one absolute URL in every view of the diff a user reads. The full
// view's frame named it so ("[Image “Logo” http://a.example/shop/img/b.png
// (was … img/a.png)]"), but "only the changes" named it by what the page
// wrote, `"img/a.png" → "img/b.png"`, which leads nowhere from Vigil, and
// so did the text format and the change records (the dashboard's and the
// API's). The src resolves against the page's URL, or its <base href>
// when it has one, in one way for all (a host in capitals in lower case,
// as the records always wrote it).
func TestDiffChangesImageURL(t *testing.T) {
	for _, tc := range []struct {
		name     string
		url      string
		head     string // the page's head
		old, new string // the two srcs, absolute
	}{
		{"relative to the page", "http://a.example/shop/p", "", "http://a.example/shop/img/a.png", "http://a.example/shop/img/b.png"},
		{"relative to a base href", "http://b.example/shop/p", `<base href="http://cdn.example/assets/">`, "http://cdn.example/assets/img/a.png", "http://cdn.example/assets/img/b.png"},
		{"relative to a base href in capitals", "http://c.example/shop/p", `<base href="HTTP://CDN.Example">`, "http://cdn.example/img/a.png", "http://cdn.example/img/b.png"},
		// A base that is not http or https is passed over for the page's
		// URL (intent.PageBase): the views dropped every URL, the records
		// resolved against it.
		{"an ftp base href", "http://d.example/shop/p", `<base href="ftp://files.example/">`, "http://d.example/shop/img/a.png", "http://d.example/shop/img/b.png"},
		{"an about:blank base href", "http://e.example/shop/p", `<base href="about:blank">`, "http://e.example/shop/img/a.png", "http://e.example/shop/img/b.png"},
		{"a blob: base href", "http://f.example/shop/p", `<base href="blob:http://f.example/0b1e">`, "http://f.example/shop/img/a.png", "http://f.example/shop/img/b.png"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, resource, ids := imageVersions(t, tc.url, tc.head, "img/a.png", "img/b.png")
			get := func(path string) string {
				t.Helper()
				status, body := c.do("GET", path, "")
				if status != 200 {
					t.Fatalf("GET %s: %d %s", path, status, body)
				}
				return body
			}
			diff := "/resources/" + strconv.FormatInt(resource, 10) + "/diff"
			query := "?from=" + ids[0] + "&to=" + ids[1]
			relative := func(place, text string) {
				t.Helper()
				if strings.Contains(text, `"img/a.png"`) || strings.Contains(text, `"img/b.png"`) {
					t.Errorf("%s names the image by its relative src:\n%s", place, text)
				}
			}
			inline := html.UnescapeString(get(diff + "/frame" + query + "&view=inline"))
			if want := `[Image “Logo” ` + tc.new + ` (was “Logo” ` + tc.old + `)]`; !strings.Contains(inline, want) {
				t.Errorf("the full view does not name the image %s:\n%s", want, inline)
			}
			changes := html.UnescapeString(get(diff + "/frame" + query + "&view=changes"))
			if want := `"` + tc.old + `" → "` + tc.new + `"`; !strings.Contains(changes, want) {
				t.Errorf("only the changes does not name the image %s:\n%s", want, changes)
			}
			relative("only the changes", changes)
			text := get("/api/v1" + diff + query + "&format=text")
			if want := `/@src: "` + tc.old + `" → "` + tc.new + `"`; !strings.Contains(text, want) {
				t.Errorf("the text format does not name the image %s:\n%s", want, text)
			}
			relative("the text format", text)
			records := get("/api/v1" + diff + query + "&format=records")
			if want := `"old": "` + tc.old + `",` + "\n" + `    "new": "` + tc.new + `"`; !strings.Contains(records, want) {
				t.Errorf("the records do not name the image %s:\n%s", want, records)
			}
			relative("the records", records)
			page := html.UnescapeString(get(diff + query + "&view=records"))
			if !strings.Contains(page, tc.new) || !strings.Contains(page, tc.old) {
				t.Errorf("the dashboard's change records do not name the image %s (was %s):\n%s", tc.new, tc.old, page)
			}
			if strings.Contains(page, `>img/b.png<`) || strings.Contains(page, `"img/b.png"`) || strings.Contains(page, ` img/b.png`) {
				t.Errorf("the dashboard's change records name the image by its relative src:\n%s", page)
			}
		})
	}
}

// imageVersions watches url and stores two versions of the page it
// serves, with head in its head and an image of each src in turn; it
// returns a client signed in as the sentinel's owner, the resource's id
// and the versions' ids.
func imageVersions(t *testing.T, url, head string, srcs ...string) (c *signedIn, resource int64, ids []string) {
	t.Helper()
	heads := make([]string, len(srcs))
	for i := range heads {
		heads[i] = head
	}
	return imageVersionsHeads(t, url, heads, srcs)
}

// imageVersionsHeads is imageVersions with a head for each version.
func imageVersionsHeads(t *testing.T, url string, heads, srcs []string) (c *signedIn, resource int64, ids []string) {
	t.Helper()
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	createChecked(t, s, u, "Create Sentinel shop Using "+url+" Fetch 1 hour")
	ctx := context.Background()
	at := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	for i, src := range srcs {
		body := `<html><head>` + heads[i] + `<title>Shop</title></head><body><h1>Shop</h1><p><img src="` + src + `" alt="Logo"></p></body></html>`
		f := &warehouse.Fetch{URL: url, FetchedAt: at.Add(time.Duration(i) * time.Hour), Status: 200, ContentType: "text/html", Body: []byte(body)}
		v, err := w.Put(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		ids, resource = append(ids, strconv.FormatInt(v.ID, 10)), v.ResourceID
	}
	return newSignedIn(t, s, u), resource, ids
}

// TestDiffImageURLBaseChanged: where the page's <base href> changed with
// its image, the old src is named as it resolved in the old version and
// the new as it resolves in the new one, in the text format and only the
// changes as in the change records and the full view's "(was …)"; the
// old src was resolved against the new version's base, an image the old
// page never showed.
func TestDiffImageURLBaseChanged(t *testing.T) {
	heads := []string{`<base href="http://old.example/assets/">`, `<base href="http://new.example/assets/">`}
	c, resource, ids := imageVersionsHeads(t, "http://a.example/shop/p", heads, []string{"img/a.png", "img/b.png"})
	const old, new = "http://old.example/assets/img/a.png", "http://new.example/assets/img/b.png"
	get := func(path string) string {
		t.Helper()
		status, body := c.do("GET", path, "")
		if status != 200 {
			t.Fatalf("GET %s: %d %s", path, status, body)
		}
		return html.UnescapeString(body)
	}
	diff := "/resources/" + strconv.FormatInt(resource, 10) + "/diff"
	query := "?from=" + ids[0] + "&to=" + ids[1]
	for _, v := range []struct{ place, path, want string }{
		{"the full view", diff + "/frame" + query + "&view=inline", `[Image “Logo” ` + new + ` (was “Logo” ` + old + `)]`},
		{"only the changes", diff + "/frame" + query + "&view=changes", `"` + old + `" → "` + new + `"`},
		{"the text format", "/api/v1" + diff + query + "&format=text", `/@src: "` + old + `" → "` + new + `"`},
		{"the records", "/api/v1" + diff + query + "&format=records", `"old": "` + old + `",` + "\n" + `    "new": "` + new + `"`},
	} {
		if got := get(v.path); !strings.Contains(got, v.want) {
			t.Errorf("%s does not say %s:\n%s", v.place, v.want, got)
		}
	}
}

// TestDiffImageURLRewritten: a page that came to write its image's src
// absolute, to the URL it resolved to, is shown as the document changed,
// never as a change whose two sides read the same URL: only the changes
// and the text format show the src as written, with the URL both resolve
// to, and so do the full view and the side-by-side view's new column
// (beside an old one that reads the same), in the same words (they said
// "(src was “img/a.png”, the same URL)"); the change records have none
// (any change passes over it). Each showed
// "http://a.example/shop/img/a.png" → "http://a.example/shop/img/a.png".
func TestDiffImageURLRewritten(t *testing.T) {
	const abs = "http://a.example/shop/img/a.png"
	c, resource, ids := imageVersions(t, "http://a.example/shop/p", "", "img/a.png", abs)
	get := func(path string) string {
		t.Helper()
		status, body := c.do("GET", path, "")
		if status != 200 {
			t.Fatalf("GET %s: %d %s", path, status, body)
		}
		return html.UnescapeString(body)
	}
	diff := "/resources/" + strconv.FormatInt(resource, 10) + "/diff"
	query := "?from=" + ids[0] + "&to=" + ids[1]
	for _, v := range []struct{ place, path, want string }{
		{"the full view", diff + "/frame" + query + "&view=inline", `[Image “Logo”, src "img/a.png" → "` + abs + `" (both resolve to ` + abs + `)]`},
		{"side by side", diff + "/frame" + query + "&view=side", `[Image “Logo”, src "img/a.png" → "` + abs + `" (both resolve to ` + abs + `)]`},
		{"only the changes", diff + "/frame" + query + "&view=changes", `"img/a.png" → "` + abs + `" (both resolve to ` + abs + `)`},
		{"the text format", "/api/v1" + diff + query + "&format=text", `/@src: "img/a.png" → "` + abs + `" (both resolve to ` + abs + `)`},
		{"the records", "/api/v1" + diff + query + "&format=records", "[]"},
	} {
		got := get(v.path)
		if !strings.Contains(got, v.want) {
			t.Errorf("%s does not say %s:\n%s", v.place, v.want, got)
		}
		for _, same := range []string{`"` + abs + `" → "` + abs + `"`, `“Logo” ` + abs + ` (was “Logo” ` + abs + `)`} {
			if strings.Contains(got, same) {
				t.Errorf("%s shows a change whose two sides read the same, %s:\n%s", v.place, same, got)
			}
		}
	}
}

// TestImageLabel: the full view names an image, and says what a changed
// image was, never with the two names alike: a src rewritten to the same
// URL is said as only the changes and the text format say it
// (render.AttrChange), an inline image (named by no URL) that changed
// says its src changed ("[Image “Logo” (was “Logo”)]" before), and an
// alt whose spaces alone changed says nothing, even with a URL (it said
// its src was written as it is, "the same URL").
func TestImageLabel(t *testing.T) {
	const abs = "http://a.example/img/a.png"
	for _, tc := range []struct {
		name, alt, now, was, abs, wasAbs, src, oldSrc, want string
	}{
		{"another image", "Logo", `“Logo” ` + abs, `“Logo” http://a.example/b.png`, abs, "http://a.example/b.png", "img/a.png", "b.png", `Image “Logo” ` + abs + ` (was “Logo” http://a.example/b.png)`},
		{"the same URL", "Logo", `“Logo” ` + abs, `“Logo” ` + abs, abs, abs, abs, "img/a.png", `Image “Logo”, src "img/a.png" → "` + abs + `" (both resolve to ` + abs + `)`},
		{"the same URL without an alt", "", abs, abs, abs, abs, abs, "img/a.png", `Image src "img/a.png" → "` + abs + `" (both resolve to ` + abs + `)`},
		{"an inline image", "Logo", `“Logo”`, `“Logo”`, "", "", "data:image/png;base64,QUJD", "data:image/png;base64,REVG", `Image “Logo” (its src changed)`},
		{"spaces of the alt", "Logo", `“Logo”`, `“Logo”`, "", "", "data:image/png;base64,QUJD", "data:image/png;base64,QUJD", `Image “Logo”`},
		{"spaces of the alt, a URL", "Logo", `“Logo” ` + abs, `“Logo” ` + abs, abs, abs, "img/a.png", "img/a.png", `Image “Logo” ` + abs},
	} {
		if got := changedImageLabel(tc.alt, tc.now, tc.was, tc.abs, tc.wasAbs, tc.src, tc.oldSrc); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestDiffSideBySideOldBase: the side-by-side view's old column names
// the old version's images (and links) as they resolved in it, against
// its own <base href>; it resolved them against the new version's, an
// image the old page never showed.
func TestDiffSideBySideOldBase(t *testing.T) {
	heads := []string{`<base href="http://old.example/assets/">`, `<base href="http://new.example/assets/">`}
	c, resource, ids := imageVersionsHeads(t, "http://a.example/shop/p", heads, []string{"img/a.png", "img/b.png"})
	path := "/resources/" + strconv.FormatInt(resource, 10) + "/diff/frame?from=" + ids[0] + "&to=" + ids[1] + "&view=side"
	status, body := c.do("GET", path, "")
	if status != 200 {
		t.Fatalf("GET %s: %d %s", path, status, body)
	}
	frame := html.UnescapeString(body)
	oldCol, newCol, ok := strings.Cut(frame, `data-vigil="new"`)
	if !ok || !strings.Contains(oldCol, `data-vigil="old"`) {
		t.Fatalf("no old and new columns:\n%s", frame)
	}
	if want := `[Image “Logo” http://old.example/assets/img/a.png]`; !strings.Contains(oldCol, want) || strings.Contains(oldCol, "new.example") {
		t.Errorf("the old column does not name its image %s alone:\n%s", want, oldCol)
	}
	if want := `[Image “Logo” http://new.example/assets/img/b.png]`; !strings.Contains(newCol, want) || strings.Contains(newCol, "old.example") {
		t.Errorf("the new column does not name its image %s alone:\n%s", want, newCol)
	}
}

// TestDiffDeletedOldBase: what a view shows deleted is the old version's,
// and names its image and link as they resolved there, against the old
// <base href>, in the full view and only the changes; they were resolved
// against the new version's base.
func TestDiffDeletedOldBase(t *testing.T) {
	e := newReadAsTextEnv(t)
	w := e.s.Warehouse.(*warehouse.Warehouse)
	at := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	var ids []string
	for _, body := range []string{
		`<html><head><base href="http://old.example/shop/"></head><body><h1>Shop</h1><ul><li>one</li><li><img src="gone.png" alt="Gone"> <a href="left.html">Left</a></li></ul></body></html>`,
		`<html><head><base href="http://new.example/shop/"></head><body><h1>Shop</h1><ul><li>one</li></ul></body></html>`,
	} {
		v, err := w.Put(context.Background(), &warehouse.Fetch{URL: "http://a.example/p", FetchedAt: at, Status: 200, ContentType: "text/html", Body: []byte(body)})
		if err != nil {
			t.Fatal(err)
		}
		at = at.Add(time.Hour)
		ids = append(ids, strconv.FormatInt(v.ID, 10))
	}
	for _, view := range []string{"inline", "changes"} {
		frame := html.UnescapeString(e.get("/resources/" + strconv.FormatInt(e.res, 10) + "/diff/frame?from=" + ids[0] + "&to=" + ids[1] + "&view=" + view))
		_, deleted, _ := strings.Cut(frame, `data-vigil="del"`)
		for _, want := range []string{`[Image “Gone” http://old.example/shop/gone.png]`, `href="http://old.example/shop/left.html"`} {
			if !strings.Contains(deleted, want) || strings.Contains(deleted, "new.example") {
				t.Errorf("%s: the deleted part does not say %s alone:\n%s", view, want, frame)
			}
		}
	}
}

// TestDiffOddBaseKeepsURLs: a page whose <base href> is not http or
// https (ftp:, about:blank, blob:) has its URLs resolved against its own
// address, in the full view, only the changes, the text format and the
// records alike: the views dropped every link and image URL, even the
// absolute https ones ("[Image “Logo”]", a link to nowhere), while the
// records resolved against the odd base (ftp://files.example/b.html).
func TestDiffOddBaseKeepsURLs(t *testing.T) {
	for _, base := range []string{"ftp://files.example/", "about:blank", "blob:http://a.example/0b1e"} {
		t.Run(base, func(t *testing.T) {
			page := func(img, link string) string {
				return `<html><head><base href="` + base + `"><title>Shop</title></head><body><h1>Shop</h1><p><img src="` + img + `" alt="Logo"> <a href="` + link + `">Offers</a></p></body></html>`
			}
			c, resource, ids := pageVersions(t, "http://a.example/shop/p", page("https://cdn.example/a.png", "a.html"), page("https://cdn.example/b.png", "b.html"))
			get := func(path string) string {
				t.Helper()
				status, body := c.do("GET", path, "")
				if status != 200 {
					t.Fatalf("GET %s: %d %s", path, status, body)
				}
				return html.UnescapeString(body)
			}
			diff := "/resources/" + strconv.FormatInt(resource, 10) + "/diff"
			query := "?from=" + ids[0] + "&to=" + ids[1]
			for _, v := range []struct {
				place, path string
				want        []string
			}{
				{"the full view", diff + "/frame" + query + "&view=inline", []string{
					`[Image “Logo” https://cdn.example/b.png (was “Logo” https://cdn.example/a.png)]`,
					`href="http://a.example/shop/b.html"`,
				}},
				{"side by side", diff + "/frame" + query + "&view=side", []string{
					`[Image “Logo” https://cdn.example/a.png]`, `[Image “Logo” https://cdn.example/b.png]`,
					`href="http://a.example/shop/a.html"`, `href="http://a.example/shop/b.html"`,
				}},
				{"only the changes", diff + "/frame" + query + "&view=changes", []string{
					`"https://cdn.example/a.png" → "https://cdn.example/b.png"`,
					`"http://a.example/shop/a.html" → "http://a.example/shop/b.html"`,
				}},
				{"the text format", "/api/v1" + diff + query + "&format=text", []string{
					`/@src: "https://cdn.example/a.png" → "https://cdn.example/b.png"`,
					`/@href: "http://a.example/shop/a.html" → "http://a.example/shop/b.html"`,
				}},
				{"the records", "/api/v1" + diff + query + "&format=records", []string{
					`"old": "https://cdn.example/a.png",` + "\n" + `    "new": "https://cdn.example/b.png"`,
					`"old": "http://a.example/shop/a.html",` + "\n" + `    "new": "http://a.example/shop/b.html"`,
				}},
			} {
				got := get(v.path)
				for _, want := range v.want {
					if !strings.Contains(got, want) {
						t.Errorf("%s does not say %s:\n%s", v.place, want, got)
					}
				}
				for _, odd := range []string{"ftp://files.example/b", "about:", "blob:///"} {
					if strings.Contains(got, odd) {
						t.Errorf("%s resolves against the base %s:\n%s", v.place, base, got)
					}
				}
			}
		})
	}
}

// TestAbsoluteWithoutBase: without a base to resolve against, an
// absolute http, https or mailto URL is still named, and anything else
// leads nowhere.
func TestAbsoluteWithoutBase(t *testing.T) {
	for ref, want := range map[string]string{
		"https://cdn.example/a.png": "https://cdn.example/a.png",
		"HTTP://CDN.Example":        "http://cdn.example/",
		"mailto:x@a.example":        "mailto:x@a.example",
		"img/a.png":                 "",
		"ftp://files.example/a":     "",
		"javascript:alert(1)":       "",
	} {
		if got := absoluteAgainst(nil, ref); got != want {
			t.Errorf("absoluteAgainst(nil, %q) = %q, want %q", ref, got, want)
		}
	}
}

// pageVersions watches url and stores a version of the page for each
// body in turn; it returns a client signed in as the sentinel's owner,
// the resource's id and the versions' ids.
func pageVersions(t *testing.T, url string, bodies ...string) (c *signedIn, resource int64, ids []string) {
	t.Helper()
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	createChecked(t, s, u, "Create Sentinel shop Using "+url+" Fetch 1 hour")
	at := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	for i, body := range bodies {
		f := &warehouse.Fetch{URL: url, FetchedAt: at.Add(time.Duration(i) * time.Hour), Status: 200, ContentType: "text/html", Body: []byte(body)}
		v, err := w.Put(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		ids, resource = append(ids, strconv.FormatInt(v.ID, 10)), v.ResourceID
	}
	return newSignedIn(t, s, u), resource, ids
}

package intent

import (
	"slices"
	"testing"
)

// TestContainersPairedByContent: tables and lists without an id are
// paired by what they hold, not by their index on the page. A list or a
// table added before the others is inserted, and the others, unchanged,
// are no change; one whose items changed is still paired with its old
// version.
func TestContainersPairedByContent(t *testing.T) {
	page := func(body string) string { return `<html><body>` + body + `</body></html>` }
	const (
		table  = `<table><tr><td>A</td><td>1</td></tr><tr><td>B</td><td>2</td></tr></table>`
		table2 = `<table><tr><td>A</td><td>1</td></tr><tr><td>B</td><td>3</td></tr></table>`
		promo  = `<table><tr><td>Promo</td><td>9</td></tr></table>`
		list   = `<ul><li>one</li><li>two</li></ul>`
		list2  = `<ul><li>one</li><li>two</li><li>three</li></ul>`
		nav    = `<ul><li>Home</li><li>About</li></ul>`
	)
	for _, tc := range []struct {
		name, old, new, clause string
		want                   []string
	}{
		{"table added before", table, promo + table, "table", []string{"insert(Promo | 9,1)"}},
		{"table added before, the other changed", table, promo + table2, "table", []string{"insert(Promo | 9,1)", "update(2->3,2,2)"}},
		{"list added before", list, nav + list, "list", []string{"insert(About,2)", "insert(Home,1)"}},
		{"list added before, the other changed", list, nav + list2, "list", []string{"insert(About,2)", "insert(Home,1)", "insert(three,3)"}},
		{"list removed before", nav + list, list, "list", []string{"delete(About,2)", "delete(Home,1)"}},
		{"list changed in place", list, `<ul><li>uno</li><li>dos</li></ul>`, "list", []string{"update(one->uno,1,1)", "update(two->dos,2,2)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, page(tc.old), page(tc.new), tc.clause)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if got := briefs(r.Changes); !slices.Equal(got, want) {
				t.Errorf("got %v\nwant %v", got, want)
			}
		})
	}
}

// TestPictureSource: a picture's image is its first source's (the first
// candidate of its srcset), which a browser shows where it supports
// picture, as an img's srcset is its image without a src; a change of
// any of its sources' first candidates or of its img's own source (the
// images it shows on another screen or browser) is a change of its
// source, which names the source that changed.
func TestPictureSource(t *testing.T) {
	pic := func(source, img string) string {
		return `<html><body><p>Cameras</p><picture>` + source + `<img src="` + img + `" alt="X"></picture></body></html>`
	}
	for _, tc := range []struct {
		name, old, new string
		want           string // the new source of the one image change; "" for none
	}{
		{"source srcset changed",
			pic(`<source srcset="/a.webp 1x, /a@2x.webp 2x" type="image/webp">`, "/a.jpg"),
			pic(`<source srcset="/b.webp 1x, /b@2x.webp 2x" type="image/webp">`, "/a.jpg"), "https://shop.example/b.webp"},
		{"first source changed", pic(`<source media="(min-width: 800px)" srcset="/a-wide.jpg"><source srcset="/a.jpg">`, "/a.jpg"),
			pic(`<source media="(min-width: 800px)" srcset="/b-wide.jpg"><source srcset="/a.jpg">`, "/a.jpg"), "https://shop.example/b-wide.jpg"},
		{"source data-srcset changed", pic(`<source data-srcset="/a.webp">`, "/blank.gif"), pic(`<source data-srcset="/b.webp">`, "/blank.gif"), "https://shop.example/b.webp"},
		{"unchanged", pic(`<source srcset="/a.webp">`, "/a.jpg"), pic(`<source srcset="/a.webp">`, "/a.jpg"), ""},
		{"source signed anew", pic(`<source srcset="https://cdn.example/a.webp?X-Amz-Date=1&amp;X-Amz-Signature=a 1x">`, "/a.jpg"),
			pic(`<source srcset="https://cdn.example/a.webp?X-Amz-Date=2&amp;X-Amz-Signature=b 1x">`, "/a.jpg"), ""},
		{"picture without a source", pic("", "/a.jpg"), pic("", "/b.jpg"), "https://shop.example/b.jpg"},
		{"second source changed", pic(`<source media="(min-width: 800px)" srcset="/a-wide.jpg"><source srcset="/a-narrow.jpg 1x, /a-narrow@2x.jpg 2x">`, "/a.jpg"),
			pic(`<source media="(min-width: 800px)" srcset="/a-wide.jpg"><source srcset="/b-narrow.jpg 1x, /b-narrow@2x.jpg 2x">`, "/a.jpg"), "https://shop.example/b-narrow.jpg"},
		{"second source signed anew", pic(`<source srcset="/a.webp"><source srcset="https://cdn.example/a.jpg?X-Amz-Date=1&amp;X-Amz-Signature=a">`, "/a.jpg"),
			pic(`<source srcset="/a.webp"><source srcset="https://cdn.example/a.jpg?X-Amz-Date=2&amp;X-Amz-Signature=b">`, "/a.jpg"), ""},
		{"second source's other candidates changed", pic(`<source srcset="/a.webp"><source srcset="/a.jpg 1x, /a@2x.jpg 2x">`, "/a.jpg"),
			pic(`<source srcset="/a.webp"><source srcset="/a.jpg 1x, /a@3x.jpg 3x">`, "/a.jpg"), ""},
		{"source added", pic(`<source media="(min-width: 800px)" srcset="/a-wide.jpg">`, "/a.jpg"),
			pic(`<source media="(min-width: 800px)" srcset="/a-wide.jpg"><source srcset="/a-narrow.jpg">`, "/a.jpg"), "https://shop.example/a-narrow.jpg"},
		{"fallback changed", pic(`<source srcset="/a.webp" type="image/webp">`, "/a.jpg"), pic(`<source srcset="/a.webp" type="image/webp">`, "/b.jpg"), "https://shop.example/b.jpg"},
		{"source after the img", `<html><body><p>Cameras</p><picture><img src="/a.jpg" alt="X"><source srcset="/a.webp"></picture></body></html>`,
			`<html><body><p>Cameras</p><picture><img src="/a.jpg" alt="X"><source srcset="/b.webp"></picture></body></html>`, ""},
	} {
		p := NewPair(parseDoc(t, tc.old), parseDoc(t, tc.new), nil, nil)
		p.OldURL, p.NewURL = "https://shop.example/", "https://shop.example/"
		r, err := p.Evaluate(monitor(t, "all images"))
		if err != nil {
			t.Fatal(err)
		}
		if tc.want == "" {
			if r.Matched {
				t.Errorf("%s: changes %+v, want none", tc.name, r.Changes)
			}
			continue
		}
		if len(r.Changes) != 1 || r.Changes[0].Op != Update || r.Changes[0].Image.NewSrc != tc.want || !slices.Equal(r.Changes[0].Fields, []string{"src"}) {
			t.Errorf("%s: changes %+v, want an update of src to %s", tc.name, r.Changes, tc.want)
		}
	}
}

// TestNoscriptLinks: the links inside a noscript are none of the page's,
// in HTML (whose parser reads a noscript's content as text) and in XHTML
// (whose parser reads it as elements) alike, as a site crawl and the
// warehouse read them (HoldsNoLinks): a browser that runs scripts does
// not show them.
func TestNoscriptLinks(t *testing.T) {
	html := func(body string) string {
		return `<html><head><title>T</title></head><body><p>Shop</p>` + body + `</body></html>`
	}
	xhtml := func(body string) string {
		return `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head><body><p>Shop</p>` + body + `</body></html>`
	}
	for _, tc := range []struct {
		name     string
		old, new string
		want     []string
	}{
		{"html noscript link added", html(`<a href="/a">A</a>`), html(`<a href="/a">A</a><noscript><a href="/n">N</a></noscript>`), nil},
		{"xhtml noscript link added", xhtml(`<a href="/a">A</a>`), xhtml(`<a href="/a">A</a><noscript><a href="/n">N</a></noscript>`), nil},
		{"xhtml noscript link changed", xhtml(`<noscript><a href="/n1">N</a></noscript>`), xhtml(`<noscript><a href="/n2">N</a></noscript>`), nil},
		{"xhtml link beside a noscript", xhtml(`<noscript><a href="/n">N</a></noscript>`), xhtml(`<noscript><a href="/n">N</a></noscript><a href="/b">B</a>`), []string{"+ link added: /b"}},
	} {
		r := evalClause(t, tc.old, tc.new, "all links")
		var got []string
		for _, c := range r.Changes {
			got = append(got, c.Line())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

package warehouse_test

import (
	"context"
	"slices"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// TestLinksBaseAsViewed: the links a page stores, and those a site crawl
// follows, resolve against the base its views and change records take
// (intent.PageBase): the first base element with an href, and the page's
// own address in place of a base that is not http or https (ftp:,
// javascript:, data:, about:blank), as browsers pass it over. The
// warehouse took any base href, and the last of several: an ftp: base
// stored ftp: links of the page's relative ones (and so none), a
// javascript: one none at all.
func TestLinksBaseAsViewed(t *testing.T) {
	const page = "https://shop.example/cameras/index.html"
	for _, tc := range []struct {
		name, head string
		want       []string
	}{
		{"an ftp base", `<base href="ftp://files.example/">`,
			[]string{"https://shop.example/cameras/a.html", "https://shop.example/b.html", "https://other.example/c"}},
		{"a javascript base", `<base href="javascript:void(0)">`,
			[]string{"https://shop.example/cameras/a.html", "https://shop.example/b.html", "https://other.example/c"}},
		{"a data base", `<base href="data:text/html,x">`,
			[]string{"https://shop.example/cameras/a.html", "https://shop.example/b.html", "https://other.example/c"}},
		{"about:blank", `<base href="about:blank">`,
			[]string{"https://shop.example/cameras/a.html", "https://shop.example/b.html", "https://other.example/c"}},
		{"the first base has no href", `<base target="_blank"><base href="https://cdn.example/x/">`,
			[]string{"https://cdn.example/x/a.html", "https://cdn.example/b.html", "https://other.example/c"}},
		{"the first base with an href counts", `<base href="https://cdn.example/x/"><base href="https://mirror.example/y/">`,
			[]string{"https://cdn.example/x/a.html", "https://cdn.example/b.html", "https://other.example/c"}},
		{"an ftp base first", `<base href="ftp://files.example/"><base href="https://cdn.example/x/">`,
			[]string{"https://shop.example/cameras/a.html", "https://shop.example/b.html", "https://other.example/c"}},
		{"a relative base", `<base href="../docs/">`,
			[]string{"https://shop.example/docs/a.html", "https://shop.example/b.html", "https://other.example/c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := `<html><head>` + tc.head + `</head><body><a href="a.html">A</a> <a href="/b.html">B</a> <a href="https://other.example/c">C</a></body></html>`
			doc, _, err := markup.ParseBytes([]byte(body), nil)
			if err != nil {
				t.Fatal(err)
			}
			for name, extract := range map[string]func(*tree.Document, string) []*vigil.Link{
				"ExtractLinks":     warehouse.ExtractLinks,
				"ExtractSiteLinks": warehouse.ExtractSiteLinks,
			} {
				var got []string
				for _, l := range extract(doc, page) {
					got = append(got, l.Target)
				}
				if !slices.Equal(got, tc.want) {
					t.Errorf("%s: %q, want %q", name, got, tc.want)
				}
			}
		})
	}
}

// TestPutStoresLinksBaseAsViewed: Put stores a page's relative links
// resolved against its address when its base is an ftp: one.
func TestPutStoresLinksBaseAsViewed(t *testing.T) {
	w, db := newWarehouse(t, warehouse.Options{ExtractLinks: true})
	v := put(t, w, "https://shop.example/cameras/index.html", 0,
		[]byte(`<html><head><base href="ftp://files.example/"></head><body><a href="a.html">A</a></body></html>`))
	links, err := db.Links(context.Background(), v.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != 1 || links[0].Target != "https://shop.example/cameras/a.html" {
		t.Fatalf("links %+v, want one to https://shop.example/cameras/a.html", links)
	}
}

// TestTextLinksBaseAsViewed: a text's links (a page read as its source
// text) pass over a base element that is not http or https, as a page's
// do: the text's relative hrefs resolve against its address.
func TestTextLinksBaseAsViewed(t *testing.T) {
	const source = "https://example.com/data.json"
	for _, tc := range []struct{ name, body, want string }{
		{"an ftp base", `{"html":"<base href='ftp://files.example/'><a href='y.html'>Y</a>"}`, "https://example.com/y.html"},
		{"a javascript base", `{"html":"<base href='javascript:void(0)'><a href='y.html'>Y</a>"}`, "https://example.com/y.html"},
		{"an https base", `{"html":"<base href='https://cdn.example/x/'><a href='y.html'>Y</a>"}`, "https://cdn.example/x/y.html"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, readAsText, err := warehouse.ReadBody([]byte(tc.body), "utf-8", "application/json")
			if err != nil || readAsText == nil {
				t.Fatalf("read as text: %v, %v", readAsText, err)
			}
			var got []string
			for _, l := range warehouse.ExtractTextLinks(doc, source) {
				got = append(got, l.Target)
			}
			if !slices.Equal(got, []string{tc.want}) {
				t.Errorf("links %q, want %q", got, tc.want)
			}
		})
	}
}

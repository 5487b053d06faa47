package warehouse_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestPutRecordsFinalURL: Put records the final URL a fetch was read
// from (Fetch.FinalURL, after redirects) as the version's URL, canonical,
// only when it is not the resource's own; the links it stores resolve
// against it, with the resource as their source, a page read as its
// source text's relative URLs too.
func TestPutRecordsFinalURL(t *testing.T) {
	const resource = "https://shop.example/old"
	for _, tc := range []struct {
		name, final, contentType, body string
		url                            string   // the version's
		targets                        []string // its links'
	}{
		{"not redirected", "", "text/html", `<a href="a.html">A</a> <a href="#top">top</a>`,
			"", []string{"https://shop.example/a.html", "https://shop.example/old#top"}},
		{"redirected to its own URL", "HTTPS://Shop.example:443/old", "text/html", `<a href="a.html">A</a>`,
			"", []string{"https://shop.example/a.html"}},
		{"redirected", "https://shop.example/cameras/index.html", "text/html", `<a href="a.html">A</a> <a href="#top">top</a>`,
			"https://shop.example/cameras/index.html", []string{"https://shop.example/cameras/a.html", "https://shop.example/cameras/index.html#top"}},
		{"redirected, a relative base", "https://shop.example/cameras/index.html", "text/html", `<base href="docs/"><a href="a.html">A</a>`,
			"https://shop.example/cameras/index.html", []string{"https://shop.example/cameras/docs/a.html"}},
		{"redirected, read as text", "https://shop.example/cameras/index.html", "text/plain", `see <a href="a.html">A</a>`,
			"https://shop.example/cameras/index.html", []string{"https://shop.example/cameras/a.html"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, db := newWarehouse(t, warehouse.Options{ExtractLinks: true})
			v, err := w.Put(context.Background(), &warehouse.Fetch{URL: resource, FinalURL: tc.final, FetchedAt: t0,
				Status: 200, ContentType: tc.contentType, Charset: "utf-8", Body: []byte(tc.body)})
			if err != nil {
				t.Fatal(err)
			}
			if v.URL != tc.url {
				t.Errorf("version read from %q, want %q", v.URL, tc.url)
			}
			links, err := db.Links(context.Background(), v.ID)
			if err != nil {
				t.Fatal(err)
			}
			var targets []string
			for _, l := range links {
				targets = append(targets, l.Target)
				if l.Source != resource {
					t.Errorf("link to %s: source %q, want the resource's URL %q", l.Target, l.Source, resource)
				}
				if l.Target == "https://shop.example/cameras/index.html#top" && l.Type != vigil.LinkInterior {
					t.Errorf("link to %s: type %s, want %s, a link within the page read", l.Target, l.Type, vigil.LinkInterior)
				}
			}
			if !slices.Equal(targets, tc.targets) {
				t.Errorf("links %q, want %q", targets, tc.targets)
			}
		})
	}
}

// TestPutSameBodyOtherFinalURL: a fetch whose body is the newest
// version's, read from another URL (a redirect that came to lead
// elsewhere), is a new version, even when the caller saw an older head
// (Fetch.CheckHead): its relative links name other pages.
func TestPutSameBodyOtherFinalURL(t *testing.T) {
	ctx := context.Background()
	w, _ := newWarehouse(t, warehouse.Options{})
	body := []byte(`<html><body><a href="a.html">A</a></body></html>`)
	put := func(i int, final string, head int64) *vigil.Version {
		t.Helper()
		v, err := w.Put(ctx, &warehouse.Fetch{URL: "https://shop.example/old", FinalURL: final, FetchedAt: t0.Add(time.Duration(i) * time.Hour),
			Status: 200, ContentType: "text/html", Charset: "utf-8", Body: body, CheckHead: true, HeadID: head})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	v1 := put(0, "https://shop.example/new/page", 0)
	v2 := put(1, "https://shop.example/newer/page", 0) // saw no head
	if v2.ID == v1.ID || v2.URL != "https://shop.example/newer/page" {
		t.Errorf("read from another URL: version %d read from %q, want a new one read from https://shop.example/newer/page", v2.ID, v2.URL)
	}
	v3 := put(2, "https://shop.example/newer/page", v1.ID) // saw v1, another stored v2
	if v3.ID != v2.ID {
		t.Errorf("the same fetch another writer stored: version %d, want %d", v3.ID, v2.ID)
	}
}

package monitor

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/spec"
)

// TestMessagesNameURLsAbsolute: a notification (its text and HTML, which
// e-mail sends and a webhook carries, and the records a feed entry and a
// webhook's changes are told from) names a changed image or link by its
// absolute URL, resolved against the page's address and its <base href>,
// as the dashboard's views name it. A sentinel on any change named it as
// the page wrote it ("img/a.png"), which leads nowhere from a message;
// one on all images or all links named it absolute already.
func TestMessagesNameURLsAbsolute(t *testing.T) {
	page := func(src, href string) string {
		return `<html><head><base href="https://cdn.example/shop/"></head><body><p>Shop</p><img src="` + src + `" alt="Logo"><p><a href="` + href + `">Offers</a></p></body></html>`
	}
	for _, tc := range []struct {
		clause string
		want   []string // in the text of the message
	}{
		{"any change", []string{"https://cdn.example/shop/img/a.png -> https://cdn.example/shop/img/b.png", "https://cdn.example/offers/1 -> https://cdn.example/offers/2"}},
		{"all images", []string{"https://cdn.example/shop/img/a.png -> https://cdn.example/shop/img/b.png"}},
		{"all links", []string{"https://cdn.example/offers/1 -> https://cdn.example/offers/2"}},
	} {
		t.Run(tc.clause, func(t *testing.T) {
			db, wh, u := testStore(t)
			s := createSentinel(t, db, spec.NewChecker(time.Now().UTC()), u, "shop", "Create Sentinel shop Using http://example.test/shop/index.html\nMonitor "+tc.clause+"\nFetch 1 hour\nNotify By email owner@example.test")
			f := &rotatingFetcher{body: page("img/a.png", "/offers/1")}
			m := &Monitor{Store: db, Warehouse: wh, Fetcher: f}
			runOnce(t, m, 1)
			f.body = page("img/b.png", "/offers/2")
			makeDue(t, db, s, time.Now().UTC())
			runOnce(t, m, 1)
			msgs := messagesOf(t, db, u, s)
			if len(msgs) == 0 {
				t.Fatal("no message")
			}
			last := msgs[len(msgs)-1]
			for _, want := range tc.want {
				if !strings.Contains(last.Text, want) {
					t.Errorf("the text does not say %q:\n%s", want, last.Text)
				}
				if html := strings.ReplaceAll(want, " -> ", "</del> <ins>"); !strings.Contains(last.HTML, html) {
					t.Errorf("the HTML does not say %q:\n%s", html, last.HTML)
				}
			}
			var recs []intent.Change
			for _, c := range changesOf(t, db, s) {
				var rs []intent.Change
				if err := json.Unmarshal(c.Records, &rs); err != nil {
					t.Fatal(err)
				}
				recs = append(recs, rs...)
			}
			for _, r := range recs {
				old, new := r.Texts()
				for _, v := range []string{old, new} {
					if strings.Contains(v, "img/") && !strings.HasPrefix(v, "https://") || strings.HasPrefix(v, "/offers") {
						t.Errorf("a stored record names a URL as the page wrote it: %+v", r)
					}
				}
			}
			for _, rel := range []string{`img/a.png ->`, `-> img/b.png`, `/offers/1 ->`} {
				if strings.Contains(last.Text, " "+rel) || strings.HasPrefix(last.Text, rel) {
					t.Errorf("the text names a URL as the page wrote it (%q):\n%s", rel, last.Text)
				}
			}
		})
	}
}

// TestNoMessageForURLRewritten: a page that comes to write its images
// and links absolute (or relative), to the same URLs, changed nothing a
// reader sees: a sentinel on any change records no change and sends no
// message. It sent "https://cdn.example/shop/img/a.png ->
// https://cdn.example/shop/img/a.png". A change after it is still told.
func TestNoMessageForURLRewritten(t *testing.T) {
	page := func(src, href, text string) string {
		return `<html><head><base href="https://cdn.example/shop/"></head><body><p>` + text + `</p><img src="` + src + `" alt="Logo"><p><a href="` + href + `">Offers</a></p></body></html>`
	}
	db, wh, u := testStore(t)
	s := createSentinel(t, db, spec.NewChecker(time.Now().UTC()), u, "shop", "Create Sentinel shop Using http://example.test/shop/index.html\nMonitor any change\nFetch 1 hour\nNotify By email owner@example.test")
	f := &rotatingFetcher{body: page("img/a.png", "/offers/1", "Shop")}
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f}
	runOnce(t, m, 1)
	f.body = page("https://cdn.example/shop/img/a.png", "https://CDN.example/offers/1", "Shop")
	makeDue(t, db, s, time.Now().UTC())
	runOnce(t, m, 1)
	if msgs, cs := messagesOf(t, db, u, s), changesOf(t, db, s); len(msgs) != 0 || len(cs) != 0 {
		t.Fatalf("URLs rewritten to themselves told as %d changes, %d messages: %+v", len(cs), len(msgs), msgs)
	}
	f.body = page("https://cdn.example/shop/img/a.png", "https://CDN.example/offers/1", "Shop closed")
	makeDue(t, db, s, time.Now().UTC())
	runOnce(t, m, 1)
	if msgs := messagesOf(t, db, u, s); len(msgs) != 1 || !strings.Contains(msgs[0].Text, "Shop closed") || strings.Contains(msgs[0].Text, "img/a.png") {
		t.Errorf("a change after the rewrite told in %d messages, want one of the text alone: %+v", len(msgs), msgs)
	}
}

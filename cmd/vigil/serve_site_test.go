package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestServeSite watches a site with the real daemon: a sentinel "Using
// site URL" crawls the local site at its first check (the reference),
// then, once pages went, came and changed, reports one change that lists
// them; the dashboard shows it page by page with links to each page's
// history and diff, the pages are readable by the sentinel's owner, and
// the feed's entry lists them.
func TestServeSite(t *testing.T) {
	site := newSite(t)
	page := func(title, body string) string {
		return "<html><head><title>" + title + "</title></head><body>" + body + "</body></html>"
	}
	site.set("/docs/", page("Docs", `<a href="guide.html">Guide</a> <a href="old.html">Old</a>`))
	site.set("/docs/guide.html", page("Guide", "<p>Install it.</p>"))
	site.set("/docs/old.html", page("Old", "<p>Old things.</p>"))
	d := startWebDaemon(t)
	sess, status := signIn(t, d.base, testAdminPassword)
	if status != http.StatusSeeOther {
		t.Fatalf("sign in: status %d", status)
	}
	c := &apiClient{t: t, base: d.base, token: sess.newToken("site test")}

	var sen struct {
		ID   int64  `json:"id"`
		Feed string `json:"feed"`
	}
	src := "Create Sentinel docs Using site " + site.srv.URL + "/docs/ depth 2 pages 10\n\tMonitor keywords {deprecated}\n\tFetch 1 hour\n\tEvery interactive\n"
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": src}).json(t, &sen)
	path := fmt.Sprintf("/api/v1/sentinels/%d", sen.ID)
	waitFor(t, 60*time.Second, "the first check of the site", func() bool {
		var checked struct {
			LastCheck time.Time `json:"lastCheck"`
		}
		c.want(200, "GET", path, nil).json(t, &checked)
		return !checked.LastCheck.IsZero()
	})

	site.set("/docs/", page("Docs", `<a href="guide.html">Guide</a> <a href="new.html">New</a>`))
	site.set("/docs/guide.html", page("Guide", "<p>Install it. The old API is deprecated.</p>"))
	site.set("/docs/new.html", page("New", "<p>New things.</p>"))
	c.want(200, "POST", path+"/check-now", nil)
	changes := waitChanges(t, c, sen.ID, 1)
	if len(changes) != 1 {
		t.Fatalf("%d changes, want 1: %v", len(changes), changes)
	}
	want := "site " + site.srv.URL + "/docs/: 1 page added, 1 page removed, 1 page changed"
	if changes[0]["summary"] != want {
		t.Errorf("summary %q, want %q", changes[0]["summary"], want)
	}
	changeID := int64(changes[0]["id"].(float64))
	var records []struct {
		Kind string `json:"kind"`
		Op   string `json:"op"`
		Page struct {
			URL        string `json:"url"`
			ResourceID int64  `json:"resourceId"`
		} `json:"page"`
	}
	raw, _ := json.Marshal(changes[0]["records"])
	if err := json.Unmarshal(raw, &records); err != nil || len(records) != 3 {
		t.Fatalf("records %s: %v", raw, err)
	}
	guide := records[2]
	if guide.Op != "update" || guide.Page.URL != site.srv.URL+"/docs/guide.html" || guide.Page.ResourceID == 0 {
		t.Fatalf("third record %+v: want the guide, modified", guide)
	}

	// The change's page on the dashboard lists the pages, with the
	// guide's diff; the guide's history is the owner's to read.
	body := sess.get(fmt.Sprintf("/changes/%d", changeID))
	diffLink := fmt.Sprintf("/resources/%d/diff?from=", guide.Page.ResourceID)
	for _, part := range []string{site.srv.URL + "/docs/new.html", site.srv.URL + "/docs/old.html", "no longer reached", diffLink, "keywords {deprecated}: 1 keyword added"} {
		if !strings.Contains(body, part) && !strings.Contains(body, strings.ReplaceAll(part, "&", "&amp;")) {
			t.Errorf("change page lacks %q:\n%s", part, body)
		}
	}
	// A page that changed is "changed" there, as in the change's summary
	// and its feed; it was "modified".
	if !strings.Contains(body, "<td>changed: keywords {deprecated}") || strings.Contains(body, "modified") {
		t.Errorf("the change page does not call the guide changed:\n%s", body)
	}
	// A page no longer reached is "removed", as in the summary above it
	// ("1 page removed") and in the feed; it was "deleted".
	if !strings.Contains(body, "<td>removed (no longer reached") || strings.Contains(body, "deleted") {
		t.Errorf("the change page does not call the old page removed:\n%s", body)
	}
	// The guide's diff page: versions read as pages, with no notice of
	// a source text.
	if m := regexp.MustCompile(regexp.QuoteMeta(diffLink) + `[^"]+`).FindString(body); m == "" {
		t.Errorf("no link to the guide's diff on the change page")
	} else if page := sess.get(strings.ReplaceAll(m, "&amp;", "&")); !strings.Contains(page, "<iframe") || strings.Contains(page, "read-as-text") {
		t.Errorf("the guide's diff page: a notice of source text, or no diff:\n%s", page)
	}
	if st := sess.status(fmt.Sprintf("/resources/%d", guide.Page.ResourceID)); st != http.StatusOK {
		t.Errorf("the guide's history: status %d, want 200", st)
	}
	c.want(200, "GET", fmt.Sprintf("/api/v1/resources/%d/versions", guide.Page.ResourceID), nil)

	// Another user cannot read the site's pages.
	other := d.addUser(t, "eve@example.com", "eve's password")
	(&apiClient{t: t, base: d.base, token: other}).want(404, "GET", fmt.Sprintf("/api/v1/resources/%d", guide.Page.ResourceID), nil)

	// The feed's entry lists the pages.
	res, err := http.Get(d.base + sen.Feed)
	if err != nil {
		t.Fatal(err)
	}
	feed, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(feed), "page added") || !strings.Contains(string(feed), "new.html") {
		t.Errorf("feed: status %d\n%s", res.StatusCode, feed)
	}
}

// TestServeSiteTextSitemap: the daemon watches a site whose start page
// is a text sitemap (text/plain, one URL a line): its first check reads
// the pages listed in scope, and a change of one is reported; the page
// listed out of the scope, and the one on a host DNS refuses, are not
// fetched. The crawl was the sitemap alone, and no page changed.
func TestServeSiteTextSitemap(t *testing.T) {
	site := newSite(t)
	site.setTyped("/docs/sitemap.txt", "text/plain; charset=utf-8", textSitemap(site.srv.URL))
	site.set("/docs/a.html", "<title>A</title><p>Alpha</p>")
	site.set("/docs/b.html", "<title>B</title><p>Beta</p>")
	site.set("/other/x.html", "<title>X</title><p>Out of scope</p>")
	d := startWebDaemon(t)
	sess, status := signIn(t, d.base, testAdminPassword)
	if status != http.StatusSeeOther {
		t.Fatalf("sign in: status %d", status)
	}
	c := &apiClient{t: t, base: d.base, token: sess.newToken("site test")}
	var sen struct {
		ID int64 `json:"id"`
	}
	src := "Create Sentinel docs Using site " + site.srv.URL + "/docs/sitemap.txt\n\tMonitor any change\n\tFetch 1 hour\n\tEvery interactive\n"
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": src}).json(t, &sen)
	path := fmt.Sprintf("/api/v1/sentinels/%d", sen.ID)
	waitFor(t, 60*time.Second, "the first check of the site", func() bool {
		var checked struct {
			LastCheck time.Time `json:"lastCheck"`
		}
		c.want(200, "GET", path, nil).json(t, &checked)
		return !checked.LastCheck.IsZero()
	})
	site.set("/docs/b.html", "<title>B</title><p>Beta, edited</p>")
	site.set("/other/x.html", "<title>X</title><p>Out of scope, edited</p>")
	c.want(200, "POST", path+"/check-now", nil)
	changes := waitChanges(t, c, sen.ID, 1)
	want := "site " + site.srv.URL + "/docs/sitemap.txt: 1 page changed"
	if len(changes) != 1 || changes[0]["summary"] != want {
		t.Fatalf("changes %v, want one: %q", changes, want)
	}
	raw, _ := json.Marshal(changes[0]["records"])
	if !strings.Contains(string(raw), site.srv.URL+"/docs/b.html") || strings.Contains(string(raw), "a.html") {
		t.Errorf("records %s, want b.html alone", raw)
	}
	site.mu.Lock()
	defer site.mu.Unlock()
	if site.hits["/docs/a.html"] == 0 || site.hits["/other/x.html"] != 0 {
		t.Errorf("hits %v: want a.html fetched, x.html not", site.hits)
	}
}

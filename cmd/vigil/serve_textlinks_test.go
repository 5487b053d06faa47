package main

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestServeTextPageLinks: vigil serve watching the links of a page served
// as text/plain (an llms.txt) reports the URLs added to and removed from
// it, and only those: the webhook's message says "+ link added: URL" and
// "- link removed: URL" as for a page's links, and so do the sentinel's
// feed and, in its summary, the dashboard. A page served as text/html
// whose <pre> lists URLs has no links but its a elements: its sentinel
// reports nothing when they change. A page served as JSON written with
// its slashes escaped (https:\/\/docs.example\/text.md) has the URLs
// unescaped for links, and a www. in text is a link to http://www....
func TestServeTextPageLinks(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	const secret = "textlinks-secret-of-32-characters"
	hk := startHooks(t, secret)
	site := newSite(t)
	llms := func(links ...string) string {
		return "# Example\n\n> A web change monitor.\n\n## Docs\n\n" + strings.Join(links, "\n") + "\n"
	}
	pre := func(urls ...string) string {
		return "<!DOCTYPE html><html><body><pre>\n" + strings.Join(urls, "\n") + "\n</pre></body></html>"
	}
	site.setTyped("/llms.txt", "text/plain; charset=utf-8", llms(
		"- [Quick start](https://docs.example/start.md): install",
		"- [Sentinels](https://docs.example/sentinels.md): the language",
		"- Changelog: https://docs.example/changelog.txt."))
	site.set("/downloads", pre("https://dl.example/v1.0.tar.gz", "https://dl.example/v1.1.tar.gz"))
	site.setTyped("/docs.json", "application/json", `{"docs":["https:\/\/docs.example\/start.md","https:\/\/docs.example\/changelog.txt"]}`)
	d := startWebDaemon(t, "--webhook-secret", secret)
	sess, status := signIn(t, d.base, testAdminPassword)
	if status != http.StatusSeeOther {
		t.Fatalf("sign in: status %d", status)
	}
	c := &apiClient{t: t, base: d.base, token: sess.newToken("text links")}
	type sentinel struct {
		ID        int64     `json:"id"`
		Feed      string    `json:"feed"`
		LastCheck time.Time `json:"lastCheck"`
	}
	create := func(name, path string) sentinel {
		var s sentinel
		c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": "Create Sentinel " + name + " Using " + site.srv.URL + path +
			" Monitor all links Fetch 1 day Notify By webhook " + hk.srv.URL + "/" + name}).json(t, &s)
		return s
	}
	get := func(s sentinel) sentinel {
		var got sentinel
		c.want(200, "GET", fmt.Sprintf("/api/v1/sentinels/%d", s.ID), nil).json(t, &got)
		return got
	}
	text, html, jsn := create("llms", "/llms.txt"), create("downloads", "/downloads"), create("json", "/docs.json")
	for _, s := range []sentinel{text, html, jsn} {
		waitFor(t, 60*time.Second, "the first check", func() bool { return !get(s).LastCheck.IsZero() })
	}

	site.setTyped("/llms.txt", "text/plain; charset=utf-8", llms(
		"- Mirror: www.docs.example/mirror.",
		"- [Quick start](https://docs.example/start.md): install",
		"- [Text pages](https://docs.example/text.md): links in text",
		"- [Sentinels](https://docs.example/sentinels.md): the language"))
	site.set("/downloads", pre("https://dl.example/v1.1.tar.gz", "https://dl.example/v1.2.tar.gz"))
	site.setTyped("/docs.json", "application/json", `{"docs":["https:\/\/docs.example\/start.md","https:\/\/docs.example\/text.md"]}`)
	before := get(html).LastCheck
	for _, s := range []sentinel{text, html, jsn} {
		c.want(200, "POST", fmt.Sprintf("/api/v1/sentinels/%d/check-now", s.ID), nil)
	}
	waitFor(t, 60*time.Second, "the webhook of llms", func() bool { return len(hk.of("llms")) == 1 })
	msg := hk.of("llms")[0].msg
	var lines []string
	for _, line := range strings.Split(msg.Text, "\n") {
		if strings.HasPrefix(line, "  ") {
			lines = append(lines, strings.TrimSpace(line))
		}
	}
	want := []string{"- link removed: https://docs.example/changelog.txt", "+ link added: http://www.docs.example/mirror", "+ link added: https://docs.example/text.md"}
	if !slices.Equal(lines, want) {
		t.Errorf("the message tells the changes\n%q\nwant\n%q\n%s", lines, want, msg.Text)
	}
	const summary = "all links: 1 link removed, 2 links added"
	if !strings.Contains(msg.Subject, summary) {
		t.Errorf("the message's subject %q lacks %q", msg.Subject, summary)
	}
	if page := sess.get(fmt.Sprintf("/sentinels/%d", text.ID)); !strings.Contains(page, summary) {
		t.Errorf("the sentinel's page lacks %q:\n%s", summary, page)
	}
	resp, err := http.Get(d.base + text.Feed)
	if err != nil {
		t.Fatal(err)
	}
	feed, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(feed), "link added: &lt;ins&gt;https://docs.example/text.md&lt;/ins&gt;") {
		t.Errorf("the feed lacks the link added:\n%s", feed)
	}

	// The page served as text/html was checked after its change, and
	// reported nothing.
	waitFor(t, 60*time.Second, "the check of downloads", func() bool { return get(html).LastCheck.After(before) })
	var changes struct {
		Items []map[string]any `json:"items"`
	}
	c.want(200, "GET", fmt.Sprintf("/api/v1/sentinels/%d/changes", html.ID), nil).json(t, &changes)
	if len(changes.Items) != 0 || len(hk.of("downloads")) != 0 {
		t.Errorf("the page's <pre> of URLs: %d changes and %d webhooks, want none: %v", len(changes.Items), len(hk.of("downloads")), changes.Items)
	}
	// The page served as JSON with its slashes escaped: its URLs
	// unescaped.
	waitFor(t, 60*time.Second, "the webhook of json", func() bool { return len(hk.of("json")) == 1 })
	lines = nil
	for _, line := range strings.Split(hk.of("json")[0].msg.Text, "\n") {
		if strings.HasPrefix(line, "  ") {
			lines = append(lines, strings.TrimSpace(line))
		}
	}
	if want := []string{"~ link changed: https://docs.example/changelog.txt -> https://docs.example/text.md"}; !slices.Equal(lines, want) {
		t.Errorf("the JSON page's message tells the changes\n%q\nwant\n%q\n%s", lines, want, hk.of("json")[0].msg.Text)
	}
	if hk.badSig != 0 {
		t.Errorf("%d webhook calls with a bad signature", hk.badSig)
	}
}

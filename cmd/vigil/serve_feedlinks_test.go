package main

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestServeFeedLinks: vigil serve watching the links of a feed reports an
// entry added as its link added, once: the webhook's message of an Atom
// feed (its hrefs relative to xml:base, its ids the entries' URLs) and of
// an RSS 2.0 feed (its guids the items' links) that each gain an entry
// says "+ link added: URL" for that entry's link, and nothing else.
func TestServeFeedLinks(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	const secret = "feedlinks-secret-of-32-characters"
	hk := startHooks(t, secret)
	site := newSite(t)
	atom := func(entries ...string) string {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example/posts/">
<title>Blog</title><link href="/"/><link rel="self" href="/feed.xml"/>
<id>https://blog.example/</id><updated>2026-01-01T00:00:00Z</updated>
`)
		for _, e := range entries {
			fmt.Fprintf(&b, "<entry><title>Post %s</title><link href=\"%s\"/><id>https://blog.example/posts/%s</id></entry>\n", e, e, e)
		}
		return b.String() + "</feed>\n"
	}
	rss := func(items ...string) string {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>News</title><link>https://news.example/</link>
`)
		for _, e := range items {
			fmt.Fprintf(&b, "<item><title>Story %s</title><link>https://news.example/%s</link><guid>https://news.example/%s</guid></item>\n", e, e, e)
		}
		return b.String() + "</channel></rss>\n"
	}
	site.setTyped("/atom.xml", "application/atom+xml", atom("a", "b"))
	site.setTyped("/rss.xml", "application/rss+xml", rss("a", "b"))
	d := startWebDaemon(t, "--webhook-secret", secret)
	sess, status := signIn(t, d.base, testAdminPassword)
	if status != http.StatusSeeOther {
		t.Fatalf("sign in: status %d", status)
	}
	c := &apiClient{t: t, base: d.base, token: sess.newToken("feed links")}
	type sentinel struct {
		ID        int64     `json:"id"`
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
	sentinels := []sentinel{create("atom", "/atom.xml"), create("rss", "/rss.xml")}
	for _, s := range sentinels {
		waitFor(t, 60*time.Second, "the first check", func() bool { return !get(s).LastCheck.IsZero() })
	}

	site.setTyped("/atom.xml", "application/atom+xml", atom("c", "a", "b"))
	site.setTyped("/rss.xml", "application/rss+xml", rss("c", "a", "b"))
	for _, s := range sentinels {
		c.want(200, "POST", fmt.Sprintf("/api/v1/sentinels/%d/check-now", s.ID), nil)
	}
	for _, tc := range []struct{ name, want string }{
		{"atom", "+ link added: https://blog.example/posts/c"},
		{"rss", "+ link added: https://news.example/c"},
	} {
		waitFor(t, 60*time.Second, "the webhook of "+tc.name, func() bool { return len(hk.of(tc.name)) > 0 })
		msgs := hk.of(tc.name)
		var lines []string
		for _, line := range strings.Split(msgs[0].msg.Text, "\n") {
			if strings.HasPrefix(line, "  ") {
				lines = append(lines, strings.TrimSpace(line))
			}
		}
		if len(msgs) != 1 || !slices.Equal(lines, []string{tc.want}) {
			t.Errorf("%s: %d webhooks, the first telling\n%q\nwant 1 telling\n%q", tc.name, len(msgs), lines, []string{tc.want})
		}
		if summary := "all links: 1 link added"; !strings.Contains(msgs[0].msg.Subject, summary) {
			t.Errorf("%s: the message's subject %q lacks %q", tc.name, msgs[0].msg.Subject, summary)
		}
	}
	if hk.badSig != 0 {
		t.Errorf("%d webhook calls with a bad signature", hk.badSig)
	}
}

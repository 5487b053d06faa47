package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/tree"
)

// TestServeFeedBrokenForOneCheck: vigil serve watching the links of an
// Atom feed that is served malformed for one check (cut short, so that
// version is read as its source text) reports nothing for that check,
// nor for the next, which serves it whole again: the URLs of its text (the
// Atom namespace, its self link, its entries' links) were reported added,
// then removed. An entry added in the check that fixes the feed is
// reported, alone: the webhook's message says "+ link added: URL".
func TestServeFeedBrokenForOneCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	const secret = "feedbroken-secret-of-32-characters"
	hk := startHooks(t, secret)
	site := newSite(t)
	feed := func(broken bool, entries ...string) string {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<title>Blog</title>
<link href="https://blog.example/"/>
<link rel="self" href="https://blog.example/feed.xml"/>
<id>tag:blog.example,2026:feed</id>
<updated>2026-01-01T00:00:00Z</updated>
`)
		for _, e := range entries {
			fmt.Fprintf(&b, "<entry><title>%s</title><link href=\"https://blog.example/%s\"/><id>tag:blog.example,2026:%s</id></entry>\n", e, e, e)
		}
		if broken {
			return strings.TrimSuffix(b.String(), "</entry>\n") + "\n"
		}
		return b.String() + "</feed>\n"
	}
	const atom = "application/atom+xml"
	site.setTyped("/feed.xml", atom, feed(false, "a", "b"))
	d := startWebDaemon(t, "--webhook-secret", secret)
	sess, status := signIn(t, d.base, testAdminPassword)
	if status != http.StatusSeeOther {
		t.Fatalf("sign in: status %d", status)
	}
	c := &apiClient{t: t, base: d.base, token: sess.newToken("feed broken")}
	type sentinel struct {
		ID        int64     `json:"id"`
		LastCheck time.Time `json:"lastCheck"`
	}
	var s sentinel
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": "Create Sentinel feed Using " + site.srv.URL + "/feed.xml" +
		" Monitor all links Fetch 1 day Notify By webhook " + hk.srv.URL + "/feed"}).json(t, &s)
	get := func() sentinel {
		var got sentinel
		c.want(200, "GET", fmt.Sprintf("/api/v1/sentinels/%d", s.ID), nil).json(t, &got)
		return got
	}
	changes := func() []map[string]any {
		var cs struct {
			Items []map[string]any `json:"items"`
		}
		c.want(200, "GET", fmt.Sprintf("/api/v1/sentinels/%d/changes", s.ID), nil).json(t, &cs)
		return cs.Items
	}
	check := func(what string) {
		t.Helper()
		before := get().LastCheck
		c.want(200, "POST", fmt.Sprintf("/api/v1/sentinels/%d/check-now", s.ID), nil)
		waitFor(t, 60*time.Second, what, func() bool { return get().LastCheck.After(before) })
	}
	waitFor(t, 60*time.Second, "the first check", func() bool { return !get().LastCheck.IsZero() })

	site.setTyped("/feed.xml", atom, feed(true, "a", "b"))
	check("the check of the broken feed")
	if cs := changes(); len(cs) != 0 {
		t.Errorf("the feed served broken: %d changes, want none: %v", len(cs), cs)
	}

	site.setTyped("/feed.xml", atom, feed(false, "a", "b", "c"))
	check("the check of the fixed feed")
	waitFor(t, 60*time.Second, "the webhook", func() bool { return len(hk.of("feed")) > 0 })
	msgs := hk.of("feed")
	var lines []string
	for _, line := range strings.Split(msgs[len(msgs)-1].msg.Text, "\n") {
		if strings.HasPrefix(line, "  ") {
			lines = append(lines, strings.TrimSpace(line))
		}
	}
	if want := []string{"+ link added: https://blog.example/c"}; len(msgs) != 1 || !slices.Equal(lines, want) {
		t.Errorf("%d webhooks, the last telling\n%q\nwant 1 telling\n%q", len(msgs), lines, want)
	}
	if cs := changes(); len(cs) != 1 {
		t.Errorf("%d changes, want 1: %v", len(cs), cs)
	}
	// The webhook's tree delta compares what the message compares, the
	// two source texts, and says so: applied to the broken feed's source
	// text, it gives the fixed feed's, a line or two changed, not the text
	// replaced by the feed's tree.
	var body struct {
		Changes []struct {
			Delta        json.RawMessage `json:"delta"`
			DeltaReading string          `json:"deltaReading"`
		} `json:"changes"`
	}
	if err := json.Unmarshal([]byte(msgs[len(msgs)-1].raw), &body); err != nil || len(body.Changes) != 1 {
		t.Fatalf("webhook body (%v): %s", err, msgs[len(msgs)-1].raw)
	}
	item := body.Changes[0]
	if item.DeltaReading != "text" {
		t.Errorf("deltaReading %q, want %q", item.DeltaReading, "text")
	}
	source := func(body string) *tree.Document {
		t.Helper()
		doc, err := warehouse.ReadSource([]byte(body), "")
		if err != nil {
			t.Fatal(err)
		}
		doc.AssignXIDs()
		return doc
	}
	dl, err := delta.DecodeJSON(bytes.NewReader(item.Delta))
	if err != nil {
		t.Fatalf("the webhook's delta (%v): %s", err, item.Delta)
	}
	got, err := delta.Apply(source(feed(true, "a", "b")), dl)
	if err != nil {
		t.Fatalf("the webhook's delta does not apply to the broken feed's source text: %v\n%s", err, item.Delta)
	}
	if diff := tree.Diff(got.Root, source(feed(false, "a", "b", "c")).Root, tree.Content); diff != "" {
		t.Errorf("the webhook's delta does not lead to the fixed feed's source text: %s", diff)
	}
	if hk.badSig != 0 {
		t.Errorf("%d webhook calls with a bad signature", hk.badSig)
	}
}

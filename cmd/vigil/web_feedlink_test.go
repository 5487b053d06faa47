package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestWebRetryAfterFeedRotation: a message queued before its sentinel's
// feed link was replaced (a dead letter here, retried after the
// replacement) is delivered with the sentinel's current feed link, in its
// text, its HTML and its JSON, and not with the replaced one, which the
// server no longer serves. It was delivered as it was written, with the
// revoked link.
func TestWebRetryAfterFeedRotation(t *testing.T) {
	site := newSite(t)
	site.set("/p", `<html><body><p>one</p></body></html>`)
	var broken atomic.Bool
	broken.Store(true)
	var mu sync.Mutex
	var bodies []string
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if broken.Load() {
			http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
			return
		}
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
	}))
	t.Cleanup(hook.Close)
	d := startWebDaemon(t, "--max-attempts", "1")
	sess, status := signIn(t, d.base, testAdminPassword)
	if status != http.StatusSeeOther {
		t.Fatalf("sign in: %d", status)
	}
	c := &apiClient{t: t, base: d.base, token: sess.newToken("feed link test")}
	var sen struct {
		ID   int64
		Feed string
	}
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": fmt.Sprintf(
		"Create Sentinel hooked Using %s/p Monitor any change Fetch 1 minute Notify By webhook %s/h", site.srv.URL, hook.URL)}).json(t, &sen)
	path := fmt.Sprintf("/api/v1/sentinels/%d", sen.ID)
	waitFor(t, 60*time.Second, "the first check", func() bool {
		var s struct{ LastCheck time.Time }
		c.want(200, "GET", path, nil).json(t, &s)
		return !s.LastCheck.IsZero()
	})
	site.set("/p", `<html><body><p>two</p></body></html>`)
	c.want(200, "POST", path+"/check-now", nil)
	var dead struct{ Items []struct{ ID int64 } }
	waitFor(t, 60*time.Second, "a dead letter", func() bool {
		c.want(200, "GET", "/api/v1/notifications?state=dead", nil).json(t, &dead)
		return len(dead.Items) > 0
	})
	oldFeed := sen.Feed
	c.want(200, "POST", path+"/rotate-feed", nil).json(t, &sen)
	if sen.Feed == "" || sen.Feed == oldFeed {
		t.Fatalf("feed %q after rotating %q", sen.Feed, oldFeed)
	}
	oldToken := strings.Split(oldFeed, "/")[3]
	broken.Store(false)
	c.want(200, "POST", fmt.Sprintf("/api/v1/notifications/%d/retry", dead.Items[0].ID), nil)
	waitFor(t, 30*time.Second, "the retried message's delivery", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(bodies) == 1
	})
	var msg struct{ Text, HTML, FeedLink string }
	if err := json.Unmarshal([]byte(bodies[0]), &msg); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(bodies[0], oldToken) {
		t.Errorf("the delivered message carries the replaced feed token %s:\n%s", oldToken, bodies[0])
	}
	want := d.base + sen.Feed
	if !strings.Contains(msg.Text, want) || !strings.Contains(msg.HTML, `href="`+want+`"`) || msg.FeedLink != want {
		t.Errorf("the delivered message does not link to the current feed %s:\n%s", want, bodies[0])
	}
	resp, err := http.Get(want)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET the delivered feed link: %d", resp.StatusCode)
	}
}

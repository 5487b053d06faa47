package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestWebNotificationRetry: a webhook that fails makes a dead letter
// (after one attempt here), shown on the dashboard's Notifications page;
// once the hook works again, a retry from the API delivers it.
func TestWebNotificationRetry(t *testing.T) {
	site := newSite(t)
	site.set("/p", `<html><body><p>one</p></body></html>`)
	var broken atomic.Bool
	broken.Store(true)
	var delivered atomic.Int32
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if broken.Load() {
			http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
			return
		}
		delivered.Add(1)
	}))
	t.Cleanup(hook.Close)
	d := startWebDaemon(t, "--max-attempts", "1")
	sess, status := signIn(t, d.base, testAdminPassword)
	if status != http.StatusSeeOther {
		t.Fatalf("sign in: %d", status)
	}
	c := &apiClient{t: t, base: d.base, token: sess.newToken("retry test")}
	src := fmt.Sprintf("Create Sentinel hooked Using %s/p Monitor any change Fetch 1 minute Notify By webhook %s/h", site.srv.URL, hook.URL)
	var sen struct{ ID int64 }
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": src}).json(t, &sen)
	path := fmt.Sprintf("/api/v1/sentinels/%d", sen.ID)
	waitFor(t, 60*time.Second, "the first check", func() bool {
		var s struct{ LastCheck time.Time }
		c.want(200, "GET", path, nil).json(t, &s)
		return !s.LastCheck.IsZero()
	})
	site.set("/p", `<html><body><p>two</p></body></html>`)
	c.want(200, "POST", path+"/check-now", nil)
	var dead struct {
		Items []struct {
			ID        int64
			State     string
			LastError string
		}
	}
	waitFor(t, 60*time.Second, "a dead letter", func() bool {
		c.want(200, "GET", "/api/v1/notifications?state=dead", nil).json(t, &dead)
		return len(dead.Items) > 0
	})
	page := sess.get("/notifications")
	for _, want := range []string{"dead letter", "503", fmt.Sprintf(`action="/notifications/%d/retry"`, dead.Items[0].ID)} {
		if !strings.Contains(page, want) {
			t.Errorf("the notifications page has no %q", want)
		}
	}
	broken.Store(false)
	c.want(200, "POST", fmt.Sprintf("/api/v1/notifications/%d/retry", dead.Items[0].ID), nil)
	waitFor(t, 30*time.Second, "the retried message's delivery", func() bool { return delivered.Load() == 1 })
	var sent struct{ State string }
	waitFor(t, 30*time.Second, "the retried message marked sent", func() bool {
		c.want(200, "GET", fmt.Sprintf("/api/v1/notifications/%d", dead.Items[0].ID), nil).json(t, &sent)
		return sent.State == "sent"
	})
}

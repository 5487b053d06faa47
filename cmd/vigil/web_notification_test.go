package main

import (
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestWebNotificationRetry: a webhook that fails makes a dead letter
// (after one attempt here), shown on the dashboard's Notifications page;
// once the hook works again, or once the sentinel's owner has fixed its
// URL in the sentinel's Notify clause, a retry from the API delivers it
// (to the fixed URL: the retry went to the URL the letter was written
// for, which failed again).
func TestWebNotificationRetry(t *testing.T) {
	for _, tc := range []struct {
		name    string
		path    string // the hook's path the sentinel notifies at first
		fixPath bool   // the fix: the sentinel edited to notify /h (else the hook's server back up)
	}{
		{"the hook works again", "/h", false},
		{"the hook's URL is fixed", "/wrong", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := newSite(t)
			site.set("/p", `<html><body><p>one</p></body></html>`)
			var broken atomic.Bool
			broken.Store(!tc.fixPath)
			var delivered atomic.Int32
			hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if broken.Load() {
					http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
					return
				}
				if r.URL.Path != "/h" {
					http.Error(w, "no hook here", http.StatusServiceUnavailable)
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
			source := func(hookPath string) map[string]string {
				return map[string]string{"source": fmt.Sprintf("Create Sentinel hooked Using %s/p Monitor any change Fetch 1 minute Notify By webhook %s%s",
					site.srv.URL, hook.URL, hookPath)}
			}
			var sen struct{ ID int64 }
			c.want(201, "POST", "/api/v1/sentinels", source(tc.path)).json(t, &sen)
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
			if tc.fixPath {
				c.want(200, "PUT", path, source("/h"))
			} else {
				broken.Store(false)
			}
			c.want(200, "POST", fmt.Sprintf("/api/v1/notifications/%d/retry", dead.Items[0].ID), nil)
			waitFor(t, 30*time.Second, "the retried message's delivery", func() bool { return delivered.Load() == 1 })
			var sent struct{ State, Target string }
			waitFor(t, 30*time.Second, "the retried message marked sent", func() bool {
				c.want(200, "GET", fmt.Sprintf("/api/v1/notifications/%d", dead.Items[0].ID), nil).json(t, &sent)
				return sent.State == "sent"
			})
			if sent.Target != hook.URL+"/h" {
				t.Errorf("sent to %s, want %s/h", sent.Target, hook.URL)
			}
		})
	}
}

// TestWebNotificationRetryUnsendable: without SMTP settings, a sentinel's
// message to an email contact is a dead letter at once; its retry would
// die again, so the Notifications page says why (email is not
// configured here, and where its settings are) instead of offering
// Retry, and the API's retry answers 409 saying so.
func TestWebNotificationRetryUnsendable(t *testing.T) {
	t.Setenv("VIGIL_SMTP_HOST", "")
	const why = "email is not configured on this server: start vigil serve with --smtp-host (or $VIGIL_SMTP_HOST) and the other SMTP settings of vigil serve -h"
	site := newSite(t)
	site.set("/p", `<html><body><p>one</p></body></html>`)
	d := startWebDaemon(t)
	sess, status := signIn(t, d.base, testAdminPassword)
	if status != http.StatusSeeOther {
		t.Fatalf("sign in: %d", status)
	}
	c := &apiClient{t: t, base: d.base, token: sess.newToken("retry test")}
	var sen struct{ ID int64 }
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": fmt.Sprintf(
		"Create Sentinel mailed Using %s/p Monitor any change Fetch 1 minute Notify By email ada@example.com", site.srv.URL)}).json(t, &sen)
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
			ID      int64
			Channel string
		}
	}
	waitFor(t, 60*time.Second, "a dead letter", func() bool {
		c.want(200, "GET", "/api/v1/notifications?state=dead", nil).json(t, &dead)
		return len(dead.Items) > 0
	})
	id := dead.Items[0].ID
	if dead.Items[0].Channel != "email" {
		t.Fatalf("the dead letter's channel: %q, want email", dead.Items[0].Channel)
	}
	page := html.UnescapeString(sess.get("/notifications"))
	if !strings.Contains(page, "dead letter") || !strings.Contains(page, why) {
		t.Errorf("the notifications page does not say %q of the dead letter", why)
	}
	if action := fmt.Sprintf(`action="/notifications/%d/retry"`, id); strings.Contains(page, action) {
		t.Errorf("the notifications page offers to retry a letter by email, which this server cannot send")
	}
	if body := c.want(409, "POST", fmt.Sprintf("/api/v1/notifications/%d/retry", id), nil).body; !strings.Contains(string(body), why) {
		t.Errorf("the refused retry says %s, want %q", body, why)
	}
}

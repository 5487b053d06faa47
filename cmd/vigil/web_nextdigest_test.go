package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestWebNextDigest runs a sentinel that sends a digest every day on a
// page served on loopback: once the daemon has checked it, its API view
// says when its next digest goes out (nextDigest: a day after its first
// check, which opened the period), and its page and the Notifications
// page say it too; nothing said it.
func TestWebNextDigest(t *testing.T) {
	site := newSite(t)
	site.set("/p", `<html><body><p>one</p></body></html>`)
	d := startWebDaemon(t)
	sess, status := signIn(t, d.base, testAdminPassword)
	if status != http.StatusSeeOther {
		t.Fatalf("sign in: %d", status)
	}
	c := &apiClient{t: t, base: d.base, token: sess.newToken("digest test")}
	var sen struct{ ID int64 }
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{
		"source": "Create Sentinel daily Using " + site.srv.URL + "/p Monitor any change Fetch 1 hour Every 1 day"}).json(t, &sen)
	path := fmt.Sprintf("/api/v1/sentinels/%d", sen.ID)
	var v struct {
		LastCheck  time.Time
		NextDigest time.Time
	}
	waitFor(t, 60*time.Second, "the first check", func() bool {
		c.want(200, "GET", path, nil).json(t, &v)
		return !v.LastCheck.IsZero()
	})
	// The period opens at the check, the time recorded as its LastCheck
	// (kept to the microsecond).
	if d := v.NextDigest.Sub(v.LastCheck.Add(24 * time.Hour)); d < -time.Second || d > time.Second {
		t.Fatalf("nextDigest %v, want a day after the first check, %v", v.NextDigest, v.LastCheck)
	}
	shown := fmt.Sprintf(`<time datetime="%s">%s</time>`, v.NextDigest.UTC().Format(time.RFC3339), v.NextDigest.UTC().Format("2006-01-02 15:04:05 UTC"))
	if page := sess.get(fmt.Sprintf("/sentinels/%d", sen.ID)); !strings.Contains(page, "<dt>Next digest</dt><dd>"+shown) {
		t.Errorf("the sentinel's page does not say its next digest is %s", shown)
	}
	if page := sess.get("/notifications"); !strings.Contains(page, fmt.Sprintf(`<a href="/sentinels/%d">daily</a>: %s`, sen.ID, shown)) {
		t.Errorf("the Notifications page does not say the next digest of daily is %s", shown)
	}
}

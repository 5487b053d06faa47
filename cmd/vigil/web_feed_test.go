package main

// End-to-end tests of rotating a sentinel's feed: by the API and by the
// dashboard's button, for the owner only, with the dashboard's CSRF
// protection, and in the links of the messages sent afterwards.

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// feedSentinel is what the tests read of a sentinel from the API.
type feedSentinel struct {
	ID             int64  `json:"id"`
	Feed           string `json:"feed"`
	FeedGeneration int64  `json:"feedGeneration"`
}

// feedStatus returns the status of an anonymous GET of a feed path, as a
// feed reader makes it.
func feedStatus(t *testing.T, base, path string) int {
	t.Helper()
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// wantFeeds checks the status of feed paths, both formats of each.
func wantFeeds(t *testing.T, base, when string, want map[string]int) {
	t.Helper()
	for path, status := range want {
		for _, p := range []string{path, strings.TrimSuffix(path, "atom.xml") + "rss.xml"} {
			if got := feedStatus(t, base, p); got != status {
				t.Errorf("%s: GET %s: %d, want %d", when, p, got, status)
			}
		}
	}
}

// dashboardFeed finds the link of a sentinel's Atom feed on its page: its
// absolute URL, at the daemon's address (no --base-url), and its path.
var dashboardFeed = regexp.MustCompile(`href="(http://[^/"]+)(/feeds/[^"]+/atom\.xml)"`)

func TestWebFeedRotation(t *testing.T) {
	site := newSite(t)
	site.set("/p", "<html><body><p>x</p></body></html>")
	d := startWebDaemon(t)
	sess, _ := signIn(t, d.base, testAdminPassword)
	c := &apiClient{t: t, base: d.base, token: sess.newToken("feed test")}
	create := func(name string) feedSentinel {
		t.Helper()
		var s feedSentinel
		c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": "Create Sentinel " + name + " Using " + site.srv.URL + "/p Fetch 1 day"}).json(t, &s)
		if s.FeedGeneration != 0 || !strings.HasPrefix(s.Feed, fmt.Sprintf("/feeds/%d/", s.ID)) {
			t.Fatalf("created %s: %+v", name, s)
		}
		return s
	}
	a, b := create("a"), create("b")
	aPath := fmt.Sprintf("/api/v1/sentinels/%d", a.ID)
	wantFeeds(t, d.base, "before any rotation", map[string]int{a.Feed: 200, b.Feed: 200})
	// current reads a's feed as the API gives it now.
	current := func() feedSentinel {
		t.Helper()
		var s feedSentinel
		c.want(200, "GET", aPath, nil).json(t, &s)
		return s
	}

	// Another user can neither rotate a's feed nor learn that a exists,
	// by the API or by the dashboard.
	bob := &apiClient{t: t, base: d.base, token: d.addUser(t, "bob@example.com", "bob's password")}
	if code := bob.want(404, "POST", aPath+"/rotate-feed", nil).errorCode(t); code != "ENOTFOUND" {
		t.Errorf("another user's rotation by the API: code %s, want ENOTFOUND", code)
	}
	bs, st := signInAs(t, d.base, "bob@example.com", "bob's password")
	if st != http.StatusSeeOther {
		t.Fatalf("bob signs in: %d", st)
	}
	if st, _ := bs.post(fmt.Sprintf("/sentinels/%d/rotate-feed", a.ID), url.Values{"csrf": {bs.csrf()}}); st != http.StatusNotFound {
		t.Errorf("another user's rotation on the dashboard: %d, want 404", st)
	}
	if now := current(); now != a {
		t.Errorf("after another user's attempts: %+v, want %+v", now, a)
	}
	wantFeeds(t, d.base, "after another user's attempts", map[string]int{a.Feed: 200})

	// The owner rotates a's feed by the API: its old URL is not found, its
	// new one is a's feed, and b's is untouched.
	var a1 feedSentinel
	c.want(200, "POST", aPath+"/rotate-feed", nil).json(t, &a1)
	if a1.ID != a.ID || a1.FeedGeneration != 1 || a1.Feed == a.Feed || !strings.HasPrefix(a1.Feed, fmt.Sprintf("/feeds/%d/", a.ID)) {
		t.Fatalf("rotated: %+v, was %+v", a1, a)
	}
	if now := current(); now != a1 {
		t.Errorf("read after the rotation: %+v, want %+v", now, a1)
	}
	wantFeeds(t, d.base, "after the API's rotation", map[string]int{a.Feed: 404, a1.Feed: 200, b.Feed: 200})
	if code := c.want(404, "POST", "/api/v1/sentinels/9999/rotate-feed", nil).errorCode(t); code != "ENOTFOUND" {
		t.Errorf("rotation of no sentinel: code %s", code)
	}

	// The dashboard shows the current feed and a button to replace it.
	page := sess.get(fmt.Sprintf("/sentinels/%d", a.ID))
	if m := dashboardFeed.FindStringSubmatch(page); m == nil || m[1] != d.base || m[2] != a1.Feed {
		t.Errorf("the sentinel's page links to feed %v, want %s", m, a1.Feed)
	}
	form := fmt.Sprintf(`action="/sentinels/%d/rotate-feed"`, a.ID)
	if !strings.Contains(page, form) {
		t.Errorf("the sentinel's page has no form %s", form)
	}

	// Without the CSRF token, the button's post is refused, as is the API
	// called with the session's cookie and no X-CSRF-Token header.
	rotatePage := fmt.Sprintf("/sentinels/%d/rotate-feed", a.ID)
	for name, form := range map[string]url.Values{"no CSRF token": {}, "a forged CSRF token": {"csrf": {"forged"}}} {
		if st, _ := sess.post(rotatePage, form); st != http.StatusForbidden {
			t.Errorf("dashboard rotation with %s: %d, want 403", name, st)
		}
	}
	cookieAPI := func(csrf string) int {
		t.Helper()
		req, _ := http.NewRequest("POST", d.base+aPath+"/rotate-feed", nil)
		if csrf != "" {
			req.Header.Set("X-CSRF-Token", csrf)
		}
		resp, err := sess.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if st := cookieAPI(""); st != http.StatusForbidden {
		t.Errorf("API rotation with the session's cookie and no CSRF header: %d, want 403", st)
	}
	// A cross-site browser post is refused even with the token.
	req, _ := http.NewRequest("POST", d.base+rotatePage, strings.NewReader(url.Values{"csrf": {sess.csrf()}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err := sess.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site dashboard rotation: %d, want 403", resp.StatusCode)
	}
	if now := current(); now != a1 {
		t.Fatalf("after the refused rotations: %+v, want %+v", now, a1)
	}
	wantFeeds(t, d.base, "after the refused rotations", map[string]int{a1.Feed: 200})

	// With the token, the button rotates, and the page it leads back to
	// shows the new feed.
	st, page = sess.post(rotatePage, url.Values{"csrf": {sess.csrf()}})
	a2 := current()
	if st != http.StatusOK || a2.FeedGeneration != 2 || a2.Feed == a1.Feed {
		t.Fatalf("dashboard rotation: %d, now %+v", st, a2)
	}
	if m := dashboardFeed.FindStringSubmatch(page); m == nil || m[1] != d.base || m[2] != a2.Feed {
		t.Errorf("the page after the rotation links to feed %v, want %s", m, a2.Feed)
	}
	wantFeeds(t, d.base, "after the dashboard's rotation", map[string]int{a.Feed: 404, a1.Feed: 404, a2.Feed: 200, b.Feed: 200})
	// So does the API with the cookie and the header.
	if st := cookieAPI(sess.csrf()); st != http.StatusOK {
		t.Errorf("API rotation with the session's cookie and CSRF header: %d, want 200", st)
	}
	a3 := current()
	if a3.FeedGeneration != 3 {
		t.Fatalf("after the cookie's API rotation: %+v", a3)
	}

	// The generation is kept: after a restart, only the newest URL works.
	d.stop(t)
	base := "http://" + startDaemon(t, d.dir).addr
	wantFeeds(t, base, "after a restart", map[string]int{a.Feed: 404, a1.Feed: 404, a2.Feed: 404, a3.Feed: 200, b.Feed: 200})
}

// TestWebFeedRotationMessages: a message sent after a rotation links to
// the feed's new URL, which works, not to the revoked one.
func TestWebFeedRotationMessages(t *testing.T) {
	const secret = "rotate-secret-of-thirty-two-characters"
	hk := startHooks(t, secret)
	site := newSite(t)
	site.set("/p", "<html><body><p>first</p></body></html>")
	d := startWebDaemon(t, "--webhook-secret", secret)
	sess, _ := signIn(t, d.base, testAdminPassword)
	c := &apiClient{t: t, base: d.base, token: sess.newToken("feed test")}
	var s feedSentinel
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": "Create Sentinel p Using " + site.srv.URL +
		"/p Monitor any change Fetch 1 day Notify By webhook " + hk.srv.URL + "/p"}).json(t, &s)
	path := fmt.Sprintf("/api/v1/sentinels/%d", s.ID)
	waitFor(t, 60*time.Second, "the first check", func() bool {
		var checked struct {
			LastCheck time.Time `json:"lastCheck"`
		}
		c.want(200, "GET", path, nil).json(t, &checked)
		return !checked.LastCheck.IsZero()
	})
	var rotated feedSentinel
	c.want(200, "POST", path+"/rotate-feed", nil).json(t, &rotated)

	site.set("/p", "<html><body><p>second</p></body></html>")
	c.want(200, "POST", path+"/check-now", nil)
	waitFor(t, 60*time.Second, "the change's webhook", func() bool { return len(hk.of("p")) == 1 })
	text := hk.of("p")[0].msg.Text
	if !strings.Contains(text, rotated.Feed+"\n") || strings.Contains(text, s.Feed) {
		t.Errorf("the message links to a feed other than %s (revoked: %s):\n%s", rotated.Feed, s.Feed, text)
	}
	wantFeeds(t, d.base, "the message's feed", map[string]int{rotated.Feed: 200, s.Feed: 404})
}

// TestWebFeedLinksUnderBaseURL: vigil serve --base-url gives a sentinel's
// page its Atom and RSS feeds as absolute links under that URL, its path
// kept, which the page's own address (the listen address here) does not
// change; the page gave the bare path.
func TestWebFeedLinksUnderBaseURL(t *testing.T) {
	const base = "http://vigil.example/watch"
	d := startWebDaemon(t, "--base-url", base+"/")
	sess, status := signIn(t, d.base, testAdminPassword)
	if status != http.StatusSeeOther {
		t.Fatalf("sign in: %d", status)
	}
	c := &apiClient{t: t, base: d.base, token: sess.newToken("feed links")}
	var s feedSentinel
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": "Create Sentinel fed Using http://a.example/p Fetch 1 day"}).json(t, &s)
	page := sess.get(fmt.Sprintf("/sentinels/%d", s.ID))
	for _, feed := range []string{s.Feed, strings.TrimSuffix(s.Feed, "atom.xml") + "rss.xml"} {
		if want := fmt.Sprintf(`<a href="%s%s" class="url">%s%s</a>`, base, feed, base, feed); !strings.Contains(page, want) {
			t.Errorf("the sentinel's page does not link %s", want)
		}
	}
}

package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestWebUsers: two users made with vigil user add beside the running
// daemon sign in through the form, make API tokens on the dashboard and a
// sentinel each; neither sees nor touches the other's sentinel, its
// changes, its pages or its notifications (404, as for an id that does
// not exist). vigil user passwd ends the sessions of its user, and vigil
// user remove --with-sentinels their API tokens.
func TestWebUsers(t *testing.T) {
	site := newSite(t)
	site.set("/a", `<html><body><p>Ann's page</p></body></html>`)
	site.set("/b", `<html><body><p>Bob's page</p></body></html>`)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	t.Cleanup(hook.Close)
	d := startWebDaemon(t, "--max-attempts", "1")

	cli := func(stdin string, args ...string) (int, string, string) {
		t.Helper()
		return runVigil(t, stdin, append(append([]string{"user"}, args...), "--data", d.dir)...)
	}
	for _, email := range []string{"ann@example.com", "bob@example.com"} {
		if code, out, errOut := cli(email+" password\n", "add", "--password-stdin", email); code != exitOK {
			t.Fatalf("user add %s: exit %d\n%s%s", email, code, out, errOut)
		}
	}
	signInOK := func(email, password string) *browserSession {
		t.Helper()
		s, status := signInAs(t, d.base, email, password)
		if status != http.StatusSeeOther {
			t.Fatalf("%s signs in: status %d, want 303", email, status)
		}
		if page := s.get("/sentinels"); !strings.Contains(page, email) {
			t.Errorf("the dashboard of %s does not say who is signed in", email)
		}
		return s
	}
	annSess, bobSess := signInOK("ann@example.com", "ann@example.com password"), signInOK("bob@example.com", "bob@example.com password")
	ann := &apiClient{t: t, base: d.base, token: annSess.newToken("ann's")}
	bob := &apiClient{t: t, base: d.base, token: bobSess.newToken("bob's")}

	// A sentinel each; Ann's reports a change, whose message to a broken
	// webhook is a dead letter.
	var annS, bobS struct{ ID int64 }
	ann.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": fmt.Sprintf(
		"Create Sentinel annwatch Using %s/a Monitor any change Fetch 1 minute Notify By webhook %s/h", site.srv.URL, hook.URL)}).json(t, &annS)
	bob.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": fmt.Sprintf(
		"Create Sentinel bobwatch Using %s/b Monitor any change Fetch 1 minute", site.srv.URL)}).json(t, &bobS)
	annPath, bobPath := fmt.Sprintf("/api/v1/sentinels/%d", annS.ID), fmt.Sprintf("/api/v1/sentinels/%d", bobS.ID)
	waitFor(t, 60*time.Second, "the first check of annwatch", func() bool {
		var s struct{ LastCheck time.Time }
		ann.want(200, "GET", annPath, nil).json(t, &s)
		return !s.LastCheck.IsZero()
	})
	site.set("/a", `<html><body><p>Ann's page</p><p>News.</p></body></html>`)
	ann.want(200, "POST", annPath+"/check-now", nil)
	annChange := int64(waitChanges(t, ann, annS.ID, 1)[0]["id"].(float64))
	var dead struct {
		Items []struct{ ID int64 }
	}
	waitFor(t, 60*time.Second, "ann's dead letter", func() bool {
		ann.want(200, "GET", "/api/v1/notifications?state=dead", nil).json(t, &dead)
		return len(dead.Items) > 0
	})
	annLetter := dead.Items[0].ID
	annRes, _ := waitVersions(t, ann, 2)
	bobRes, _ := waitVersions(t, bob, 1)
	if annRes == bobRes {
		t.Fatalf("one resource for two pages")
	}

	// Neither reaches the other's: the API and the dashboard answer 404,
	// as for an id that does not exist.
	type request struct{ method, path string }
	foreign := func(c *apiClient, s *browserSession, api []request, pages []string, posts []string) {
		t.Helper()
		for _, r := range api {
			var body any
			if r.method == "PUT" {
				body = map[string]string{"source": "Create Sentinel taken Using " + site.srv.URL + "/b Fetch 1 day"}
			}
			if code := c.want(404, r.method, r.path, body).errorCode(t); code != "ENOTFOUND" {
				t.Errorf("%s %s of another user: code %s", r.method, r.path, code)
			}
		}
		for _, p := range pages {
			if st := s.status(p); st != http.StatusNotFound {
				t.Errorf("GET %s of another user: %d, want 404", p, st)
			}
		}
		for _, p := range posts {
			if st, _ := s.post(p, url.Values{"csrf": {s.csrf()}}); st != http.StatusNotFound {
				t.Errorf("POST %s of another user: %d, want 404", p, st)
			}
		}
	}
	foreign(bob, bobSess, []request{
		{"GET", annPath}, {"PUT", annPath}, {"DELETE", annPath},
		{"POST", annPath + "/pause"}, {"POST", annPath + "/resume"}, {"POST", annPath + "/check-now"}, {"POST", annPath + "/rotate-feed"},
		{"GET", annPath + "/changes"}, {"GET", fmt.Sprintf("/api/v1/changes?sentinel=%d", annS.ID)},
		{"GET", fmt.Sprintf("/api/v1/changes/%d", annChange)},
		{"GET", fmt.Sprintf("/api/v1/resources/%d", annRes)}, {"GET", fmt.Sprintf("/api/v1/resources/%d/versions", annRes)},
		{"GET", fmt.Sprintf("/api/v1/changes?resource=%d", annRes)},
		{"GET", fmt.Sprintf("/api/v1/notifications/%d", annLetter)}, {"POST", fmt.Sprintf("/api/v1/notifications/%d/retry", annLetter)},
	}, []string{
		fmt.Sprintf("/sentinels/%d", annS.ID), fmt.Sprintf("/changes/%d", annChange), fmt.Sprintf("/resources/%d", annRes),
	}, []string{
		fmt.Sprintf("/sentinels/%d/pause", annS.ID), fmt.Sprintf("/notifications/%d/retry", annLetter),
	})
	foreign(ann, annSess, []request{
		{"GET", bobPath}, {"DELETE", bobPath}, {"POST", bobPath + "/pause"},
		{"GET", fmt.Sprintf("/api/v1/resources/%d", bobRes)},
	}, []string{fmt.Sprintf("/sentinels/%d", bobS.ID), fmt.Sprintf("/resources/%d", bobRes)}, nil)

	// Their lists hold their own only.
	lists := func(c *apiClient, s *browserSession, own, other, ownURL, otherURL string, changes, letters int) {
		t.Helper()
		var l struct {
			Items []struct {
				Name string `json:"name"`
				URL  string `json:"url"`
			}
			Total int
		}
		c.want(200, "GET", "/api/v1/sentinels", nil).json(t, &l)
		if l.Total != 1 || l.Items[0].Name != own {
			t.Errorf("sentinels of %s: %+v", own, l)
		}
		c.want(200, "GET", "/api/v1/resources", nil).json(t, &l)
		if len(l.Items) != 1 || l.Items[0].URL != ownURL {
			t.Errorf("the resources of %s: %+v, want %s only (not %s)", own, l.Items, ownURL, otherURL)
		}
		c.want(200, "GET", "/api/v1/changes", nil).json(t, &l)
		if l.Total != changes {
			t.Errorf("changes of %s: %d, want %d", own, l.Total, changes)
		}
		c.want(200, "GET", "/api/v1/notifications", nil).json(t, &l)
		if l.Total != letters {
			t.Errorf("notifications of %s: %d, want %d", own, l.Total, letters)
		}
		if page := s.get("/sentinels"); strings.Contains(page, other) || !strings.Contains(page, own) {
			t.Errorf("the sentinels page of %s: has %s %v, has %s %v", own, own, strings.Contains(page, own), other, strings.Contains(page, other))
		}
		if page := s.get("/notifications"); (letters == 0) != !strings.Contains(page, hook.URL) {
			t.Errorf("the notifications page of %s shows the hook: %v, want %v", own, strings.Contains(page, hook.URL), letters > 0)
		}
	}
	lists(ann, annSess, "annwatch", "bobwatch", site.srv.URL+"/a", site.srv.URL+"/b", 1, 1)
	lists(bob, bobSess, "bobwatch", "annwatch", site.srv.URL+"/b", site.srv.URL+"/a", 0, 0)
	// And what the other tried left them as they were.
	var s struct{ Status string }
	ann.want(200, "GET", annPath, nil).json(t, &s)
	if s.Status != "active" {
		t.Errorf("ann's sentinel after bob's tries: %s", s.Status)
	}
	bob.want(200, "GET", bobPath, nil)

	// A new password ends Ann's sessions, not her API tokens.
	me := func(s *browserSession) int {
		t.Helper()
		return s.status("/api/v1/me")
	}
	if st := me(annSess); st != http.StatusOK {
		t.Fatalf("ann's session before passwd: %d", st)
	}
	if code, out, errOut := cli("ann's new password\n", "passwd", "--password-stdin", "ann@example.com"); code != exitOK {
		t.Fatalf("user passwd: exit %d\n%s%s", code, out, errOut)
	}
	if st := me(annSess); st != http.StatusUnauthorized {
		t.Errorf("ann's old session after passwd: %d, want 401", st)
	}
	if st := annSess.status("/sentinels"); st != http.StatusUnauthorized {
		t.Errorf("ann's old session on the dashboard after passwd: %d, want 401 (the sign-in form)", st)
	}
	ann.want(200, "GET", "/api/v1/sentinels", nil)
	if _, st := signInAs(t, d.base, "ann@example.com", "ann@example.com password"); st != http.StatusUnauthorized {
		t.Errorf("ann signs in with her old password: %d, want 401", st)
	}
	if st := me(signInOK("ann@example.com", "ann's new password")); st != http.StatusOK {
		t.Errorf("ann's new session: %d", st)
	}

	// Bob owns a sentinel: removed only with it.
	if code, _, errOut := cli("", "remove", "bob@example.com"); code != exitError || !strings.Contains(errOut, "owns 1 sentinel") {
		t.Errorf("user remove of a user with a sentinel: exit %d, %s", code, errOut)
	}
	bob.want(200, "GET", "/api/v1/sentinels", nil)
	if code, out, errOut := cli("", "remove", "--with-sentinels", "bob@example.com"); code != exitOK {
		t.Fatalf("user remove --with-sentinels: exit %d\n%s%s", code, out, errOut)
	}
	if code := bob.want(401, "GET", "/api/v1/sentinels", nil).errorCode(t); code != "EUNAUTHORIZED" {
		t.Errorf("bob's token after remove: %s", code)
	}
	if st := me(bobSess); st != http.StatusUnauthorized {
		t.Errorf("bob's session after remove: %d, want 401", st)
	}
	if _, err := openData(t, d.dir).FindSentinelByID(context.Background(), bobS.ID); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("bob's sentinel after remove: %v", err)
	}
	ann.want(200, "GET", annPath, nil)
}

package web

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// browserClient is a signedIn user's client that keeps the cookies the
// server sets, as a browser does, and does not follow redirects.
type browserClient struct {
	*signedIn
	client *http.Client
}

func newBrowserClient(t *testing.T, s *Server, u *vigil.User) *browserClient {
	t.Helper()
	c := newSignedIn(t, s, u)
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := url.Parse(c.srv.URL)
	jar.SetCookies(base, []*http.Cookie{{Name: sessionCookie, Value: c.cookie, Path: "/"}})
	return &browserClient{signedIn: c, client: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// send sends a form (POST) or a GET and returns the answer, its body read.
func (c *browserClient) send(method, path, form string) (*http.Response, string) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.srv.URL+path, strings.NewReader(form))
	if err != nil {
		c.t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set(csrfHeader, c.csrf)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := c.client.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp, string(b)
}

// TestDoneMessageShownOnce: the message of what a form did shows on the
// page the form leads to, once: a reload, or the page opened again, says
// nothing, and the address (and so the history) holds no code of it. The
// code rode in the address (?done=saved), which a reload, a bookmark and
// the back button showed again.
func TestDoneMessageShownOnce(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newBrowserClient(t, s, u)
	src := url.Values{"source": {"Create Sentinel p\nUsing http://a.example/p\nMonitor any change\nFetch 1 day\n"}}.Encode()
	resp, _ := c.send("POST", "/sentinels", src)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("create: %d", resp.StatusCode)
	}
	sentinel := resp.Header.Get("Location")
	id := strings.TrimPrefix(sentinel, "/sentinels/")
	if _, err := strconv.ParseInt(id, 10, 64); err != nil {
		t.Fatalf("create leads to %q, want the sentinel's page without a code", sentinel)
	}
	for _, tc := range []struct {
		name, action, form, to, want string
	}{
		{"create", "", "", sentinel, "Created the sentinel."},
		{"save", sentinel, src, sentinel, "Saved."},
		{"pause", sentinel + "/pause", "", sentinel, "Paused:"},
		{"resume", sentinel + "/resume", "", sentinel, "Resumed."},
		{"feed", sentinel + "/rotate-feed", "", sentinel + "#feed", "Replaced the feed link"},
		{"delete", sentinel + "/delete", "", "/sentinels", "Deleted the sentinel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			if tc.action != "" {
				resp, _ := c.send("POST", tc.action, tc.form)
				if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != tc.to {
					t.Fatalf("%s: %d to %q, want 303 to %q", tc.action, resp.StatusCode, resp.Header.Get("Location"), tc.to)
				}
				var flash *http.Cookie
				for _, ck := range resp.Cookies() {
					if ck.Name == doneCookie {
						flash = ck
					}
				}
				if flash == nil || !flash.HttpOnly || flash.SameSite != http.SameSiteStrictMode || flash.MaxAge <= 0 || flash.MaxAge > 60 {
					t.Fatalf("the redirect's message cookie: %+v, want HttpOnly, SameSite=Strict, a minute at most", flash)
				}
			}
			page := strings.TrimSuffix(tc.to, "#feed")
			resp, body := c.send("GET", page, "")
			if resp.StatusCode != 200 || !strings.Contains(body, `id="done">`+tc.want) {
				t.Errorf("GET %s: %d, without %q:\n%s", page, resp.StatusCode, tc.want, body)
			}
			if _, body := c.send("GET", page, ""); strings.Contains(body, `id="done"`) {
				t.Errorf("GET %s again (a reload) says what was done again", page)
			}
		})
	}
	c.t = t
	// An address that says a code (an old link, a bookmark) says nothing.
	for _, p := range []string{"/sentinels?done=deleted", "/sentinels?done=created"} {
		if _, body := c.send("GET", p, ""); strings.Contains(body, `id="done"`) {
			t.Errorf("GET %s shows a message", p)
		}
	}
}

// TestDoneMessageOnItsPage: the message of what a form did shows on the
// page the form led to, and on no other: a redirect not followed (a
// form sent from another tab, a script) left its message for whichever
// sentinel's page, or the list, opened next, which said that another
// sentinel was paused, and the sentinel's own page then said nothing.
func TestDoneMessageOnItsPage(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newBrowserClient(t, s, u)
	var pages [2]string
	for i, name := range []string{"a", "b"} {
		src := url.Values{"source": {"Create Sentinel " + name + "\nUsing http://a.example/" + name + "\nMonitor any change\nFetch 1 day\n"}}.Encode()
		resp, _ := c.send("POST", "/sentinels", src)
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("create %s: %d", name, resp.StatusCode)
		}
		pages[i] = resp.Header.Get("Location")
		if _, body := c.send("GET", pages[i], ""); !strings.Contains(body, `id="done">Created`) {
			t.Fatalf("GET %s after its create: no message", pages[i])
		}
	}
	a, b := pages[0], pages[1]
	if resp, _ := c.send("POST", a+"/pause", ""); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("pause %s: %d", a, resp.StatusCode)
	}
	for _, other := range []string{b, "/sentinels"} {
		if _, body := c.send("GET", other, ""); strings.Contains(body, `id="done"`) {
			t.Errorf("GET %s after pausing %s says what was done there", other, a)
		}
	}
	if _, body := c.send("GET", a, ""); !strings.Contains(body, `id="done">Paused:`) {
		t.Errorf("GET %s after pausing it, and another page opened first: no message", a)
	}
	if _, body := c.send("GET", a, ""); strings.Contains(body, `id="done"`) {
		t.Errorf("GET %s again says what was done again", a)
	}
}

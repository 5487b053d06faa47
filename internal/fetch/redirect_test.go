package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// hitLog records when each path of a test server was requested.
type hitLog struct {
	mu   sync.Mutex
	hits map[string][]time.Time
}

func (h *hitLog) add(p string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.hits == nil {
		h.hits = map[string][]time.Time{}
	}
	h.hits[p] = append(h.hits[p], time.Now())
}

func (h *hitLog) get(p string) []time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]time.Time(nil), h.hits[p]...)
}

// redirectSites starts two servers on loopback, two hosts for the
// fetcher (their ports differ): a, whose robots.txt disallows /private/
// and whose pages redirect, and b, whose robots.txt disallows /blocked
// and asks for a Crawl-delay of delay.
func redirectSites(t *testing.T, delay time.Duration) (a, b *httptest.Server, aHits, bHits *hitLog) {
	aHits, bHits = &hitLog{}, &hitLog{}
	b = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bHits.add(r.URL.Path)
		if r.URL.Path == "/robots.txt" {
			fmt.Fprintf(w, "User-agent: *\nDisallow: /blocked\nCrawl-delay: %g\n", delay.Seconds())
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<p>b</p>")
	}))
	t.Cleanup(b.Close)
	a = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		aHits.add(r.URL.Path)
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
		case "/to-private":
			http.Redirect(w, r, "/private/x", http.StatusFound)
		case "/to-page":
			http.Redirect(w, r, "/page", http.StatusMovedPermanently)
		case "/to-b-blocked":
			http.Redirect(w, r, b.URL+"/blocked/x", http.StatusFound)
		case "/to-b":
			http.Redirect(w, r, b.URL+"/page", http.StatusTemporaryRedirect)
		default:
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<p>a</p>")
		}
	}))
	t.Cleanup(a.Close)
	return a, b, aHits, bHits
}

// TestRedirectRobots: robots.txt is read for every page a redirect leads
// to, on its own host: a redirect to a disallowed path is refused with
// ErrRobots, the error naming where it led, and that page is never
// requested. The client followed redirects itself and checked robots.txt
// only for the URL asked: a page that redirected to a disallowed one was
// fetched and returned.
func TestRedirectRobots(t *testing.T) {
	a, b, aHits, bHits := redirectSites(t, 0)
	c := testClient(Options{})
	for _, tc := range []struct {
		path, to string
		err      error
		hits     *hitLog
	}{
		{"/to-private", a.URL + "/private/x", ErrRobots, aHits},
		{"/to-b-blocked", b.URL + "/blocked/x", ErrRobots, bHits},
		{"/to-b", b.URL + "/page", nil, bHits},
		{"/to-page", a.URL + "/page", nil, aHits},
	} {
		res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: a.URL + tc.path})
		if tc.err == nil {
			if err != nil || res.URL != tc.to || res.Status != 200 || len(res.Body) == 0 {
				t.Errorf("%s: %+v, %v; want the page at %s", tc.path, res, err, tc.to)
			}
			continue
		}
		if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), "redirect to "+tc.to) {
			t.Errorf("%s: err = %v, want %v naming the redirect to %s", tc.path, err, tc.err, tc.to)
		}
		if res == nil || res.URL != tc.to || res.Status != 0 || res.Body != nil {
			t.Errorf("%s: result %+v, want the URL it led to, without status", tc.path, res)
		}
		path := strings.TrimPrefix(tc.to, b.URL)
		path = strings.TrimPrefix(path, a.URL)
		if n := len(tc.hits.get(path)); n != 0 {
			t.Errorf("%s: the disallowed %s was requested %d times", tc.path, tc.to, n)
		}
	}
	if n := len(bHits.get("/robots.txt")); n != 1 {
		t.Errorf("b's robots.txt read %d times, want once", n)
	}
}

// TestRedirectPoliteness: a page a redirect leads to waits for its own
// host's turn, as a page asked for does: the Crawl-delay of another host,
// the HostDelay between two requests to the same one. The client followed
// redirects at once, in the first host's turn: a redirect to another site
// skipped that site's delay.
//
// The delays are measured where they are kept, in the client: from
// before the first request, the redirect's page comes after as many
// delays as requests to its host went before it. (Measured on the server
// as the gap between two requests, the time a loaded machine took to run
// the handler of the first went into the measure, and the test failed.)
func TestRedirectPoliteness(t *testing.T) {
	const delay = 300 * time.Millisecond
	a, b, aHits, bHits := redirectSites(t, delay)
	for _, tc := range []struct {
		name   string
		first  string // fetched first, to start the host's delay
		follow string // then this, which redirects to first
		hits   *hitLog
		path   string // first's path
		delays int    // the requests to first's host before the redirect's
		opt    Options
	}{
		{"other host's Crawl-delay", b.URL + "/page", a.URL + "/to-b", bHits, "/page", 1, Options{}},
		{"same host's HostDelay", a.URL + "/page", a.URL + "/to-page", aHits, "/page", 2, Options{IgnoreRobots: true, HostDelay: delay}},
	} {
		c := testClient(tc.opt)
		began := time.Now()
		for _, u := range []string{tc.first, tc.follow} {
			if _, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: u}); err != nil {
				t.Fatalf("%s: %s: %v", tc.name, u, err)
			}
		}
		took := time.Since(began)
		if n := len(tc.hits.get(tc.path)); n != 2 {
			t.Fatalf("%s: %s requested %d times, want twice", tc.name, tc.path, n)
		}
		if want := time.Duration(tc.delays) * delay; took < want {
			t.Errorf("%s: the redirect's page was read %v after the first request, want at least %v", tc.name, took, want)
		}
	}
}

// TestCheckRedirect: the caller's CheckRedirect sees each redirect's
// target, absolute, before it is followed; its error ends the fetch,
// wrapped, with the URL it led to, and the target is never requested.
func TestCheckRedirect(t *testing.T) {
	a, b, _, bHits := redirectSites(t, 0)
	c := testClient(Options{})
	errOut := errors.New("out of scope")
	var asked []string
	check := func(u string) error {
		asked = append(asked, u)
		if strings.HasPrefix(u, b.URL) {
			return errOut
		}
		return nil
	}
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: a.URL + "/to-b", CheckRedirect: check})
	if !errors.Is(err, errOut) || res == nil || res.URL != b.URL+"/page" || res.Status != 0 {
		t.Errorf("refused redirect: %+v, %v; want %v and the URL it led to", res, err, errOut)
	}
	if n := len(bHits.get("/page")) + len(bHits.get("/robots.txt")); n != 0 {
		t.Errorf("the refused host was asked %d times", n)
	}
	res, err = c.Fetch(context.Background(), &vigil.FetchRequest{URL: a.URL + "/to-page", CheckRedirect: check})
	if err != nil || res.URL != a.URL+"/page" {
		t.Errorf("allowed redirect: %+v, %v", res, err)
	}
	if want := []string{b.URL + "/page", a.URL + "/page"}; fmt.Sprint(asked) != fmt.Sprint(want) {
		t.Errorf("CheckRedirect asked %q, want %q", asked, want)
	}
}

// TestRedirectValidators: the validators of a conditional request are the
// page asked for's, so they go with its request only, not with the
// request of a page its redirect leads to, whose answer to them would say
// nothing of that page: a page that came to redirect elsewhere was
// "not modified" when its new target had not changed since the date of
// the page's last version, and vigil serve kept that version.
func TestRedirectValidators(t *testing.T) {
	lastModified := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var mu sync.Mutex
	sent := map[string]string{} // path: the validators its request had
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sent[r.URL.Path] = r.Header.Get("If-None-Match") + "|" + r.Header.Get("If-Modified-Since")
		mu.Unlock()
		switch r.URL.Path {
		case "/moved":
			http.Redirect(w, r, "/elsewhere", http.StatusMovedPermanently)
		case "/elsewhere":
			// A page last changed before the date sent: not modified,
			// for the validators it was given.
			if r.Header.Get("If-Modified-Since") != "" || r.Header.Get("If-None-Match") != "" {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<p>elsewhere</p>")
		}
	}))
	defer srv.Close()
	c := testClient(Options{IgnoreRobots: true})
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/moved", ETag: `"v1"`, LastModified: lastModified})
	if err != nil || res.NotModified || res.URL != srv.URL+"/elsewhere" || string(res.Body) != "<p>elsewhere</p>" {
		t.Errorf("Fetch = %+v, %v; want the page the redirect led to, read", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := `"v1"|` + lastModified.Format(http.TimeFormat); sent["/moved"] != want {
		t.Errorf("the page asked for was sent validators %q, want %q", sent["/moved"], want)
	}
	if v := sent["/elsewhere"]; v != "|" {
		t.Errorf("the page a redirect led to was sent validators %q, want none", v)
	}
}

// TestRedirectChainTime: a fetch lasts at most HostWait for its first
// turn and TotalTimeout from then, however many redirects it follows and
// however long their hosts' turns take: each redirect's turn could wait
// HostWait anew, outside TotalTimeout, so that ten redirects on a host
// with a Crawl-delay held a fetch (and vigil serve's check, past its
// claim's lease) for ten times the time configured. A redirect whose turn
// does not come in the time left is the fetch's timeout, a failure of the
// page that names the redirect, not a busy host: it was asked for.
func TestRedirectChainTime(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		var n int
		if _, err := fmt.Sscanf(r.URL.Path, "/hop/%d", &n); err == nil && n < 10 {
			http.Redirect(w, r, fmt.Sprintf("/hop/%d", n+1), http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<p>end</p>")
	}))
	defer srv.Close()
	const delay, total = 150 * time.Millisecond, 400 * time.Millisecond
	c := testClient(Options{IgnoreRobots: true, HostDelay: delay, TotalTimeout: total})
	began := time.Now()
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/hop/0"})
	took := time.Since(began)
	// Its ten redirects' turns took 1.5 s; the slack is for a loaded
	// machine.
	if took > total+500*time.Millisecond {
		t.Errorf("the fetch took %v, want at most its TotalTimeout %v (the first turn was at once)", took, total)
	}
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, vigil.ErrHostBusy) || !strings.Contains(err.Error(), "redirect to "+srv.URL+"/hop/") {
		t.Errorf("err = %v; want the fetch's timeout, naming the redirect, not a busy host", err)
	}
	if res == nil || !strings.HasPrefix(res.URL, srv.URL+"/hop/") || res.Body != nil {
		t.Errorf("result %+v, want the URL of the redirect not followed", res)
	}
	if n := hits.Load(); n >= 10 {
		t.Errorf("%d requests: the chain was followed to its end", n)
	}
}

// TestRedirectTargetFails: a page a redirect leads to that fails (an
// error status, a body too large) fails the fetch with an error that
// names it, and a result with its URL and status: the error named the
// page asked for alone ("fetch /old: HTTP error status 404"), and a
// page's history said that a page which redirects was not found.
func TestRedirectTargetFails(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/old":
			http.Redirect(w, r, "/gone", http.StatusMovedPermanently)
		case "/big":
			http.Redirect(w, r, "/big/page", http.StatusFound)
		case "/big/page":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, strings.Repeat("<p>x</p>", 100))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c := testClient(Options{IgnoreRobots: true, MaxBodySize: 200})
	for _, tc := range []struct {
		path, to string
		status   int
		err      error
	}{
		{"/old", "/gone", 404, ErrStatus},
		{"/big", "/big/page", 200, ErrTooLarge},
	} {
		res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + tc.path})
		if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), "redirect to "+srv.URL+tc.to+": ") {
			t.Errorf("%s: err = %v, want %v naming the redirect to %s", tc.path, err, tc.err, tc.to)
		}
		if res == nil || res.URL != srv.URL+tc.to || res.Status != tc.status {
			t.Errorf("%s: result %+v, want %s with status %d", tc.path, res, tc.to, tc.status)
		}
	}
}

// TestRedirectCredentials: a redirect whose Location carries credentials
// (http://user:pass@host/) is refused with ErrUnsupported, and they go
// nowhere: not to the host it names (which is never asked), not into the
// error, whose text a log keeps, nor into the result's URL, which a
// crawl stores and which is the page that redirected. The client followed
// it, sending them to that host as Basic authentication and returning the
// URL with them.
func TestRedirectCredentials(t *testing.T) {
	var sent atomic.Int32 // requests to b that carried credentials
	bHits := &hitLog{}
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bHits.add(r.URL.Path)
		if r.Header.Get("Authorization") != "" {
			sent.Add(1)
		}
		io.WriteString(w, "<p>b</p>")
	}))
	t.Cleanup(b.Close)
	withCredentials := strings.Replace(b.URL, "://", "://user:s3cret@", 1)
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/to-b":
			http.Redirect(w, r, withCredentials+"/page", http.StatusFound)
		case "/to-user":
			// A user name alone is credentials too.
			http.Redirect(w, r, strings.Replace(b.URL, "://", "://user@", 1)+"/page", http.StatusFound)
		case "/to-bad":
			// A Location that does not parse, quoted by the error.
			w.Header().Set("Location", withCredentials+":x/page")
			w.WriteHeader(http.StatusFound)
		case "/to-bad-host":
			// A host IDNA refuses, quoted by the error: it showed
			// the credentials.
			w.Header().Set("Location", "http://user:s3cret@-bücher.example/page")
			w.WriteHeader(http.StatusFound)
		case "/to-bad-relative":
			// The same, relative to the scheme ("//host/path").
			w.Header().Set("Location", strings.TrimPrefix(withCredentials, "http:")+":x/page")
			w.WriteHeader(http.StatusFound)
		}
	}))
	t.Cleanup(a.Close)
	c := testClient(Options{})
	for _, path := range []string{"/to-b", "/to-user"} {
		res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: a.URL + path})
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "redirect to "+b.URL+"/page") {
			t.Errorf("%s: err = %v, want ErrUnsupported naming the redirect to %s/page", path, err, b.URL)
		}
		if err != nil && (strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "user@")) {
			t.Errorf("%s: the error shows the credentials: %v", path, err)
		}
		if res == nil || res.URL != a.URL+path || res.Status != 0 {
			t.Errorf("%s: result %+v, want the URL of the page that redirected, without status", path, res)
		}
	}
	for _, path := range []string{"/to-bad", "/to-bad-relative", "/to-bad-host"} {
		_, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: a.URL + path})
		if err == nil || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: err = %v, want an error without the credentials", path, err)
		}
	}
	if n := len(bHits.get("/page")); n != 0 || sent.Load() != 0 {
		t.Errorf("the host the redirect named was asked %d times, %d of them with credentials", n, sent.Load())
	}
}

// TestStripCredentials: the user info of every URL a text quotes is cut
// out, a URL relative to the scheme's too, and nothing else.
func TestStripCredentials(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"none":                   {`Get "http://h/p": EOF`, `Get "http://h/p": EOF`},
		"user and password":      {`parse "http://u:p@h:x/": invalid port`, `parse "http://h:x/": invalid port`},
		"user alone":             {`to https://u@h/ refused`, `to https://h/ refused`},
		"an @ in the password":   {`"http://u:p@q@h/"`, `"http://h/"`},
		"relative to the scheme": {`Location header "//u:p@h:x/p": parse "//u:p@h:x/p"`, `Location header "//h:x/p": parse "//h:x/p"`},
		"an @ in the path":       {`Get "http://h/a//b@c/d?e=f@g": EOF`, `Get "http://h/a//b@c/d?e=f@g": EOF`},
		"two URLs":               {`http://u:p@a/ to ftp://v@b/`, `http://a/ to ftp://b/`},
	}
	for name, tt := range tests {
		if got := stripCredentials(tt.in); got != tt.want {
			t.Errorf("%s: stripCredentials(%q) = %q, want %q", name, tt.in, got, tt.want)
		}
	}
}

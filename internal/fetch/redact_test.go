package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestAskedURLErrorsHidePassword: a fetch of a URL with credentials
// (sent, as asked: only a redirect's are refused) that fails names it
// with its password as xxxxx (vigil.RedactURL) whatever failed: an error
// status, robots.txt, a redirect, a scheme, a host, a server that is
// down, rendering, a URL that does not parse for its password. The errors, which the monitor stores in a version and
// logs, quoted the URL asked as given. The result's URL is the page's, as
// it was asked.
func TestAskedURLErrorsHidePassword(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow: /private\n"))
		case "/moved":
			http.Redirect(w, r, "/gone", http.StatusFound)
		default:
			http.Error(w, "broken", http.StatusInternalServerError)
		}
	}))
	defer srv.Close()
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	with := func(base, path string) string {
		return strings.Replace(base, "://", "://user:s3cret@", 1) + path
	}
	c := testClient(Options{})
	for _, tt := range []struct {
		name   string
		req    vigil.FetchRequest
		err    error
		result bool
	}{
		{"error status", vigil.FetchRequest{URL: with(srv.URL, "/fail")}, ErrStatus, true},
		{"robots.txt", vigil.FetchRequest{URL: with(srv.URL, "/private")}, ErrRobots, false},
		{"redirect", vigil.FetchRequest{URL: with(srv.URL, "/moved")}, ErrUnsupported, true},
		{"scheme", vigil.FetchRequest{URL: "ftp://user:s3cret@a.example/"}, ErrUnsupported, false},
		{"host", vigil.FetchRequest{URL: "http://user:s3cret@a..example/"}, nil, false},
		{"does not parse", vigil.FetchRequest{URL: "http://user:s3cret@a.example:x/"}, nil, false},
		{"slash in password", vigil.FetchRequest{URL: "http://user:s3/cret@a.example/x"}, nil, false},
		{"hash in password", vigil.FetchRequest{URL: "https://user:s3#cret@a.example/"}, nil, false},
		{"bad escape in password", vigil.FetchRequest{URL: "http://user:s3%zzcret@a.example/"}, nil, false},
		{"server down", vigil.FetchRequest{URL: with(down.URL, "/x")}, nil, false},
		{"render", vigil.FetchRequest{URL: with(srv.URL, "/fail"), Render: true}, ErrUnsupported, false},
	} {
		res, err := c.Fetch(context.Background(), &tt.req)
		if err == nil || tt.err != nil && !errors.Is(err, tt.err) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.err)
			continue
		}
		// "s3": url.Parse's own error quotes a password cut at a "/",
		// a "#" or an escape that does not decode.
		if strings.Contains(err.Error(), "s3") || !strings.Contains(err.Error(), "user:xxxxx@") {
			t.Errorf("%s: %v, want the URL named with its password hidden", tt.name, err)
		}
		if tt.result && (res == nil || !strings.Contains(res.URL, "user:s3cret@")) {
			t.Errorf("%s: result %+v, want the URL of the page as asked", tt.name, res)
		}
	}
}

// TestBadLocationHidesPassword: a redirect to a Location that does not
// parse for the password it holds (a "/" or "#" in it unescaped, a port
// that is not digits) fails naming it without its credentials, and
// without url.Parse's detail, which quoted the password up to that
// character: the error goes to the log and the failed version.
func TestBadLocationHidesPassword(t *testing.T) {
	for _, loc := range []string{
		"http://user:s3/cret@a.example/",
		"http://user:s3#cret@a.example/",
		"http://user:s3?cret@a.example/",
		"http://user:s3cret@a.example:x/",
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Location", loc)
			w.WriteHeader(http.StatusFound)
		}))
		_, err := testClient(Options{}).Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/moved"})
		srv.Close()
		if err == nil || strings.Contains(err.Error(), "s3") || !strings.Contains(err.Error(), "a.example") {
			t.Errorf("redirect to %s: %v; want an error naming a.example, no password", loc, err)
		}
	}
}

package web

import (
	"net/url"
	"strings"
	"testing"
)

// TestBadURLErrorsHidePassword: the API's and the dashboard's errors for
// a bad URL with credentials do not show its password: a resources
// filter whose host DNS refuses, whose scheme is not http, that does not
// parse or that finds no resource says what the url must be without
// repeating it (a link could make it say anything), and a sentinel's
// page or webhook URL in the API's check and the editor's problems names
// it with its password as xxxxx (vigil.RedactURL). The filter's errors
// quoted the URL as given.
func TestBadURLErrorsHidePassword(t *testing.T) {
	s, ada := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, ada)
	for _, tt := range []struct{ method, path, body, want string }{
		{"GET", "/api/v1/resources?url=" + url.QueryEscape("http://user:s3cret@a..example/"), "", `url: its host is not a name DNS takes`},
		{"GET", "/api/v1/resources?url=" + url.QueryEscape("ftp://user:s3cret@a.example/"), "", `url must be an absolute http or https URL`},
		{"GET", "/api/v1/resources?url=" + url.QueryEscape("http://user:s3cret@a.example:x/"), "", `url must be an absolute http or https URL`},
		{"GET", "/api/v1/resources?url=" + url.QueryEscape("http://user:s3cret@-bücher.example/"), "", `url: its host is not a name IDNA takes`},
		{"POST", "/api/v1/sentinels/check", `{"source":"Create Sentinel a\nUsing http://user:s3cret@a.example/"}`, `http://user:xxxxx@a.example/`},
		{"POST", "/sentinels", url.Values{"source": {"Create Sentinel a\nUsing http://user:s3cret@a.example/"}}.Encode(), `http://user:xxxxx@a.example/`},
		{"POST", "/sentinels", url.Values{"source": {"Create Sentinel a\nUsing http://a.example/\nNotify By webhook http://user:s3cret@a.example:99999/"}}.Encode(), `http://user:xxxxx@a.example:99999/`},
	} {
		status, body := c.do(tt.method, tt.path, tt.body)
		if !strings.HasPrefix(tt.path, "/api/") {
			// The editor gives back the source as typed, the user's
			// own text, which they edit: only its problems are
			// messages.
			_, body, _ = strings.Cut(body, `id="problems"`)
		}
		if status < 400 && !strings.Contains(tt.path, "check") {
			t.Errorf("%s %s: status %d, want an error", tt.method, tt.path, status)
		}
		if strings.Contains(body, "s3cret") || !strings.Contains(body, tt.want) {
			t.Errorf("%s %s: %d %s\nwant %s shown and no password", tt.method, tt.path, status, body, tt.want)
		}
	}
}

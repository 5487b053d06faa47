package web

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestVersionURLHidesRedirectQuery: the API's version url, the final URL
// of a fetch that followed a redirect, shows the query values the
// redirect added (a session token) hidden, in the list of versions and
// in a version alone, and the watched URL's own parameters as written.
// It showed the token as the site had put it in its redirect.
func TestVersionURLHidesRedirectQuery(t *testing.T) {
	const secret = "8f3a91c2"
	for name, tc := range map[string]struct{ resource, final, want string }{
		"a session token added": {"http://a.example/fares?from=PAR", "http://a.example/new/fares?from=PAR&sid=" + secret,
			"http://a.example/new/fares?from=PAR&sid=xxxxx"},
		"the watched query alone": {"http://a.example/fares?from=PAR", "http://a.example/new/fares?from=PAR",
			"http://a.example/new/fares?from=PAR"},
		"no query": {"http://a.example/fares", "http://a.example/new/fares", "http://a.example/new/fares"},
	} {
		t.Run(name, func(t *testing.T) {
			s, u := newTestServer(t)
			w := useWarehouse(t, s)
			createChecked(t, s, u, "Create Sentinel fares Using "+tc.resource+" Fetch 1 hour")
			v, err := w.Put(context.Background(), &warehouse.Fetch{URL: tc.resource, FinalURL: tc.final,
				FetchedAt: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), Status: 200, ContentType: "text/html",
				Body: []byte(`<html><body><p>Fares.</p></body></html>`)})
			if err != nil {
				t.Fatal(err)
			}
			if v.URL != tc.final {
				t.Fatalf("version stored read from %q, want %q, exact", v.URL, tc.final)
			}
			c := newSignedIn(t, s, u)
			get := func(path string) string {
				t.Helper()
				status, body := c.do("GET", path, "")
				if status != 200 {
					t.Fatalf("GET %s: %d %s", path, status, body)
				}
				if strings.Contains(body, secret) {
					t.Errorf("GET %s shows the redirect's token %s:\n%s", path, secret, body)
				}
				return body
			}
			type version struct {
				URL string `json:"url"`
			}
			var list struct{ Items []version }
			if err := json.Unmarshal([]byte(get("/api/v1/resources/"+strconv.FormatInt(v.ResourceID, 10)+"/versions")), &list); err != nil {
				t.Fatal(err)
			}
			if len(list.Items) != 1 || list.Items[0].URL != tc.want {
				t.Errorf("the list of versions: %+v, want one of url %q", list.Items, tc.want)
			}
			var one version
			if err := json.Unmarshal([]byte(get("/api/v1/versions/"+strconv.FormatInt(v.ID, 10))), &one); err != nil {
				t.Fatal(err)
			}
			if one.URL != tc.want {
				t.Errorf("the version: url %q, want %q", one.URL, tc.want)
			}
		})
	}
}

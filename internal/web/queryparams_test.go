package web

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
)

// TestAPIRefusesUnknownQueryParameters: a query parameter that the route's
// operation in openapi.json does not name is refused (400, naming the
// ones the route takes, but not it, which a link could make say
// anything); GET /api/v1/changes?sentinelId=3, spelt as
// the JSON spells the field, answered every change of the user's as if
// unfiltered, which a script then took for sentinel 3's. The parameters
// the routes document still work.
func TestAPIRefusesUnknownQueryParameters(t *testing.T) {
	s, u := newTestServer(t)
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Warehouse, err = warehouse.New(s.Store, warehouse.Options{Codec: codec}); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	auth := bearer(t, s.Store, u, "vgl_query_parameters")
	for _, tc := range []struct {
		method, path string
		status       int
		want         string
	}{
		{"GET", "/api/v1/changes?sentinelId=3", 400, `unknown query parameter: GET /api/v1/changes takes offset, limit, sentinel, resource, since, until`},
		{"GET", "/api/v1/sentinels?state=paused", 400, `unknown query parameter: GET /api/v1/sentinels takes offset, limit, status`},
		{"GET", "/api/v1/notifications?limit=5&sort=desc", 400, `unknown query parameter: GET /api/v1/notifications takes offset, limit, order, state`},
		{"GET", "/api/v1/me?x=1", 400, `unknown query parameter: GET /api/v1/me takes none`},
		{"GET", "/api/v1/changes?offset=0&limit=5&since=2026-01-01T00:00:00Z", 200, ""},
		{"GET", "/api/v1/notifications?order=desc&state=dead", 200, ""},
		{"GET", "/api/v1/sentinels?status=active", 200, ""},
		{"GET", "/api/v1/resources?host=example.org", 200, ""},
		{"GET", "/api/v1/me", 200, ""},
	} {
		status, body := apiCall(t, srv.URL, auth, tc.method, tc.path, "")
		msg := ""
		if e, ok := body["error"].(map[string]any); ok {
			msg, _ = e["message"].(string)
		}
		if status != tc.status || (tc.want != "" && msg != tc.want) {
			t.Errorf("%s %s: %d %q, want %d %q", tc.method, tc.path, status, msg, tc.status, tc.want)
		}
		if tc.status == 400 && !strings.HasPrefix(msg, "unknown query parameter") {
			t.Errorf("%s %s: %v", tc.method, tc.path, body)
		}
	}
}

// TestAPIRefusesEmptyQueryValues: every query parameter of every API
// route in openapi.json, given with an empty value (?sentinel=, as a
// script with an unset variable writes it), is refused (400, naming it).
// GET /api/v1/changes?sentinel= answered every change, unfiltered, and
// resource=, limit=, offset= and since= were taken as absent too.
func TestAPIRefusesEmptyQueryValues(t *testing.T) {
	s, u := newTestServer(t)
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	auth := bearer(t, s.Store, u, "vgl_empty_query_values")
	routes, err := apiQueryParameters(openAPI)
	if err != nil {
		t.Fatal(err)
	}
	pathParam := regexp.MustCompile(`\{[^}]+\}`)
	tested := map[string]bool{}
	for pattern, names := range routes {
		method, path, _ := strings.Cut(pattern, " ")
		path = pathParam.ReplaceAllString(path, "1")
		for _, name := range names {
			for _, query := range []string{name + "=", name} {
				t.Run(pattern+"?"+query, func(t *testing.T) {
					status, body := apiCall(t, srv.URL, auth, method, path+"?"+query, "")
					msg := ""
					if e, ok := body["error"].(map[string]any); ok {
						msg, _ = e["message"].(string)
					}
					if want := name + " must not be empty: give it a value, or leave it out"; status != 400 || msg != want {
						t.Errorf("%s %s?%s: %d %q, want 400 %q", method, path, query, status, msg, want)
					}
				})
			}
			tested[pattern+"?"+name] = true
		}
	}
	for _, want := range []string{"GET /api/v1/changes?sentinel", "GET /api/v1/changes?resource", "GET /api/v1/changes?limit",
		"GET /api/v1/changes?offset", "GET /api/v1/changes?since", "GET /api/v1/sentinels?status", "GET /api/v1/notifications?state"} {
		if !tested[want] {
			t.Errorf("openapi.json does not document %s: the table misses it", want)
		}
	}
}

// TestAPIRefusesRepeatedQueryParameters: a query parameter given twice
// (?sentinel=1&sentinel=2) is refused (400, naming it), as an empty one
// is: the handlers read its first value only, so the second was ignored,
// and GET /api/v1/changes?sentinel=1&sentinel=2 answered sentinel 1's
// changes alone to a script that asked for both.
func TestAPIRefusesRepeatedQueryParameters(t *testing.T) {
	s, u := newTestServer(t)
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	auth := bearer(t, s.Store, u, "vgl_repeated_query_values")
	for _, q := range []struct{ path, name string }{
		{"/api/v1/changes?sentinel=1&sentinel=2", "sentinel"},
		{"/api/v1/sentinels?limit=1&limit=2", "limit"},
		{"/api/v1/notifications?state=dead&order=desc&state=sent", "state"},
	} {
		status, body := apiCall(t, srv.URL, auth, "GET", q.path, "")
		msg := ""
		if e, ok := body["error"].(map[string]any); ok {
			msg, _ = e["message"].(string)
		}
		if want := q.name + " is given more than once: give it once"; status != 400 || msg != want {
			t.Errorf("GET %s: %d %q, want 400 %q", q.path, status, msg, want)
		}
	}
}

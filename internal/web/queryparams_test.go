package web

import (
	"net/http"
	"net/http/httptest"
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
		{"GET", "/api/v1/changes?sentinel=", 200, ""},
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

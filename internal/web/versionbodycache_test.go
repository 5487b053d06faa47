package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestVersionBodyCachedPerSession: a version's body may be kept by the
// browser that read it (it never changes), but only for the session or
// token that read it. Kept for its URL alone, for a day, another account
// signed in on the same browser later (a shared computer) was shown it
// from the cache without the server asking whether that account may read
// the page.
func TestVersionBodyCachedPerSession(t *testing.T) {
	ctx := context.Background()
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	createChecked(t, s, u, "Create Sentinel p Using http://a.example/p")
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	cookie, err := s.newSessionCookie(u)
	if err != nil {
		t.Fatal(err)
	}
	v, err := w.Put(ctx, &warehouse.Fetch{URL: "http://a.example/p", FetchedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		Status: 200, ContentType: "text/html", Charset: "utf-8", Body: []byte("<p>private</p>")})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", srv.URL+"/api/v1/versions/"+strconv.FormatInt(v.ID, 10)+"/body", nil)
	req.AddCookie(&http.Cookie{Name: sessionCookie, Value: cookie})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET body: %d", resp.StatusCode)
	}
	cc := resp.Header.Get("Cache-Control")
	if strings.Contains(cc, "no-store") {
		return // not kept at all
	}
	if !strings.Contains(cc, "private") {
		t.Errorf("Cache-Control %q: a shared cache may keep it", cc)
	}
	var vary []string
	for _, line := range resp.Header.Values("Vary") {
		for _, name := range strings.Split(line, ",") {
			vary = append(vary, http.CanonicalHeaderKey(strings.TrimSpace(name)))
		}
	}
	for _, want := range []string{"Cookie", "Authorization"} {
		if !slices.Contains(vary, want) {
			t.Errorf("Cache-Control %q, Vary %q: the kept body is not kept apart by %s", cc, vary, want)
		}
	}
}

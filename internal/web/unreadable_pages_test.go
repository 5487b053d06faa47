package web

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestUnreadableSentinelPages: a stored sentinel whose checked form does
// not decode (a change type this release does not know) has its pages
// and their last fetch error shown as any other's, on the dashboard and in
// the API (its stored "urls", spec.CheckedURLs): none were, the full
// checked form being decoded to find them.
func TestUnreadableSentinelPages(t *testing.T) {
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	const broken = "fetch http://a.example/: HTTP error status 404"
	if _, err := w.Put(ctx, &warehouse.Fetch{URL: "http://a.example/", FetchedAt: at, Status: 404, Error: broken}); err != nil {
		t.Fatal(err)
	}
	sen := createChecked(t, s, u, "Create Sentinel lost Using http://a.example/ Fetch 1 hour")
	sen.Spec = bytes.Replace(sen.Spec, []byte(`"kind":"any change"`), []byte(`"kind":"most words"`), 1)
	if !bytes.Contains(sen.Spec, []byte("most words")) {
		t.Fatalf("spec %s has no change type to replace", sen.Spec)
	}
	if err := s.Store.UpdateSentinel(ctx, sen); err != nil {
		t.Fatal(err)
	}
	c := newSignedIn(t, s, u)
	path := "/api/v1/sentinels/" + strconv.FormatInt(sen.ID, 10)
	status, body := c.do("GET", path, "")
	var v struct {
		LastFetchError string
		FailingSince   time.Time
	}
	if err := json.Unmarshal([]byte(body), &v); status != 200 || err != nil {
		t.Fatalf("GET %s: %d %v %s", path, status, err, body)
	}
	if v.LastFetchError != broken || !v.FailingSince.Equal(at) {
		t.Errorf("GET %s: %s, want lastFetchError %q failing since %s", path, body, broken, at.Format(time.RFC3339))
	}
	for _, page := range []string{"/sentinels", "/sentinels/" + strconv.FormatInt(sen.ID, 10)} {
		if status, body := c.do("GET", page, ""); status != 200 || !strings.Contains(html.UnescapeString(body), broken) {
			t.Errorf("GET %s: %d, does not say %q", page, status, broken)
		}
	}
}

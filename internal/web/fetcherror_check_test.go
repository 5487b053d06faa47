package web

import (
	"context"
	"encoding/json"
	"html"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestFetchErrorOfACheck: a site sentinel whose last check failed where
// no version says so (cut at its claim's lease, its start page read
// well: SentinelState.CheckErrors) has that failure as its last error,
// failing since its state says, in LastFetchError, the API and on the
// dashboard; a failed fetch of the page, which its version tells, comes
// first. Before, such a sentinel showed no error anywhere.
func TestFetchErrorOfACheck(t *testing.T) {
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	since := at.Add(-time.Hour)
	const cut = "the check of the site did not end within 4m30s, before the lease of its claim: crawl fewer pages (a smaller depth or pages) or give the workers a longer lease"
	if _, err := w.Put(ctx, &warehouse.Fetch{URL: "http://a.example/docs/", FetchedAt: at, Status: 200, ContentType: "text/html", Body: []byte("<p>docs</p>")}); err != nil {
		t.Fatal(err)
	}
	sen := createChecked(t, s, u, "Create Sentinel docs Using site http://a.example/docs/ Fetch 1 hour")
	state := SentinelState{FailingSince: map[string]time.Time{"http://a.example/docs/": since},
		CheckErrors: map[string]string{"http://a.example/docs/": cut}}
	s.SentinelStates = func(ctx context.Context, sens []*vigil.Sentinel) (map[int64]SentinelState, error) {
		return map[int64]SentinelState{sen.ID: state}, nil
	}

	tests := []struct {
		name  string
		state SentinelState
		want  string
	}{
		{"no state", SentinelState{}, ""},
		{"failing since, without the check's error", SentinelState{FailingSince: state.FailingSince}, ""},
		{"the check's error", state, cut},
	}
	for _, tt := range tests {
		f, err := LastFetchError(ctx, s.Store, sen, tt.state)
		switch {
		case err != nil:
			t.Errorf("%s: LastFetchError: %v", tt.name, err)
		case tt.want == "" && f != nil:
			t.Errorf("%s: LastFetchError: %+v, want none", tt.name, f)
		case tt.want != "" && (f == nil || f.Message != tt.want || !f.Since.Equal(since)):
			t.Errorf("%s: LastFetchError: %+v, want %q since %v", tt.name, f, tt.want, since)
		}
	}

	c := newSignedIn(t, s, u)
	path := "/api/v1/sentinels/" + strconv.FormatInt(sen.ID, 10)
	status, body := c.do("GET", path, "")
	var v struct {
		LastFetchError string
		FailingSince   time.Time
	}
	if err := json.Unmarshal([]byte(body), &v); status != 200 || err != nil || v.LastFetchError != cut || !v.FailingSince.Equal(since) {
		t.Errorf("GET %s: %d %v %s; want lastFetchError %q since %v", path, status, err, body, cut, since)
	}
	for _, page := range []string{"/sentinels", "/sentinels/" + strconv.FormatInt(sen.ID, 10)} {
		if status, body := c.do("GET", page, ""); status != 200 || !strings.Contains(html.UnescapeString(body), cut) {
			t.Errorf("GET %s: %d, does not say %q", page, status, cut)
		}
	}

	// A failed fetch of the page, which its version tells, is the error.
	const gone = "fetch http://a.example/docs/: HTTP error status 404 Not Found"
	if _, err := w.Put(ctx, &warehouse.Fetch{URL: "http://a.example/docs/", FetchedAt: at.Add(time.Minute), Status: 404, Error: gone}); err != nil {
		t.Fatal(err)
	}
	if f, err := LastFetchError(ctx, s.Store, sen, state); err != nil || f == nil || f.Message != gone {
		t.Errorf("LastFetchError after a failed fetch: %+v, %v; want %q", f, err, gone)
	}
}

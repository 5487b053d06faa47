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

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/spec"
)

// failingURLStore is a store whose reads of the newest version of one
// URL fail, as a store that cannot be read at that moment does.
type failingURLStore struct {
	vigil.Store
	url string
}

func (s failingURLStore) LatestVersionByURL(ctx context.Context, rawURL string) (*vigil.Resource, *vigil.Version, error) {
	if rawURL == s.url {
		return nil, nil, vigil.Errorf(vigil.EINTERNAL, "read %s: disk I/O error", rawURL)
	}
	return s.Store.LatestVersionByURL(ctx, rawURL)
}

// TestFetchErrorPastUnreadablePage: a page of a sentinel that cannot be
// read (a stored URL vigil.CanonicalURL refuses, which the store answers
// EINVALID, kept as stored sentinels are; or a store read that fails)
// leaves its other pages: the last fetch error of the next one is the
// sentinel's, in the API and on the dashboard, and LastFetchError gives
// it, with the read's failure for one that failed. One such URL hid the
// failures of every page of the sentinel, and sentinel list failed whole.
func TestFetchErrorPastUnreadablePage(t *testing.T) {
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	const broken = "fetch http://a.example/: HTTP error status 404"
	for _, f := range []*warehouse.Fetch{
		{URL: "http://b.example/", FetchedAt: at, Status: 200, ContentType: "text/html", Body: []byte("<p>b</p>")},
		{URL: "http://a.example/", FetchedAt: at, Status: 404, Error: broken},
	} {
		if _, err := w.Put(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	// Checked with a good URL, stored with one CanonicalURL refuses.
	src := "Create Sentinel notalone Using http://z.example/ OR http://a.example/ Fetch 1 hour"
	parsed, err := spec.ParseSentinel("test", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ch, err := spec.NewChecker(at).Check(parsed)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(ch)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.ReplaceAll(data, []byte(`"http://z.example/"`), []byte(`"http:/z.example"`))
	notalone := &vigil.Sentinel{OwnerID: u.ID, Name: "notalone", Source: src, Spec: data, Status: vigil.SentinelActive, NextCheck: at}
	if err := s.Store.CreateSentinel(ctx, notalone); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Store.LatestVersionByURL(ctx, "http:/z.example"); vigil.ErrorCode(err) != vigil.EINVALID {
		t.Fatalf("the store's read of http:/z.example: %v, want EINVALID", err)
	}
	if f, err := LastFetchError(ctx, s.Store, notalone, SentinelState{}); err != nil || f == nil || f.Message != broken {
		t.Errorf("LastFetchError(notalone): %+v, %v; want %q, no error", f, err, broken)
	}
	c := newSignedIn(t, s, u)
	path := "/api/v1/sentinels/" + strconv.FormatInt(notalone.ID, 10)
	status, body := c.do("GET", path, "")
	var v struct{ LastFetchError string }
	if err := json.Unmarshal([]byte(body), &v); status != 200 || err != nil || v.LastFetchError != broken {
		t.Errorf("GET %s: %d %v %s; want lastFetchError %q", path, status, err, body, broken)
	}
	for _, page := range []string{"/sentinels", "/sentinels/" + strconv.FormatInt(notalone.ID, 10)} {
		if status, body := c.do("GET", page, ""); status != 200 || !strings.Contains(html.UnescapeString(body), broken) {
			t.Errorf("GET %s: %d, does not say %q", page, status, broken)
		}
	}

	// A read of b.example that fails leaves a.example's failure.
	both := createChecked(t, s, u, "Create Sentinel both Using http://b.example/ OR http://a.example/ Fetch 1 hour")
	f, err := LastFetchError(ctx, failingURLStore{s.Store, "http://b.example/"}, both, SentinelState{})
	if f == nil || f.Message != broken || err == nil || !strings.Contains(err.Error(), "disk I/O error") {
		t.Errorf("LastFetchError(both) past a failing read: %+v, %v; want %q and the read's error", f, err, broken)
	}
}

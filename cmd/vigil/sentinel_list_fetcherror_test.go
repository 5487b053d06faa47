package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
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

// TestSentinelListPastUnreadablePage: vigil sentinel list lists a store
// whose sentinel keeps a URL vigil.CanonicalURL refuses (stored
// sentinels are loaded as they are), and says the last fetch error of
// its other page below the table and in --json, exit 0. It failed
// whole, exit 2: "sentinel notalone: url "http:/z.example" has no host".
// A read of the last fetches that fails for one sentinel is said on
// standard error, naming it, and the others are listed with theirs.
func TestSentinelListPastUnreadablePage(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	st, owner, wh := listFixture(t, data, "ops@example.test")
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	const broken = "fetch http://a.example/: HTTP error status 404"
	if _, err := wh.Put(ctx, &warehouse.Fetch{URL: "http://a.example/", FetchedAt: at, Status: 404, Error: broken}); err != nil {
		t.Fatal(err)
	}
	var sens []*vigil.Sentinel
	for _, src := range []string{
		"Create Sentinel notalone Using http://z.example/ OR http://a.example/ Fetch 1 hour",
		"Create Sentinel other Using http://a.example/ Fetch 1 hour",
	} {
		name, js := checkedSpec(t, src, at)
		// Checked with a good URL, stored with one CanonicalURL refuses.
		js = bytes.ReplaceAll(js, []byte(`"http://z.example/"`), []byte(`"http:/z.example"`))
		s := &vigil.Sentinel{OwnerID: owner.ID, Name: name, Source: src, Spec: js, Status: vigil.SentinelActive, NextCheck: at}
		if err := st.CreateSentinel(ctx, s); err != nil {
			t.Fatal(err)
		}
		sens = append(sens, s)
	}

	// One sentinel's read that fails leaves the others'.
	var stderr bytes.Buffer
	failed, err := lastFetchErrors(ctx, failingURLStore{st, "http://z.example/"}, []*vigil.Sentinel{
		{Name: "unreadable", Spec: bytes.ReplaceAll(sens[1].Spec, []byte("http://a.example/"), []byte("http://z.example/"))}, sens[0], sens[1]}, nil, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if len(failed) != 3 || failed[0] != nil || failed[1] == nil || failed[1].Message != broken || failed[2] == nil || failed[2].Message != broken {
		t.Errorf("lastFetchErrors: %+v; want none for unreadable, %q for the others", failed, broken)
	}
	if e := stderr.String(); !strings.Contains(e, "vigil sentinel list: sentinel unreadable: ") || !strings.Contains(e, "read the last fetch of http://z.example/: read http://z.example/: disk I/O error") || strings.Count(e, "\n") != 1 {
		t.Errorf("lastFetchErrors said %q, want one line naming unreadable and the read's error", e)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := runVigil(t, "", "sentinel", "list", "--data", data)
	for _, name := range []string{"notalone", "other"} {
		if want := name + ": failing since 2026-03-01 12:00:00 UTC: " + broken; code != exitOK || !strings.Contains(out, want) {
			t.Errorf("sentinel list: exit %d\n%s%s\nwant exit 0 and %q", code, out, errOut, want)
		}
	}
	code, out, errOut = runVigil(t, "", "sentinel", "list", "--data", data, "--json")
	if code != exitOK || strings.Count(out, `"lastFetchError":"`+broken+`"`) != 2 {
		t.Errorf("sentinel list --json: exit %d\n%s%s\nwant exit 0 and both with lastFetchError %q", code, out, errOut, broken)
	}
}

// interruptingStore is a store interrupted during the first read of a
// version: it cancels the context and fails as a read does then.
type interruptingStore struct {
	vigil.Store
	cancel context.CancelFunc
}

func (s interruptingStore) LatestVersionByURL(ctx context.Context, rawURL string) (*vigil.Resource, *vigil.Version, error) {
	s.cancel()
	return nil, nil, fmt.Errorf("read %s: %w", rawURL, ctx.Err())
}

// TestLastFetchErrorsCancelled: a listing interrupted (its context
// cancelled), before or while it reads the last fetches, stops at once and
// returns the context's error, which main turns into exit 130, saying
// nothing on standard error: each read failed "context canceled", said a
// line on standard error, and the list went on to exit 0.
func TestLastFetchErrorsCancelled(t *testing.T) {
	st, err := openStore(context.Background(), t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var sens []*vigil.Sentinel
	for _, name := range []string{"a", "b"} {
		src := "Create Sentinel " + name + " Using http://" + name + ".example/"
		name, js := checkedSpec(t, src, time.Now())
		sens = append(sens, &vigil.Sentinel{Name: name, Source: src, Spec: js})
	}
	for _, tc := range []struct {
		name  string
		store func(cancel context.CancelFunc) vigil.Store
	}{
		{"before", func(cancel context.CancelFunc) vigil.Store { cancel(); return st }},
		{"while", func(cancel context.CancelFunc) vigil.Store { return interruptingStore{st, cancel} }},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		var stderr bytes.Buffer
		failed, err := lastFetchErrors(ctx, tc.store(cancel), sens, nil, &stderr)
		if !errors.Is(err, context.Canceled) || failed != nil || stderr.Len() != 0 {
			t.Errorf("lastFetchErrors, cancelled %s: %v, %v, said %q; want context.Canceled, nothing said", tc.name, failed, err, stderr.String())
		}
		cancel()
	}
}

package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestSentinelListBinaryPage: vigil sentinel list, with --json and
// without, says no failure of a sentinel whose page's newest version is a
// binary document (a PDF: status 200, its type, and as its error why it
// is not read with its size and digest), and says the failure of a page
// that fails beside it. Before, "binary content: application/pdf is not
// a text document (...)" was its lastFetchError.
func TestSentinelListBinaryPage(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	st, owner, wh := listFixture(t, data, "ops@example.test")
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	const why = "binary content: application/pdf is not a text document"
	const broken = "fetch http://down.example/: HTTP error status 503"
	for _, f := range []*warehouse.Fetch{
		{URL: "http://files.example/report.pdf", FetchedAt: at, Status: 200, ContentType: "application/pdf",
			Error: why + " (12345 bytes, sha256:" + strings.Repeat("cd", 32) + ")"},
		{URL: "http://down.example/", FetchedAt: at, Status: 503, Error: broken},
	} {
		if _, err := wh.Put(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	for _, src := range []string{
		"Create Sentinel report Using http://files.example/report.pdf Fetch 1 hour",
		"Create Sentinel both Using http://files.example/report.pdf OR http://down.example/ Fetch 1 hour",
	} {
		name, js := checkedSpec(t, src, at)
		s := &vigil.Sentinel{OwnerID: owner.ID, Name: name, Source: src, Spec: js, Status: vigil.SentinelActive, NextCheck: at}
		if err := st.CreateSentinel(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := runVigil(t, "", "sentinel", "list", "--data", data, "--json")
	if code != exitOK {
		t.Fatalf("sentinel list --json: exit %d\n%s%s", code, out, errOut)
	}
	got, since := map[string]string{}, map[string]time.Time{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var l struct {
			Name           string
			LastFetchError string
			FailingSince   time.Time
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("sentinel list --json: %v\n%s", err, out)
		}
		got[l.Name], since[l.Name] = l.LastFetchError, l.FailingSince
	}
	if len(got) != 2 || got["report"] != "" || got["both"] != broken || !since["report"].IsZero() || !since["both"].Equal(at) {
		t.Errorf("sentinel list --json:\n%s\nwant no lastFetchError nor failingSince for report, %q failing since %s for both", out, broken, at.Format(time.RFC3339))
	}
	code, out, errOut = runVigil(t, "", "sentinel", "list", "--data", data)
	if code != exitOK || strings.Contains(out, why) || !strings.Contains(out, "both: failing since 2026-03-01 12:00:00 UTC: "+broken) {
		t.Errorf("sentinel list: exit %d\n%s%s\nwant exit 0, both failing, and no word of the PDF as a failure", code, out, errOut)
	}
}

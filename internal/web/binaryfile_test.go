package web

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestBinaryFileIsNoFailure: a watched page whose newest version is a
// binary document (a PDF: status 200, its content type, and as its error
// why it is not read with its size and digest, as the monitor stores it)
// has not failed. Through a real server, its sentinel has no
// lastFetchError nor failingSince in the API, the dashboard shows no
// error for it, and a sentinel on it and on a page that does fail shows
// that page's failure; the page's history shows the version as the file
// it is (its type and size), not as a failed fetch, and counts no failed
// fetch in its plot, as the sentinel's page lists it; the compare form
// and the API refuse its body saying what it is, and the page of its
// change into the file is its history at the file, not a diff refused. Before,
// the binary version was taken for a failure everywhere: "binary
// content: application/pdf is not a text document (...)" was the
// sentinel's last error.
func TestBinaryFileIsNoFailure(t *testing.T) {
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	const pdf = "http://files.example/report.pdf"
	const why = "binary content: application/pdf is not a text document"
	binaryErr := why + " (12345 bytes, sha256:" + strings.Repeat("ab", 32) + ")"
	const broken = "fetch http://down.example/: HTTP error status 503"
	var file, before *vigil.Version
	for _, f := range []*warehouse.Fetch{
		{URL: pdf, FetchedAt: at.Add(-time.Hour), Status: 200, ContentType: "text/html", Body: []byte("<p>soon</p>")},
		{URL: pdf, FetchedAt: at, Status: 200, ContentType: "application/pdf", Error: binaryErr},
		{URL: "http://down.example/", FetchedAt: at, Status: 503, Error: broken},
	} {
		v, err := w.Put(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		if f.URL == pdf {
			before, file = file, v
		}
	}
	report := createChecked(t, s, u, "Create Sentinel report Using "+pdf+" Fetch 1 hour")
	both := createChecked(t, s, u, "Create Sentinel both Using "+pdf+" OR http://down.example/ Fetch 1 hour")
	c := newSignedIn(t, s, u)
	type view struct {
		LastFetchError *string
		FailingSince   *time.Time
	}
	get := func(sen *vigil.Sentinel) (view, string) {
		t.Helper()
		path := "/api/v1/sentinels/" + strconv.FormatInt(sen.ID, 10)
		status, body := c.do("GET", path, "")
		var v view
		if err := json.Unmarshal([]byte(body), &v); status != 200 || err != nil {
			t.Fatalf("GET %s: %d %v %s", path, status, err, body)
		}
		return v, body
	}
	if v, body := get(report); v.LastFetchError != nil || v.FailingSince != nil {
		t.Errorf("sentinel on a PDF: %s; want no lastFetchError nor failingSince", body)
	}
	if v, body := get(both); v.LastFetchError == nil || *v.LastFetchError != broken || v.FailingSince == nil || !v.FailingSince.Equal(at) {
		t.Errorf("sentinel on a PDF and a failing page: %s; want the failing page's lastFetchError %q", body, broken)
	}
	for _, page := range []string{"/sentinels", "/sentinels/" + strconv.FormatInt(report.ID, 10)} {
		if status, body := c.do("GET", page, ""); status != 200 || strings.Contains(html.UnescapeString(body), why) {
			t.Errorf("GET %s: %d, shows the PDF as an error: %q", page, status, why)
		}
	}

	page := "/sentinels/" + strconv.FormatInt(report.ID, 10)
	if status, body := c.do("GET", page, ""); status != 200 || !strings.Contains(html.UnescapeString(body), "(a file Vigil does not read: application/pdf, 12.1 KiB)") {
		t.Errorf("GET %s: %d, does not show its page as the PDF it is", page, status)
	}

	status, body := c.do("GET", "/resources/"+strconv.FormatInt(file.ResourceID, 10), "")
	body = html.UnescapeString(body)
	if want := "a file Vigil does not read: application/pdf, 12.1 KiB"; status != 200 || !strings.Contains(body, want) {
		t.Errorf("GET the PDF's history: %d, does not say %q", status, want)
	}
	if strings.Contains(body, "fetch failed") || strings.Contains(body, `class="failed"`) || strings.Contains(body, "1 failed fetch") {
		t.Errorf("the PDF's history shows its file as a failed fetch:\n%s", body)
	}

	page = "/resources/" + strconv.FormatInt(file.ResourceID, 10) + "/diff?from_version=1&to_version=2"
	status, body = c.do("GET", page, "")
	if want := "version #2 is a file Vigil does not read (application/pdf, 12345 bytes), which has no body to compare"; status != 400 || !strings.Contains(html.UnescapeString(body), want) {
		t.Errorf("GET %s: %d; want 400 saying %q", page, status, want)
	}
	// The change of the page into the file, as the monitor stores it:
	// its page is the history at the file, not a diff refused.
	ch := &vigil.Change{SentinelID: report.ID, ResourceID: file.ResourceID, FromVersion: before.ID, ToVersion: file.ID, DetectedAt: at,
		Summary: "the page turned into a file Vigil does not read (application/pdf, 12345 bytes)", Records: json.RawMessage("[]")}
	if err := s.Store.CreateChange(ctx, ch); err != nil {
		t.Fatal(err)
	}
	page = "/changes/" + strconv.FormatInt(ch.ID, 10)
	want := "/resources/" + strconv.FormatInt(file.ResourceID, 10) + "#version-" + strconv.FormatInt(file.ID, 10)
	if status, _ := c.do("GET", page, ""); status != http.StatusSeeOther || c.location != want {
		t.Errorf("GET %s: %d to %q; want 303 to %q", page, status, c.location, want)
	}
	path := "/api/v1/versions/" + strconv.FormatInt(file.ID, 10) + "/body"
	status, body = c.do("GET", path, "")
	if want := "version " + strconv.FormatInt(file.ID, 10) + " is a file Vigil does not read (application/pdf, 12345 bytes): its body is not kept"; status != 404 || !strings.Contains(body, want) {
		t.Errorf("GET %s: %d %s; want 404 saying %q", path, status, body, want)
	}
	// The change of the file back into a page: its page is the history
	// at the page, not a diff from the file refused.
	back, err := w.Put(ctx, &warehouse.Fetch{URL: pdf, FetchedAt: at.Add(time.Hour), Status: 200, ContentType: "text/html", Body: []byte("<p>soon</p>")})
	if err != nil {
		t.Fatal(err)
	}
	ch = &vigil.Change{SentinelID: report.ID, ResourceID: file.ResourceID, FromVersion: file.ID, ToVersion: back.ID, DetectedAt: at.Add(time.Hour),
		Summary: "the file turned back into a page", Records: json.RawMessage("[]")}
	if err := s.Store.CreateChange(ctx, ch); err != nil {
		t.Fatal(err)
	}
	page = "/changes/" + strconv.FormatInt(ch.ID, 10)
	want = "/resources/" + strconv.FormatInt(file.ResourceID, 10) + "#version-" + strconv.FormatInt(back.ID, 10)
	if status, _ := c.do("GET", page, ""); status != http.StatusSeeOther || c.location != want {
		t.Errorf("GET %s: %d to %q; want 303 to %q", page, status, c.location, want)
	}
}

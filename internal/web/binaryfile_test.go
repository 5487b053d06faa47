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

// TestAPIVersionFile: in the API's versions of a resource, and its
// version by id, the version of a binary document (a PDF) has a member
// file saying so, {"type", "size", "digest"}, that no other version has:
// neither a page nor a failed fetch, which keeps its error as before.
// The API's description documents it. Before, a client saw a version
// with no content and could not tell the file from a failure but by
// reading its error's words.
func TestAPIVersionFile(t *testing.T) {
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	const url = "http://files.example/report"
	digest := "sha256:" + strings.Repeat("ab", 32)
	const broken = "fetch http://files.example/report: HTTP error status 503"
	var vs []*vigil.Version
	for i, f := range []*warehouse.Fetch{
		{Status: 200, ContentType: "text/html", Body: []byte("<p>soon</p>")},
		{Status: 200, ContentType: "application/pdf", Error: vigil.BinaryVersionError("binary content: application/pdf is not a text document", 12345, digest)},
		{Status: 503, Error: broken},
		{Status: 200, ContentType: "image/png", Error: "binary content: image/png is not a text document"},
	} {
		f.URL, f.FetchedAt = url, at.Add(time.Duration(i)*time.Hour)
		v, err := w.Put(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
	}
	createChecked(t, s, u, "Create Sentinel report Using "+url+" Fetch 1 hour")
	c := newSignedIn(t, s, u)
	type version struct {
		ID    int64
		Error *string
		File  map[string]any
	}
	files := map[int64]string{ // the file member each version has, as JSON; "" none
		vs[1].ID: `{"digest":"` + digest + `","size":12345,"type":"application/pdf"}`,
		vs[3].ID: `{"type":"image/png"}`, // stored without its size and digest
	}
	errs := map[int64]string{vs[1].ID: vs[1].Error, vs[2].ID: broken, vs[3].ID: vs[3].Error}
	check := func(path string, v version) {
		t.Helper()
		file := ""
		if v.File != nil {
			b, err := json.Marshal(v.File)
			if err != nil {
				t.Fatal(err)
			}
			file = string(b)
		}
		if file != files[v.ID] {
			t.Errorf("GET %s: version %d has file %s; want %q", path, v.ID, file, files[v.ID])
		}
		got := ""
		if v.Error != nil {
			got = *v.Error
		}
		if got != errs[v.ID] {
			t.Errorf("GET %s: version %d has error %q; want %q", path, v.ID, got, errs[v.ID])
		}
	}
	path := "/api/v1/resources/" + strconv.FormatInt(vs[0].ResourceID, 10) + "/versions"
	status, body := c.do("GET", path, "")
	var list struct{ Items []version }
	if err := json.Unmarshal([]byte(body), &list); status != 200 || err != nil || len(list.Items) != len(vs) {
		t.Fatalf("GET %s: %d %v %s", path, status, err, body)
	}
	for _, v := range list.Items {
		check(path, v)
	}
	for _, want := range vs {
		path := "/api/v1/versions/" + strconv.FormatInt(want.ID, 10)
		status, body := c.do("GET", path, "")
		var v version
		if err := json.Unmarshal([]byte(body), &v); status != 200 || err != nil {
			t.Fatalf("GET %s: %d %v %s", path, status, err, body)
		}
		check(path, v)
	}

	// The description names the member and its three.
	var doc struct {
		Components struct {
			Schemas struct {
				Version struct {
					Properties struct {
						File *struct {
							Type       string                     `json:"type"`
							Required   []string                   `json:"required"`
							Properties map[string]json.RawMessage `json:"properties"`
						} `json:"file"`
					} `json:"properties"`
				} `json:"Version"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPI, &doc); err != nil {
		t.Fatal(err)
	}
	f := doc.Components.Schemas.Version.Properties.File
	if f == nil || f.Type != "object" || len(f.Required) != 1 || f.Required[0] != "type" || len(f.Properties) != 3 ||
		f.Properties["type"] == nil || f.Properties["size"] == nil || f.Properties["digest"] == nil {
		t.Errorf("openapi.json's Version does not describe file {type, size, digest}: %+v", f)
	}
}

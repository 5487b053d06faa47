package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
)

// TestSiteChangePageFailed: a change of a site lists a page that failed
// for a moment as failed, with why and its last version's history; it was
// shown as changed.
func TestSiteChangePageFailed(t *testing.T) {
	ctx := context.Background()
	s, ada, _, site, _, resource := siteOwners(t)
	start := resource("https://www.a.example/")
	faq := resource("https://www.a.example/faq")
	records, err := json.Marshal([]intent.Change{intent.NewPageChange(intent.Fail,
		&intent.PageInfo{URL: faq.URL, Title: "FAQ", ResourceID: faq.ID, OldVersion: 7, NewVersion: 7, Note: "HTTP 503; last read 2026-11-30T05:00:00Z, that version kept"})})
	if err != nil {
		t.Fatal(err)
	}
	c := &vigil.Change{SentinelID: site.ID, ResourceID: start.ID, ToVersion: 1, DetectedAt: time.Now().UTC(),
		Summary: "site http://a.example/: 1 page failed", Records: records}
	if err := s.Store.CreateChange(ctx, c); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	cookie, err := s.newSessionCookie(ada)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", srv.URL+"/changes/"+strconv.FormatInt(c.ID, 10), nil)
	req.AddCookie(&http.Cookie{Name: sessionCookie, Value: cookie})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	page := string(b)
	for _, want := range []string{
		`<tr class="failed">`,
		`<td>failed (HTTP 503; last read 2026-11-30T05:00:00Z, that version kept)</td>`,
		`<a href="/resources/` + strconv.FormatInt(faq.ID, 10) + `">History</a>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the change's page lacks %q:\n%s", want, page)
		}
	}
}

// TestSiteChangePageBinary: a change of a site links a changed binary
// document's two versions (a PDF: no body to diff) and says how its bytes
// changed; it linked a diff of two versions without bodies.
func TestSiteChangePageBinary(t *testing.T) {
	ctx := context.Background()
	s, ada, _, site, _, resource := siteOwners(t)
	start := resource("https://www.a.example/")
	report := resource("https://www.a.example/report.pdf")
	records, err := json.Marshal([]intent.Change{intent.NewPageChange(intent.Update,
		&intent.PageInfo{URL: report.URL, ResourceID: report.ID, OldVersion: 3, NewVersion: 8, ContentType: "application/pdf",
			Summary: "application/pdf: 10 bytes -> 12 bytes, sha256:0123456789ab… -> sha256:ba9876543210…"})})
	if err != nil {
		t.Fatal(err)
	}
	c := &vigil.Change{SentinelID: site.ID, ResourceID: start.ID, ToVersion: 1, DetectedAt: time.Now().UTC(),
		Summary: "site http://a.example/: 1 page changed", Records: records}
	if err := s.Store.CreateChange(ctx, c); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	cookie, err := s.newSessionCookie(ada)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", srv.URL+"/changes/"+strconv.FormatInt(c.ID, 10), nil)
	req.AddCookie(&http.Cookie{Name: sessionCookie, Value: cookie})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	page := string(b)
	history := "/resources/" + strconv.FormatInt(report.ID, 10)
	for _, want := range []string{
		`<td>changed: application/pdf: 10 bytes -&gt; 12 bytes, sha256:0123456789ab… -&gt; sha256:ba9876543210…</td>`,
		`<a href="` + history + `#version-3">Before</a> · <a href="` + history + `#version-8">After</a>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the change's page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "/diff?") {
		t.Errorf("the change's page links a diff of a PDF's versions:\n%s", page)
	}
}

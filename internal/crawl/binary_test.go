package crawl_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/webtable"
)

// binarySite is a site of a page linking to a PDF and an image, served
// without Last-Modified unless dates are given.
type binarySite struct {
	site *crawltest.Site
	q    crawl.Query
}

func newBinarySite(t *testing.T) *binarySite {
	s := &binarySite{site: crawltest.NewSite(t, nil)}
	s.q = crawl.Query{Start: s.site.URL("/"), MaxDepth: 1, MaxPages: 10, Bodies: true}
	return s
}

// serve sets the site's files: the home page, the PDF that run writes and
// the image; with date, each is served with it as Last-Modified.
func (s *binarySite) serve(run crawltest.PDFRun, image []byte, date time.Time) {
	files := crawltest.Release{
		"/index.html": []byte(`<!doctype html><title>Docs</title><a href="report.pdf">Report</a> <a href="logo.png">Logo</a>`),
		"/report.pdf": crawltest.PDF(run),
		"/logo.png":   image,
	}
	var dates map[string]time.Time
	if !date.IsZero() {
		dates = map[string]time.Time{"/index.html": date, "/report.pdf": date, "/logo.png": date}
	}
	s.site.Set(files, dates)
}

// asBefore returns snap as a crawl before binary documents were hashed
// wrote it: its binary leaves without hash and size, their version their
// Last-Modified date or none.
func asBefore(t *testing.T, snap *crawl.Snapshot) *crawl.Snapshot {
	t.Helper()
	var b bytes.Buffer
	if err := snap.Encode(&b); err != nil {
		t.Fatal(err)
	}
	old, err := crawl.Decode(&b, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range old.Pages {
		if p.ContentType == "application/pdf" || p.ContentType == "image/png" {
			p.Hash, p.Size, p.DigestNote = "", 0, ""
			if p.VersionKind == crawl.VersionContentHash {
				p.Version, p.VersionKind = "", ""
			}
		}
	}
	if err := old.Validate(); err != nil {
		t.Fatalf("the snapshot as before: %v", err)
	}
	return old
}

// modified returns the paths of the pages a site diff of prev and cur
// adds, deletes or modifies, each with a sign (+, -, ~).
func modified(t *testing.T, prev, cur *crawl.Snapshot, by crawl.Identity, srvURL string) []string {
	t.Helper()
	w1, err := prev.TableAgainst(cur, by)
	if err != nil {
		t.Fatal(err)
	}
	w2, err := cur.TableAgainst(prev, by)
	if err != nil {
		t.Fatal(err)
	}
	d, err := webtable.Diff(w1, w2, &webtable.Options{Strict: true, Cover: true, Complete: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, set := range []struct {
		sign string
		ids  []webtable.NodeID
	}{{"+", d.Added}, {"-", d.Deleted}, {"~", d.Modified}} {
		for _, id := range set.ids {
			out = append(out, set.sign+strings.TrimPrefix(string(id), srvURL))
		}
	}
	slices.Sort(out)
	return out
}

var (
	pngA = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")
	pngB = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x02\x00\x00\x00\x02\x08\x06\x00\x00\x00\x72\xb6\x0d\x24")
)

// TestBinaryLeafVersions: a PDF and an image served without Last-Modified
// have their content's hash as their version, and size, through a real
// fetcher on loopback; two crawls tell a PDF generated again (new dates,
// /ID, XMP) unchanged, a PDF with a new page text or an image replaced
// modified, by content and by date. A crawl of before, whose binary
// leaves have no hash, shows no binary changed against a new one, as it
// could not tell, but for a Last-Modified date that changed, as before.
func TestBinaryLeafVersions(t *testing.T) {
	first, second := crawltest.FirstPDFRun(), crawltest.SecondPDFRun()
	rewritten := second
	rewritten.Text = "Hello, World"
	day1, day2 := time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC), time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name          string
		run           crawltest.PDFRun
		image         []byte
		date1, date2  time.Time
		byContent     []string // against the crawl before, by content
		byDate        []string // and by date
		againstBefore []string // against the crawl before, as a Vigil before this wrote it
	}{
		{"PDF generated again", second, pngA, time.Time{}, time.Time{}, nil, nil, nil},
		{"PDF with a new text", rewritten, pngA, time.Time{}, time.Time{}, []string{"~/report.pdf"}, []string{"~/report.pdf"}, nil},
		{"image replaced", first, pngB, time.Time{}, time.Time{}, []string{"~/logo.png"}, []string{"~/logo.png"}, nil},
		{"dated, generated again, new date", second, pngA, day1, day2, nil,
			[]string{"~/", "~/logo.png", "~/report.pdf"}, []string{"~/logo.png", "~/report.pdf"}},
		{"dated, image replaced, same date", first, pngB, day1, day1, []string{"~/logo.png"}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newBinarySite(t)
			s.serve(first, pngA, tc.date1)
			prev := crawlSite(t, loopbackFetcher(), s.q)
			s.serve(tc.run, tc.image, tc.date2)
			cur := crawlSite(t, loopbackFetcher(), s.q)
			for _, snap := range []*crawl.Snapshot{prev, cur} {
				for _, p := range snap.Pages[1:] {
					want := crawl.VersionContentHash
					if !tc.date1.IsZero() {
						want = crawl.VersionLastModified
					}
					if p.Failed() || p.Hash == "" || p.Size == 0 || p.Body != "" || p.VersionKind != want ||
						want == crawl.VersionContentHash && p.Version != p.Hash {
						t.Errorf("%s: %+v; want a hash, a size, no body and a version of kind %s", p.URL, p, want)
					}
				}
			}
			if got := modified(t, prev, cur, crawl.ByContent, s.site.Srv.URL); !slices.Equal(got, tc.byContent) {
				t.Errorf("by content: %q, want %q", got, tc.byContent)
			}
			if got := modified(t, prev, cur, crawl.ByDate, s.site.Srv.URL); !slices.Equal(got, tc.byDate) {
				t.Errorf("by date: %q, want %q", got, tc.byDate)
			}
			if got := modified(t, asBefore(t, prev), cur, crawl.ByContent, s.site.Srv.URL); !slices.Equal(got, tc.againstBefore) {
				t.Errorf("against a crawl of before: %q, want %q", got, tc.againstBefore)
			}
			if got := modified(t, asBefore(t, prev), asBefore(t, cur), crawl.ByContent, s.site.Srv.URL); !slices.Equal(got, tc.againstBefore) {
				t.Errorf("two crawls of before: %q, want %q", got, tc.againstBefore)
			}
		})
	}
}

// TestCarryBinaryLeaf: a PDF and an image failing for a moment (503) in a
// crawl with bodies are carried over from the crawl before, as a text
// page is: their hash is their digest, of a body never kept, not a sign
// that the crawl before kept no bodies.
func TestCarryBinaryLeaf(t *testing.T) {
	s := newBinarySite(t)
	s.serve(crawltest.FirstPDFRun(), pngA, time.Time{})
	prev := crawlSite(t, loopbackFetcher(), s.q)
	s.site.Mu.Lock()
	s.site.Failing = map[string]int{"/report.pdf": 503, "/logo.png": 503}
	s.site.Mu.Unlock()
	cur := crawlSite(t, loopbackFetcher(), s.q)
	carried, err := crawl.Carry(prev, cur)
	if err != nil {
		t.Fatalf("Carry: %v", err)
	}
	for _, path := range []string{"/report.pdf", "/logo.png"} {
		before, p := prev.Page(s.site.URL(path)), carried.Page(s.site.URL(path))
		if p == nil || p.Failed() || p.Carried == nil || p.Hash != before.Hash || p.Size != before.Size || p.Body != "" {
			t.Errorf("%s: %+v; want it carried over with its hash %s and size %d", path, p, before.Hash, before.Size)
		}
	}
	if got := modified(t, prev, carried, crawl.ByContent, s.site.Srv.URL); len(got) != 0 {
		t.Errorf("against the crawl before: %q, want no change", got)
	}
}

// TestGeneratedImage: a chart drawn anew at each request, a PNG whose
// tIME and date:create are the moment of the request, served without
// Last-Modified by a real server on loopback, is no change at the next
// crawl (imagedigest), though its bytes are new; the same chart with a
// pixel changed is modified.
func TestGeneratedImage(t *testing.T) {
	var mu sync.Mutex
	requests, changed := 0, false
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><title>Stats</title><img src="chart.png" alt="Visits"> <a href="chart.png">Chart</a>`))
	})
	var bodies [][]byte
	mux.HandleFunc("GET /chart.png", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests++
		at := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC).Add(time.Duration(requests) * 97 * time.Minute)
		body := crawltest.ChartPNG(at, changed)
		bodies = append(bodies, body)
		mu.Unlock()
		w.Header().Set("Content-Type", "image/png")
		w.Write(body)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	q := crawl.Query{Start: srv.URL + "/", MaxDepth: 1, MaxPages: 10, Bodies: true}

	prev := crawlSite(t, loopbackFetcher(), q)
	cur := crawlSite(t, loopbackFetcher(), q)
	if len(bodies) != 2 || bytes.Equal(bodies[0], bodies[1]) {
		t.Fatalf("the chart was served %d times, its bytes the same: the case tests nothing", len(bodies))
	}
	for i, snap := range []*crawl.Snapshot{prev, cur} {
		p := snap.Page(srv.URL + "/chart.png")
		if p == nil || p.Failed() || p.Hash == "" || p.Hash == "sha256:"+sha256Hex(bodies[i]) || p.VersionKind != crawl.VersionContentHash {
			t.Fatalf("chart: %+v; want a hash of its pixels, not of its bytes, as its version", p)
		}
	}
	if got := modified(t, prev, cur, crawl.ByContent, srv.URL); len(got) != 0 {
		t.Errorf("the chart drawn again: %q, want no change", got)
	}
	mu.Lock()
	changed = true
	mu.Unlock()
	next := crawlSite(t, loopbackFetcher(), q)
	if got, want := modified(t, cur, next, crawl.ByContent, srv.URL), []string{"~/chart.png"}; !slices.Equal(got, want) {
		t.Errorf("the chart with a pixel changed: %q, want %q", got, want)
	}
}

// sha256Hex returns the SHA-256 of b in hexadecimal.
func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TestBinaryLeafDigestNote: a PDF hashed as its bytes (here one that does
// not parse, its date new at every run) keeps why in its DigestNote,
// through a real fetcher on loopback and a snapshot's JSON; it is a
// change at every crawl, as its bytes are, and the note is none: a crawl
// whose page has no note (a Vigil before notes were kept) against one
// whose page has it, of the same bytes, shows no change.
func TestBinaryLeafDigestNote(t *testing.T) {
	unparsed := func(date string) []byte {
		return []byte("%PDF-1.4\n1 0 obj\n<< /CreationDate (D:" + date + ") /Title (open >>\nendobj\n")
	}
	s := newBinarySite(t)
	serve := func(pdf []byte) {
		s.site.Set(crawltest.Release{
			"/index.html": []byte(`<!doctype html><title>Docs</title><a href="report.pdf">Report</a> <a href="logo.png">Logo</a>`),
			"/report.pdf": pdf,
			"/logo.png":   crawltest.ChartPNG(time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC), false), // an image read
		}, nil)
	}
	serve(unparsed("20240101"))
	prev := crawlSite(t, loopbackFetcher(), s.q)
	serve(unparsed("20251130093015"))
	cur := crawlSite(t, loopbackFetcher(), s.q)
	again := crawlSite(t, loopbackFetcher(), s.q)
	at := strings.Index(string(unparsed("x")), "(open")
	want := fmt.Sprintf(`hashed as bytes: pdf syntax at byte %d: a string that does not end: expected ")"`, at+len("20240101")-1)
	if p := prev.Page(s.site.URL("/report.pdf")); p == nil || p.DigestNote != want {
		t.Errorf("report.pdf: %+v; want the note %q", p, want)
	}
	for _, path := range []string{"/", "/logo.png"} {
		if p := cur.Page(s.site.URL(path)); p == nil || p.DigestNote != "" {
			t.Errorf("%s: %+v; want no digest note", path, p)
		}
	}
	var b bytes.Buffer
	if err := cur.Encode(&b); err != nil {
		t.Fatal(err)
	}
	back, err := crawl.Decode(&b, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p := back.Page(s.site.URL("/report.pdf")); p.DigestNote == "" || p.DigestNote != cur.Page(s.site.URL("/report.pdf")).DigestNote {
		t.Errorf("decoded: %+v, want the note kept", p)
	}
	if got := modified(t, prev, cur, crawl.ByContent, s.site.Srv.URL); !slices.Equal(got, []string{"~/report.pdf"}) {
		t.Errorf("a new date: %q, want the PDF changed", got)
	}
	if got := modified(t, cur, again, crawl.ByContent, s.site.Srv.URL); len(got) != 0 {
		t.Errorf("the same bytes: %q, want no change", got)
	}
	for _, p := range back.Pages {
		p.DigestNote = ""
	}
	if got := modified(t, back, again, crawl.ByContent, s.site.Srv.URL); len(got) != 0 {
		t.Errorf("the same bytes, a note in one crawl only: %q, want no change", got)
	}
}

// TestBinaryLeafDigestKinds: a PDF and an image are compared only where
// both crawls took their digests alike: against a crawl whose Vigil
// hashed them another way (their bytes, or an earlier revision of what a
// digest leaves out, "sha256:"), a crawl reports neither changed, as it
// cannot tell; against one of the same kind, a digest that differs is a
// change.
func TestBinaryLeafDigestKinds(t *testing.T) {
	s := newBinarySite(t)
	s.serve(crawltest.FirstPDFRun(), crawltest.ChartPNG(time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC), false), time.Time{})
	cur := crawlSite(t, loopbackFetcher(), s.q)
	kinds := map[string]string{"/report.pdf": "pdf3-sha256:", "/logo.png": "image1-sha256:"}
	for path, kind := range kinds {
		if p := cur.Page(s.site.URL(path)); p == nil || !strings.HasPrefix(p.Hash, kind) {
			t.Fatalf("%s: %+v; want a hash of kind %s", path, p, kind)
		}
	}
	// rehashed returns cur with its binary leaves' hashes (and versions)
	// replaced by another digest of the kind prefix.
	rehashed := func(prefix string) *crawl.Snapshot {
		var b bytes.Buffer
		if err := cur.Encode(&b); err != nil {
			t.Fatal(err)
		}
		snap, err := crawl.Decode(&b, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range snap.Pages {
			if kinds[strings.TrimPrefix(p.URL, s.site.Srv.URL)] != "" {
				p.Hash = prefix + strings.Repeat("0", 64)
				p.Version = p.Hash
			}
		}
		if err := snap.Validate(); err != nil {
			t.Fatal(err)
		}
		return snap
	}
	if got := modified(t, rehashed("sha256:"), cur, crawl.ByContent, s.site.Srv.URL); len(got) != 0 {
		t.Errorf("against digests of another kind: %q, want no change", got)
	}
	// pdf2-sha256: hashed a reference with its white space ("1  0 R").
	if got := modified(t, rehashed("pdf2-sha256:"), cur, crawl.ByContent, s.site.Srv.URL); slices.Contains(got, "~/report.pdf") {
		t.Errorf("against a PDF digest of the revision before: %q, want the PDF not modified", got)
	}
	if got := modified(t, rehashed("pdf3-sha256:"), cur, crawl.ByContent, s.site.Srv.URL); !slices.Equal(got, []string{"~/report.pdf"}) {
		t.Errorf("against other digests (the image's of another kind, the PDF's of its own): %q, want the PDF modified", got)
	}
}

// TestBinaryLeafDigestKindChanged: a PDF or an image that this Vigil
// digested at one crawl and hashes as its bytes at the next, because it
// changed (a PDF that no longer parses or needs a password now, an image
// cut short; its DigestNote says why), or that became a document of
// another type, is a change: the kinds of the two hashes differ because
// the document did, not the Vigil that took them.
func TestBinaryLeafDigestKindChanged(t *testing.T) {
	s := newBinarySite(t)
	chart := crawltest.ChartPNG(time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC), false)
	s.serve(crawltest.FirstPDFRun(), chart, time.Time{})
	prev := crawlSite(t, loopbackFetcher(), s.q)
	s.site.Set(crawltest.Release{
		"/index.html": []byte(`<!doctype html><title>Docs</title><a href="report.pdf">Report</a> <a href="logo.png">Logo</a>`),
		"/report.pdf": []byte("%PDF-1.4\n1 0 obj\n<< /Title (open >>\nendobj\n"),
		"/logo.png":   chart[:len(chart)-12], // no IEND
	}, nil)
	cur := crawlSite(t, loopbackFetcher(), s.q)
	for _, path := range []string{"/report.pdf", "/logo.png"} {
		if p := cur.Page(s.site.URL(path)); p == nil || !strings.HasPrefix(p.Hash, "sha256:") || p.DigestNote == "" {
			t.Fatalf("%s: %+v; want its bytes hashed, with a note", path, p)
		}
	}
	want := []string{"~/logo.png", "~/report.pdf"}
	if got := modified(t, prev, cur, crawl.ByContent, s.site.Srv.URL); !slices.Equal(got, want) {
		t.Errorf("digested, then hashed as bytes: %q, want %q", got, want)
	}
	if got := modified(t, cur, prev, crawl.ByContent, s.site.Srv.URL); !slices.Equal(got, want) {
		t.Errorf("hashed as bytes, then digested: %q, want %q", got, want)
	}
	// Digested by the digest's revision before (pdf2-sha256:), then
	// hashed as bytes with a note by this Vigil: the note may be this
	// Vigil's stricter reading (a /Perms it checks), not the document's
	// change, so the hashes cannot tell.
	older := asType(t, prev, "/report.pdf", "application/pdf")
	op := older.Page(s.site.URL("/report.pdf"))
	op.Hash = "pdf2-sha256:" + strings.TrimPrefix(op.Hash, "pdf3-sha256:")
	op.Version = op.Hash
	if got := modified(t, older, cur, crawl.ByContent, s.site.Srv.URL); slices.Contains(got, "~/report.pdf") {
		t.Errorf("digested by the revision before, then hashed as bytes: %q, want the PDF not modified", got)
	}
	// The PDF replaced by a document of another type at the same URL,
	// hashed as its bytes without a note.
	other := asType(t, cur, "/report.pdf", "application/zip")
	other.Page(s.site.URL("/report.pdf")).DigestNote = ""
	if got := modified(t, prev, other, crawl.ByContent, s.site.Srv.URL); !slices.Contains(got, "~/report.pdf") {
		t.Errorf("a PDF, then a ZIP: %q, want the report changed", got)
	}
	// A digest "sha256:" noted as taken in part (a Vigil before kinds
	// were named: its digest, not the bytes) is no document changed.
	before := asType(t, prev, "/report.pdf", "application/pdf")
	p := before.Page(s.site.URL("/report.pdf"))
	p.Hash = "sha256:" + strings.TrimPrefix(p.Hash, "pdf3-sha256:")
	p.Version, p.DigestNote = p.Hash, "hashed in part as bytes: object stream 8 0: filter /JBIG2Decode not decoded"
	if got := modified(t, before, prev, crawl.ByContent, s.site.Srv.URL); len(got) != 0 {
		t.Errorf("a digest noted in part, of another kind: %q, want no change", got)
	}
}

// asType returns a copy of snap with the content type of the page at
// path set to typ.
func asType(t *testing.T, snap *crawl.Snapshot, path, typ string) *crawl.Snapshot {
	t.Helper()
	var b bytes.Buffer
	if err := snap.Encode(&b); err != nil {
		t.Fatal(err)
	}
	c, err := crawl.Decode(&b, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range c.Pages {
		if strings.HasSuffix(p.URL, path) {
			p.ContentType = typ
		}
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	return c
}

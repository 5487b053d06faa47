package crawl_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
)

var update = flag.Bool("update", false, "rewrite testdata/example.json")

const exampleFile = "testdata/example.json"

// example is a small snapshot with a page of each kind: read, with a date
// or a hash for its version, failed, a binary leaf; and a redirect.
func example() *crawl.Snapshot {
	home := "<!doctype html><title>Docs</title><a href=guide.html>Guide</a> <a href=start.html>Start</a> <a href=old.html>Old</a> <a href=logo.png>Logo</a>"
	guide := "<!doctype html><title>Guide</title><a href=./>Home</a>"
	return &crawl.Snapshot{
		Format: crawl.Format,
		Query: crawl.Query{Start: "https://example.org/docs/", Scope: []string{"https://example.org/docs/"},
			MaxDepth: 3, MaxPages: 500, Bodies: true},
		Started:  time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC),
		Finished: time.Date(2026, 11, 29, 10, 0, 2, 500e6, time.UTC),
		Pages: []*crawl.Page{
			{URL: "https://example.org/docs/", Depth: 0, Status: 200, ContentType: "text/html", Title: "Docs",
				Version: "2026-11-01T08:00:00Z", VersionKind: crawl.VersionLastModified, Hash: hashOf([]byte(home)), Size: int64(len(home)),
				Links: []crawl.Link{{Target: "https://example.org/docs/guide.html", Label: "Guide"}, {Target: "https://example.org/docs/guide.html", Label: "Start"},
					{Target: "https://example.org/docs/old.html", Label: "Old"}, {Target: "https://example.org/docs/logo.png", Label: "Logo"}},
				Body: home, Importance: 0.394},
			{URL: "https://example.org/docs/guide.html", Depth: 1, Status: 200, ContentType: "text/html", Title: "Guide",
				Version: hashOf([]byte(guide)), VersionKind: crawl.VersionContentHash, Hash: hashOf([]byte(guide)), Size: int64(len(guide)),
				Links: []crawl.Link{{Target: "https://example.org/docs/", Label: "Home"}}, Body: guide, Importance: 0.398},
			{URL: "https://example.org/docs/old.html", Depth: 1, Status: 404,
				Error: "fetch https://example.org/docs/old.html: HTTP error status 404 Not Found", Importance: 0.104},
			{URL: "https://example.org/docs/logo.png", Depth: 1, Status: 200, ContentType: "image/png",
				Version: "2025-06-30T23:59:59Z", VersionKind: crawl.VersionLastModified, Importance: 0.104},
		},
		Redirects: []crawl.Redirect{{From: "https://example.org/docs/start.html", To: "https://example.org/docs/guide.html"}},
		Sites:     []crawl.Site{{Origin: "https://example.org", Pages: 4, Importance: 1}},
	}
}

// TestExample: the example snapshot is valid and encodes as
// testdata/example.json (go test -update rewrites it), which decodes back
// to it.
func TestExample(t *testing.T) {
	var b bytes.Buffer
	if err := example().Encode(&b); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(exampleFile, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Fatalf("example encodes as\n%s\nnot as %s (go test -update rewrites it)", b.Bytes(), exampleFile)
	}
	s, err := crawl.Decode(bytes.NewReader(want), 0)
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := s.Encode(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), want) {
		t.Errorf("decoded and encoded again:\n%s", again.Bytes())
	}
	if st := s.Stats(); st != (crawl.Stats{Pages: 4, Failures: 1, Links: 5, Redirects: 1}) {
		t.Errorf("stats %+v", st)
	}
}

// TestDecodeBinaryLeafHash: a binary leaf's hash and size, its digest of
// a body not kept, are valid in a snapshot with bodies, as the version a
// content hash is without Last-Modified, and so is the note of why it was
// hashed as its bytes (DigestNote).
func TestDecodeBinaryLeafHash(t *testing.T) {
	const digest = "sha256:4ffd8bb30991e3a6f28d1d03f1aedcd02ccf8e0cc16bb9e969e7bc2bda1ddf03"
	for _, tc := range []struct {
		name          string
		version, kind string
	}{
		{"dated", "2025-06-30T23:59:59Z", string(crawl.VersionLastModified)},
		{"content hash", digest, string(crawl.VersionContentHash)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap := example()
			logo := snap.Pages[3]
			logo.Hash, logo.Size, logo.Version, logo.VersionKind = digest, 33, tc.version, crawl.VersionKind(tc.kind)
			logo.DigestNote = "hashed as bytes: pdf encrypted: it opens with a user password only"
			var b bytes.Buffer
			if err := snap.Encode(&b); err != nil {
				t.Fatal(err)
			}
			back, err := crawl.Decode(&b, 0)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if p := back.Pages[3]; p.Hash != digest || p.Size != 33 || p.Body != "" || p.DigestNote != logo.DigestNote {
				t.Errorf("decoded %+v", p)
			}
		})
	}
}

// TestDecodeErrors: a snapshot that breaks a rule is refused with an
// EINVALID error that names the page and the field.
func TestDecodeErrors(t *testing.T) {
	good, err := os.ReadFile(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	// edit changes the example as generic JSON.
	edit := func(f func(m map[string]any)) []byte {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	page := func(m map[string]any, i int) map[string]any { return m["pages"].([]any)[i].(map[string]any) }
	query := func(m map[string]any) map[string]any { return m["query"].(map[string]any) }
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "snapshot: empty input"},
		{"syntax", []byte(`{"format": "vigil-site-snapshot/2",}`), "snapshot: invalid JSON at byte 36: invalid character '}' looking for beginning of object key string"},
		// cut short: where, as a syntax error says where
		{"truncated", good[:len(good)/2], fmt.Sprintf("snapshot: unexpected end of input at byte %d: the file is cut short", len(good)/2)},
		{"after", append(append([]byte{}, good...), []byte(`{}`)...), "snapshot: data after the snapshot at byte"},
		{"array", []byte(`[]`), "snapshot: the snapshot: a JSON array where an object belongs"},
		{"unknown field", edit(func(m map[string]any) { page(m, 1)["colour"] = "red" }), `snapshot: json: unknown field "colour"`},
		{"type", edit(func(m map[string]any) { page(m, 2)["depth"] = "one" }), "snapshot: pages.depth: a JSON string where an integer belongs"},
		{"time", edit(func(m map[string]any) { m["started"] = "yesterday" }), `snapshot: started: parsing time "yesterday"`},
		{"format", edit(func(m map[string]any) { m["format"] = "vigil-site-snapshot/5" }), `snapshot: format: "vigil-site-snapshot/5", want "vigil-site-snapshot/4" (or the older "vigil-site-snapshot/3", "vigil-site-snapshot/2" or "vigil-site-snapshot/1")`},
		{"momentary in format 3", edit(func(m map[string]any) { m["format"] = crawl.FormatV3; page(m, 2)["momentary"] = true }), `snapshot: page 3 (https://example.org/docs/old.html): momentary: not in format "vigil-site-snapshot/3"`},
		{"momentary read", edit(func(m map[string]any) { page(m, 1)["momentary"] = true }), `snapshot: page 2 (https://example.org/docs/guide.html): momentary: only a page that failed`},
		{"carried in format 3", edit(func(m map[string]any) {
			m["format"] = crawl.FormatV3
			page(m, 1)["carried"] = map[string]any{"status": 503, "error": "HTTP 503", "read": "2026-11-29T09:00:00Z", "since": "2026-11-29T10:00:00Z", "crawls": 1}
		}), `snapshot: page 2 (https://example.org/docs/guide.html): carried: not in format "vigil-site-snapshot/3"`},
		{"carried start", edit(func(m map[string]any) {
			page(m, 0)["carried"] = map[string]any{"status": 503, "error": "HTTP 503", "read": "2026-11-29T09:00:00Z", "since": "2026-11-29T10:00:00Z", "crawls": 1}
		}), `snapshot: page 1 (https://example.org/docs/): carried: the start page is never carried over`},
		{"carried too often", edit(func(m map[string]any) {
			page(m, 1)["carried"] = map[string]any{"status": 503, "error": "HTTP 503", "read": "2026-11-29T09:00:00Z", "since": "2026-11-29T10:00:00Z", "crawls": 4}
		}), `snapshot: page 2 (https://example.org/docs/guide.html): carried: crawls: 4, want 1 to 3`},
		{"carried too long", edit(func(m map[string]any) {
			page(m, 1)["carried"] = map[string]any{"status": 503, "error": "HTTP 503", "read": "2026-11-28T08:00:00Z", "since": "2026-11-28T09:00:00Z", "crawls": 1}
		}), `snapshot: page 2 (https://example.org/docs/guide.html): carried: since: 2026-11-28T09:00:00Z, more than 24h0m0s before started 2026-11-29T10:00:00Z`},
		{"carried read after", edit(func(m map[string]any) {
			page(m, 1)["carried"] = map[string]any{"status": 503, "error": "HTTP 503", "read": "2026-11-29T10:00:00Z", "since": "2026-11-29T10:00:00Z", "crawls": 1}
		}), `snapshot: page 2 (https://example.org/docs/guide.html): carried: read: 2026-11-29T10:00:00Z, want a time before since 2026-11-29T10:00:00Z`},
		{"carried failed", edit(func(m map[string]any) {
			page(m, 2)["carried"] = map[string]any{"status": 503, "error": "HTTP 503", "read": "2026-11-29T09:00:00Z", "since": "2026-11-29T10:00:00Z", "crawls": 1}
		}), `snapshot: page 3 (https://example.org/docs/old.html): carried: a page carried over is its last good read, without an error`},
		{"carried unlinked", edit(func(m map[string]any) {
			page(m, 3)["carried"] = map[string]any{"read": "2026-11-29T09:00:00Z", "since": "2026-11-29T10:00:00Z", "crawls": 1}
		}), `snapshot: page 4 (https://example.org/docs/logo.png): carried: not fetched, but no page carried at depth 0 links to it`},
		{"start", edit(func(m map[string]any) { query(m)["start"] = "ftp://example.org/" }), `snapshot: query: start: url "ftp://example.org/": scheme must be http or https`},
		{"start form", edit(func(m map[string]any) { query(m)["start"] = "HTTPS://example.org/docs/" }), `snapshot: query: start: "HTTPS://example.org/docs/" is not in canonical form ("https://example.org/docs/")`},
		{"no scope", edit(func(m map[string]any) { query(m)["scope"] = []any{} }), "snapshot: query: scope: empty"},
		{"match", edit(func(m map[string]any) { query(m)["match"] = "(" }), "snapshot: query: match: error parsing regexp"},
		{"max pages", edit(func(m map[string]any) { query(m)["maxPages"] = 3 }), "snapshot: pages: 4 pages fetched, more than query.maxPages 3"},
		{"finished", edit(func(m map[string]any) { m["finished"] = "2026-11-29T09:00:00Z" }), "snapshot: finished: 2026-11-29T09:00:00Z is before started 2026-11-29T10:00:00Z"},
		{"no pages", edit(func(m map[string]any) { m["pages"] = []any{} }), "snapshot: pages: none"},
		{"null page", edit(func(m map[string]any) { m["pages"].([]any)[3] = nil }), "snapshot: page 4: null"},
		{"url", edit(func(m map[string]any) { page(m, 1)["url"] = "https://example.org/docs/guide.html#top" }), `snapshot: page 2: url: "https://example.org/docs/guide.html#top" is not in canonical form`},
		{"duplicate", edit(func(m map[string]any) { page(m, 3)["url"] = "https://example.org/docs/old.html" }), "snapshot: page 4: url: https://example.org/docs/old.html is already page 3"},
		{"scope", edit(func(m map[string]any) { page(m, 3)["url"] = "https://example.org/logo.png" }), "snapshot: page 4: url: https://example.org/logo.png is out of the query's scope"},
		{"first depth", edit(func(m map[string]any) { page(m, 0)["depth"] = 1 }), "snapshot: page 1 (https://example.org/docs/): depth: 1, but the first page is the start page"},
		{"depth 0", edit(func(m map[string]any) { page(m, 1)["depth"] = 0 }), "snapshot: page 2 (https://example.org/docs/guide.html): depth: 0, but only the first page"},
		{"too deep", edit(func(m map[string]any) { page(m, 3)["depth"] = 4 }), "depth: 4, deeper than query.maxDepth 3"},
		{"order", edit(func(m map[string]any) { page(m, 2)["depth"] = 2 }), "snapshot: page 4 (https://example.org/docs/logo.png): depth: 1 after a page at depth 2: pages are in the order of discovery"},
		{"status", edit(func(m map[string]any) { page(m, 2)["status"] = 1000 }), "page 3 (https://example.org/docs/old.html): status: 1000 is not an HTTP status"},
		{"status ok", edit(func(m map[string]any) { delete(page(m, 2), "error") }), "page 3 (https://example.org/docs/old.html): status: 404 without an error"},
		{"hash", edit(func(m map[string]any) { page(m, 1)["hash"] = "md5:00" }), `page 2 (https://example.org/docs/guide.html): hash: "md5:00" is not "sha256:" (or a digest's kind, as "pdf3-sha256:") and 64 lower-case hex digits`},
		{"size", edit(func(m map[string]any) { page(m, 3)["size"] = 10 }), "page 4 (https://example.org/docs/logo.png): size: 10 without a hash"},
		{"negative size", edit(func(m map[string]any) { page(m, 1)["size"] = -1 }), "size: -1 is negative"},
		{"version kind", edit(func(m map[string]any) { page(m, 1)["versionKind"] = "etag" }), `page 2 (https://example.org/docs/guide.html): versionKind: "etag", want "last-modified" or "content-hash"`},
		{"version date", edit(func(m map[string]any) { page(m, 0)["version"] = "Sun, 01 Nov 2026 08:00:00 GMT" }), `page 1 (https://example.org/docs/): version: "Sun, 01 Nov 2026 08:00:00 GMT" is not an RFC 3339 date`},
		{"version hash", edit(func(m map[string]any) { page(m, 1)["version"] = page(m, 0)["hash"] }), "page 2 (https://example.org/docs/guide.html): version: \"sha256:"},
		{"version without kind", edit(func(m map[string]any) { page(m, 2)["version"] = "x" }), `page 3 (https://example.org/docs/old.html): versionKind: missing for version "x"`},
		{"body", edit(func(m map[string]any) { page(m, 1)["body"] = "changed" }), "page 2 (https://example.org/docs/guide.html): body: 7 bytes, but size is"},
		{"body hash", edit(func(m map[string]any) {
			b := []byte(page(m, 1)["body"].(string))
			b[0] = 'X'
			page(m, 1)["body"] = string(b)
		}), "page 2 (https://example.org/docs/guide.html): body: its hash is sha256:"},
		{"binary body", edit(func(m map[string]any) { page(m, 3)["body"] = "\x89PNG" }), "page 4 (https://example.org/docs/logo.png): body: present on a binary document (image/png), whose body is not kept"},
		{"body without bodies", edit(func(m map[string]any) { delete(query(m), "bodies") }), "page 1 (https://example.org/docs/): body: present, but query.bodies is false"},
		{"failed links", edit(func(m map[string]any) {
			page(m, 2)["links"] = []any{map[string]any{"target": "https://example.org/docs/"}}
		}), "page 3 (https://example.org/docs/old.html): links: a page that failed has no links"},
		{"blocked read", edit(func(m map[string]any) { page(m, 1)["blocked"] = true }), "page 2 (https://example.org/docs/guide.html): blocked: a page robots.txt blocked has an error and no status"},
		{"note", edit(func(m map[string]any) { page(m, 1)["note"] = "odd" }), `page 2 (https://example.org/docs/guide.html): note: "odd" does not begin with "read as text: "`},
		{"failed note", edit(func(m map[string]any) { page(m, 2)["note"] = "read as text: x" }), "page 3 (https://example.org/docs/old.html): note: a page that failed has no note"},
		{"note title", edit(func(m map[string]any) { page(m, 1)["note"] = "read as text: x" }), "page 2 (https://example.org/docs/guide.html): note: a page read as text has no title"},
		{"digest note on a page", edit(func(m map[string]any) { page(m, 1)["digestNote"] = "hashed as bytes: x" }),
			"page 2 (https://example.org/docs/guide.html): digestNote: on a page that is no binary document hashed"},
		{"digest note without hash", edit(func(m map[string]any) { page(m, 3)["digestNote"] = "hashed as bytes: x" }),
			"page 4 (https://example.org/docs/logo.png): digestNote: on a page that is no binary document hashed"},
		{"link target", edit(func(m map[string]any) {
			page(m, 1)["links"] = []any{map[string]any{"target": "guide.html"}}
		}), `page 2 (https://example.org/docs/guide.html): link 1: target: url "guide.html": scheme must be http or https`},
		{"self link", edit(func(m map[string]any) {
			page(m, 1)["links"] = []any{map[string]any{"target": "https://example.org/docs/guide.html"}}
		}), "page 2 (https://example.org/docs/guide.html): link 1: target: the page itself"},
		{"duplicate link", edit(func(m map[string]any) {
			l := map[string]any{"target": "https://example.org/docs/", "label": "Home"}
			page(m, 1)["links"] = []any{l, l}
		}), `page 2 (https://example.org/docs/guide.html): link 2: (https://example.org/docs/, "Home") is there twice`},
		{"link scope", edit(func(m map[string]any) {
			page(m, 1)["links"] = []any{map[string]any{"target": "https://example.org/blog/"}}
		}), "page 2 (https://example.org/docs/guide.html): link 1: target: https://example.org/blog/ is out of the query's scope"},
		{"redirect", edit(func(m map[string]any) { m["redirects"].([]any)[0].(map[string]any)["to"] = "/docs/guide.html" }), `snapshot: redirect 1: to: url "/docs/guide.html": scheme must be http or https`},
		{"redirect loop", edit(func(m map[string]any) {
			m["redirects"].([]any)[0].(map[string]any)["to"] = "https://example.org/docs/start.html"
		}), "snapshot: redirect 1: from and to are both https://example.org/docs/start.html"},
		{"redirect twice", edit(func(m map[string]any) { m["redirects"] = append(m["redirects"].([]any), m["redirects"].([]any)[0]) }), "snapshot: redirect 2: from: https://example.org/docs/start.html redirects twice"},
		{"importance", edit(func(m map[string]any) { page(m, 1)["importance"] = 1.5 }), "page 2 (https://example.org/docs/guide.html): importance: 1.5 is not from 0 to 1"},
		{"site origin", edit(func(m map[string]any) { m["sites"].([]any)[0].(map[string]any)["origin"] = "https://example.org/docs/" }), `snapshot: site 1: origin: "https://example.org/docs/" is not a scheme, host and port`},
		{"site pages", edit(func(m map[string]any) { m["sites"].([]any)[0].(map[string]any)["pages"] = 0 }), "snapshot: site 1 (https://example.org): pages: 0, want 1 to 4"},
		{"site importance", edit(func(m map[string]any) { m["sites"].([]any)[0].(map[string]any)["importance"] = -1 }), "snapshot: site 1 (https://example.org): importance: -1 is not from 0 to 1"},
		{"start page", edit(func(m map[string]any) { query(m)["start"] = "https://example.org/docs/index.html" }), "snapshot: page 1 (https://example.org/docs/): url: neither query.start https://example.org/docs/index.html nor where a redirect from it led"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := crawl.Decode(bytes.NewReader(tc.in), 0)
			if s != nil || vigil.ErrorCode(err) != vigil.EINVALID || !strings.Contains(vigil.ErrorMessage(err), tc.want) {
				t.Errorf("Decode: %v, want EINVALID with %q", err, tc.want)
			}
		})
	}
}

// TestDecodeLimit: an input over the limit is refused before it is
// parsed.
func TestDecodeLimit(t *testing.T) {
	good, err := os.ReadFile(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := crawl.Decode(bytes.NewReader(good), int64(len(good))); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	_, err = crawl.Decode(bytes.NewReader(good), int64(len(good)-1))
	if want := "snapshot: larger than"; !strings.Contains(vigil.ErrorMessage(err), want) {
		t.Errorf("over the limit: %v, want %q", err, want)
	}
}

// TestDecodeFormatV1: a snapshot of format 1, crawled when a scope prefix
// was a raw prefix of the URL, is read and validated by that rule, and
// written back as it was; the same snapshot in format 2, whose prefixes
// end at a path segment boundary, has a page out of its scope.
func TestDecodeFormatV1(t *testing.T) {
	const name = "testdata/v1-raw-scope.json"
	v1, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := crawl.Decode(bytes.NewReader(v1), 0)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if s.Format != crawl.FormatV1 || s.Page("https://example.org/docs-old/guide.html") == nil {
		t.Errorf("%s: format %q, pages %d", name, s.Format, len(s.Pages))
	}
	var again bytes.Buffer
	if err := s.Encode(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), v1) {
		t.Errorf("%s decoded and encoded again:\n%s", name, again.Bytes())
	}
	v2 := bytes.Replace(v1, []byte(crawl.FormatV1), []byte(crawl.Format), 1)
	_, err = crawl.Decode(bytes.NewReader(v2), 0)
	if want := "page 5: url: https://example.org/docs-old/guide.html is out of the query's scope"; !strings.Contains(vigil.ErrorMessage(err), want) {
		t.Errorf("%s in format 2: %v, want %q", name, err, want)
	}
}

// TestDecodeFormatV2: a snapshot of format 2, crawled when a page read as
// its source text had no links (a text page was a leaf, an HTML page that
// does not parse had a note and no links), is read and validated by that
// rule and written back as it was; in format 3 a page read as text may
// have links (the URLs written in its text), which format 2 refuses.
func TestDecodeFormatV2(t *testing.T) {
	const name = "testdata/v2-text-pages.json"
	v2, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := crawl.Decode(bytes.NewReader(v2), 0)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if s.Format != crawl.FormatV2 || len(s.Pages) != 3 {
		t.Fatalf("%s: format %q, pages %d", name, s.Format, len(s.Pages))
	}
	if why, read := crawl.ReadAsText(s.Pages[2]); why != "parse HTML: elements nested more than 512 deep" || !read {
		t.Errorf("%s: the page read as text: ReadAsText = %q, %v", name, why, read)
	}
	var again bytes.Buffer
	if err := s.Encode(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), v2) {
		t.Errorf("%s decoded and encoded again:\n%s", name, again.Bytes())
	}
	// The page read as text with a link, in each format.
	s.Pages[2].Links = []crawl.Link{{Target: "https://example.org/docs/", Label: "https://example.org/docs/"}}
	var linked bytes.Buffer
	if err := s.Encode(&linked); err != nil {
		t.Fatal(err)
	}
	_, err = crawl.Decode(bytes.NewReader(linked.Bytes()), 0)
	if want := `snapshot: page 3 (https://example.org/docs/deep.html): note: a page read as text has no links in format "vigil-site-snapshot/2"`; vigil.ErrorMessage(err) != want {
		t.Errorf("links on a page read as text in format 2: %v, want %q", err, want)
	}
	v3 := bytes.Replace(linked.Bytes(), []byte(crawl.FormatV2), []byte(crawl.Format), 1)
	if s, err := crawl.Decode(bytes.NewReader(v3), 0); err != nil || len(s.Pages[2].Links) != 1 {
		t.Errorf("links on a page read as text in format %s: %v", crawl.Format, err)
	}
	// A title, in neither.
	v3 = bytes.Replace(v3, []byte(`"note"`), []byte(`"title": "Deep", "note"`), 1)
	_, err = crawl.Decode(bytes.NewReader(v3), 0)
	if want := "page 3 (https://example.org/docs/deep.html): note: a page read as text has no title"; !strings.Contains(vigil.ErrorMessage(err), want) {
		t.Errorf("a title on a page read as text: %v, want %q", err, want)
	}
}

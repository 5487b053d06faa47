package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/warc"
)

// TestWARCImportResourceRecords: resource records (a document without
// HTTP headers, as Webrecorder, wget and WARC 1.1 tools write some items)
// are versions as responses are: status 200, the type their own
// Content-Type gives, imported in date order, a record no newer than the
// history skipped, and the original of a revisit by its id, its payload
// digest, or its target URI and date. One without a WARC-Target-URI is named and not imported, one of
// a URI that is not http(s) (Webrecorder's urn:pageinfo:) skipped; all
// were skipped without a word.
func TestWARCImportResourceRecords(t *testing.T) {
	one := "<html><body><p>one</p></body></html>"
	two := "<html><body><p>two</p></body></html>"
	notes := "plain notes\n"
	identical := warc.Header{{Name: warc.FieldProfile, Value: warc.ProfileIdenticalPayload}}
	for _, gz := range []bool{false, true} {
		name := "warc"
		if gz {
			name = "warc.gz"
		}
		t.Run(name, func(t *testing.T) {
			file := writeForeignWARC(t, gz,
				foreignRecord{typ: warc.TypeResource, uri: "http://example.com/doc", date: "2026-01-03T00:00:00Z",
					extra: warc.Header{{Name: warc.FieldContentType, Value: "text/html; charset=utf-8"}}, block: two},
				foreignRecord{typ: warc.TypeResource, uri: "<http://Example.com/doc#top>", date: "2026-01-01T00:00:00Z",
					extra: warc.Header{{Name: warc.FieldContentType, Value: "text/html"}}, block: one},
				foreignRecord{typ: warc.TypeResource, uri: "http://example.com/notes.txt", date: "2026-01-02T00:00:00Z",
					extra: warc.Header{{Name: warc.FieldContentType, Value: "text/plain"}}, block: notes},
				foreignRecord{typ: warc.TypeResource, date: "2026-01-02T00:00:00Z",
					extra: warc.Header{{Name: warc.FieldContentType, Value: "text/html"}}, block: one},
				foreignRecord{typ: warc.TypeResource, uri: "urn:pageinfo:http://example.com/doc", date: "2026-01-02T00:00:00Z",
					extra: warc.Header{{Name: warc.FieldContentType, Value: "application/json"}}, block: "{}"},
				// Revisits of resources, with an empty block: by
				// WARC-Refers-To (the first record), and by payload
				// digest, the revisit typed as its original.
				foreignRecord{typ: warc.TypeRevisit, uri: "http://example.com/doc", date: "2026-01-04T00:00:00Z",
					extra: append(warc.Header{{Name: warc.FieldRefersTo, Value: warc.BracketID(warc.NameID("foreign a"))},
						{Name: warc.FieldContentType, Value: ""}}, identical...)},
				foreignRecord{typ: warc.TypeRevisit, uri: "http://example.com/notes.txt", date: "2026-01-05T00:00:00Z",
					extra: append(warc.Header{{Name: warc.FieldPayloadDigest, Value: warc.Digest([]byte(notes))},
						{Name: warc.FieldContentType, Value: "text/plain"}}, identical...)},
			)
			dst := t.TempDir()
			_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, file)
			if code != exitError || !strings.Contains(errOut, "record 4 at offset") || !strings.Contains(errOut, "no WARC-Target-URI") ||
				!strings.Contains(errOut, "imported 5 versions; skipped 1 record") || !strings.Contains(errOut, "1 record could not be imported") ||
				gz != strings.Contains(errOut, "gzip member at byte") {
				t.Errorf("import: exit %d\n%s", code, errOut)
			}
			got := dump(t, dst)
			if len(got) != 2 {
				t.Errorf("imported %d pages, want /doc and /notes.txt", len(got))
			}
			type version struct{ date, contentType, charset, body string }
			want := map[string][]version{
				"http://example.com/doc":       {{"01", "text/html", "", one}, {"03", "text/html", "utf-8", two}, {"04", "text/html", "utf-8", two}},
				"http://example.com/notes.txt": {{"02", "text/plain", "", notes}, {"05", "text/plain", "", notes}},
			}
			for url, wv := range want {
				var gv []version
				for _, v := range got[url] {
					if v.v.Status != 200 {
						t.Errorf("%s at %s: status %d", url, v.v.FetchedAt, v.v.Status)
					}
					gv = append(gv, version{v.v.FetchedAt.Format("02"), v.v.ContentType, v.v.Charset, string(v.body)})
				}
				if len(gv) != len(wv) {
					t.Errorf("%s: history %q, want %q", url, gv, wv)
					continue
				}
				for i := range wv {
					if gv[i] != wv[i] {
						t.Errorf("%s: version %d is %q, want %q", url, i, gv[i], wv[i])
					}
				}
			}
			// Imported twice, the file adds nothing.
			_, errOut, _ = runCmd(t, nil, "import", "warc", "--data", dst, file)
			if !strings.Contains(errOut, "imported 0 versions") {
				t.Errorf("imported again:\n%s", errOut)
			}
			// A revisit in another file finds a resource in the store
			// by its target URI and date.
			later := writeForeignWARC(t, gz, foreignRecord{typ: warc.TypeRevisit, uri: "http://example.com/notes.txt", date: "2026-01-06T00:00:00Z",
				extra: append(warc.Header{{Name: warc.FieldRefersTo, Value: warc.BracketID(warc.NameID("foreign c"))},
					{Name: warc.FieldRefersToURI, Value: "http://example.com/notes.txt"}, {Name: warc.FieldRefersToDate, Value: "2026-01-02T00:00:00Z"},
					{Name: warc.FieldContentType, Value: ""}}, identical...)})
			_, errOut, code = runCmd(t, nil, "import", "warc", "--data", dst, later)
			if vs := dump(t, dst)["http://example.com/notes.txt"]; code != exitOK || len(vs) != 3 || string(vs[2].body) != notes || vs[2].v.ContentType != "text/plain" {
				t.Errorf("revisit of a stored resource: exit %d\n%s", code, errOut)
			}
		})
	}
}

// TestWARCExportImportResourceRecords: versions imported from resource
// records are exported as responses (and a revisit), which import back
// as the same history.
func TestWARCExportImportResourceRecords(t *testing.T) {
	page := "<html><body><p>page</p></body></html>"
	src, dst := t.TempDir(), t.TempDir()
	file := writeForeignWARC(t, true,
		foreignRecord{typ: warc.TypeResource, uri: "http://example.com/doc", date: "2026-01-01T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldContentType, Value: "text/html; charset=utf-8"}}, block: page},
		foreignRecord{typ: warc.TypeResource, uri: "http://example.com/doc", date: "2026-01-02T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldContentType, Value: "text/html; charset=utf-8"}}, block: page},
		foreignRecord{typ: warc.TypeResource, uri: "http://example.com/notes.txt", date: "2026-01-02T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldContentType, Value: "text/plain"}}, block: "notes\n"},
	)
	if _, errOut, code := runCmd(t, nil, "import", "warc", "--data", src, file); code != exitOK {
		t.Fatalf("import: exit %d\n%s", code, errOut)
	}
	out, errOut, code := runCmd(t, nil, "export", "warc", "--all", "--data", src)
	if code != exitOK || !strings.Contains(errOut, "exported 2 responses and 1 revisit of 2 resources") {
		t.Fatalf("export: exit %d\n%s", code, errOut)
	}
	r, err := warc.NewReader(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		if rec.Type() == warc.TypeResource {
			t.Errorf("export wrote a resource record: %s", rec.ID())
		}
	}
	exported := filepath.Join(t.TempDir(), "out.warc.gz")
	if err := os.WriteFile(exported, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, exported); code != exitOK || !strings.Contains(errOut, "imported 3 versions") {
		t.Fatalf("import of the export: exit %d\n%s", code, errOut)
	}
	a, b := dump(t, src), dump(t, dst)
	if len(a) != 2 || len(b) != len(a) {
		t.Fatalf("%d pages imported from the export, want %d", len(b), len(a))
	}
	for url, av := range a {
		bv := b[url]
		if len(av) != len(bv) {
			t.Fatalf("%s: %d versions imported, want %d", url, len(bv), len(av))
		}
		for i := range av {
			x, y := av[i].v, bv[i].v
			if !bytes.Equal(av[i].body, bv[i].body) || !x.FetchedAt.Equal(y.FetchedAt) || x.Status != y.Status ||
				x.ContentType != y.ContentType || x.Charset != y.Charset || x.ContentHash != y.ContentHash {
				t.Errorf("%s version %d:\n%+v\nimported as\n%+v", url, i, x, y)
			}
		}
	}
}

// TestWARCImportResourceOfHTTPMessage: a resource record whose
// Content-Type is application/http holds an HTTP message, not a
// document: a response is imported as a response record is (its status,
// its header's type, its body decoded), a request is skipped. Both were
// stored as documents of type application/http, HTTP header and all.
func TestWARCImportResourceOfHTTPMessage(t *testing.T) {
	page := "<html><body><p>page</p></body></html>"
	file := writeForeignWARC(t, true,
		foreignRecord{typ: warc.TypeResource, uri: "http://example.com/msg", date: "2026-01-01T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldContentType, Value: "application/http; msgtype=response"}},
			block: httpResponse("Content-Type: text/html; charset=utf-8\r\nContent-Encoding: gzip\r\n", gzipped(page))},
		foreignRecord{typ: warc.TypeResource, uri: "http://example.com/bare", date: "2026-01-01T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldContentType, Value: "application/http"}},
			block: httpResponse("Content-Type: text/plain\r\n", "notes\n")},
		foreignRecord{typ: warc.TypeResource, uri: "http://example.com/req", date: "2026-01-01T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldContentType, Value: "application/http; msgtype=request"}},
			block: "GET /req HTTP/1.1\r\nHost: example.com\r\n\r\n"},
		// A revisit of the first by its payload digest (the HTTP body's).
		foreignRecord{typ: warc.TypeRevisit, uri: "http://example.com/msg", date: "2026-01-02T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldPayloadDigest, Value: warc.Digest([]byte(gzipped(page)))},
				{Name: warc.FieldProfile, Value: warc.ProfileIdenticalPayload}, {Name: warc.FieldContentType, Value: ""}}},
	)
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, file)
	if code != exitOK || !strings.Contains(errOut, "imported 3 versions; skipped 1 record") {
		t.Errorf("import: exit %d\n%s", code, errOut)
	}
	got := dump(t, dst)
	type version struct {
		status                     int
		contentType, charset, body string
	}
	want := map[string][]version{
		"http://example.com/msg":  {{200, "text/html", "utf-8", page}, {200, "text/html", "utf-8", page}},
		"http://example.com/bare": {{200, "text/plain", "", "notes\n"}},
	}
	if len(got) != len(want) {
		t.Errorf("imported %d pages, want %d", len(got), len(want))
	}
	for url, wv := range want {
		var gv []version
		for _, v := range got[url] {
			gv = append(gv, version{v.v.Status, v.v.ContentType, v.v.Charset, string(v.body)})
		}
		if !slices.Equal(gv, wv) {
			t.Errorf("%s: history %v, want %v", url, gv, wv)
		}
	}
}

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warc"
	"github.com/vigil-web/vigil/internal/warehouse"
)

func runCmd(t *testing.T, stdin []byte, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := &environment{stdin: bytes.NewReader(stdin), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	code := run(context.Background(), env, args)
	return out.String(), errOut.String(), code
}

// testWarehouse opens the store in dir and its warehouse, closed when the
// test ends.
func testWarehouse(t *testing.T, dir string, opt warehouse.Options) (vigil.Store, *warehouse.Warehouse) {
	t.Helper()
	st, err := openStore(context.Background(), dir, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	wh, err := openWarehouse(st, opt)
	if err != nil {
		t.Fatal(err)
	}
	return st, wh
}

func fill(t *testing.T, dir string) {
	t.Helper()
	ctx := context.Background()
	_, wh := testWarehouse(t, dir, warehouse.Options{FullEvery: 3})
	t0 := time.Date(2026, 11, 20, 10, 0, 0, 123456789, time.UTC)
	hist := warehouse.SyntheticHistory(5, 3000, 0.05, 5)
	fetches := []*warehouse.Fetch{
		{URL: "http://example.com/news", Body: hist[0]},
		{URL: "http://example.com/news", Body: hist[1]},
		{URL: "http://example.com/news", Body: hist[1]}, // a revisit
		{URL: "http://example.com/news", Error: "dial tcp: i/o timeout"},
		{URL: "http://example.com/news", Body: hist[2]},
		{URL: "https://other.example/feed.xml", Body: []byte(`<?xml version="1.0"?><rss><channel><title>x</title></channel></rss>`), ContentType: "application/rss+xml", Charset: ""},
		{URL: "https://other.example/logo.png", Body: []byte("\x89PNG\r\n\x1a\n\x00\x00binary\r\n\r\n"), ContentType: "image/png"},
	}
	for i, f := range fetches {
		f.FetchedAt = t0.Add(time.Duration(i) * time.Hour)
		f.FetchDuration = time.Duration(100+i) * time.Millisecond
		if f.Error == "" {
			f.Status = 200
			f.ETag = `"e` + string(rune('a'+i)) + `"`
			f.LastModified = t0.Add(-time.Duration(i) * time.Hour).Truncate(time.Second)
			if f.ContentType == "" {
				f.ContentType, f.Charset = "text/html", "utf-8"
			}
		}
		if _, err := wh.Put(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
}

type exported struct {
	v    *vigil.Version
	body []byte
}

func dump(t *testing.T, dir string) map[string][]exported {
	t.Helper()
	ctx := context.Background()
	st, wh := testWarehouse(t, dir, warehouse.Options{})
	out := map[string][]exported{}
	rs, _, err := st.FindResources(ctx, vigil.ResourceFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		vs, _, err := st.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			if v.Error != "" {
				continue
			}
			b, err := wh.Body(ctx, v.ID)
			if err != nil {
				t.Fatal(err)
			}
			out[r.URL] = append(out[r.URL], exported{v, b})
		}
	}
	return out
}

func TestWARCExportImportRoundTrip(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	fill(t, src)
	out, errOut, code := runCmd(t, nil, "export", "warc", "--all", "--data", src)
	if code != exitOK {
		t.Fatalf("export: %d %s", code, errOut)
	}
	if !strings.Contains(errOut, "exported 5 responses and 1 revisit of 3 resources (1 failed fetch has") {
		t.Errorf("export summary: %s", errOut)
	}
	// The file is WARC 1.1 with the record types expected.
	r, err := warc.NewReader(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	r.Verify = true
	var types []string
	for {
		rec, err := r.Next()
		if err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatal(err)
		}
		types = append(types, rec.Type())
		if rec.Type() == warc.TypeResponse {
			_, _, payload, err := warc.ParseHTTPResponse(rec.Block)
			if err != nil || rec.Header.Get(warc.FieldPayloadDigest) != warc.Digest(payload) {
				t.Errorf("response %s: payload digest: %v", rec.ID(), err)
			}
		}
	}
	want := "warcinfo request response request response revisit request response request response request response"
	if strings.Join(types, " ") != want {
		t.Errorf("record types\n%s\nwant\n%s", strings.Join(types, " "), want)
	}
	file := filepath.Join(t.TempDir(), "out.warc.gz")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = runCmd(t, nil, "import", "warc", "--data", dst, file)
	if code != exitOK || !strings.Contains(errOut, "imported 6 versions") {
		t.Fatalf("import: %d %s", code, errOut)
	}
	a, b := dump(t, src), dump(t, dst)
	if len(a) != len(b) {
		t.Fatalf("%d resources imported, want %d", len(b), len(a))
	}
	for url, av := range a {
		bv := b[url]
		if len(av) != len(bv) {
			t.Fatalf("%s: %d versions imported, want %d", url, len(bv), len(av))
		}
		for i := range av {
			x, y := av[i].v, bv[i].v
			if !bytes.Equal(av[i].body, bv[i].body) || !x.FetchedAt.Equal(y.FetchedAt) || x.Status != y.Status || x.ETag != y.ETag ||
				!x.LastModified.Equal(y.LastModified) || x.ContentType != y.ContentType || x.Charset != y.Charset ||
				x.ContentHash != y.ContentHash || x.FetchDuration != y.FetchDuration {
				t.Errorf("%s version %d:\n%+v\nimported as\n%+v", url, i, x, y)
			}
		}
	}
	// Export again from the imported store: the same records (ids are
	// derived from URL and fetch time), except the warcinfo record.
	out2, _, _ := runCmd(t, nil, "export", "warc", "--all", "--data", dst)
	ids := func(s string) []string {
		r, _ := warc.NewReader(strings.NewReader(s))
		var ids []string
		for {
			rec, err := r.Next()
			if err != nil {
				return ids
			}
			if rec.Type() != warc.TypeWarcinfo {
				ids = append(ids, rec.ID())
			}
		}
	}
	if strings.Join(ids(out), ",") != strings.Join(ids(out2), ",") {
		t.Errorf("re-export gives other record ids")
	}
	// Imported a second time, the file adds nothing: its records are no
	// newer than the history of their pages.
	_, errOut, code = runCmd(t, nil, "import", "warc", "--data", dst, file)
	if code != exitOK || !strings.Contains(errOut, "imported 0 versions") || !strings.Contains(errOut, "imported before, or out of order") {
		t.Errorf("second import: %d %s", code, errOut)
	}
	if out3, _, _ := runCmd(t, nil, "export", "warc", "--all", "--data", dst); strings.Join(ids(out3), ",") != strings.Join(ids(out), ",") {
		t.Errorf("after a second import, the export holds other records")
	}
}

func TestWARCExportOneResourceSince(t *testing.T) {
	src := t.TempDir()
	fill(t, src)
	out, errOut, code := runCmd(t, nil, "export", "warc", "--resource", "HTTP://EXAMPLE.COM/news", "--since", "2026-11-20T13:00:00Z", "--data", src)
	if code != exitOK {
		t.Fatalf("export: %d %s", code, errOut)
	}
	if !strings.Contains(errOut, "exported 1 response and 0 revisits of 1 resource") {
		t.Errorf("summary %s", errOut)
	}
	if len(out) == 0 {
		t.Fatal("nothing written")
	}
	_, _, code = runCmd(t, nil, "export", "warc", "--data", src)
	if code != exitError {
		t.Errorf("neither --resource nor --all: exit %d", code)
	}
	_, errOut, code = runCmd(t, nil, "export", "warc", "--resource", "http://nowhere.example/", "--data", src)
	if code != exitError || !strings.Contains(errOut, "no resource") {
		t.Errorf("unknown resource: %d %s", code, errOut)
	}
}

func TestWARCImportStandardExamples(t *testing.T) {
	dst := t.TempDir()
	// The standard's records: their digests are illustrations, so the
	// reader refuses the file; that is the expected, clear error.
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, "../../internal/warc/testdata/standard-examples.warc")
	if code != exitError || !strings.Contains(errOut, "digest") {
		t.Fatalf("import of the standard's examples: %d %s", code, errOut)
	}
	// Without verification, the response and the revisit that refers to it
	// come in: two versions of the logo, the same bytes.
	_, errOut, code = runCmd(t, nil, "import", "warc", "--no-verify", "--data", dst, "../../internal/warc/testdata/standard-examples.warc")
	if code != exitOK || !strings.Contains(errOut, "imported 2 versions; skipped 4 records") {
		t.Fatalf("import --no-verify: %d %s", code, errOut)
	}
	got := dump(t, dst)["http://www.archive.org/images/logoc.jpg"]
	if len(got) != 2 || string(got[0].body) != "[image/jpeg binary data here]" || !bytes.Equal(got[0].body, got[1].body) ||
		got[0].v.ETag != `"3e45-67e-2ed02ec0"` || got[0].v.ContentType != "image/jpeg" {
		t.Fatalf("imported %+v", got)
	}
}

// TestWARCImportRevisitOfImported: a revisit whose response an earlier
// import brought in reads its body from the store. It was dropped, its
// original "not in the file", once responses no newer than the store's
// history were skipped.
func TestWARCImportRevisitOfImported(t *testing.T) {
	ctx := context.Background()
	src, dst := t.TempDir(), t.TempDir()
	_, wh := testWarehouse(t, src, warehouse.Options{})
	put := func(at time.Time) {
		if _, err := wh.Put(ctx, &warehouse.Fetch{URL: "http://example.com/a", FetchedAt: at, Status: 200,
			ContentType: "text/html", Body: []byte("<html><body><p>same</p></body></html>")}); err != nil {
			t.Fatal(err)
		}
	}
	transfer := func() string {
		out, errOut, code := runCmd(t, nil, "export", "warc", "--all", "--data", src)
		if code != exitOK {
			t.Fatalf("export: %d %s", code, errOut)
		}
		_, errOut, code = runCmd(t, []byte(out), "import", "warc", "--data", dst, "-")
		if code != exitOK {
			t.Fatalf("import: %d %s", code, errOut)
		}
		return errOut
	}
	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	put(t0)
	transfer()
	put(t0.Add(time.Hour)) // the same body: exported as a revisit of the first
	if errOut := transfer(); !strings.Contains(errOut, "imported 1 version;") {
		t.Errorf("second import: %s", errOut)
	}
	if got := len(dump(t, dst)["http://example.com/a"]); got != 2 {
		t.Errorf("%d versions imported, want 2", got)
	}
}

// TestFetchedAfter: times are compared at the microsecond a PostgreSQL
// store keeps; a record of nanoseconds imported again into it was newer
// than itself as stored.
func TestFetchedAfter(t *testing.T) {
	ns := time.Date(2026, 11, 20, 14, 0, 0, 123456789, time.UTC)
	stored := ns.Truncate(time.Microsecond)
	if fetchedAfter(ns, stored) {
		t.Errorf("%v comes after itself as PostgreSQL keeps it", ns)
	}
	if !fetchedAfter(ns.Add(time.Microsecond), stored) {
		t.Errorf("a microsecond later does not come after")
	}
}

// TestWARCImportIDN: a record whose WARC-Target-URI spells its host in
// Unicode (an IRI, as some crawlers write) or percent-encoded in UTF-8
// (a URI) is the page of that host's punycode form, as the page's links
// and a sentinel's URL name it; one whose host IDNA refuses is skipped.
// The others were skipped as well, their URL refused by CanonicalURL.
func TestWARCImportIDN(t *testing.T) {
	record := func(target, body string) string {
		block := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
		return "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: " + warc.BracketID(warc.NewID()) +
			"\r\nWARC-Date: 2026-11-20T10:00:00Z\r\nWARC-Target-URI: " + target +
			"\r\nContent-Type: application/http;msgtype=response\r\nContent-Length: " + strconv.Itoa(len(block)) +
			"\r\n\r\n" + block + "\r\n\r\n"
	}
	file := record("http://bücher.example/a", "<p>books</p>") + record("http://-bücher.example/a", "<p>refused</p>") +
		record("http://b%C3%BCcher.example/b", "<p>encoded</p>") + record("http://bücher.example../c", "<p>two dots</p>")
	dst := t.TempDir()
	// The host IDNA refuses, and one DNS refuses, are records not
	// imported, named, and the import fails once the others are in.
	_, errOut, code := runCmd(t, []byte(file), "import", "warc", "--no-verify", "--data", dst, "-")
	if code != exitError || !strings.Contains(errOut, "imported 2 versions") || !strings.Contains(errOut, "record 2 at offset") ||
		!strings.Contains(errOut, "-bücher.example") || !strings.Contains(errOut, `record 4 at offset`) ||
		!strings.Contains(errOut, `host "bücher.example.." has an empty label; not imported`) || !strings.Contains(errOut, "2 records could not be imported") {
		t.Fatalf("import: %d %s", code, errOut)
	}
	got := dump(t, dst)["http://xn--bcher-kva.example/a"]
	if len(got) != 1 || !strings.Contains(string(got[0].body), "books") {
		t.Errorf("the page of the Unicode host: %+v", got)
	}
	// Percent-encoded in UTF-8, as a URI writes it, it is the same
	// host.
	got = dump(t, dst)["http://xn--bcher-kva.example/b"]
	if len(got) != 1 || !strings.Contains(string(got[0].body), "encoded") {
		t.Errorf("the page of the percent-encoded host: %+v", got)
	}
	// export warc --resource takes the URL spelt as the record spelt
	// it: it was refused, "host must be ASCII (punycode)"; and read as
	// import warc reads a target URI (spec.NormalizeURL), an upper-case
	// scheme or spaces around it too.
	for _, u := range []string{"http://Bücher.example/a", "http://b%C3%BCcher.example/a", "HTTP://Bücher.example/a", " http://bücher.example/a ", "http://bücher.example./a"} {
		out, errOut, code := runCmd(t, nil, "export", "warc", "--resource", u, "--data", dst)
		if code != exitOK || !strings.Contains(errOut, "exported 1 response and 0 revisits of 1 resource") || len(out) == 0 {
			t.Errorf("export --resource %s: %d %s", u, code, errOut)
		}
	}
	// A URL with credentials is refused as import warc refuses it, not
	// looked up as another page.
	if _, errOut, code := runCmd(t, nil, "export", "warc", "--resource", "http://user:pass@bücher.example/a", "--data", dst); code != exitError ||
		!strings.Contains(errOut, "credentials") {
		t.Errorf("export --resource with credentials: %d %s", code, errOut)
	}
	// A host DNS refuses, two trailing dots, is refused, naming it.
	if _, errOut, code := runCmd(t, nil, "export", "warc", "--resource", "http://bücher.example../a", "--data", dst); code != exitError ||
		!strings.Contains(errOut, `host "bücher.example.." has an empty label`) {
		t.Errorf("export --resource of a host DNS refuses: %d %s", code, errOut)
	}
}

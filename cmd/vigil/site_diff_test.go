package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/zstd"
	"github.com/vigil-web/vigil/webtable"
)

var update = flag.Bool("update", false, "rewrite the golden files of vigil site diff (testdata/site-diff) and vigil sentinel check (testdata/sentinel-check)")

// siteCrawl crawls url with vigil site crawl, keeping the bodies, into a
// file of dir named name, and returns its path.
func siteCrawl(t *testing.T, dir, name, url string, flags ...string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	args := append([]string{"site", "crawl", "--bodies", "--host-delay", "0", "--out", out}, flags...)
	code, _, stderr := runVigilEnv(t, allowPrivate, append(args, url)...)
	if code != exitOK {
		t.Fatalf("vigil site crawl %s: exit %d: %s", url, code, stderr)
	}
	return out
}

// siteDiff runs vigil site diff and fails the test on trouble (exit 2)
// or on anything written to standard error.
func siteDiff(t *testing.T, args ...string) (int, string) {
	t.Helper()
	code, stdout, stderr := runVigilEnv(t, nil, append([]string{"site", "diff"}, args...)...)
	if code == exitError || stderr != "" {
		t.Fatalf("vigil site diff %q: exit %d, stderr %s", args, code, stderr)
	}
	return code, stdout
}

// summaryLine is a page's line in vigil site diff's summary.
var summaryLine = regexp.MustCompile(`^([+~-]) (added   |removed |changed ) (\S+)( "(?:[^"\\]|\\.)*"(?: -> "(?:[^"\\]|\\.)*")?)?  (\(start page\)|via \S+(?: > \S+)*)(  \(.*\))?$`)

// TestSiteDiffCorpus crawls the two releases of Git's documentation site
// on loopback, as two polls of one query, and compares the snapshots:
// one page added (gitmailmap.html), none deleted, modified exactly the
// pages whose bytes differ; the same output every time; JSON that decodes
// to the same node sets; and, with --content, the 17 pages whose only
// change is the "Last updated" footer told apart from the others.
func TestSiteDiffCorpus(t *testing.T) {
	rel := siteCorpus(t)
	old, cur := rel[crawltest.OldRelease], rel[crawltest.NewRelease]
	s := crawltest.NewSite(t, old)
	dir := t.TempDir()
	start := s.URL("/")
	oldSnap := siteCrawl(t, dir, "old.json", start)
	s.Set(cur, nil)
	newSnap := siteCrawl(t, dir, "new.json", start)
	again := siteCrawl(t, dir, "again.json", start)

	// The file behind a URL of the site: / is index.html.
	file := func(u string) string {
		p := strings.TrimPrefix(u, s.Srv.URL)
		if strings.HasSuffix(p, "/") {
			p += "index.html"
		}
		return p
	}
	code, summary := siteDiff(t, oldSnap, newSnap)
	if code != exitChanged {
		t.Errorf("exit %d, want 1", code)
	}
	pages := map[string][]string{}
	lines := strings.Split(strings.TrimSuffix(summary, "\n"), "\n")
	for _, line := range lines[:len(lines)-1] {
		m := summaryLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("line %q", line)
		}
		pages[strings.TrimSpace(m[2])] = append(pages[strings.TrimSpace(m[2])], m[3])
	}
	mailmap := s.URL("/gitmailmap.html")
	if want := "+ added    " + mailmap + ` "gitmailmap(5)"  via ./`; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	if len(pages["added"]) != 1 || len(pages["removed"]) != 0 {
		t.Errorf("added %q, removed %q; want %s alone added", pages["added"], pages["removed"], mailmap)
	}
	// The pages of both crawls whose bytes differ between the releases.
	snap1, snap2 := decodeSnapshot(t, oldSnap), decodeSnapshot(t, newSnap)
	var changed []string
	for _, p := range snap2.Pages {
		if snap1.Page(p.URL) != nil && !bytes.Equal(old[file(p.URL)], cur[file(p.URL)]) {
			changed = append(changed, p.URL)
		}
	}
	slices.Sort(changed)
	modifiedSorted := slices.Sorted(slices.Values(pages["changed"]))
	if !slices.Equal(modifiedSorted, changed) || len(changed) != 68 {
		t.Errorf("modified %d pages, %d changed (want 68):\n%q\n%q", len(pages["changed"]), len(changed), pages["changed"], changed)
	}
	// The modified pages come the most important first, each with its
	// importance in the new snapshot.
	var prev float64 = 2
	for _, u := range pages["changed"] {
		imp := snap2.Page(u).Importance
		if imp <= 0 || imp > prev {
			t.Errorf("modified %s (importance %v) after a page of importance %v", u, imp, prev)
		}
		prev = imp
	}
	if want := "~ changed  " + s.URL("/git.html") + ` "git(1)"  via ./  (importance `; !strings.Contains(summary, want) {
		t.Errorf("no line %q...", want)
	}
	if want := "total: 1 added, 0 removed, 68 changed, 132 unchanged (200 pages read, then 201)"; lines[len(lines)-1] != want {
		t.Errorf("total %q, want %q", lines[len(lines)-1], want)
	}
	if _, again := siteDiff(t, oldSnap, again); again != summary {
		t.Errorf("a second crawl of %s gives another summary:\n%s", crawltest.NewRelease, again)
	}

	// JSON: the delta web tables, the same every time.
	_, out := siteDiff(t, "--format", "json", oldSnap, newSnap)
	if _, out2 := siteDiff(t, oldSnap, "--format", "json", newSnap); out2 != out {
		t.Error("two runs give different JSON")
	}
	d := decodeDelta(t, out)
	imp := decodeImportance(t, out)
	for _, id := range slices.Concat(d.Added, d.Modified) {
		if p := snap2.Page(string(id)); imp[string(id)] != p.Importance || p.Importance <= 0 {
			t.Errorf("JSON: importance of %s: %v, the snapshot's %v", id, imp[string(id)], p.Importance)
		}
	}
	if len(imp) != len(d.Added)+len(d.Modified) {
		t.Errorf("JSON: %d importances for %d pages", len(imp), len(d.Added)+len(d.Modified))
	}
	var modified []string
	for _, id := range d.Modified {
		modified = append(modified, string(id))
	}
	if !slices.Equal(d.Added, []webtable.NodeID{webtable.NodeID(mailmap)}) || len(d.Deleted) != 0 || !slices.Equal(modified, changed) {
		t.Errorf("JSON: added %v, deleted %v, %d modified", d.Added, d.Deleted, len(d.Modified))
	}
	if d.Options != siteDiffOptions || len(d.Plus.Tuples) != 1 || len(d.Mod.Tuples) == 0 {
		t.Errorf("JSON: options %+v, %d Δ+ tuples, %d ΔM tuples", d.Options, len(d.Plus.Tuples), len(d.Mod.Tuples))
	}

	// --content: the pages whose only change is the footer's date, as the
	// corpus README counts them: 17 files, every one of them reached.
	footer := regexp.MustCompile(`Last updated\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [A-Z]+`)
	var footerOnly []string
	for p, b := range cur {
		if ob, ok := old[p]; ok && !bytes.Equal(ob, b) && bytes.Equal(footer.ReplaceAll(ob, nil), footer.ReplaceAll(b, nil)) {
			footerOnly = append(footerOnly, s.URL(p))
		}
	}
	slices.Sort(footerOnly)
	if len(footerOnly) != 17 {
		t.Errorf("%d files differ in the footer alone, the corpus README says 17", len(footerOnly))
	}
	code, content := siteDiff(t, "--content", oldSnap, newSnap)
	if code != exitChanged {
		t.Errorf("--content: exit %d", code)
	}
	footerLine := regexp.MustCompile(`^           content: 1 text update: "Last updated \d{4}-\d\d-\d\d [0-9:]+ PST" -> "Last updated \d{4}-\d\d-\d\d [0-9:]+ PDT"$`)
	lines = strings.Split(content, "\n")
	var told []string
	contentLines := 0
	for i, line := range lines {
		if !strings.HasPrefix(line, "           content: ") {
			continue
		}
		contentLines++
		m := summaryLine.FindStringSubmatch(lines[i-1])
		if m == nil || m[1] != "~" {
			t.Fatalf("content line %q after %q", line, lines[i-1])
		}
		if footerLine.MatchString(line) {
			told = append(told, m[3])
		}
	}
	slices.Sort(told)
	if !slices.Equal(told, footerOnly) || contentLines != 68 {
		t.Errorf("%d content lines; footer-only pages:\n%q\nwant\n%q", contentLines, told, footerOnly)
	}
	// Without the content lines, the summary is the same.
	var rest []string
	for _, line := range lines {
		if !strings.HasPrefix(line, "           content: ") {
			rest = append(rest, line)
		}
	}
	if strings.Join(rest, "\n") != summary {
		t.Error("--content changes the summary's other lines")
	}
}

func decodeSnapshot(t *testing.T, name string) *crawl.Snapshot {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := crawl.Decode(f, 0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// decodeImportance returns the importances of vigil site diff's JSON.
func decodeImportance(t *testing.T, out string) map[string]float64 {
	t.Helper()
	var v struct{ Importance map[string]float64 }
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	return v.Importance
}

// decodeDelta decodes vigil site diff's JSON strictly (the delta web
// tables and the importances), and each of its web tables with
// webtable.DecodeTable, which validates it.
func decodeDelta(t *testing.T, out string) *webtable.Delta {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	var v struct {
		webtable.Delta
		Importance map[string]float64        `json:"importance"`
		ReadAsText map[string]siteReadAsText `json:"readAsText"`
		Reading    map[string]siteReading    `json:"reading"`
		Failed     map[string]siteFailed     `json:"failed"`
	}
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("JSON: %v", err)
	}
	d := v.Delta
	var raw struct {
		Plus, Minus json.RawMessage
		Mod         struct{ Old, New json.RawMessage }
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	for _, table := range []json.RawMessage{raw.Plus, raw.Minus, raw.Mod.Old, raw.Mod.New} {
		if _, err := webtable.DecodeTable(bytes.NewReader(table)); err != nil {
			t.Errorf("JSON: %v", err)
		}
	}
	return &d
}

// syntheticSite serves a small site under /docs/ whose pages the test
// replaces between crawls; a page missing from the map is a 404, and
// redirects are 301s.
type syntheticSite struct {
	srv       *httptest.Server
	mu        sync.Mutex
	pages     map[string]string
	redirects map[string]string
}

func newSyntheticSite(t *testing.T) *syntheticSite {
	s := &syntheticSite{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		body, ok := s.pages[r.URL.Path]
		to, moved := s.redirects[r.URL.Path]
		s.mu.Unlock()
		switch {
		case moved:
			http.Redirect(w, r, to, http.StatusMovedPermanently)
		case !ok:
			http.NotFound(w, r)
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(body))
		}
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *syntheticSite) set(pages, redirects map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages, s.redirects = pages, redirects
}

// The synthetic site before and after: b.html no longer linked nor
// served (deleted), c.html still linked but gone (404: deleted),
// old.html's content at new.html (a move: added and deleted),
// guide.html redirected to manual.html (added and deleted), fresh.html
// new and soon.html served at last (added), index.html and a.html edited, deep.html changed in its
// footer alone (modified), same.html unchanged.
var (
	siteBefore = map[string]string{
		"/docs/index.html": `<title>Docs</title><a href="a.html">A</a> <a href="b.html">B</a> <a href="c.html">C</a> <a href="old.html">Old</a> <a href="guide.html">Guide</a> <a href="same.html">Same</a> <a href="soon.html">Soon</a>`,
		"/docs/a.html":     `<title>A</title><p>First</p><a href="deep.html">Deep</a> <a href="index.html">Home</a>`,
		"/docs/b.html":     `<title>B</title><p>To be removed</p>`,
		"/docs/c.html":     `<title>C</title><p>To fail</p>`,
		"/docs/old.html":   `<title>Moving</title><p>Same content, new place</p>`,
		"/docs/guide.html": `<title>Guide</title><p>The guide</p>`,
		"/docs/same.html":  `<title>Same</title><p>Unchanged</p>`,
		"/docs/deep.html":  `<title>Deep</title><p>Deep down</p><div id="footer">Last updated 2026-01-01</div>`,
	}
	siteAfter = map[string]string{
		"/docs/index.html":  `<title>Docs</title><a href="a.html">A</a> <a href="c.html">C</a> <a href="new.html">New</a> <a href="guide.html">Guide</a> <a href="same.html">Same</a> <a href="fresh.html">Fresh</a> <a href="soon.html">Soon</a>`,
		"/docs/soon.html":   `<title>Soon</title><p>Here at last</p>`,
		"/docs/a.html":      `<title>A (revised)</title><p>First, edited</p><p>Second</p><a href="deep.html">Deep</a> <a href="index.html">Home</a>`,
		"/docs/new.html":    `<title>Moving</title><p>Same content, new place</p>`,
		"/docs/manual.html": `<title>Guide</title><p>The guide</p>`,
		"/docs/same.html":   `<title>Same</title><p>Unchanged</p>`,
		"/docs/fresh.html":  `<title>Fresh</title>`,
		"/docs/deep.html":   `<title>Deep</title><p>Deep down</p><div id="footer">Last updated 2026-02-01</div>`,
	}
	siteAfterRedirects = map[string]string{"/docs/guide.html": "/docs/manual.html"}
)

// syntheticHost stands for the loopback server in the golden files.
const syntheticHost = "http://site.test"

// fixSnapshot rewrites a snapshot file as if the site were at
// syntheticHost and the crawl had started at started, so that the output
// does not depend on the server's port or the time.
func fixSnapshot(t *testing.T, name, base string, started time.Time) {
	t.Helper()
	s := decodeSnapshot(t, name)
	s.Started, s.Finished = started, started.Add(time.Second)
	var b bytes.Buffer
	if err := s.Encode(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, bytes.ReplaceAll(b.Bytes(), []byte(base), []byte(syntheticHost)), 0o644); err != nil {
		t.Fatal(err)
	}
	decodeSnapshot(t, name)
}

// TestSiteDiffSynthetic: deletions (a page no longer linked, a page that
// fails, a page redirected elsewhere), a move (the same content at a new
// URL: added and deleted), additions and modifications, in the summary,
// with --content, and in JSON, against the golden files under
// testdata/site-diff (go test -update rewrites them).
func TestSiteDiffSynthetic(t *testing.T) {
	s := newSyntheticSite(t)
	dir := t.TempDir()
	start := s.srv.URL + "/docs/index.html"
	s.set(siteBefore, nil)
	oldSnap := siteCrawl(t, dir, "old.json", start)
	s.set(siteAfter, siteAfterRedirects)
	newSnap := siteCrawl(t, dir, "new.json", start)
	fixSnapshot(t, oldSnap, s.srv.URL, time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC))
	fixSnapshot(t, newSnap, s.srv.URL, time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC))

	for _, tc := range []struct {
		golden string
		flags  []string
	}{
		{"summary.txt", nil},
		{"content.txt", []string{"--content"}},
		{"delta.json", []string{"--format", "json"}},
	} {
		code, out := siteDiff(t, append(tc.flags, oldSnap, newSnap)...)
		if code != exitChanged {
			t.Errorf("%s: exit %d, want 1", tc.golden, code)
		}
		golden := filepath.Join("testdata", "site-diff", tc.golden)
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if out != string(want) {
			t.Errorf("%s: got\n%s\nwant\n%s(go test ./cmd/vigil -run SiteDiffSynthetic -update rewrites it)", tc.golden, out, want)
		}
	}

	_, out := siteDiff(t, "--format", "json", oldSnap, newSnap)
	d := decodeDelta(t, out)
	ids := func(names ...string) []webtable.NodeID {
		var out []webtable.NodeID
		for _, n := range names {
			out = append(out, webtable.NodeID(syntheticHost+"/docs/"+n))
		}
		return out
	}
	if !slices.Equal(d.Added, ids("fresh.html", "manual.html", "new.html", "soon.html")) || !slices.Equal(d.Deleted, ids("b.html", "c.html", "guide.html", "old.html")) ||
		!slices.Equal(d.Modified, ids("a.html", "deep.html", "index.html")) {
		t.Errorf("added %v, deleted %v, modified %v", d.Added, d.Deleted, d.Modified)
	}

	// A snapshot compared with itself: no change, exit 0.
	code, out := siteDiff(t, newSnap, newSnap)
	if code != exitOK || out != "total: 0 added, 0 removed, 0 changed, 8 unchanged (8 pages read, then 8)\n" {
		t.Errorf("a snapshot with itself: exit %d, %q", code, out)
	}
	// Standard input for one of them.
	data, err := os.ReadFile(oldSnap)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runVigil(t, string(data), "site", "diff", "-", newSnap)
	if want, _ := os.ReadFile(filepath.Join("testdata", "site-diff", "summary.txt")); code != exitChanged || stdout != string(want) || stderr != "" {
		t.Errorf("OLD from standard input: exit %d, stderr %q, stdout\n%s", code, stderr, stdout)
	}
}

// TestSiteDiffErrors: bad flags and bad files are refused, with exit 2
// and a message naming the flag, or the file and the field.
func TestSiteDiffErrors(t *testing.T) {
	s := newSyntheticSite(t)
	dir := t.TempDir()
	start := s.srv.URL + "/docs/index.html"
	s.set(siteBefore, nil)
	withBodies := siteCrawl(t, dir, "old.json", start)
	bare := filepath.Join(dir, "bare.json")
	if code, _, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "--host-delay", "0", "--out", bare, start); code != exitOK {
		t.Fatal(stderr)
	}
	deeper := siteCrawl(t, dir, "deeper.json", start, "--depth", "1")
	other := siteCrawl(t, dir, "other.json", s.srv.URL+"/docs/a.html")
	good, err := os.ReadFile(withBodies)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	badJSON := write("bad.json", `{"format": "vigil-site-snapshot/1", "pages": [}`)
	badDepth := write("depth.json", strings.Replace(string(good), `"depth": 1`, `"depth": 0`, 1))
	empty := write("empty.json", "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "xml", withBodies, withBodies}, `vigil site diff: --format "xml": want summary or json`},
		{[]string{"--content", "--format", "json", withBodies, withBodies}, "vigil site diff: --content: only with --format summary"},
		{[]string{"--parse", "html", withBodies, withBodies}, "vigil site diff: --parse: only with --content"},
		{[]string{"--whitespace", "keep", withBodies, withBodies}, "vigil site diff: --whitespace: only with --content"},
		{[]string{"--content", "--whitespace", "none", withBodies, withBodies}, `vigil site diff: --whitespace "none": want normalize or keep`},
		{[]string{"--max-bytes", "0", withBodies, withBodies}, "vigil site diff: --max-bytes 0: want a positive number of bytes"},
		{[]string{"--max-bytes", "100", withBodies, withBodies}, "vigil site diff: " + withBodies + ": " + fmt.Sprint(len(good)) + " bytes is more than the limit of 100 (--max-bytes)\n"},
		{[]string{"--content", withBodies, bare}, "vigil site diff: --content: " + bare + " has no page bodies (vigil site crawl --bodies keeps them)"},
		{[]string{withBodies, deeper}, "vigil site diff: " + withBodies + " and " + deeper + ` are snapshots of different queries: query.maxDepth is "3" in ` + withBodies + ` and "1" in ` + deeper},
		{[]string{other, withBodies}, "vigil site diff: " + other + " and " + withBodies + " are snapshots of different queries: query.start is"},
		{[]string{filepath.Join(dir, "missing.json"), withBodies}, "vigil site diff: open " + filepath.Join(dir, "missing.json") + ": no such file or directory"},
		{[]string{dir, withBodies}, "vigil site diff: " + dir + ": a folder, not a file"},
		{[]string{withBodies, badJSON}, "vigil site diff: " + badJSON + ": snapshot: invalid JSON at byte 47"},
		{[]string{withBodies, empty}, "vigil site diff: " + empty + ": snapshot: empty input"},
		{[]string{badDepth, withBodies}, "vigil site diff: " + badDepth + ": snapshot: page 2 (" + s.srv.URL + "/docs/a.html): depth: 0, but only the first page is at depth 0"},
		{[]string{"-", "-"}, "vigil site diff: only one of OLD and NEW can be standard input"},
		{[]string{withBodies}, "vigil site diff: want 2 arguments, got 1"},
		{[]string{"--colour", withBodies, withBodies}, "flag provided but not defined: -colour"},
	} {
		code, stdout, stderr := runVigilEnv(t, nil, append([]string{"site", "diff"}, tc.args...)...)
		if code != exitError || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
	// OLD crawled after NEW: a note, and the comparison.
	later := filepath.Join(dir, "later.json")
	if code, _, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "--host-delay", "0", "--out", later, start); code != exitOK {
		t.Fatal(stderr)
	}
	code, stdout, stderr := runVigilEnv(t, nil, "site", "diff", later, bare)
	if code != exitOK || !strings.HasPrefix(stdout, "total: 0 added") || !strings.Contains(stderr, "vigil site diff: note: "+bare+" was crawled (") ||
		!strings.HasSuffix(stderr, "are OLD and NEW swapped?\n") {
		t.Errorf("swapped: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, stdout, _ := runVigilEnv(t, nil, "site", "diff", "-h"); code != exitOK || !strings.Contains(stdout, "Usage: vigil site diff [flags] OLD NEW") {
		t.Errorf("-h: exit %d, %q", code, stdout)
	}
}

// TestSiteDiffScopeOrder: the --scope prefixes are a set: two crawls given
// them in another order, or one twice, are of one query, and so is a
// snapshot written before the scope was recorded sorted. vigil site diff
// refused them as "snapshots of different queries".
func TestSiteDiffScopeOrder(t *testing.T) {
	s := newSyntheticSite(t)
	s.set(siteBefore, nil)
	dir := t.TempDir()
	start := s.srv.URL + "/docs/index.html"
	a, b := s.srv.URL+"/docs/a.html", s.srv.URL+"/docs/guide.html"
	ab := siteCrawl(t, dir, "ab.json", start, "--scope", a, "--scope", b)
	ba := siteCrawl(t, dir, "ba.json", start, "--scope", b, "--scope", a, "--scope", b)
	if code, out := siteDiff(t, ab, ba); code != exitOK || !strings.HasPrefix(out, "total: 0 added, 0 removed, 0 changed") {
		t.Errorf("--scope A --scope B, then B A B: exit %d, %q", code, out)
	}
	if got := decodeSnapshot(t, ba).Query.Scope; !slices.Equal(got, []string{a, b}) {
		t.Errorf("recorded scope %q, want %q", got, []string{a, b})
	}
	// As an earlier vigil wrote it: the prefixes in the order given.
	raw, err := os.ReadFile(ab)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(string(raw), fmt.Sprintf("%q,\n      %q", a, b), fmt.Sprintf("%q,\n      %q", b, a), 1)
	if old == string(raw) {
		t.Fatalf("no scope %q %q to swap in %s", a, b, raw[:300])
	}
	unsorted := filepath.Join(dir, "unsorted.json")
	if err := os.WriteFile(unsorted, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := siteDiff(t, unsorted, ba); code != exitOK || !strings.HasPrefix(out, "total: 0 added, 0 removed, 0 changed") {
		t.Errorf("an unsorted scope of an earlier snapshot: exit %d, %q", code, out)
	}
}

// TestSiteDiffUnread: a page that a crawl read and the next left unread,
// though a page read still links to it, is deleted "still linked", with
// the bound that cut it (the page limit, or the depth), and a page read
// that was linked but unread before is added "linked before"; both were
// said to be "no longer reached" (or nothing), which sent the user to
// look for a link that is still there.
func TestSiteDiffUnread(t *testing.T) {
	s := newSyntheticSite(t)
	dir := t.TempDir()
	start := s.srv.URL + "/docs/index.html"
	// The index links to a, b and c; a page limit of 3 reads the index
	// and two of them, then the index links to more.
	s.set(map[string]string{
		"/docs/index.html": `<title>Docs</title><a href="a.html">A</a> <a href="b.html">B</a>`,
		"/docs/a.html":     `<title>A</title><a href="deep.html">Deep</a>`,
		"/docs/b.html":     `<title>B</title>`,
		"/docs/c.html":     `<title>C</title>`,
		"/docs/deep.html":  `<title>Deep</title>`,
	}, nil)
	before := siteCrawl(t, dir, "before.json", start, "--max-pages", "3", "--depth", "1", "--order", "breadth")
	s.set(map[string]string{
		"/docs/index.html": `<title>Docs</title><a href="c.html">C</a> <a href="a.html">A</a> <a href="b.html">B</a>`,
		"/docs/a.html":     `<title>A</title><a href="deep.html">Deep</a>`,
		"/docs/b.html":     `<title>B</title>`,
		"/docs/c.html":     `<title>C</title>`,
		"/docs/deep.html":  `<title>Deep</title>`,
	}, nil)
	after := siteCrawl(t, dir, "after.json", start, "--max-pages", "3", "--depth", "1", "--order", "breadth")
	_, out := siteDiff(t, before, after)
	for _, want := range []string{
		"+ added    " + s.srv.URL + "/docs/c.html \"C\"  via index.html\n",
		"- removed  " + s.srv.URL + "/docs/b.html \"B\"  via index.html  (still linked, not read: the crawl stopped at --max-pages 3)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("diff:\n%s\nwant a line %q", out, want)
		}
	}
	// By the depth: deep.html, read at depth 2, is linked from a page at
	// --depth 1 when the index no longer links to it.
	s.set(map[string]string{
		"/docs/index.html": `<title>Docs</title><a href="a.html">A</a> <a href="deep.html">Deep</a>`,
		"/docs/a.html":     `<title>A</title><a href="deep.html">Deep</a>`,
		"/docs/deep.html":  `<title>Deep</title>`,
	}, nil)
	deep := siteCrawl(t, dir, "deep.json", start, "--max-pages", "3", "--depth", "1", "--order", "breadth")
	s.set(map[string]string{
		"/docs/index.html": `<title>Docs</title><a href="a.html">A</a>`,
		"/docs/a.html":     `<title>A</title><a href="deep.html">Deep</a>`,
		"/docs/deep.html":  `<title>Deep</title>`,
	}, nil)
	shallow := siteCrawl(t, dir, "shallow.json", start, "--max-pages", "3", "--depth", "1", "--order", "breadth")
	_, out = siteDiff(t, deep, shallow)
	if want := "- removed  " + s.srv.URL + "/docs/deep.html \"Deep\"  via index.html  (still linked, beyond --depth 1)\n"; !strings.Contains(out, want) {
		t.Errorf("diff:\n%s\nwant a line %q", out, want)
	}
	s.set(map[string]string{
		"/docs/index.html": `<title>Docs</title><a href="a.html">A</a> <a href="deep.html">Deep</a>`,
		"/docs/a.html":     `<title>A</title><a href="deep.html">Deep</a>`,
		"/docs/deep.html":  `<title>Deep</title>`,
	}, nil)
	deepAgain := siteCrawl(t, dir, "deep-again.json", start, "--max-pages", "3", "--depth", "1", "--order", "breadth")
	_, out = siteDiff(t, shallow, deepAgain)
	if want := "+ added    " + s.srv.URL + "/docs/deep.html \"Deep\"  via index.html  (linked before, beyond --depth 1)\n"; !strings.Contains(out, want) {
		t.Errorf("diff:\n%s\nwant a line %q", out, want)
	}
}

// TestSiteDiffContentChange: the content line of each kind of modified
// page.
func TestSiteDiffContentChange(t *testing.T) {
	page := func(ctype, body string) *crawl.Page {
		p := &crawl.Page{URL: "http://site.test/p", ContentType: ctype, Body: body, Size: int64(len(body))}
		if body != "" || ctype == "text/html" {
			p.Hash = fmt.Sprintf("h%d:%s", len(body), body)
		}
		return p
	}
	opt, err := (&docFlags{whitespace: "normalize", parse: "auto", maxBytes: 1 << 20}).options()
	if err != nil {
		t.Fatal(err)
	}
	sd := &siteDelta{opt: opt}
	for _, tc := range []struct {
		name          string
		before, after *crawl.Page
		want          string
	}{
		{"one update", page("text/html", "<p>Last updated 1</p><p>x</p>"), page("text/html", "<p>Last updated 2</p><p>x</p>"), `1 text update: "Last updated 1" -> "Last updated 2"`},
		{"more", page("text/html", "<p>a</p><p>b</p>"), page("text/html", "<p>b</p><p>a</p><div>c d</div>"), "1 inserted (2 nodes), 1 moved"},
		{"white space", page("text/html", "<p>a</p>"), page("text/html", "<p>a</p>\n"), "no change"},
		{"same bytes", page("text/html", "<p>a</p>"), page("text/html", "<p>a</p>"), "the same bytes (the version changed, the content did not)"},
		{"binary", page("image/png", ""), page("image/png", ""), "not compared: no body (a binary document)"},
		// A page served as text is compared as its source text, a line a
		// node, as the monitor and a crawl read it: a text sitemap whose
		// one line changed, a style sheet. They were not compared.
		{"stylesheet", page("text/css", "p {}"), page("text/css", "p { margin: 0 }"), `1 text update: "p {}" -> "p { margin: 0 }"`},
		{"text sitemap", page("text/plain", "https://a.test/1\nhttps://a.test/2\n"), page("text/plain", "https://a.test/1\nhttps://a.test/3\n"), `1 text update: "https://a.test/2" -> "https://a.test/3"`},
		{"text, a line added", page("text/plain", "a\nb\n"), page("text/plain", "a\nb\nc\n"), "1 inserted (1 node)"},
		{"JSON", page("application/json", "{\"v\": 1}"), page("application/json", "{\"v\": 2}"), `1 text update: "{\"v\": 1}" -> "{\"v\": 2}"`},
		{"neither markup nor text", page("application/pdf", "%PDF-1"), page("application/pdf", "%PDF-2"), "6 bytes -> 6 bytes (application/pdf, not compared: not HTML, XML or text)"},
		// Markup by vigil.IsMarkupMediaType, the warehouse's rule: an
		// XSLT style sheet is XML, and was not compared.
		{"XSLT", page("text/xsl", "<r><t>Last updated 1</t></r>"), page("text/xsl", "<r><t>Last updated 2</t></r>"), `1 text update: "Last updated 1" -> "Last updated 2"`},
		{"empty", page("text/html", "<p>a</p>"), page("text/html", ""), "not compared: new version: http://site.test/p: empty document: no root element"},
	} {
		if got := sd.contentChange(tc.before, tc.after); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// BenchmarkSiteDiffCorpus runs vigil site diff, in process, on snapshots
// of the whole site corpus (both releases crawled from their directory
// listings: 230 and 231 pages), without and with the bodies (8.4 and 8.5
// MB), as the summary, as JSON and with --content: reading and validating
// the snapshots, the web tables, webtable.Diff and the output; and the web
// tables and webtable.Diff alone.
//
//	go test -run '^$' -bench SiteDiffCorpus -benchmem ./cmd/vigil
func BenchmarkSiteDiffCorpus(b *testing.B) {
	rel := siteCorpus(b)
	s := crawltest.NewSite(b, rel[crawltest.OldRelease])
	s.Listing = true
	dir := b.TempDir()
	var files, bare []string
	for _, r := range []string{crawltest.OldRelease, crawltest.NewRelease} {
		s.Set(rel[r], nil)
		for _, bodies := range []bool{true, false} {
			out := filepath.Join(dir, fmt.Sprintf("%s-%v.json", r, bodies))
			var stderr bytes.Buffer
			env := &environment{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, getenv: func(k string) string { return allowPrivate[k] }}
			if code := run(b.Context(), env, []string{"site", "crawl", fmt.Sprintf("--bodies=%v", bodies), "--host-delay", "0", "--max-pages", "1000", "--out", out, s.URL("/")}); code != exitOK {
				b.Fatalf("crawl %s: %s", r, stderr.String())
			}
			if bodies {
				files = append(files, out)
			} else {
				bare = append(bare, out)
			}
		}
	}
	// The web tables and their delta alone, from the decoded snapshots.
	b.Run("tables+Diff", func(b *testing.B) {
		f1, err := os.ReadFile(files[0])
		if err != nil {
			b.Fatal(err)
		}
		f2, err := os.ReadFile(files[1])
		if err != nil {
			b.Fatal(err)
		}
		s1, err := crawl.Decode(bytes.NewReader(f1), 0)
		if err != nil {
			b.Fatal(err)
		}
		s2, err := crawl.Decode(bytes.NewReader(f2), 0)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			w1, err := s1.Table(crawl.ByContent)
			if err != nil {
				b.Fatal(err)
			}
			w2, err := s2.Table(crawl.ByContent)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := webtable.Diff(w1, w2, &siteDiffOptions); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, tc := range []struct {
		name  string
		args  []string
		files []string
	}{
		{"summary/no-bodies", nil, bare},
		{"summary", nil, files},
		{"json", []string{"--format", "json"}, files},
		{"content", []string{"--content"}, files},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				var stdout, stderr bytes.Buffer
				env := &environment{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
				if code := run(b.Context(), env, append(append([]string{"site", "diff"}, tc.args...), tc.files...)); code != exitChanged {
					b.Fatalf("exit %d: %s", code, stderr.String())
				}
			}
		})
	}
}

// TestSiteDiffRedeployed: a site served again with every file's
// Last-Modified date new and its bytes the same (deployed again) has no
// page modified by content, the default, and every page modified by
// date (--identity date, the seed's identity); the date was the version,
// and every page of such a site was reported modified.
func TestSiteDiffRedeployed(t *testing.T) {
	rel := siteCorpus(t)
	files := rel[crawltest.OldRelease]
	dated := func(at time.Time) map[string]time.Time {
		d := make(map[string]time.Time, len(files))
		for p := range files {
			d[p] = at
		}
		return d
	}
	s := crawltest.NewSite(t, files)
	s.Set(files, dated(time.Date(2020, 12, 27, 0, 0, 0, 0, time.UTC)))
	dir := t.TempDir()
	before := siteCrawl(t, dir, "before.json", s.URL("/"))
	s.Set(files, dated(time.Date(2021, 1, 4, 9, 0, 0, 0, time.UTC)))
	after := siteCrawl(t, dir, "after.json", s.URL("/"))
	pages := len(decodeSnapshot(t, before).Pages)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, exitOK, fmt.Sprintf("total: 0 added, 0 removed, 0 changed, %d unchanged", pages)},
		{[]string{"--identity", "content"}, exitOK, fmt.Sprintf("total: 0 added, 0 removed, 0 changed, %d unchanged", pages)},
		{[]string{"--identity", "date"}, exitChanged, fmt.Sprintf("total: 0 added, 0 removed, %d changed, 0 unchanged", pages)},
	} {
		code, out := siteDiff(t, append(tc.args, before, after)...)
		if code != tc.code || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, %s; want %d and %q", tc.args, code, lastLine(out), tc.code, tc.want)
		}
	}
}

// lastLine returns the last line of s.
func lastLine(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// TestSiteDiffFailingWith200: a page that now fails on a 200 answer (a
// content coding no one knows, a body over the cap, NUL bytes in a text
// page) is reported with its error, not "now failing: HTTP 200".
func TestSiteDiffFailingWith200(t *testing.T) {
	var coding atomic.Value
	coding.Store("identity")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/docs/" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(`<title>Docs</title><a href="a.html">A</a>`))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", coding.Load().(string))
		w.Write([]byte(`<title>A</title>`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	before := siteCrawl(t, dir, "before.json", srv.URL+"/docs/")
	coding.Store("x-unknown")
	after := siteCrawl(t, dir, "after.json", srv.URL+"/docs/")
	_, out := siteDiff(t, before, after)
	if strings.Contains(out, "now failing: HTTP 200") || !strings.Contains(out, "now failing: fetch "+srv.URL+"/docs/a.html: bad content encoding") {
		t.Errorf("a page that fails on a 200 answer is not described by its error:\n%s", out)
	}
}

// siteCorpus returns the two releases of the site corpus (crawltest.Corpus,
// with the zstd adapter for the archive CI reads).
func siteCorpus(t testing.TB) map[string]crawltest.Release {
	t.Helper()
	rel, err := crawltest.Corpus(func(b []byte) ([]byte, error) {
		codec, err := zstd.New(0)
		if err != nil {
			return nil, err
		}
		return codec.Decompress(b)
	})
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// TestSiteDiffFormatV1: a snapshot of format 1 (scope prefixes matched as
// raw text) compares with one of today's format, with a note when a scope
// prefix reads differently by the two rules.
func TestSiteDiffFormatV1(t *testing.T) {
	s := newSyntheticSite(t)
	dir := t.TempDir()
	s.set(siteBefore, nil)
	for _, tc := range []struct {
		scope string
		note  bool
	}{{"/docs", true}, {"/docs/", false}} {
		cur := siteCrawl(t, dir, "cur.json", s.srv.URL+"/docs/index.html", "--scope", s.srv.URL+tc.scope)
		data, err := os.ReadFile(cur)
		if err != nil {
			t.Fatal(err)
		}
		old := filepath.Join(dir, "v1.json")
		if err := os.WriteFile(old, bytes.Replace(data, []byte(crawl.Format), []byte(crawl.FormatV1), 1), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runVigilEnv(t, nil, "site", "diff", old, cur)
		want := "vigil site diff: note: " + old + " is of format " + crawl.FormatV1 + " and " + cur + " of format " + crawl.Format +
			": the scope prefix " + s.srv.URL + "/docs took the URLs starting with its text in the first"
		if code != exitOK || !strings.HasPrefix(stdout, "total: 0 added") || strings.Contains(stderr, want) != tc.note {
			t.Errorf("scope %s: exit %d, stdout %q, stderr %q; want a note: %v", tc.scope, code, stdout, stderr, tc.note)
		}
	}
}

// TestSiteDiffReadAsText: a page rewritten so that it no longer parses
// (600 nested <div>s) is read as its source text, without title or
// links; the summary says so on its line and on the line of the page it
// linked to, rather than leaving an empty title and "no longer reached"
// unexplained; and says when it is read as a page again.
func TestSiteDiffReadAsText(t *testing.T) {
	s := newSyntheticSite(t)
	page := func(inner string) string { return `<title>P</title>` + inner }
	// Its link to q.html with a template's placeholder for a fragment: a
	// page's link to q.html, which no reading of a text takes for a URL
	// (intent's markupRefs), so that q.html is reached through p.html
	// read as a page only.
	deep := page(strings.Repeat("<div>", 600) + `<a href="q.html#{top}">Q</a>` + strings.Repeat("</div>", 600))
	s.set(map[string]string{
		"/docs/":       `<title>Docs</title><a href="p.html">P</a>`,
		"/docs/p.html": page(`<div><a href="q.html">Q</a></div>`),
		"/docs/q.html": `<title>Q</title>`,
	}, nil)
	dir := t.TempDir()
	before := siteCrawl(t, dir, "before.json", s.srv.URL+"/docs/")
	s.pages["/docs/p.html"] = deep
	after := siteCrawl(t, dir, "after.json", s.srv.URL+"/docs/")
	p, q := s.srv.URL+"/docs/p.html", s.srv.URL+"/docs/q.html"
	_, out := siteDiff(t, before, after)
	lines := summaryLines(out)
	if got, want := lines[p], `~ changed  `+p+` "P" ->  via ./  (importance `; !strings.HasPrefix(got, want) ||
		!strings.Contains(got, "; read as text: markup: parse HTML: elements nested more than 512 deep") {
		t.Errorf("line of %s: %q, want %q... and the reading of it as text", p, got, want)
	}
	if got, want := lines[q], `- removed  `+q+` "Q"  via ./ > p.html  (no longer reached: p.html is read as text)`; got != want {
		t.Errorf("line of %s: %q, want %q", q, got, want)
	}
	// And back: the page parses again.
	s.set(map[string]string{
		"/docs/":       `<title>Docs</title><a href="p.html">P</a>`,
		"/docs/p.html": page(`<div><a href="q.html">Q</a></div>`),
		"/docs/q.html": `<title>Q</title>`,
	}, nil)
	again := siteCrawl(t, dir, "again.json", s.srv.URL+"/docs/")
	_, out = siteDiff(t, after, again)
	if got, want := summaryLines(out)[p], `~ changed  `+p+` -> "P"  via ./  (importance `; !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "; read as a page again)") {
		t.Errorf("line of %s: %q, want %q... and read as a page again", p, got, want)
	}
	// The JSON format says it too, for each snapshot a changed page is
	// read as text in, and names no page read as one (readAsText); and
	// how each changed page is read in each snapshot it is in (reading:
	// page or text, none in a snapshot without it).
	const why = "parse HTML: elements nested more than 512 deep"
	for _, tc := range []struct {
		name, old, new string
		want           map[string]siteReadAsText
		reading        map[string]siteReading
	}{
		{"no longer parses", before, after, map[string]siteReadAsText{p: {New: why}},
			map[string]siteReading{p: {Old: "page", New: "text"}, q: {Old: "page"}}},
		{"parses again", after, again, map[string]siteReadAsText{p: {Old: why}},
			map[string]siteReading{p: {Old: "text", New: "page"}, q: {New: "page"}}},
		{"no change", before, before, nil, nil},
	} {
		_, out := siteDiff(t, "--format", "json", tc.old, tc.new)
		var got struct {
			ReadAsText map[string]siteReadAsText `json:"readAsText"`
			Reading    map[string]siteReading    `json:"reading"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v\n%s", tc.name, err, out)
		}
		if !reflect.DeepEqual(got.Reading, tc.reading) {
			t.Errorf("%s: reading %+v, want %+v", tc.name, got.Reading, tc.reading)
		}
		for u, r := range got.ReadAsText { // the reasons go on after their start
			if w, ok := tc.want[u]; ok && strings.HasPrefix(r.Old, w.Old) && strings.HasPrefix(r.New, w.New) && (r.Old == "") == (w.Old == "") && (r.New == "") == (w.New == "") {
				got.ReadAsText[u] = w
			}
		}
		if !reflect.DeepEqual(got.ReadAsText, tc.want) {
			t.Errorf("%s: readAsText %+v, want %+v", tc.name, got.ReadAsText, tc.want)
		}
	}
}

// summaryLines returns the lines of vigil site diff's summary by URL.
func summaryLines(out string) map[string]string {
	lines := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 2 && strings.Contains("+~-", f[0]) {
			lines[f[2]] = line
		}
	}
	return lines
}

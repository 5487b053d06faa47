package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func runOpicBench(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := &environment{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	code := run(context.Background(), env, append([]string{"bench", "opic"}, args...))
	return code, out.String(), errOut.String()
}

// writeOpicSite writes a tiny site with two releases: the second adds a
// page, linked from the home page, and changes one page.
func writeOpicSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	page := func(links ...string) string {
		var b strings.Builder
		b.WriteString("<!DOCTYPE html><html><body>")
		for _, l := range links {
			b.WriteString(`<a href="` + l + `">x</a>`)
		}
		b.WriteString("</body></html>")
		return b.String()
	}
	releases := map[string]map[string]string{
		"v1.9.0": {
			"index.html":       page("a.html", "b.html#top", "howto/c.html", "https://example.com/", "#self", "style.css"),
			"a.html":           page("index.html", "b.html"),
			"b.html":           page("a.html", "../outside.html"),
			"howto/c.html":     page("../index.html", "/a.html"),
			"howto/empty.html": page(),
		},
		"v1.10.0": {
			"index.html":       page("a.html", "b.html#top", "howto/c.html", "new.html"),
			"a.html":           page("index.html", "b.html", "new.html"),
			"b.html":           page("a.html"),
			"new.html":         page("index.html"),
			"howto/c.html":     page("../index.html", "/a.html"),
			"howto/empty.html": page(),
		},
	}
	for rel, pages := range releases {
		for name, body := range pages {
			p := filepath.Join(dir, rel, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	readme := "- `v1.9.0/` is commit x (2021-01-01).\n- `v1.10.0/` is commit y (2021-03-02).\n"
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte(readme), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestBenchOpic(t *testing.T) {
	site := writeOpicSite(t)
	code, out, errOut := runOpicBench(t, "--pages", "1500,3000", "--reads", "1,3", "--adaptive-pages", "1500",
		"--static-passes", "2", "--after", "1,2", "--site", site)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"opic bench: alpha 0.15",
		"== graph powerlaw-1500: 1500 pages",
		"== graph powerlaw-3000: 3000 pages",
		"reads/page", "err all %", "err top10 %", "spearman",
		" greedy ", " cycle ", " random ", " offline ",
		"== changing graph: powerlaw-1500",
		"cumulative (static OPIC)", "interpolation 2 passes", "variable window 8 measures", "improved fixed window 4 passes, min 3",
		"== site " + filepath.Base(site) + " v1.9.0: 5 pages",
		"== site " + filepath.Base(site) + " v1.10.0: 6 pages",
		"1 to missing pages",
		"== changing site graph",
		"site importance of the sections",
		"howto/",
		"refresh order",
		"in 60 days",
		"target greedy top-10% error after 3 reads/page on 1000000 pages:",
		"measured on 3000 pages only",
		"target simulated page reads/s on one core, greedy on 3000 pages:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// The state is measured from the heap (24 B a page): a collection
	// under load can shift the count by a byte.
	state := regexp.MustCompile(`target per-page state: (\d+) B in memory, at most (\d+) B with the greedy heap, 20 B encoded \(target <= 32 B\): PASS`)
	if m := state.FindStringSubmatch(out); m == nil {
		t.Errorf("output lacks the per-page state's target line, met")
	} else if mem, _ := strconv.Atoi(m[1]); mem < 22 || mem > 26 {
		t.Errorf("per-page state %s B in memory, want 24 (±2)", m[1])
	}
	if t.Failed() {
		t.Log(out)
	}
}

func TestBenchOpicFlags(t *testing.T) {
	if code, _, _ := runOpicBench(t, "-h"); code != exitOK {
		t.Errorf("-h: exit %d", code)
	}
	for _, args := range [][]string{{"--pages", "x"}, {"--pages", "1"}, {"--reads", "0"}, {"--nope"}, {"extra"}, {"--site", "/does/not/exist", "--pages", "100", "--adaptive-pages", "0"}} {
		if code, _, errOut := runOpicBench(t, args...); code != exitError || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestBenchOpicSiteCheckedFirst: a --site that is no folder of releases
// is refused before the synthetic graphs are built and measured, which
// takes minutes at the default sizes, not after them.
func TestBenchOpicSiteCheckedFirst(t *testing.T) {
	empty := t.TempDir()
	file := filepath.Join(empty, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, site := range []string{filepath.Join(empty, "missing"), empty, file} {
		code, out, errOut := runOpicBench(t, "--site", site, "--pages", "100", "--adaptive-pages", "100")
		if code != exitError || out != "" || !strings.Contains(errOut, "--site") {
			t.Errorf("--site %s: exit %d, stdout %q, stderr %q; want exit %d, nothing measured, an error naming --site", site, code, out, errOut, exitError)
		}
	}
}

func TestOpicResolve(t *testing.T) {
	cases := []struct {
		from, href, want string
		internal         bool
	}{
		{"git.html", "git-add.html", "git-add.html", true},
		{"git.html", "git-add.html#_options", "git-add.html", true},
		{"howto/x.html", "../git.html", "git.html", true},
		{"git-config.html", "../technical/pack-format.html", "../technical/pack-format.html", true},
		{"git.html", "/howto/y.html", "howto/y.html", true},
		{"git.html", "#top", "", true},
		{"git.html", "git.html#top", "", true},
		{"git.html", "docbook-xsl.css", "", true},
		{"git.html", "https://git-scm.com/docs", "", false},
		{"git.html", "mailto:git@vger.kernel.org", "", false},
	}
	for _, c := range cases {
		got, internal := opicResolve(c.from, c.href)
		if got != c.want || internal != c.internal {
			t.Errorf("opicResolve(%q, %q) = %q, %v; want %q, %v", c.from, c.href, got, internal, c.want, c.internal)
		}
	}
	if opicCompareVersions("v2.9.0", "v2.30.0") >= 0 || opicCompareVersions("v2.31.0", "v2.30.0") <= 0 {
		t.Error("versions compare as strings")
	}
}

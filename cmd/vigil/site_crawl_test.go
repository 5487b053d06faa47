package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/fetch/proxytest"
)

// crawlSite serves a site of three pages and a page out of its directory,
// counting the requests.
func crawlSite(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var hits atomic.Int64
	pages := map[string]string{
		"/docs/":       `<title>Docs</title><a href="a.html">A</a> <a href="b.html">B</a> <a href="/blog/">Blog</a>`,
		"/docs/a.html": `<title>A</title><a href="b.html">B</a> <a href="gone.html">Gone</a>`,
		"/docs/b.html": `<title>B</title><a href="./">Docs</a>`,
		"/blog/":       `<title>Blog</title>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

var allowPrivate = map[string]string{"VIGIL_ALLOW_PRIVATE_NETWORKS": "true"}

// TestSiteCrawl: the snapshot goes to standard output (or to --out, and
// then nothing does), decodes, and holds what the flags asked for; the
// summary is one line on standard error.
func TestSiteCrawl(t *testing.T) {
	srv, _ := crawlSite(t)
	code, stdout, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "--host-delay", "0", srv.URL+"/docs/")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	snap, err := crawl.Decode(strings.NewReader(stdout), 0)
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, p := range snap.Pages {
		urls = append(urls, strings.TrimPrefix(p.URL, srv.URL))
	}
	if strings.Join(urls, " ") != "/docs/ /docs/a.html /docs/b.html /docs/gone.html" || snap.Query.MaxDepth != 3 || snap.Query.MaxPages != 500 {
		t.Errorf("pages %v, query %+v", urls, snap.Query)
	}
	summary := regexp.MustCompile(`^crawled http://127\.0\.0\.1:\d+/docs/: 4 pages \(1 failed\), 5 links, 0 redirects in \d+ms; most important: \./ \(\d+\.\d\d%\)\n$`)
	if !summary.MatchString(stderr) {
		t.Errorf("summary %q", stderr)
	}

	out := filepath.Join(t.TempDir(), "snap.json")
	code, stdout, stderr = runVigilEnv(t, allowPrivate, "site", "crawl", srv.URL+"/docs/", "--host-delay", "0", "--depth", "1", "--max-pages", "2",
		"--scope", srv.URL+"/docs/", "--scope", srv.URL+"/blog/", "--match", `/(docs|blog)/(a\.html)?$`, "--bodies", "--out", out)
	if code != exitOK || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, ": 2 pages (0 failed), 2 links, 0 redirects in ") || !regexp.MustCompile(`; stopped at --max-pages 2 with pages left; most important: a\.html \(\d+\.\d\d%\)\n$`).MatchString(stderr) {
		t.Errorf("summary %q", stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	snap, err = crawl.Decode(bytes.NewReader(data), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Pages) != 2 || snap.Pages[1].URL != srv.URL+"/docs/a.html" || !strings.HasPrefix(snap.Pages[1].Body, `<title>A</title>`) || !snap.Truncated ||
		len(snap.Query.Scope) != 2 || !snap.Query.Bodies {
		t.Errorf("snapshot %s", data)
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
		t.Errorf("%d files beside the snapshot", len(entries)-1)
	}
}

// TestSiteCrawlScopeWithoutStart: a --scope that does not take URL is
// taken, as a site sentinel's scope is (a home page that links into
// /docs/ is a start for --scope .../docs/), and the crawl follows URL's
// links into it; when URL links to no page inside it, the crawl that
// read URL alone says why, exit 0. It said nothing, as if the site had
// one page.
func TestSiteCrawlScopeWithoutStart(t *testing.T) {
	srv, _ := crawlSite(t)
	code, stdout, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "--host-delay", "0", "--scope", srv.URL+"/blog/", srv.URL+"/docs/")
	snap, err := crawl.Decode(strings.NewReader(stdout), 0)
	if err != nil {
		t.Fatalf("exit %d, %v: %s", code, err, stderr)
	}
	if code != exitOK || len(snap.Pages) != 2 || snap.Pages[1].URL != srv.URL+"/blog/" || strings.Contains(stderr, "warning") {
		t.Errorf("/docs/ linking into --scope /blog/: exit %d, %d pages, stderr %q; want 0, /docs/ and /blog/, no warning", code, len(snap.Pages), stderr)
	}
	for _, c := range []struct {
		flags []string
		named string
	}{
		{[]string{"--scope", srv.URL + "/docs/"}, "--scope"},
		{[]string{"--match", "/docs/"}, "--match"},
		{[]string{"--scope", srv.URL + "/docs/", "--match", "a"}, "--scope and --match"},
	} {
		args := append(append([]string{"site", "crawl", "--host-delay", "0"}, c.flags...), srv.URL+"/blog/")
		code, stdout, stderr = runVigilEnv(t, allowPrivate, args...)
		want := "vigil site crawl: warning: " + srv.URL + "/blog/ is outside " + c.named + " and links to no page inside: it is the only page crawled\n"
		if code != exitOK || !strings.HasSuffix(stderr, want) || !strings.Contains(stdout, `"pages"`) {
			t.Errorf("%q: exit %d, stderr %q; want 0, a snapshot, and %q", c.flags, code, stderr, want)
		}
	}
}

// TestSiteCrawlOutSymlink: --out through a symbolic link replaces the
// file it points to and keeps the link (it replaced the link with the
// snapshot); a link to no file yet makes that file.
func TestSiteCrawlOutSymlink(t *testing.T) {
	srv, _ := crawlSite(t)
	dir := t.TempDir()
	for name, target := range map[string]string{"existing": "old.json", "dangling": "new.json"} {
		if target == "old.json" {
			if err := os.WriteFile(filepath.Join(dir, target), []byte("{}"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		link := filepath.Join(dir, name+".json")
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "--host-delay", "0", "--depth", "0", "--out", link, srv.URL+"/docs/"); code != exitOK {
			t.Fatalf("%s: exit %d: %s", name, code, stderr)
		}
		if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: %s is no longer a symbolic link (%v)", name, link, err)
		}
		f, err := os.Open(filepath.Join(dir, target))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		_, err = crawl.Decode(f, 0)
		f.Close()
		if err != nil {
			t.Errorf("%s: %s: %v", name, target, err)
		}
	}
	if info, err := os.Stat(filepath.Join(dir, "old.json")); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("old.json: mode %v (%v), want 0600 kept", info.Mode(), err)
	}
}

// TestSiteCrawlIDN: a host name written in its own script is taken in its
// ASCII (punycode) form, as a sentinel's is; vigil site crawl refused it
// ("host must be ASCII (punycode)") where Using site accepts it.
func TestSiteCrawlIDN(t *testing.T) {
	srv, _ := crawlSite(t)
	code, stdout, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "--host-delay", "0", "--depth", "0",
		"--scope", "https://Bücher.example:8443/docs", srv.URL+"/docs/")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	snap, err := crawl.Decode(strings.NewReader(stdout), 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := "https://xn--bcher-kva.example:8443/docs"; len(snap.Query.Scope) != 1 || snap.Query.Scope[0] != want {
		t.Errorf("scope %q, want [%q]", snap.Query.Scope, want)
	}
	// A Unicode name IDNA refuses is an error naming it, not a URL
	// CanonicalURL then refused for its Unicode alone.
	if code, _, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "http://-bücher.example/"); code != exitError ||
		!strings.Contains(stderr, `host "-bücher.example"`) {
		t.Errorf("site crawl of a host IDNA refuses: %d %s; want an error naming the host", code, stderr)
	}
	// A name DNS refuses, as start or as scope, is an error naming the
	// host and what is wrong with it.
	for _, args := range [][]string{{"http://a..example/"}, {"--scope", "http://a.example../", "http://a.example/"}} {
		if code, _, stderr := runVigilEnv(t, allowPrivate, append([]string{"site", "crawl"}, args...)...); code != exitError ||
			!strings.Contains(stderr, `has an empty label`) {
			t.Errorf("site crawl %q: %d %s; want an error naming the empty label", args, code, stderr)
		}
	}
}

// TestSiteCrawlCredentials: a start URL or scope with credentials,
// user:pass@, is refused as a sentinel's URL and import warc's target URI
// are (spec.NormalizeURL), before any request: it was crawled with them
// sent, and written into the snapshot. Written without its scheme, it is
// refused too, its password shown as xxxxx, as NormalizeURL shows it: the
// error that asked for the scheme quoted it as typed.
func TestSiteCrawlCredentials(t *testing.T) {
	srv, hits := crawlSite(t)
	withUser := strings.Replace(srv.URL, "http://", "http://user:secret@", 1)
	noScheme := strings.TrimPrefix(withUser, "http://")
	for _, args := range [][]string{
		{withUser + "/docs/"},
		{"--scope", withUser + "/docs/", srv.URL + "/docs/"},
		{noScheme + "/docs/"},
		{"--scope", noScheme + "/docs/", srv.URL + "/docs/"},
	} {
		code, stdout, stderr := runVigilEnv(t, allowPrivate, append([]string{"site", "crawl", "--host-delay", "0", "--depth", "0"}, args...)...)
		if code != exitError || !strings.Contains(stderr, "credentials") || strings.Contains(stdout+stderr, "secret") {
			t.Errorf("site crawl %q: %d, stdout %.200s, stderr %s; want refused for its credentials", args, code, stdout, stderr)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests reached the site; want none", n)
	}
}

// TestSiteCrawlPrivate: a loopback site is refused, as by vigil serve,
// unless the flag or the environment allows it.
func TestSiteCrawlPrivate(t *testing.T) {
	srv, hits := crawlSite(t)
	code, stdout, stderr := runVigilEnv(t, nil, "site", "crawl", "--host-delay", "0", srv.URL+"/docs/")
	if code != exitError || stdout != "" || !strings.Contains(stderr, "address refused") ||
		!strings.Contains(stderr, "127.0.0.1 is a loopback address (vigil site crawl --allow-private-networks fetches it)\n") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests reached the server", n)
	}
	code, _, stderr = runVigilEnv(t, map[string]string{"VIGIL_ALLOW_PRIVATE_NETWORKS": "false"}, "site", "crawl", "--allow-private-networks", "--host-delay", "0", srv.URL+"/docs/")
	if code != exitOK {
		t.Errorf("--allow-private-networks: exit %d: %s", code, stderr)
	}
}

// TestSiteCrawlBadFlags: bad arguments are refused before anything is
// fetched, with the flag named.
func TestSiteCrawlBadFlags(t *testing.T) {
	srv, hits := crawlSite(t)
	u := srv.URL + "/docs/"
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{u, "--depth", "-1"}, allowPrivate, "vigil site crawl: --depth -1: want 0 to 64\n"},
		{[]string{u, "--depth", "65"}, allowPrivate, "vigil site crawl: --depth 65: want 0 to 64\n"},
		{[]string{u, "--max-pages", "0"}, allowPrivate, "vigil site crawl: --max-pages 0: want 1 or more\n"},
		{[]string{u, "--order", "depth"}, allowPrivate, "vigil site crawl: --order \"depth\": want importance or breadth\n"},
		{[]string{u, "--scope", "docs/"}, allowPrivate, "vigil site crawl: --scope: url \"docs/\": scheme must be http or https\n"},
		{[]string{u, "--match", "a(b"}, allowPrivate, "vigil site crawl: --match: error parsing regexp: missing closing ): `a(b`\n"},
		{[]string{u, "--out", "/nonexistent/dir/snap.json"}, allowPrivate, "vigil site crawl: --out /nonexistent/dir/snap.json: no directory /nonexistent/dir\n"},
		{[]string{u, "--host-delay", "-1s"}, allowPrivate, "vigil site crawl: --host-delay -1s: want 0 or more\n"},
		{[]string{u, "--host-concurrency", "0"}, allowPrivate, "vigil site crawl: --host-concurrency 0: want 1 or more\n"},
		{[]string{u, "--fetch-timeout", "0s"}, allowPrivate, "vigil site crawl: --fetch-timeout 0s: want a duration greater than 0\n"},
		{[]string{"ftp://example.org/"}, allowPrivate, "vigil site crawl: invalid URL \"ftp://example.org/\": scheme ftp: only http and https pages can be watched\n"},
		{[]string{u}, map[string]string{"VIGIL_ALLOW_PRIVATE_NETWORKS": "maybe"}, "vigil site crawl: VIGIL_ALLOW_PRIVATE_NETWORKS=\"maybe\": not a yes-or-no value"},
		{[]string{u, "--proxy", "socks5://u:pw@proxy.invalid"}, allowPrivate, "vigil site crawl: --proxy (or VIGIL_PROXY): proxy socks5://u:xxxxx@proxy.invalid: the scheme must be http or https\n"},
		{[]string{u, "--no-proxy", "intranet.example,http://wiki.example"}, allowPrivate, "vigil site crawl: --no-proxy (or VIGIL_NO_PROXY): entry \"http://wiki.example\": "},
		{[]string{u}, map[string]string{"VIGIL_ALLOW_PRIVATE_NETWORKS": "true", "VIGIL_NO_PROXY": "10.0.0.0/33"}, "vigil site crawl: --no-proxy (or VIGIL_NO_PROXY): entry \"10.0.0.0/33\": bad prefix length \"33\""},
		{[]string{u, "--depth", "x"}, allowPrivate, "invalid value \"x\" for flag -depth"},
		{[]string{u, "--colour"}, allowPrivate, "flag provided but not defined: -colour"},
		{[]string{u, u}, allowPrivate, "Usage: vigil site crawl [flags] URL"},
		{nil, allowPrivate, "Usage: vigil site crawl [flags] URL"},
	} {
		code, stdout, stderr := runVigilEnv(t, tc.env, append([]string{"site", "crawl"}, tc.args...)...)
		if code != exitError || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests reached the server", n)
	}
	if code, stdout, _ := runVigilEnv(t, nil, "site", "crawl", "-h"); code != exitOK || !strings.Contains(stdout, "Usage: vigil site crawl") {
		t.Errorf("-h: exit %d, %q", code, stdout)
	}
}

// TestSiteCrawlHelp: the help says what the crawl does by default. It
// said the crawl followed the links breadth first, which only --order
// breadth does (the default fetches the URL with the most OPIC cash next),
// and that --proxy carried webhooks and chat notifications, which a crawl
// sends none of.
func TestSiteCrawlHelp(t *testing.T) {
	code, stdout, _ := runVigilEnv(t, nil, "site", "crawl", "-h")
	if code != exitOK {
		t.Fatalf("-h: exit %d", code)
	}
	text, flags, ok := strings.Cut(stdout, "\nFlags:\n")
	if !ok {
		t.Fatalf("-h: no flags section:\n%s", stdout)
	}
	if strings.Contains(text, "breadth first") || !strings.Contains(text, "the most OPIC cash first") || !strings.Contains(text, "--order breadth") {
		t.Errorf("the help does not say that the crawl fetches the URL with the most OPIC cash next unless --order breadth:\n%s", text)
	}
	_, proxy, _ := strings.Cut(flags, "-proxy URL\n")
	proxy, _, _ = strings.Cut(proxy, "\n")
	if !strings.Contains(proxy, "robots.txt") || strings.Contains(proxy, "webhook") || strings.Contains(proxy, "notification") {
		t.Errorf("--proxy's help does not say what a crawl sends through the proxy (page fetches and robots.txt, no notifications): %q", proxy)
	}
}

// TestSiteCrawlProxy: vigil site crawl --proxy asks the proxy for every
// page; without --allow-private-networks a loopback site is refused before
// the proxy is asked.
func TestSiteCrawlProxy(t *testing.T) {
	srv, hits := crawlSite(t)
	p := proxytest.Start(t, nil)
	code, stdout, stderr := runVigilEnv(t, nil, "site", "crawl", "--proxy", p.Server.URL, "--host-delay", "0", srv.URL+"/docs/")
	if code != exitError || stdout != "" || !strings.Contains(stderr, "127.0.0.1 is a loopback address (vigil site crawl --allow-private-networks fetches it)") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if n := hits.Load(); n != 0 || len(proxyRequests(p)) != 0 {
		t.Errorf("%d requests reached the server, the proxy was asked %q", n, proxyRequests(p))
	}
	code, _, stderr = runVigilEnv(t, map[string]string{"VIGIL_PROXY": p.Server.URL}, "site", "crawl", "--allow-private-networks", "--host-delay", "0", srv.URL+"/docs/")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	asked := strings.Join(proxyRequests(p), "\n")
	for _, path := range []string{"/robots.txt", "/docs/", "/docs/a.html", "/docs/b.html"} {
		if !strings.Contains(asked, "GET "+srv.URL+path+" ") {
			t.Errorf("the proxy was not asked for %s:\n%s", path, asked)
		}
	}
	if n := hits.Load(); n != int64(len(proxyRequests(p))) {
		t.Errorf("%d requests reached the server, %d through the proxy", n, len(proxyRequests(p)))
	}
}

// TestSiteCrawlMaxPageSize: --max-page-size caps the pages a crawl reads,
// as vigil serve's does: a page over it is in the snapshot with an error
// that names the flag, and a larger cap reads it. The crawl read 20 MiB
// at most, whatever the daemon's setting.
func TestSiteCrawlMaxPageSize(t *testing.T) {
	big := "<title>Big</title><p>" + strings.Repeat("word ", 300_000) + "</p>" // 1.5 MB
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/docs/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(big))
	}))
	t.Cleanup(srv.Close)
	for _, tc := range []struct {
		size    string
		wantErr string
	}{
		{"1", "raise it with --max-page-size (now 1 MiB)"},
		{"2", ""},
	} {
		code, stdout, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "--host-delay", "0", "--max-page-size", tc.size, srv.URL+"/docs/")
		if tc.wantErr != "" {
			if !strings.Contains(stdout+stderr, tc.wantErr) {
				t.Errorf("--max-page-size %s: exit %d, the output does not say %q:\n%s", tc.size, code, tc.wantErr, stderr)
			}
			continue
		}
		if code != exitOK {
			t.Fatalf("--max-page-size %s: exit %d: %s", tc.size, code, stderr)
		}
		snap, err := crawl.Decode(strings.NewReader(stdout), 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(snap.Pages) != 1 || snap.Pages[0].Error != "" || snap.Pages[0].Title != "Big" {
			t.Errorf("--max-page-size %s: pages %+v, want the page read", tc.size, snap.Pages)
		}
	}
	for _, bad := range []string{"0", "x", "1000000"} {
		code, _, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "--max-page-size", bad, srv.URL+"/docs/")
		if code != exitError || !strings.Contains(stderr, `--max-page-size "`+bad+`": want a whole number of MiB`) {
			t.Errorf("--max-page-size %s: exit %d, %s", bad, code, stderr)
		}
	}
}

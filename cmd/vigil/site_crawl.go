package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/fetch"
)

func init() {
	register(&command{name: "site crawl", summary: "crawl a site from a URL and write its snapshot (pages, versions, links) as JSON", run: runSiteCrawl})
}

// scopeFlag collects the values of a repeated --scope.
type scopeFlag []string

func (s *scopeFlag) String() string { return strings.Join(*s, " ") }

func (s *scopeFlag) Set(v string) error {
	*s = append(*s, v)
	return nil
}

// runSiteCrawl runs a coupling query (internal/crawl) with the fetcher
// vigil serve uses, writes the snapshot and says in one line what it found.
func runSiteCrawl(ctx context.Context, env *environment, args []string) (int, error) {
	fs := flag.NewFlagSet("vigil site crawl", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	bools, envErr := envBools(env, "VIGIL_ALLOW_PRIVATE_NETWORKS")
	depth := fs.Int("depth", crawl.DefaultMaxDepth, fmt.Sprintf("follow links at most this many steps from URL (0: URL alone; at most %d)", crawl.MaxMaxDepth))
	maxPages := fs.Int("max-pages", crawl.DefaultMaxPages, "fetch at most this many URLs (those robots.txt disallows, never requested, are not counted)")
	var scope scopeFlag
	fs.Var(&scope, "scope", "follow only links to URLs under this prefix, at a path segment boundary (.../docs takes /docs, /docs/x and /docs?q, not /docs-old); repeat for several (default: URL's directory); URL need not be under it, and is crawled, its links into the scope followed")
	match := fs.String("match", "", "follow only links to URLs that this regular expression matches (RE2 syntax)")
	bodies := fs.Bool("bodies", false, "keep each page's text in the snapshot, for comparing page contents later")
	order := fs.String("order", string(crawl.OrderImportance), "the order URLs are fetched in: importance (the most OPIC cash first, so that --max-pages keeps the most important pages) or breadth (layer by layer); a crawl that --max-pages does not cut short finds the same in either")
	out := fs.String("out", "", "write the snapshot to this file, replaced whole or not at all (default: standard output)")
	previous := fs.String("previous", "", fmt.Sprintf("the previous snapshot of the same crawl (a file): a page that fails for a moment (HTTP 5xx or 429, a timeout, a connection refused or reset) keeps its last good read from it, marked carried, with the pages only it links to, at most %d crawls in a row and %v after the first of them, so that vigil site diff does not show it removed, then added", crawl.MaxCarriedCrawls, crawl.MaxCarriedAge))
	pf := addProxyFlags(fs, env, "every page fetch and robots.txt")
	allowPrivate := fs.Bool("allow-private-networks", bools["VIGIL_ALLOW_PRIVATE_NETWORKS"], "let the crawl reach loopback, private and link-local addresses (default $VIGIL_ALLOW_PRIVATE_NETWORKS)")
	ignoreRobots := fs.Bool("ignore-robots", false, "do not honour robots.txt (only for sites you own)")
	hostDelay := fs.Duration("host-delay", time.Second, "minimum delay between two requests to one host (0: no delay; a larger robots.txt Crawl-delay wins)")
	hostConc := fs.Int("host-concurrency", 1, "requests at once to one host")
	maxPage := statedString(fs, "max-page-size", envOr(env, "VIGIL_MAX_PAGE_SIZE", strconv.Itoa(fetch.DefaultMaxSize>>20)), fmt.Sprintf("largest page read, in `MiB`, as sent and once decoded, from 1 to %d, as vigil serve's: a larger page is in the snapshot with its error (default $VIGIL_MAX_PAGE_SIZE or %d)", maxPageSizeMiB, fetch.DefaultMaxSize>>20))
	fetchTimeout := fs.Duration("fetch-timeout", 60*time.Second, "total time allowed for one fetch, from its host's turn, the wait for the page's answer included (a page may take all of it to answer)")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "Usage: vigil site crawl [flags] URL\n\n"+
			"Crawl fetches URL and follows its links to the pages in scope, the URL\n"+
			"with the most OPIC cash first (--order breadth: layer by layer), and\n"+
			"writes a snapshot in JSON: each page's URL, depth, status or error,\n"+
			"content type, title, version (its Last-Modified date, else a hash of\n"+
			"its content: of a PDF, without its generator's dates, /ID and XMP),\n"+
			"importance (OPIC, over the links between the pages read)\n"+
			"and links in scope, and the redirects met. Pages that fail are in the\n"+
			"snapshot with their error; those robots.txt disallows too, marked\n"+
			"blocked: never requested, they do not count against --max-pages. With\n"+
			"--previous OLD, a page that fails for a moment keeps its last good read\n"+
			"in OLD, marked carried (vigil site diff says \"failed (kept from the\n"+
			"last crawl)\"), and so do the pages only it links to. It\n"+
			"fetches as vigil serve does: robots.txt, the delay between requests to\n"+
			"a host, and no private addresses without --allow-private-networks. A\n"+
			"summary goes to standard error. Exit status: 0 when URL was read, 2\n"+
			"otherwise.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitError, errUsageShown
	}
	if envErr != nil {
		return exitError, envErr
	}
	start, err := urlArg(fs.Arg(0))
	if err != nil {
		return exitError, err
	}
	q := crawl.Query{Start: start, MaxDepth: *depth, MaxPages: *maxPages, Match: *match, Bodies: *bodies, Order: crawl.Order(*order)}
	if q.Order != crawl.OrderImportance && q.Order != crawl.OrderBreadth {
		return exitError, fmt.Errorf("--order %q: want importance or breadth", *order)
	}
	if _, err := vigil.CanonicalURL(q.Start); err != nil {
		return exitError, err
	}
	for _, p := range scope {
		p, err := urlArg(p)
		if err == nil {
			_, err = vigil.CanonicalURL(p)
		}
		if err != nil {
			return exitError, fmt.Errorf("--scope: %w", err)
		}
		q.Scope = append(q.Scope, p)
	}
	if _, err := regexp.Compile(*match); err != nil {
		return exitError, fmt.Errorf("--match: %w", err)
	}
	switch {
	case *depth < 0 || *depth > crawl.MaxMaxDepth:
		return exitError, fmt.Errorf("--depth %d: want 0 to %d", *depth, crawl.MaxMaxDepth)
	case *maxPages < 1:
		return exitError, fmt.Errorf("--max-pages %d: want 1 or more", *maxPages)
	case *hostDelay < 0:
		return exitError, fmt.Errorf("--host-delay %v: want 0 or more", *hostDelay)
	case *hostConc < 1:
		return exitError, fmt.Errorf("--host-concurrency %d: want 1 or more", *hostConc)
	case *fetchTimeout <= 0:
		return exitError, fmt.Errorf("--fetch-timeout %v: want a duration greater than 0", *fetchTimeout)
	}
	pageMiB, err := strconv.Atoi(*maxPage)
	if err != nil || pageMiB < 1 || pageMiB > maxPageSizeMiB {
		from := ""
		if !flagSet(fs, "max-page-size") {
			from = " (from VIGIL_MAX_PAGE_SIZE)"
		}
		return exitError, fmt.Errorf("--max-page-size %q%s: want a whole number of MiB from 1 to %d", *maxPage, from, maxPageSizeMiB)
	}
	if *out != "" {
		if info, err := os.Stat(filepath.Dir(*out)); err != nil || !info.IsDir() {
			return exitError, fmt.Errorf("--out %s: no directory %s", *out, filepath.Dir(*out))
		}
	}
	if err := q.Validate(); err != nil {
		return exitError, err
	}
	var prev *crawl.Snapshot
	if *previous != "" && *out == "" {
		// "--previous s.json >> s.json" added the new snapshot to the
		// previous one.
		if err := outputNotInput(env, *previous); err != nil {
			return exitError, fmt.Errorf("--previous: %w", err)
		}
	}
	if *previous != "" {
		if prev, _, err = readSnapshot(env, *previous, crawl.DefaultMaxSnapshotSize); err != nil {
			return exitError, fmt.Errorf("--previous: %w", err)
		}
		// Refused before the crawl, not after it: the query as it will
		// run, but for a scope the start page's redirects set (checked
		// again after the crawl).
		run := q
		run.Start, _ = vigil.CanonicalURL(q.Start)
		if len(run.Scope) == 0 {
			run.Scope = prev.Query.Scope
		}
		if err := sameQuery(prev, &crawl.Snapshot{Query: run}, inputName(*previous), "this crawl"); err != nil {
			return exitError, fmt.Errorf("--previous: %w", err)
		}
		if q.Bodies && !prev.Query.Bodies {
			fmt.Fprintf(env.stderr, "vigil site crawl: warning: --previous %s was crawled without --bodies: no page failing for a moment is kept from it in a crawl with --bodies\n",
				inputName(*previous))
		}
	}

	proxy, noProxy, err := pf.options()
	if err != nil {
		return exitError, err
	}
	f := fetch.New(fetch.Options{AllowPrivateNetworks: *allowPrivate, IgnoreRobots: *ignoreRobots, HostDelay: *hostDelay,
		HostConcurrency: *hostConc, TotalTimeout: *fetchTimeout, Proxy: proxy, NoProxy: noProxy,
		MaxDecodedSize: int64(pageMiB) << 20, TooLargeHint: fmt.Sprintf("raise it with --max-page-size (now %d MiB)", pageMiB)})
	q.Workers = max(crawl.DefaultWorkers, *hostConc)
	// The summary's time is the monotonic clock's: the snapshot's times
	// are wall-clock readings, which a clock set back meanwhile (NTP on
	// a machine just started) could make zero or less.
	began := time.Now()
	snap, err := crawl.Crawl(ctx, f, q)
	took := time.Since(began)
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(env.stderr, "vigil site crawl: interrupted; nothing written")
			return exitInterrupted, nil
		}
		return exitError, err
	}
	if msg := snap.StartFailure(); msg != "" {
		// The fetcher's refusal names vigil serve's flag; this
		// command has the same.
		const hint = "vigil site crawl --allow-private-networks"
		msg = strings.ReplaceAll(msg, "vigil serve --allow-private-networks", hint)
		if strings.Contains(msg, fetch.ErrRefused.Error()) && !strings.Contains(msg, hint) && !*allowPrivate {
			msg += " (" + hint + " fetches it)"
		}
		return exitError, errors.New(msg)
	}
	if prev != nil {
		if err := sameQuery(prev, snap, inputName(*previous), "this crawl"); err != nil {
			return exitError, fmt.Errorf("--previous: %w", err)
		}
		if snap, err = crawl.Carry(prev, snap); err != nil {
			return exitError, fmt.Errorf("--previous: %w", err)
		}
	}
	write := func(w io.Writer) error { return snap.Encode(w) }
	if *out == "" {
		bw := bufio.NewWriterSize(env.stdout, 1<<16)
		if err := write(bw); err != nil {
			return exitError, err
		}
		if err := bw.Flush(); err != nil {
			return exitError, err
		}
	} else if err := createFileAtomic(*out, write); err != nil {
		return exitError, fmt.Errorf("--out %s: %w", *out, err)
	}
	st := snap.Stats()
	// A page kept from --previous failed all the same; one not fetched
	// did not fail, and is counted apart.
	kept := st.Carried - st.NotFetched
	failed := strconv.Itoa(st.Failures+kept) + " failed"
	var why []string
	if st.Blocked > 0 {
		why = append(why, fmt.Sprintf("%d blocked by robots.txt, not fetched", st.Blocked))
	}
	if kept > 0 {
		why = append(why, fmt.Sprintf("%d kept from --previous", kept))
	}
	if len(why) > 0 {
		failed += ": " + strings.Join(why, ", ")
	}
	if st.NotFetched > 0 {
		failed += fmt.Sprintf("; %d not fetched, kept from --previous (linked only from kept pages)", st.NotFetched)
	}
	fmt.Fprintf(env.stderr, "crawled %s: %d %s (%s), %d %s, %d %s in %s", snap.Pages[0].URL,
		st.Pages, plural(st.Pages, "page", "pages"), failed, st.Links, plural(st.Links, "link", "links"),
		st.Redirects, plural(st.Redirects, "redirect", "redirects"), max(took.Round(time.Millisecond), time.Millisecond))
	if snap.Truncated {
		fmt.Fprintf(env.stderr, "; stopped at --max-pages %d with pages left", *maxPages)
	}
	if top := mostImportant(snap); top != nil {
		dir, _ := crawl.DefaultScope(snap.Pages[0].URL)
		fmt.Fprintf(env.stderr, "; most important: %s (%s)", relativeURL(top.URL, dir), percent(top.Importance))
	}
	fmt.Fprintln(env.stderr)
	writeDigestNotes(env.stderr, snap)
	writeLinksNotes(env.stderr, snap)
	if excluded := excludingFlags(snap, *match); excluded != "" && len(snap.Pages) == 1 {
		// Taken, as a site sentinel's scope is: a start outside the
		// scope may link into it. Here it did not.
		fmt.Fprintf(env.stderr, "vigil site crawl: warning: %s is outside %s and links to no page inside: it is the only page crawled\n", snap.Pages[0].URL, excluded)
	}
	return exitOK, nil
}

// maxDigestNotes bounds the digest notes vigil site crawl writes; it
// counts the others, which the snapshot holds.
const maxDigestNotes = 10

// writeDigestNotes writes a line for each binary document of snap hashed
// as its bytes, in whole or in part, and why (crawl.Page.DigestNote): a
// PDF that will be changed at every crawl, the first maxDigestNotes.
func writeDigestNotes(w io.Writer, snap *crawl.Snapshot) {
	n := 0
	for _, p := range snap.Pages {
		if p.DigestNote == "" || p.Carried != nil {
			continue
		}
		if n++; n <= maxDigestNotes {
			fmt.Fprintf(w, "vigil site crawl: note: %s: %s\n", p.URL, p.DigestNote)
		}
	}
	if n > maxDigestNotes {
		fmt.Fprintf(w, "vigil site crawl: note: and %d more documents hashed as bytes (digestNote in the snapshot)\n", n-maxDigestNotes)
	}
}

// writeLinksNotes writes a line for each page of snap whose links in
// scope were cut at crawl.MaxLinks (crawl.Page.LinksNote): the pages it
// links to past them are not read through it. The first maxDigestNotes.
func writeLinksNotes(w io.Writer, snap *crawl.Snapshot) {
	n := 0
	for _, p := range snap.Pages {
		if !p.LinksTruncated || p.Carried != nil {
			continue
		}
		if n++; n <= maxDigestNotes {
			fmt.Fprintf(w, "vigil site crawl: note: %s: %s\n", p.URL, p.LinksNote())
		}
	}
	if n > maxDigestNotes {
		fmt.Fprintf(w, "vigil site crawl: note: and %d more pages with more than %d links in scope (linksTruncated in the snapshot)\n", n-maxDigestNotes, crawl.MaxLinks)
	}
}

// excludingFlags names the flags whose scope leaves out the start page
// of snap ("--scope", "--match", or both), which the crawl read all the
// same; "" if none does.
func excludingFlags(snap *crawl.Snapshot, match string) string {
	start := snap.Pages[0].URL
	var names []string
	if !snap.Query.UnderScope(start) {
		names = append(names, "--scope")
	}
	if re, err := regexp.Compile(match); err == nil && !re.MatchString(start) {
		names = append(names, "--match")
	}
	return strings.Join(names, " and ")
}

// mostImportant returns the page read of a snapshot with the highest
// importance (the first of equals), or nil if no page read has one. A
// page that failed (robots.txt blocked it, say) has none; in a snapshot
// made before, it had one, from the links to it, though the crawl did
// not read it: it is skipped all the same.
func mostImportant(snap *crawl.Snapshot) *crawl.Page {
	var top *crawl.Page
	for _, p := range snap.Pages {
		if p.Failed() {
			continue
		}
		if p.Importance > 0 && (top == nil || p.Importance > top.Importance) {
			top = p
		}
	}
	return top
}

// percent writes an importance as a percentage.
func percent(v float64) string {
	return strconv.FormatFloat(100*v, 'f', 2, 64) + "%"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// createFileAtomic writes name, new or replaced, through a temporary file
// in the same directory that is synced and renamed over it: a crash or an
// error leaves the old file (or none), never half a file. A new file gets
// mode 0644, a replaced one keeps its mode. A symbolic link is followed
// (linkTarget): the file it points to is written, and the link kept.
func createFileAtomic(name string, write func(io.Writer) error) error {
	name, err := linkTarget(name)
	if err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if info, err := os.Stat(name); err == nil {
		if !info.Mode().IsRegular() {
			return fmt.Errorf("not a regular file")
		}
		mode = info.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing there
	bw := bufio.NewWriterSize(tmp, 1<<16)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return err
	}
	return syncDir(filepath.Dir(name))
}

// maxLinks bounds the symbolic links linkTarget follows, as the kernel
// does (ELOOP).
const maxLinks = 40

// linkTarget returns the file that name leads to through its symbolic
// links, so that a rename over it replaces that file and keeps the links;
// the target of a link to no file yet, which is then made. A name that is
// no link is itself.
func linkTarget(name string) (string, error) {
	orig := name
	for range maxLinks {
		info, err := os.Lstat(name)
		if err != nil || info.Mode()&os.ModeSymlink == 0 {
			return name, nil
		}
		to, err := os.Readlink(name)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(name), to)
		}
		name = to
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", orig)
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/webtable"
)

func init() {
	register(&command{
		name:            "site diff",
		exitOnInterrupt: true,
		summary:         "show the pages added, removed and changed between two snapshots of a site",
		run:             runSiteDiff,
	})
}

// siteDiffOptions are the repairs of Algorithm Delta that vigil site diff
// asks for (webtable.Options): no ΔM tuple without a modified node in it
// (Strict), every modified page shown in both versions (Cover), and every
// tuple with a changed page in some delta table (Complete).
var siteDiffOptions = webtable.Options{Strict: true, Cover: true, Complete: true}

// runSiteDiff compares two snapshots of one coupling query (vigil site
// crawl) as web tables (crawl.Snapshot.Table, webtable.Diff).
func runSiteDiff(ctx context.Context, env *environment, args []string) (int, error) {
	fs := newFlags(env, "site diff", "[flags] OLD NEW   (snapshots of vigil site crawl: files, or - for standard input)")
	format := fs.String("format", "summary", "output format: summary (one line per page added, removed or changed) or json (the delta web tables)")
	identity := fs.String("identity", "content", "what makes a page changed: content (its bytes changed, where they were read, or a binary document's hash, a PDF's without its generator's dates and identifiers; else its Last-Modified date) or date (its Last-Modified date changed, where the server sent one, as in the seed)")
	content := fs.Bool("content", false, "also compare the two bodies of each changed page with the diff engine, and count its changes (needs snapshots crawled with --bodies; --format summary only)")
	// --whitespace and --parse are vigil diff's, for --content;
	// --max-bytes bounds the snapshot files (and so the bodies in them).
	var df docFlags
	df.register(fs)
	fs.Lookup("max-bytes").Usage = "refuse snapshot files larger than this many bytes"
	fs.Lookup("parse").Usage = "with --content, how to parse pages: auto (by media type, else by content, as the crawler does), xml or html"
	fs.Lookup("whitespace").Usage = "with --content, the white-space policy: normalize (drop blank text, collapse runs) or keep"
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "Usage: vigil site diff [flags] OLD NEW\n\n"+
			"Diff compares two snapshots of one coupling query, written by vigil site\n"+
			"crawl at two times (files, or - for standard input), as web tables: one\n"+
			"tuple per page read, the page and its link path from the start. It prints\n"+
			"a line per page added, removed (no longer reached, failing, redirected, or\n"+
			"still linked but cut by --max-pages or --depth) or changed, with its\n"+
			"title and link path (and, for a page that no longer parses, that it is\n"+
			"read as text, and why), a line per page of NEW kept from the crawl\n"+
			"before it (vigil site crawl --previous): \"failed (kept from the last\n"+
			"crawl)\" and why, or \"kept (not fetched, linked only from kept\n"+
			"pages)\", then a total line; --format json\n"+
			"prints the delta web tables (plus, minus, mod) and the node sets (added,\n"+
			"deleted: the pages removed, modified: the pages changed) instead,\n"+
			"with the importance of the pages named, why those read as text are,\n"+
			"why those removed or added failed in the snapshot that lacks them, why\n"+
			"a binary document changed was hashed as its bytes (digestNote: a PDF\n"+
			"that does not parse or needs a password, which changes at every crawl;\n"+
			"the summary line says it too), and the pages NEW kept from the crawl\n"+
			"before it (carried).\n"+
			"With --content, the two bodies of each changed page are compared by the\n"+
			"diff engine, as vigil diff compares documents, and its changes counted: a\n"+
			"page whose only change is a date in its footer shows one text update, and\n"+
			"the text; a page served as text that is not markup (text/plain, CSS,\n"+
			"JSON) is compared as its source text, a line a node, as vigil serve\n"+
			"reads it.\n"+
			"Both snapshots must be of the same query, but for a site that moved to\n"+
			"https alone between them (NEW's start or scope the https form of OLD's,\n"+
			"on the same host, each scheme's default port, the same paths, as a\n"+
			"crawl of a site that came to redirect to https records it): OLD's pages\n"+
			"are then compared with NEW's at their https URLs, and a first line\n"+
			"(with --format json, a note on standard error, and the field\n"+
			"movedToHTTPS: {\"from\": OLD's origin, \"to\": NEW's}) says \"moved to https\".\n"+
			"Exit status: 0 when no page changed, 1 when some did, 2 on trouble.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if err := wantArgs(fs, 2); err != nil {
		return exitError, err
	}
	by := crawl.ByContent
	switch {
	case *identity == "date":
		by = crawl.ByDate
	case *identity != "content":
		return exitError, fmt.Errorf("--identity %q: want content or date", *identity)
	}
	switch {
	case *format != "summary" && *format != "json":
		return exitError, fmt.Errorf("--format %q: want summary or json", *format)
	case *content && *format != "summary":
		return exitError, fmt.Errorf("--content: only with --format summary (the json format is the delta web tables alone)")
	}
	opt, err := df.options()
	if err != nil {
		return exitError, err
	}
	var contentOnly error
	fs.Visit(func(f *flag.Flag) {
		if !*content && (f.Name == "parse" || f.Name == "whitespace") && contentOnly == nil {
			contentOnly = fmt.Errorf("--%s: only with --content", f.Name)
		}
	})
	if contentOnly != nil {
		return exitError, contentOnly
	}
	oldName, newName := fs.Arg(0), fs.Arg(1)
	if oldName == "-" && newName == "-" {
		return exitError, fmt.Errorf("only one of OLD and NEW can be standard input")
	}
	if err := outputNotInput(env, oldName, newName); err != nil {
		return exitError, err
	}
	s1, size1, err := readSnapshot(env, oldName, df.maxBytes)
	if err != nil {
		return exitError, err
	}
	s2, size2, err := readSnapshot(env, newName, df.maxBytes)
	if err != nil {
		return exitError, err
	}
	// A site that moved to https alone is compared across the move, as
	// the monitor compares it (site_diff_move.go).
	s1, move := movedToHTTPS(s1, s2)
	if err := sameQuery(s1, s2, inputName(oldName), inputName(newName)); err != nil {
		return exitError, err
	}
	if note := scopeRuleNote(s1, s2, inputName(oldName), inputName(newName)); note != "" {
		fmt.Fprintf(env.stderr, "vigil site diff: note: %s\n", note)
	}
	if *content {
		for _, s := range []struct {
			name string
			snap *crawl.Snapshot
		}{{oldName, s1}, {newName, s2}} {
			if !s.snap.Query.Bodies {
				return exitError, fmt.Errorf("--content: %s has no page bodies (vigil site crawl --bodies keeps them)", inputName(s.name))
			}
		}
	}
	if s2.Started.Before(s1.Started) {
		fmt.Fprintf(env.stderr, "vigil site diff: note: %s was crawled (%s) before %s (%s): are OLD and NEW swapped?\n",
			inputName(newName), s2.Started.UTC().Format(time.RFC3339), inputName(oldName), s1.Started.UTC().Format(time.RFC3339))
	}
	// Each against the other: a binary leaf's versions are compared only
	// where both snapshots hashed it (crawl.Snapshot.TableAgainst).
	w1, err := s1.TableAgainst(s2, by)
	if err != nil {
		return exitError, fmt.Errorf("%s: %w", inputName(oldName), err)
	}
	w2, err := s2.TableAgainst(s1, by)
	if err != nil {
		return exitError, fmt.Errorf("%s: %w", inputName(newName), err)
	}
	d, err := webtable.Diff(w1, w2, &siteDiffOptions)
	if err != nil {
		return exitError, err
	}
	bw := bufio.NewWriterSize(env.stdout, 1<<16)
	if move != nil {
		// Said on standard error beside the delta tables, whose JSON
		// is standard output's alone and says it too (movedToHTTPS);
		// first in the summary.
		out := env.stderr
		if *format == "summary" {
			out = bw
		}
		if *format == "json" {
			fmt.Fprint(out, "vigil site diff: note: ")
		}
		fmt.Fprintf(out, "moved to https: %s's pages on %s compared with %s's on %s at the same paths\n",
			inputName(oldName), move.from, inputName(newName), move.to)
	}
	if *format == "json" {
		enc := json.NewEncoder(bw)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		err = enc.Encode(siteDeltaJSON{Delta: d, MovedToHTTPS: moveJSON(move), Importance: changedImportance(d, s1, s2), ReadAsText: changedReadAsText(d, s1, s2),
			Reading: changedReading(d, s1, s2), Failed: changedFailed(d, s1, s2), DigestNote: digestNotes(d, s2), Carried: carriedPages(s2), LinksNote: linksNotes(s2)})
	} else {
		sd := newSiteDelta(d, s1, s2, w1, w2)
		if *content {
			limitDiffMemory(size1 + size2)
			sd.opt = opt
		}
		err = sd.write(bw)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return exitError, err
	}
	if len(d.Added)+len(d.Deleted)+len(d.Modified) == 0 {
		return exitOK, nil
	}
	return exitChanged, nil
}

// readSnapshot reads a snapshot file of at most limit bytes and returns it
// with its size; its errors name the file, and the page and field at fault.
func readSnapshot(env *environment, name string, limit int64) (*crawl.Snapshot, int64, error) {
	b, err := readInput(env, name, limit)
	if err != nil {
		return nil, 0, err
	}
	s, err := crawl.Decode(bytes.NewReader(b), limit)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", inputName(name), err)
	}
	return s, int64(len(b)), nil
}

// scopeRuleNote warns when one snapshot is of format 1, whose scope
// prefixes took any URL that starts with their text, and the other of a
// later format, whose prefixes end at a path segment boundary, and a
// prefix reads differently by the two rules (its path does not end in
// "/"): pages that only shared the prefix's letters show as deleted or
// added.
func scopeRuleNote(s1, s2 *crawl.Snapshot, name1, name2 string) string {
	if (s1.Format == crawl.FormatV1) == (s2.Format == crawl.FormatV1) {
		return ""
	}
	for _, p := range s1.Query.Scope {
		if !strings.HasSuffix(p, "/") {
			return fmt.Sprintf("%s is of format %s and %s of format %s: the scope prefix %s took the URLs starting with its text in the first, those under it at a path segment boundary in the second (not %s-old/), so pages only the first rule took show as changed",
				name1, s1.Format, name2, s2.Format, p, strings.TrimSuffix(p, "/"))
		}
	}
	return ""
}

// sameQuery refuses two snapshots of different coupling queries, naming
// the first field of the query that differs. Whether the bodies were kept
// does not change the query's result.
func sameQuery(s1, s2 *crawl.Snapshot, name1, name2 string) error {
	q1, q2 := s1.Query, s2.Query
	field, v1, v2 := "", "", ""
	switch {
	case q1.Start != q2.Start:
		field, v1, v2 = "start", q1.Start, q2.Start
	case !slices.Equal(crawl.CanonicalScope(q1.Scope), crawl.CanonicalScope(q2.Scope)):
		// a set: snapshots made before the crawl sorted it hold it in
		// the order of the --scope flags
		field, v1, v2 = "scope", strings.Join(q1.Scope, " "), strings.Join(q2.Scope, " ")
	case q1.Match != q2.Match:
		field, v1, v2 = "match", q1.Match, q2.Match
	case q1.MaxDepth != q2.MaxDepth:
		field, v1, v2 = "maxDepth", fmt.Sprint(q1.MaxDepth), fmt.Sprint(q2.MaxDepth)
	case q1.MaxPages != q2.MaxPages:
		field, v1, v2 = "maxPages", fmt.Sprint(q1.MaxPages), fmt.Sprint(q2.MaxPages)
	case q1.CrawlOrder() != q2.CrawlOrder() && (s1.Truncated || s2.Truncated):
		// The order decides which pages a crawl cut short reads.
		field, v1, v2 = "order", string(q1.CrawlOrder()), string(q2.CrawlOrder())
	default:
		return nil
	}
	return fmt.Errorf("%s and %s are snapshots of different queries: query.%s is %q in %s and %q in %s (compare two crawls with the same URL, --scope, --match, --depth, --max-pages and --order)",
		name1, name2, field, v1, name1, v2, name2)
}

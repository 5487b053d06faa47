package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
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
	content := fs.Bool("content", false, "also compare the two bodies of each changed page with the diff engine, and count its changes (needs snapshots crawled with --bodies)")
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
			"reads it. Exit status: 0 when no page changed, 1 when some did, 2 on trouble.\n\nFlags:\n")
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
	s1, size1, err := readSnapshot(env, oldName, df.maxBytes)
	if err != nil {
		return exitError, err
	}
	s2, size2, err := readSnapshot(env, newName, df.maxBytes)
	if err != nil {
		return exitError, err
	}
	if err := sameQuery(s1, s2, displayName(oldName), displayName(newName)); err != nil {
		return exitError, err
	}
	if note := scopeRuleNote(s1, s2, displayName(oldName), displayName(newName)); note != "" {
		fmt.Fprintf(env.stderr, "vigil site diff: note: %s\n", note)
	}
	if *content {
		for _, s := range []struct {
			name string
			snap *crawl.Snapshot
		}{{oldName, s1}, {newName, s2}} {
			if !s.snap.Query.Bodies {
				return exitError, fmt.Errorf("--content: %s has no page bodies (vigil site crawl --bodies keeps them)", displayName(s.name))
			}
		}
	}
	if s2.Started.Before(s1.Started) {
		fmt.Fprintf(env.stderr, "vigil site diff: note: %s was crawled (%s) before %s (%s): are OLD and NEW swapped?\n",
			displayName(newName), s2.Started.Format(time.RFC3339), displayName(oldName), s1.Started.Format(time.RFC3339))
	}
	// Each against the other: a binary leaf's versions are compared only
	// where both snapshots hashed it (crawl.Snapshot.TableAgainst).
	w1, err := s1.TableAgainst(s2, by)
	if err != nil {
		return exitError, fmt.Errorf("%s: %w", displayName(oldName), err)
	}
	w2, err := s2.TableAgainst(s1, by)
	if err != nil {
		return exitError, fmt.Errorf("%s: %w", displayName(newName), err)
	}
	d, err := webtable.Diff(w1, w2, &siteDiffOptions)
	if err != nil {
		return exitError, err
	}
	bw := bufio.NewWriterSize(env.stdout, 1<<16)
	if *format == "json" {
		enc := json.NewEncoder(bw)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		err = enc.Encode(siteDeltaJSON{Delta: d, Importance: changedImportance(d, s1, s2), ReadAsText: changedReadAsText(d, s1, s2),
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
		return nil, 0, fmt.Errorf("%s: %w", displayName(name), err)
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

// siteDeltaJSON is the output of vigil site diff --format json: the delta
// web tables, and the importance of the pages they name.
type siteDeltaJSON struct {
	*webtable.Delta
	// Importance is the importance of each page added, deleted or
	// modified, by URL: in the new snapshot, in the old one for a page
	// deleted. Pages of snapshots without importance are left out.
	Importance map[string]float64 `json:"importance,omitempty"`
	// ReadAsText says, for each page added, deleted or modified that a
	// snapshot reads as its source text (it does not parse), why, by URL.
	ReadAsText map[string]siteReadAsText `json:"readAsText,omitempty"`
	// Reading says, for each page added, deleted or modified, how each
	// snapshot it is in reads it, by URL (siteReading): the API's reading
	// of a version, which tells a page read as one from a page read as
	// text whatever its readAsText.
	Reading map[string]siteReading `json:"reading,omitempty"`
	// Failed says, for each page deleted that the new snapshot read and
	// failed, and each page added that the old one read and failed, why
	// (siteFailed), by URL: a page that fails is not a page gone.
	Failed map[string]siteFailed `json:"failed,omitempty"`
	// DigestNote says, for each page modified that is a binary document
	// hashed as its bytes, in whole or in part, in the new snapshot,
	// why, by URL (crawl.Page.DigestNote): why a PDF may be changed at
	// every crawl.
	DigestNote map[string]string `json:"digestNote,omitempty"`
	// Carried lists the pages of the new snapshot kept from the crawl
	// before it (vigil site crawl --previous): each failed for a moment,
	// or was linked only from such pages, and is its last good read, by
	// URL. The delta counts it as that read.
	Carried map[string]siteCarried `json:"carried,omitempty"`
	// LinksNote says, for each page of the new snapshot whose links in
	// scope were cut at crawl.MaxLinks (crawl.Page.LinksTruncated), that
	// they were, by URL (crawl.Page.LinksNote): the pages it links to
	// past the cut are not read through it, and a page deleted may be
	// linked there.
	LinksNote map[string]string `json:"linksNote,omitempty"`
}

// linksNotes returns the notes of the pages of s2 whose links were cut
// (siteDeltaJSON.LinksNote), nil if none was.
func linksNotes(s2 *crawl.Snapshot) map[string]string {
	var out map[string]string
	for _, p := range s2.Pages {
		if note := p.LinksNote(); note != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[p.URL] = note
		}
	}
	return out
}

// digestNotes returns the digest notes of the pages a delta modifies, in
// the new snapshot s2 (siteDeltaJSON.DigestNote), nil if none has one.
func digestNotes(d *webtable.Delta, s2 *crawl.Snapshot) map[string]string {
	p2 := s2.PagesByURL()
	out := map[string]string{}
	for _, id := range d.Modified {
		if p := p2[string(id)]; p != nil && p.DigestNote != "" {
			out[string(id)] = p.DigestNote
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// siteCarried is why a page of the new snapshot was kept from the crawl
// before: its failure ("HTTP 503", or crawl.NotFetched), the time of its
// last good read, of the first crawl that kept it, and the crawls in a
// row that did (crawl.Carried).
type siteCarried struct {
	Failure string    `json:"failure"`
	Read    time.Time `json:"read"`
	Since   time.Time `json:"since"`
	Crawls  int       `json:"crawls"`
}

// carriedPages returns the pages of s kept from the crawl before
// (siteDeltaJSON.Carried), nil if none is.
func carriedPages(s *crawl.Snapshot) map[string]siteCarried {
	out := map[string]siteCarried{}
	for _, p := range s.Pages {
		if c := p.Carried; c != nil {
			out[p.URL] = siteCarried{Failure: c.Failure(), Read: c.Read, Since: c.Since, Crawls: c.Crawls}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// siteFailed is why a page failed in the old snapshot (a page added) or
// in the new one (a page deleted): its HTTP status ("HTTP 503"), else its
// error, as the text output's "failed before" and "now failing" say.
type siteFailed struct {
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
}

// changedFailed returns why the pages a delta adds or deletes failed in
// the snapshot that does not count them (siteDeltaJSON.Failed), nil if
// none did.
func changedFailed(d *webtable.Delta, s1, s2 *crawl.Snapshot) map[string]siteFailed {
	p1, p2 := s1.PagesByURL(), s2.PagesByURL()
	out := map[string]siteFailed{}
	for _, id := range d.Added {
		if p := p1[string(id)]; p != nil && p.Failed() {
			out[string(id)] = siteFailed{Old: p.Failure()}
		}
	}
	for _, id := range d.Deleted {
		if p := p2[string(id)]; p != nil && p.Failed() {
			out[string(id)] = siteFailed{New: p.Failure()}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// The values of siteReading's fields, the API's values of a version's
// reading.
const (
	readingPage = "page"
	readingText = "text"
)

// siteReading is how a page is read in the old snapshot and in the new
// one, as the API says it of a version: readingText for a page read as
// its source text (siteReadAsText says why), readingPage for any other
// (a page read as one; also a page that failed, or of a type not HTML,
// which its error and contentType in the snapshot tell); absent in a
// snapshot that does not have the page (one added, or deleted). A
// snapshot records how it read each page (its note), so that a site diff
// never says "unknown", the API's third value: a page of a snapshot made
// before notes were kept, read as text then, is "page" (without title or
// links).
type siteReading struct {
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
}

// siteReadAsText is why a page is read as its source text in the old
// snapshot, in the new one, or both (the parse error, in words).
type siteReadAsText struct {
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
}

// changedReadAsText returns why the pages a delta names are read as text
// (siteDeltaJSON.ReadAsText), nil if none is.
func changedReadAsText(d *webtable.Delta, s1, s2 *crawl.Snapshot) map[string]siteReadAsText {
	p1, p2 := s1.PagesByURL(), s2.PagesByURL()
	reason := func(p *crawl.Page) string {
		if p == nil {
			return ""
		}
		why, _ := crawl.ReadAsText(p)
		return why
	}
	out := map[string]siteReadAsText{}
	for _, ids := range [][]webtable.NodeID{d.Added, d.Modified, d.Deleted} {
		for _, id := range ids {
			r := siteReadAsText{Old: reason(oldReading(s1, s2, p1, p2, id)), New: reason(p2[string(id)])}
			if r != (siteReadAsText{}) {
				out[string(id)] = r
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// oldReading returns the page whose reading a JSON delta tells as the
// old snapshot s1's for id (p1 and p2 are the pages of s1 and s2 by
// URL): the page of s1, but for a page modified (read in both) whose
// reading did not change (crawl.ReadingChanged), the new one: a text
// page of a snapshot of format 2, a leaf the crawl did not read, was
// read as text then as now, as the text output says, not as a page.
func oldReading(s1, s2 *crawl.Snapshot, p1, p2 map[string]*crawl.Page, id webtable.NodeID) *crawl.Page {
	before, p := p1[string(id)], p2[string(id)]
	modified := before != nil && p != nil && !before.Failed() && !p.Failed()
	if !modified || crawl.ReadingChanged(s1, s2, before, p) {
		return before
	}
	return p
}

// changedReading returns how each snapshot reads the pages a delta names
// (siteDeltaJSON.Reading), nil if it names none.
func changedReading(d *webtable.Delta, s1, s2 *crawl.Snapshot) map[string]siteReading {
	p1, p2 := s1.PagesByURL(), s2.PagesByURL()
	reading := func(p *crawl.Page) string {
		if p == nil {
			return ""
		}
		if why, _ := crawl.ReadAsText(p); why != "" {
			return readingText
		}
		return readingPage
	}
	out := map[string]siteReading{}
	for _, ids := range [][]webtable.NodeID{d.Added, d.Modified, d.Deleted} {
		for _, id := range ids {
			out[string(id)] = siteReading{Old: reading(oldReading(s1, s2, p1, p2, id)), New: reading(p2[string(id)])}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// changedImportance returns the importance of the pages a delta names
// (siteDeltaJSON.Importance), nil if none has one.
func changedImportance(d *webtable.Delta, s1, s2 *crawl.Snapshot) map[string]float64 {
	p1, p2 := s1.PagesByURL(), s2.PagesByURL()
	out := map[string]float64{}
	for _, c := range []struct {
		ids   []webtable.NodeID
		pages map[string]*crawl.Page
	}{{d.Added, p2}, {d.Modified, p2}, {d.Deleted, p1}} {
		for _, id := range c.ids {
			if p := c.pages[string(id)]; p != nil && p.Importance > 0 {
				out[p.URL] = p.Importance
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
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

// siteDelta is a site's delta with the snapshots it came from, to write
// as a summary.
type siteDelta struct {
	d              *webtable.Delta
	old, new       *crawl.Snapshot
	start          string                 // the query's start URL
	pages1, pages2 map[string]*crawl.Page // the snapshots' pages by URL
	redirected     map[string]string      // the new snapshot's redirects
	// unread1 and unread2 are the URLs each snapshot's pages link to
	// but that it did not read, and why (crawl.Snapshot.UnreadLinks).
	unread1, unread2 map[string]crawl.UnreadReason
	// textLinkers names the page read as text that explains a page
	// removed or added.
	textLinkers    *crawl.TextLinkers
	query          crawl.Query // the new snapshot's
	paths1, paths2 map[webtable.TupleID][]webtable.NodeID
	nodes1, nodes2 int
	// opt, when set, are the parsing options of the content comparison
	// (--content).
	opt *markup.Options
}

func newSiteDelta(d *webtable.Delta, old, new *crawl.Snapshot, w1, w2 *webtable.Table) *siteDelta {
	sd := &siteDelta{d: d, old: old, new: new, start: new.Query.Start, pages1: old.PagesByURL(), pages2: new.PagesByURL(), redirected: map[string]string{},
		unread1: old.UnreadLinks(), unread2: new.UnreadLinks(), textLinkers: crawl.NewTextLinkers(old, new), query: new.Query,
		paths1: tuplesByID(w1), paths2: tuplesByID(w2), nodes1: len(w1.Nodes), nodes2: len(w2.Nodes)}
	for _, r := range new.Redirects {
		sd.redirected[r.From] = r.To
	}
	return sd
}

// write writes one line per page added, removed and changed (in that
// order, each by URL): its URL, title, and the link path that reaches it
// from the start (in the new snapshot, or in the old one for a removed
// page); with --content, under each changed page, the counts of its
// content's changes. A total line ends it.
func (sd *siteDelta) write(w io.Writer) error {
	dir, _ := crawl.DefaultScope(sd.start)
	// A page added with the content of a page deleted: moved, perhaps.
	addedWith, deletedWith := map[string]string{}, map[string]string{}
	for _, c := range []struct {
		ids   []webtable.NodeID
		pages map[string]*crawl.Page
		with  map[string]string
	}{{sd.d.Added, sd.pages2, addedWith}, {sd.d.Deleted, sd.pages1, deletedWith}} {
		for _, id := range c.ids {
			if p := c.pages[string(id)]; p.Hash != "" && c.with[p.Hash] == "" {
				c.with[p.Hash] = p.URL
			}
		}
	}
	for _, id := range sd.d.Added {
		p := sd.pages2[string(id)]
		var notes []string
		if before := sd.pages1[p.URL]; before != nil && before.Failed() {
			notes = append(notes, "failed before: "+before.Failure())
		}
		if why := sd.unread1[p.URL]; why != "" {
			notes = append(notes, "linked before, "+sd.unreadText(why))
		}
		if from := sd.textLinkers.ReachedThroughText(p.URL); from != "" {
			notes = append(notes, "reached through "+relativeURL(from, dir)+", read as text, whose URLs a crawl of format "+sd.old.Format+" did not follow")
		}
		if u := deletedWith[p.Hash]; u != "" && p.Hash != "" {
			notes = append(notes, "the content of removed "+relativeURL(u, dir))
		}
		if note := p.LinksNote(); note != "" {
			notes = append(notes, note)
		}
		fmt.Fprintf(w, "+ added    %s%s  %s%s\n", p.URL, titleText(p.Title), via(sd.paths2[webtable.TupleID(id)], dir), noteText(notes))
	}
	for _, id := range sd.d.Deleted {
		p := sd.pages1[string(id)]
		notes := []string{sd.gone(p.URL, dir)}
		if u := addedWith[p.Hash]; u != "" && p.Hash != "" && sd.redirected[p.URL] != u {
			notes = append(notes, "its content now at "+relativeURL(u, dir))
		}
		fmt.Fprintf(w, "- removed  %s%s  %s%s\n", p.URL, titleText(p.Title), via(sd.paths1[webtable.TupleID(id)], dir), noteText(notes))
	}
	for _, id := range sd.byImportance(sd.d.Modified) {
		p, before := sd.pages2[string(id)], sd.pages1[string(id)]
		title := titleText(p.Title)
		if before.Title != p.Title {
			title = titleText(before.Title) + " ->" + titleText(p.Title)
		}
		var notes []string
		if p.Importance > 0 {
			notes = append(notes, "importance "+percent(p.Importance))
		}
		if crawl.ReadingChanged(sd.old, sd.new, before, p) {
			notes = append(notes, readingNote(p))
		}
		if p.DigestNote != "" {
			// Why a binary document may be changed at every crawl.
			notes = append(notes, p.DigestNote)
		}
		if note := p.LinksNote(); note != "" {
			notes = append(notes, note)
		}
		fmt.Fprintf(w, "~ changed  %s%s  %s%s\n", p.URL, title, via(sd.paths2[webtable.TupleID(id)], dir), noteText(notes))
		if sd.opt != nil {
			fmt.Fprintf(w, "           content: %s\n", sd.contentChange(before, p))
		}
	}
	// The pages kept from the crawl before NEW: each is counted once in
	// the total, added or changed if the delta says so, else kept (failed
	// or not fetched), never also unchanged.
	changed := map[webtable.NodeID]bool{}
	for _, id := range sd.d.Added {
		changed[id] = true
	}
	for _, id := range sd.d.Modified {
		changed[id] = true
	}
	failed, notFetched := 0, 0
	for _, p := range sd.new.Pages {
		c := p.Carried
		if c == nil {
			continue
		}
		word, why := "failed ", "kept from the last crawl: "+c.Failure()
		if !c.Fetched() {
			word, why = "kept   ", "not fetched, linked only from kept pages"
		}
		fmt.Fprintf(w, "! %s  %s%s  %s  (%s; last read %s)\n", word, p.URL, titleText(p.Title),
			via(sd.paths2[webtable.TupleID(p.URL)], dir), why, c.Read.UTC().Format(time.RFC3339))
		switch {
		case changed[webtable.NodeID(p.URL)]:
		case c.Fetched():
			failed++
		default:
			notFetched++
		}
	}
	n1, n2 := sd.nodes1, sd.nodes2
	unchanged := n2 - len(sd.d.Added) - len(sd.d.Modified) - failed - notFetched
	kept := ""
	switch {
	case failed > 0 && notFetched > 0:
		kept = fmt.Sprintf(", %d failed and %d not fetched (kept from the last crawl)", failed, notFetched)
	case failed > 0:
		kept = fmt.Sprintf(", %d failed (kept from the last crawl)", failed)
	case notFetched > 0:
		kept = fmt.Sprintf(", %d not fetched (kept from the last crawl)", notFetched)
	}
	_, err := fmt.Fprintf(w, "total: %d added, %d removed, %d changed, %d unchanged%s (%d %s read, then %d)\n",
		len(sd.d.Added), len(sd.d.Deleted), len(sd.d.Modified), unchanged, kept, n1, plural(n1, "page", "pages"), n2)
	return err
}

// byImportance returns the ids of pages of the new snapshot, the most
// important first (by URL among equals, and for snapshots without
// importance): the changes that matter most lead.
func (sd *siteDelta) byImportance(ids []webtable.NodeID) []webtable.NodeID {
	out := slices.Clone(ids)
	slices.SortStableFunc(out, func(a, b webtable.NodeID) int {
		ia, ib := sd.pages2[string(a)].Importance, sd.pages2[string(b)].Importance
		switch {
		case ia > ib:
			return -1
		case ia < ib:
			return 1
		}
		return strings.Compare(string(a), string(b))
	})
	return out
}

// gone says what became of a deleted page in the new snapshot.
func (sd *siteDelta) gone(u, dir string) string {
	if p := sd.pages2[u]; p != nil {
		if c := sd.pages1[u].Carried; c != nil && p.Momentary {
			// Failing for a moment past the bounds of keeping it; the
			// crawls that kept it (one or more), and this one.
			return fmt.Sprintf("now failing: %s, failing %d crawls in a row since %s, last read %s", p.Failure(), c.Crawls+1,
				c.Since.UTC().Format(time.RFC3339), c.Read.UTC().Format(time.RFC3339))
		}
		// A 404 after a page was kept says what a 404 says.
		return "now failing: " + p.Failure()
	}
	if to, ok := sd.redirected[u]; ok {
		return "now redirected to " + relativeURL(to, dir)
	}
	if why := sd.unread2[u]; why != "" {
		return "still linked, " + sd.unreadText(why)
	}
	if u := sd.textLinkers.LinkerReadAsText(u); u != "" {
		return "no longer reached: " + relativeURL(u, dir) + " is read as text"
	}
	if cut := sd.new.LinksCut(); len(cut) > 0 {
		// Its link may be past the links a page keeps.
		return crawl.CutNote(cut)
	}
	return "no longer reached"
}

// readingNote says how a modified page whose Note changed is read now: as
// text, and why, or as a page again.
func readingNote(p *crawl.Page) string {
	if p.Note == "" {
		return "read as a page again"
	}
	return p.Note
}

// unreadText says which bound of the query left a linked page unread.
func (sd *siteDelta) unreadText(why crawl.UnreadReason) string {
	if why == crawl.UnreadDepth {
		return fmt.Sprintf("beyond --depth %d", sd.query.MaxDepth)
	}
	return fmt.Sprintf("not read: the crawl stopped at --max-pages %d", sd.query.MaxPages)
}

// noteText writes the notes of a summary line in parentheses, or nothing.
func noteText(notes []string) string {
	if len(notes) == 0 {
		return ""
	}
	return "  (" + strings.Join(notes, "; ") + ")"
}

// contentChange compares the bodies of a modified page's two versions
// with the diff engine, as vigil diff does, and says in one line what
// changed: the counts of vigil diff's summary and, when the change is one
// text update, the text before and after (a date in a footer, say).
func (sd *siteDelta) contentChange(before, after *crawl.Page) string {
	switch {
	case before.Hash == "" || after.Hash == "":
		return "not compared: no body (a binary document)"
	case before.Hash == after.Hash && (!vigil.IsTextMediaType(before.ContentType) || !vigil.IsTextMediaType(after.ContentType)):
		// A binary document's digest: of a PDF, without its
		// generator's dates and identifiers.
		return "the same content (the version changed, the content did not)"
	case before.Hash == after.Hash:
		return "the same bytes (the version changed, the content did not)"
	case !vigil.IsTextMediaType(before.ContentType) || !vigil.IsTextMediaType(after.ContentType):
		return fmt.Sprintf("%d bytes -> %d bytes (%s, not compared: not HTML, XML or text)", before.Size, after.Size, after.ContentType)
	}
	parse := sd.parse
	if !vigil.IsMarkupMediaType(before.ContentType) || !vigil.IsMarkupMediaType(after.ContentType) {
		parse = parseSource
	}
	f1, err := parse(before)
	if err != nil {
		return "not compared: old version: " + err.Error()
	}
	f2, err := parse(after)
	if err != nil {
		return "not compared: new version: " + err.Error()
	}
	dd, err := treediff.DiffFlat(f1, f2, nil)
	if err != nil {
		return "not compared: " + err.Error()
	}
	text := statsText(dd.Stats(), true)
	if del, ins, ok := onlyUpdate(dd); ok {
		from, to := updateTexts(del, ins)
		text += fmt.Sprintf(": %q -> %q", from, to)
	}
	return text
}

// parse parses a page's body as the warehouse does: by its media type
// (an XHTML page served as text/html is HTML).
func (sd *siteDelta) parse(p *crawl.Page) (*tree.Flat, error) {
	opt := *sd.opt
	opt.MediaType = p.ContentType
	f, _, err := parseFlat(p.URL, []byte(p.Body), &opt)
	return f, err
}

// parseSource reads the body of a page served as text that is not
// markup (text/plain, CSS, JSON...) as the crawl and the monitor read it
// (warehouse.ReadBody): its source text, a line a node, unless it begins
// as markup.
func parseSource(p *crawl.Page) (*tree.Flat, error) {
	doc, _, err := warehouse.ReadBody([]byte(p.Body), "utf-8", p.ContentType)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	f, _ := tree.FlattenDocument(doc)
	return f, nil
}

// onlyUpdate reports whether a delta is one text update, and returns its
// two halves.
func onlyUpdate(d *delta.Delta) (del, ins *delta.Op, ok bool) {
	if len(d.Ops) != 2 || d.Outside != nil {
		return nil, nil, false
	}
	for i := range d.Ops {
		op := &d.Ops[i]
		switch {
		case !op.Update:
			return nil, nil, false
		case op.Kind == delta.Delete:
			del = op
		case op.Kind == delta.Insert:
			ins = op
		}
	}
	return del, ins, del != nil && ins != nil
}

// tuplesByID indexes a table's tuples by id: in a snapshot's table, a
// page's path from the start, by the page's URL.
func tuplesByID(w *webtable.Table) map[webtable.TupleID][]webtable.NodeID {
	out := make(map[webtable.TupleID][]webtable.NodeID, len(w.Tuples))
	for _, tu := range w.Tuples {
		out[tu.ID] = tu.Nodes
	}
	return out
}

// via names the link path to a page (its tuple's nodes, the page last):
// the pages before it, by their URLs relative to the start's directory
// dir, or "(start page)" for the start.
func via(path []webtable.NodeID, dir string) string {
	if len(path) <= 1 {
		return "(start page)"
	}
	names := make([]string, len(path)-1)
	for i, n := range path[:len(path)-1] {
		names[i] = relativeURL(string(n), dir)
	}
	return "via " + strings.Join(names, " > ")
}

// relativeURL writes a URL under dir relative to it ("./" for dir itself),
// and any other URL whole.
func relativeURL(u, dir string) string {
	rest, ok := strings.CutPrefix(u, dir)
	switch {
	case !ok || dir == "":
		return u
	case rest == "":
		return "./"
	}
	return rest
}

// titleText is a page's title as a summary line shows it: quoted after a
// space, or nothing.
func titleText(title string) string {
	if title == "" {
		return ""
	}
	return fmt.Sprintf(" %q", title)
}

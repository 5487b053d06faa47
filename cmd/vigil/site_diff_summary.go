package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/webtable"
)

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

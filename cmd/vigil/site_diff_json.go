package main

import (
	"time"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/webtable"
)

// siteDeltaJSON is the output of vigil site diff --format json: the delta
// web tables, and the importance of the pages they name.
type siteDeltaJSON struct {
	*webtable.Delta
	// MovedToHTTPS, when the site moved to https alone between the two
	// snapshots (movedToHTTPS), says from which origin to which: OLD's
	// pages were compared with NEW's at their https URLs.
	MovedToHTTPS *siteMoveJSON `json:"movedToHTTPS,omitempty"`
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

// siteMoveJSON is a site's move to https alone in vigil site diff
// --format json: the origin OLD's pages were read on and NEW's
// ("http://example.org", "https://example.org").
type siteMoveJSON struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// moveJSON returns move as vigil site diff --format json writes it; nil
// for none.
func moveJSON(move *siteDiffMove) *siteMoveJSON {
	if move == nil {
		return nil
	}
	return &siteMoveJSON{From: move.from, To: move.to}
}

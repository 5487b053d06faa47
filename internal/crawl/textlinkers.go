package crawl

import "slices"

// TextLinkers tells, for the delta from a snapshot prev to a snapshot
// cur, which page read as its source text explains a page deleted or
// added: LinkerReadAsText for a page deleted, ReachedThroughText for a
// page added. Each snapshot's links are indexed once (by target, the
// pages that link to each in the order of discovery), on the first
// question that needs them, so that explaining every page of a delta
// costs the size of the two snapshots and not that size for each page.
// The snapshots must not change while it is used; it is not safe for
// concurrent use.
type TextLinkers struct {
	prev, cur linkIndex
}

// NewTextLinkers returns the TextLinkers of the delta from prev to cur.
func NewTextLinkers(prev, cur *Snapshot) *TextLinkers {
	return &TextLinkers{prev: linkIndex{snap: prev}, cur: linkIndex{snap: cur}}
}

// LinkerReadAsText returns the first page of prev (in the order of
// discovery) that was read as a page there, links to u, and is read as
// its source text in cur (its Note), where it no longer does (its links
// are the URLs written in its text, and u is not one of them): the reason
// why u, a page of prev, may be no longer reached in cur. It returns ""
// when there is none.
func (t *TextLinkers) LinkerReadAsText(u string) string {
	for _, i := range t.prev.linkers(u) {
		p := t.prev.snap.Pages[i]
		if p.Note != "" || p.Failed() {
			continue
		}
		if j, ok := t.cur.page(p.URL); ok && t.cur.snap.Pages[j].Note != "" && !t.cur.linksTo(j, u) {
			return p.URL
		}
	}
	return ""
}

// ReachedThroughText returns the first page of cur (in the order of
// discovery) that links to u and is read as its source text (its Note),
// and that prev, a snapshot of a format before 3 (FormatV2,
// FormatV1), read without failing: such a crawl did not follow the URLs
// written in a page read as text, which is why u, a page of cur, may be
// new to prev. It returns "" when there is none, when prev is of format 3
// or later too, and when a page of cur read as a page links to u that prev read as
// a page (an HTML page without a note, whose links that crawl followed):
// u is then new to the site, or was left unread by prev's bounds
// (UnreadLinks), not only reached through text now.
func (t *TextLinkers) ReachedThroughText(u string) string {
	if readsTextLinks(t.prev.snap.Format) {
		return ""
	}
	linkers := t.cur.linkers(u)
	for _, i := range linkers {
		p := t.cur.snap.Pages[i]
		if p.Note != "" || p.Failed() {
			continue
		}
		if j, ok := t.prev.page(p.URL); ok {
			if before := t.prev.snap.Pages[j]; !before.Failed() && before.Note == "" && isHTML(before.ContentType) {
				return ""
			}
		}
	}
	for _, i := range linkers {
		p := t.cur.snap.Pages[i]
		if p.Note == "" {
			continue
		}
		if j, ok := t.prev.page(p.URL); ok && !t.prev.snap.Pages[j].Failed() {
			return p.URL
		}
	}
	return ""
}

// linkIndex indexes the pages of a snapshot, each part built on the
// first question that needs it.
type linkIndex struct {
	snap *Snapshot
	// byTarget holds, for each link target, the indexes in snap.Pages of
	// the pages that link to it, ascending (in the order of discovery),
	// each once.
	byTarget map[string][]int
	// first holds, for each URL, the index of the first page of that URL
	// (the page Snapshot.Page returns).
	first map[string]int
}

// linkers returns the indexes of the pages that link to u, ascending.
func (x *linkIndex) linkers(u string) []int {
	if x.byTarget == nil {
		x.byTarget = map[string][]int{}
		for i, p := range x.snap.Pages {
			if p == nil {
				continue
			}
			for _, l := range p.Links {
				// A page may link to a target twice (with two labels):
				// its index is the last one appended, if it is there.
				if ps := x.byTarget[l.Target]; len(ps) == 0 || ps[len(ps)-1] != i {
					x.byTarget[l.Target] = append(ps, i)
				}
			}
		}
	}
	return x.byTarget[u]
}

// linksTo reports whether the page of index i links to u.
func (x *linkIndex) linksTo(i int, u string) bool {
	_, found := slices.BinarySearch(x.linkers(u), i)
	return found
}

// page returns the index of the first page of URL u, and whether there is
// one.
func (x *linkIndex) page(u string) (int, bool) {
	if x.first == nil {
		x.first = make(map[string]int, len(x.snap.Pages))
		for i, p := range x.snap.Pages {
			if p == nil {
				continue
			}
			if _, ok := x.first[p.URL]; !ok {
				x.first[p.URL] = i
			}
		}
	}
	i, ok := x.first[u]
	return i, ok
}

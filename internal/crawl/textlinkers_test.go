package crawl

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// linkerReadAsText is LinkerReadAsText as it was before the links were
// indexed: a scan of every page of prev and of its links, for each u.
func linkerReadAsText(prev, cur *Snapshot, u string) string {
	for _, p := range prev.Pages {
		if p.Note != "" || p.Failed() || !linksTo(p, u) {
			continue
		}
		if now := cur.Page(p.URL); now != nil && now.Note != "" && !linksTo(now, u) {
			return p.URL
		}
	}
	return ""
}

// reachedThroughText is ReachedThroughText as it was before the links
// were indexed: two scans of every page of cur and of its links, for
// each u.
func reachedThroughText(prev, cur *Snapshot, u string) string {
	if readsTextLinks(prev.Format) {
		return ""
	}
	for _, p := range cur.Pages {
		if p.Note != "" || p.Failed() || !linksTo(p, u) {
			continue
		}
		if before := prev.Page(p.URL); before != nil && !before.Failed() && before.Note == "" && isHTML(before.ContentType) {
			return ""
		}
	}
	for _, p := range cur.Pages {
		if p.Note == "" || !linksTo(p, u) {
			continue
		}
		if before := prev.Page(p.URL); before != nil && !before.Failed() {
			return p.URL
		}
	}
	return ""
}

// linksTo reports whether page p links to u.
func linksTo(p *Page, u string) bool {
	for _, l := range p.Links {
		if l.Target == u {
			return true
		}
	}
	return false
}

// randomSnapshot returns a snapshot of up to 10 pages of a site of 8
// URLs (a URL twice at times: the first page of it is the one asked
// about), of a format drawn from the four, each page read as a page or
// as text, failed or not, of one of a few types, and linking to up to 6
// of the URLs (a target twice at times, with two labels).
func randomSnapshot(rnd *rand.Rand, urls []string) *Snapshot {
	formats := []string{Format, FormatV3, FormatV2, FormatV1}
	types := []string{"text/html", "application/xhtml+xml", "text/plain", "application/xml", "image/png", ""}
	s := &Snapshot{Format: formats[rnd.IntN(len(formats))]}
	for range rnd.IntN(11) {
		p := &Page{URL: urls[rnd.IntN(len(urls))], ContentType: types[rnd.IntN(len(types))]}
		if rnd.IntN(3) == 0 {
			p.Note = NoteReadAsText + "served as text/plain"
		}
		if rnd.IntN(5) == 0 {
			p.Error = "HTTP 404"
		}
		for range rnd.IntN(7) {
			p.Links = append(p.Links, Link{Target: urls[rnd.IntN(len(urls))], Label: fmt.Sprint(rnd.IntN(2))})
		}
		s.Pages = append(s.Pages, p)
	}
	return s
}

// TestTextLinkersAsTheScans: on random pairs of snapshots (random links,
// notes, failures, types and formats), TextLinkers answers both questions
// for every URL (and one that no page has) as the scans of every page did,
// each question asked in either order, and again.
func TestTextLinkersAsTheScans(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	var urls []string
	for i := range 8 {
		urls = append(urls, fmt.Sprintf("https://example.org/%d", i))
	}
	asked := append(urls[:len(urls):len(urls)], "https://example.org/none")
	found := map[string]int{}
	for n := range 5000 {
		prev, cur := randomSnapshot(rnd, urls), randomSnapshot(rnd, urls)
		tl := NewTextLinkers(prev, cur)
		if n%2 == 0 {
			// The other index built first.
			tl.ReachedThroughText(asked[0])
		}
		for range 2 {
			for _, u := range asked {
				if got, want := tl.LinkerReadAsText(u), linkerReadAsText(prev, cur, u); got != want {
					t.Fatalf("case %d: LinkerReadAsText(%s) = %q, the scan %q\nprev %s\ncur %s", n, u, got, want, dump(prev), dump(cur))
				} else if got != "" {
					found["LinkerReadAsText"]++
				}
				if got, want := tl.ReachedThroughText(u), reachedThroughText(prev, cur, u); got != want {
					t.Fatalf("case %d: ReachedThroughText(%s) = %q, the scan %q\nprev %s\ncur %s", n, u, got, want, dump(prev), dump(cur))
				} else if got != "" {
					found["ReachedThroughText"]++
				}
			}
		}
	}
	// The cases must reach answers, not only "".
	for _, q := range []string{"LinkerReadAsText", "ReachedThroughText"} {
		if found[q] < 100 {
			t.Errorf("%s answered a page %d times in the random cases, want at least 100", q, found[q])
		}
	}
}

// dump writes a snapshot's format and pages for a failure's message.
func dump(s *Snapshot) string {
	out := s.Format
	for _, p := range s.Pages {
		out += fmt.Sprintf("\n  %+v", *p)
	}
	return out
}

// deltaSite returns a generated site of 10 000 pages of 100 links each,
// as a crawl of format 2 saw it (prev), and as a crawl of the current
// format sees it (cur) after losing its last 2 000 pages and gaining 2 000
// new ones, reached only through the pages that cur reads as text (one in
// twenty), and the URLs of the pages deleted and added.
func deltaSite() (prev, cur *Snapshot, deleted, added []string) {
	const pages, links, changed, textEvery = 10000, 100, 2000, 20
	rnd := rand.New(rand.NewPCG(1, 2))
	url := func(i int) string { return fmt.Sprintf("https://example.org/p%d.html", i) }
	prev = &Snapshot{Format: FormatV2}
	cur = &Snapshot{Format: Format}
	for i := range pages {
		p := &Page{URL: url(i), ContentType: "text/html"}
		for range links {
			p.Links = append(p.Links, Link{Target: url(rnd.IntN(pages))})
		}
		prev.Pages = append(prev.Pages, p)
		if i >= pages-changed {
			deleted = append(deleted, p.URL)
			continue
		}
		now := &Page{URL: p.URL, ContentType: "text/html"}
		for _, l := range p.Links {
			if rnd.IntN(pages) < pages-changed {
				now.Links = append(now.Links, l)
			}
		}
		if i%textEvery == 0 {
			now.Note = NoteReadAsText + "too deep"
		}
		cur.Pages = append(cur.Pages, now)
	}
	textPages := (pages - changed) / textEvery
	for k := range changed {
		u := url(pages + k)
		added = append(added, u)
		linker := cur.Pages[(k%textPages)*textEvery]
		linker.Links = append(linker.Links, Link{Target: u})
		p := &Page{URL: u, ContentType: "text/html"}
		for range links {
			p.Links = append(p.Links, Link{Target: url(rnd.IntN(pages - changed))})
		}
		cur.Pages = append(cur.Pages, p)
	}
	return prev, cur, deleted, added
}

// BenchmarkTextLinkers explains a delta of the generated site of 10 000
// pages of 100 links each (deltaSite): why each of its 2 000 pages
// deleted is no longer reached (LinkerReadAsText) and why each of its
// 2 000 pages added is new (ReachedThroughText).
//
//	go test -run '^$' -bench TextLinkers -benchtime 3x -benchmem ./internal/crawl
func BenchmarkTextLinkers(b *testing.B) {
	prev, cur, deleted, added := deltaSite()
	for b.Loop() {
		t := NewTextLinkers(prev, cur)
		blamed, reached := 0, 0
		for _, u := range deleted {
			if t.LinkerReadAsText(u) != "" {
				blamed++
			}
		}
		for _, u := range added {
			if t.ReachedThroughText(u) != "" {
				reached++
			}
		}
		if blamed == 0 || reached != len(added) {
			b.Fatalf("%d of %d deleted pages blamed on a page read as text, %d of %d added reached through one", blamed, len(deleted), reached, len(added))
		}
	}
}

package crawl_test

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/webtable"
)

// htmlPage returns a page read at depth, versioned by its hash, with links
// to the other pages of the site (names without "https://example.org/").
func htmlPage(name string, depth int, links ...string) *crawl.Page {
	body := "<title>" + name + "</title>"
	p := &crawl.Page{URL: "https://example.org/" + name, Depth: depth, Status: 200, ContentType: "text/html", Title: name,
		Version: hashOf([]byte(body)), VersionKind: crawl.VersionContentHash, Hash: hashOf([]byte(body)), Size: int64(len(body))}
	for _, l := range links {
		target, label, _ := strings.Cut(l, " ")
		p.Links = append(p.Links, crawl.Link{Target: "https://example.org/" + target, Label: label})
	}
	return p
}

func siteSnapshot(pages ...*crawl.Page) *crawl.Snapshot {
	return &crawl.Snapshot{
		Format:   crawl.Format,
		Query:    crawl.Query{Start: "https://example.org/", Scope: []string{"https://example.org/"}, MaxDepth: 3, MaxPages: 100},
		Started:  time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC),
		Finished: time.Date(2026, 12, 1, 9, 0, 1, 0, time.UTC),
		Pages:    pages,
	}
}

// TestTable: one tuple per page read, its path from the start along the
// breadth-first tree (the first page of the layer above that links to
// it, through its first such link); a failed page is no node; a leaf
// without a version is "unversioned"; a Last-Modified date is the node's
// version id and date by date, while by content a page read has the hash
// of its bytes and no date (a leaf without a body keeps its date).
func TestTable(t *testing.T) {
	t.Run("example", func(t *testing.T) {
		w, err := example().Table(crawl.ByDate)
		if err != nil {
			t.Fatal(err)
		}
		docs, guide, logo := "https://example.org/docs/", "https://example.org/docs/guide.html", "https://example.org/docs/logo.png"
		want := &webtable.Table{
			Name: "https://example.org/docs/ at 2026-11-29T10:00:00Z",
			Nodes: []webtable.Node{
				{ID: webtable.NodeID(docs), Version: "2026-11-01T08:00:00Z", URL: docs, Modified: time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)},
				{ID: webtable.NodeID(guide), Version: webtable.VersionID(example().Pages[1].Hash), URL: guide},
				{ID: webtable.NodeID(logo), Version: "2025-06-30T23:59:59Z", URL: logo, Modified: time.Date(2025, 6, 30, 23, 59, 59, 0, time.UTC)},
			},
			// Two links lead from docs/ to the guide ("Guide", and
			// "Start" through a redirect): the first is the path's.
			Links: []webtable.Link{
				{ID: "l1", From: webtable.NodeID(docs), To: webtable.NodeID(guide), Label: "Guide", Type: webtable.Local},
				{ID: "l2", From: webtable.NodeID(docs), To: webtable.NodeID(logo), Label: "Logo", Type: webtable.Local},
			},
			Tuples: []webtable.Tuple{
				{ID: webtable.TupleID(docs), Nodes: []webtable.NodeID{webtable.NodeID(docs)}},
				{ID: webtable.TupleID(guide), Nodes: []webtable.NodeID{webtable.NodeID(docs), webtable.NodeID(guide)}, Links: []webtable.LinkID{"l1"}},
				{ID: webtable.TupleID(logo), Nodes: []webtable.NodeID{webtable.NodeID(docs), webtable.NodeID(logo)}, Links: []webtable.LinkID{"l2"}},
			},
		}
		if !reflect.DeepEqual(w, want) {
			t.Errorf("table\n%+v\nwant\n%+v", w, want)
		}
		if w, err = example().Table(crawl.ByContent); err != nil {
			t.Fatal(err)
		}
		want.Nodes[0].Version, want.Nodes[0].Modified = webtable.VersionID(example().Pages[0].Hash), time.Time{}
		if !reflect.DeepEqual(w, want) {
			t.Errorf("by content: table\n%+v\nwant\n%+v", w, want)
		}
	})
	t.Run("paths", func(t *testing.T) {
		leaf := &crawl.Page{URL: "https://example.org/f.pdf", Depth: 1, Status: 200, ContentType: "application/pdf"}
		snap := siteSnapshot(
			htmlPage("", 0, "b.html B", "c.html C", "f.pdf F"),
			htmlPage("b.html", 1, "c.html C", "e.html E from b"),
			htmlPage("c.html", 1, "d.html D from c", "e.html E from c", "g.html G"),
			leaf,
			htmlPage("e.html", 2, "d.html D from e"),
			htmlPage("d.html", 2, "x.html X"),
			&crawl.Page{URL: "https://example.org/g.html", Depth: 2, Status: 404, Error: "404"},
			htmlPage("x.html", 3),
		)
		w, err := snap.Table(crawl.ByContent)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tu := range w.Tuples {
			var path []string
			for _, n := range tu.Nodes {
				path = append(path, strings.TrimPrefix(string(n), "https://example.org/"))
			}
			var labels []string
			for _, id := range tu.Links {
				i := slices.IndexFunc(w.Links, func(l webtable.Link) bool { return l.ID == id })
				labels = append(labels, w.Links[i].Label)
			}
			got = append(got, fmt.Sprintf("%s: %q %q", tu.ID, path, labels))
		}
		want := []string{
			`https://example.org/: [""] []`,
			`https://example.org/b.html: ["" "b.html"] ["B"]`,
			`https://example.org/c.html: ["" "c.html"] ["C"]`,
			`https://example.org/f.pdf: ["" "f.pdf"] ["F"]`,
			`https://example.org/e.html: ["" "b.html" "e.html"] ["B" "E from b"]`,
			`https://example.org/d.html: ["" "c.html" "d.html"] ["C" "D from c"]`,
			`https://example.org/x.html: ["" "c.html" "d.html" "x.html"] ["C" "D from c" "X"]`,
		}
		if !slices.Equal(got, want) {
			t.Errorf("tuples\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if len(w.Nodes) != 7 || len(w.Links) != 6 || w.Nodes[3].Version != crawl.Unversioned {
			t.Errorf("%d nodes, %d links, leaf version %q; want 7, 6 and %q", len(w.Nodes), len(w.Links), w.Nodes[3].Version, crawl.Unversioned)
		}
	})
	t.Run("errors", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			snap *crawl.Snapshot
			want string
		}{
			{"no path", siteSnapshot(htmlPage("", 0, "b.html B"), htmlPage("b.html", 1), htmlPage("c.html", 1)),
				"snapshot: page 3 (https://example.org/c.html): depth: 1, but no page at depth 0 links to it"},
			{"invalid", siteSnapshot(htmlPage("", 1)),
				"snapshot: page 1 (https://example.org/): depth: 1, but the first page is the start page, at depth 0"},
		} {
			_, err := tc.snap.Table(crawl.ByContent)
			var e *vigil.Error
			if !errors.As(err, &e) || e.Code != vigil.EINVALID || e.Message != tc.want {
				t.Errorf("%s: %v; want EINVALID %q", tc.name, err, tc.want)
			}
		}
	})
}

// TestCorpusSiteDelta crawls the two releases of the site as two polls of
// one query and compares their web tables: exactly one page added
// (gitmailmap.html), none deleted, and modified exactly the pages whose
// bytes differ between the releases, whether versions are dates or
// hashes, and whether the crawl goes by links (200 and 201 pages) or by
// directory listings (every file).
func TestCorpusSiteDelta(t *testing.T) {
	rel := corpus(t)
	old, cur := rel[oldRelease], rel[newRelease]
	s := newSite(t, old)
	for _, tc := range []struct {
		dated, listing bool
		modified       int
	}{
		{true, false, 68},
		{false, false, 68},
		// The 74 files of the corpus README, and the listing of /,
		// which gained gitmailmap.html.
		{true, true, 75},
	} {
		t.Run(fmt.Sprintf("last-modified=%v/listing=%v", tc.dated, tc.listing), func(t *testing.T) {
			var oldDates, curDates map[string]time.Time
			if tc.dated {
				oldDates = releaseDates(old, nil, oldDate, oldDate)
				curDates = releaseDates(cur, old, oldDate, newDate)
			}
			s.Listing = tc.listing
			q := crawl.NewQuery(s.url("/"))
			q.MaxPages = 1000
			s.Set(old, oldDates)
			snap1 := crawlSite(t, loopbackFetcher(), q)
			s.Set(cur, curDates)
			snap2 := crawlSite(t, loopbackFetcher(), q)
			w1, err := snap1.Table(crawl.ByContent)
			if err != nil {
				t.Fatal(err)
			}
			w2, err := snap2.Table(crawl.ByContent)
			if err != nil {
				t.Fatal(err)
			}
			if len(w1.Tuples) != len(snap1.Pages) || len(w2.Tuples) != len(snap2.Pages) {
				t.Errorf("%d and %d tuples for %d and %d pages", len(w1.Tuples), len(w2.Tuples), len(snap1.Pages), len(snap2.Pages))
			}
			d, err := webtable.Diff(w1, w2, nil)
			if err != nil {
				t.Fatal(err)
			}
			mailmap := webtable.NodeID(s.url("/gitmailmap.html"))
			if !slices.Equal(d.Added, []webtable.NodeID{mailmap}) || len(d.Deleted) != 0 {
				t.Errorf("added %v, deleted %v; want %s alone added", d.Added, d.Deleted, mailmap)
			}
			// The pages whose content changed, from the release files
			// (and the listings, served as the site serves them).
			var changed []webtable.NodeID
			for _, p := range snap2.Pages {
				if snap1.Page(p.URL) == nil {
					continue
				}
				path := s.path(t, p.URL)
				s.Set(old, nil)
				before := s.Respond(path).Body
				s.Set(cur, nil)
				after := s.Respond(path).Body
				if !bytes.Equal(before, after) {
					changed = append(changed, webtable.NodeID(p.URL))
				}
			}
			slices.Sort(changed)
			if !slices.Equal(d.Modified, changed) || len(changed) != tc.modified {
				t.Errorf("modified %d pages, %d changed (want %d):\n%v\n%v", len(d.Modified), len(changed), tc.modified, d.Modified, changed)
			}
			if len(d.Plus.Tuples) == 0 || d.Plus.Tuples[0].ID != webtable.TupleID(mailmap) {
				t.Errorf("Δ+ %v, want gitmailmap.html's tuple first", d.Plus.Tuples)
			}
			for _, tu := range d.Plus.Tuples {
				if !slices.Contains(tu.Nodes, mailmap) {
					t.Errorf("Δ+ tuple %s without the added page", tu.ID)
				}
			}
		})
	}
}

package crawl

import (
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/webtable"
)

// Table returns the snapshot as a web table (note 000 §3.3), the input of
// webtable.Diff: one web tuple per page read, made of the pages on its
// shortest link path from the start page, start first, and the links
// between them; the page's tuple id is its URL.
//
// The path is the breadth-first tree's: a page at depth d is reached from
// the first page at depth d-1, in the snapshot's order, that links to it,
// as Crawl found it, and through that page's first such link (its label is
// the link's). A node's id and URL are the page's canonical URL, its
// version id as by says (Identity), and its date the Last-Modified date
// where that is the version. A page that failed is not a node, so a page
// that now fails is deleted from the table; a page read without a version
// (a binary leaf served without Last-Modified in a snapshot made before
// binary leaves were hashed) has the version id "unversioned": the table
// sees it come and go, not change.
//
// The table is named after the query's start URL and the time the crawl
// started. Table returns an EINVALID error naming the page at fault if the
// snapshot does not validate (but for its bodies, which take no part in the
// table), or if a page has no path from the start (which Crawl never
// writes).
func (s *Snapshot) Table(by Identity) (*webtable.Table, error) {
	return s.table(by, nil)
}

// TableAgainst returns the web table of s (Table) to compare with the
// table of other, the other snapshot of the comparison (other's is
// other.TableAgainst(s, by)): a binary leaf (an image, a PDF) that one of
// them hashed and the other did not (made before binary leaves were
// hashed) has in both the version a crawl that did not hash it gives it,
// its Last-Modified date or Unversioned. A binary leaf's versions are
// compared only where both snapshots hashed it: a snapshot made before
// compared with a new one shows no binary changed that it could not tell
// changed then.
func (s *Snapshot) TableAgainst(other *Snapshot, by Identity) (*webtable.Table, error) {
	return s.table(by, other)
}

// table is Table; other, when not nil, is the snapshot compared with s
// (TableAgainst).
func (s *Snapshot) table(by Identity, other *Snapshot) (*webtable.Table, error) {
	// The bodies take no part in the table: their hashes are not checked
	// again (Decode did).
	if err := s.validate(false); err != nil {
		return nil, err
	}
	t := &webtable.Table{
		Name:   s.Query.Start + " at " + s.Started.UTC().Format(time.RFC3339),
		Nodes:  []webtable.Node{},
		Tuples: []webtable.Tuple{},
	}
	// parent[i] is the position of page i's parent, link[i] the position
	// of the link from it in the parent's links; -1 for the start.
	parent := make([]int, len(s.Pages))
	link := make([]int, len(s.Pages))
	index := make(map[string]int, len(s.Pages))
	for i, p := range s.Pages {
		index[p.URL] = i
		parent[i], link[i] = -1, -1
	}
	for i, p := range s.Pages {
		for j, l := range p.Links {
			k, ok := index[l.Target]
			if ok && parent[k] < 0 && k != 0 && s.Pages[k].Depth == p.Depth+1 {
				parent[k], link[k] = i, j
			}
		}
	}
	var others map[string]*Page
	if other != nil {
		others = other.PagesByURL()
	}
	linkIDs := map[[2]int]webtable.LinkID{}
	for i, p := range s.Pages {
		if i > 0 && parent[i] < 0 {
			return nil, vigil.Errorf(vigil.EINVALID, "snapshot: page %d (%s): depth: %d, but no page at depth %d links to it", i+1, vigil.RedactURL(p.URL), p.Depth, p.Depth-1)
		}
		if p.Failed() {
			continue
		}
		n := webtable.Node{ID: webtable.NodeID(p.URL), Version: webtable.VersionID(p.Version), URL: p.URL}
		switch p.VersionKind {
		case VersionLastModified:
			date, err := time.Parse(time.RFC3339, p.Version)
			if err != nil {
				return nil, fmt.Errorf("snapshot: page %d (%s): version: %w", i+1, vigil.RedactURL(p.URL), err) // Validate checked it
			}
			n.Modified = date
		case "":
			n.Version = Unversioned
		}
		if by == ByContent && p.Hash != "" {
			// The date is no part of this version (and one version
			// may be served under several dates).
			n.Version, n.Modified = webtable.VersionID(p.Hash), time.Time{}
		}
		if unhashedIn(others, p) {
			// As a crawl that did not hash it (Snapshot.TableAgainst).
			n.Version, n.Modified = Unversioned, time.Time{}
			if p.VersionKind == VersionLastModified {
				n.Version = webtable.VersionID(p.Version)
				n.Modified, _ = time.Parse(time.RFC3339, p.Version)
			}
		}
		t.Nodes = append(t.Nodes, n)
		// The path, from the page up to the start, then reversed.
		tu := webtable.Tuple{ID: webtable.TupleID(p.URL)}
		for k := i; k >= 0; k = parent[k] {
			tu.Nodes = append(tu.Nodes, webtable.NodeID(s.Pages[k].URL))
			if parent[k] < 0 {
				break
			}
			edge := [2]int{parent[k], k}
			id, ok := linkIDs[edge]
			if !ok {
				from, to := s.Pages[parent[k]], s.Pages[k]
				id = webtable.LinkID(fmt.Sprintf("l%d", len(t.Links)+1))
				linkIDs[edge] = id
				t.Links = append(t.Links, webtable.Link{ID: id, From: webtable.NodeID(from.URL), To: webtable.NodeID(to.URL),
					Label: from.Links[link[k]].Label, Type: linkType(from.URL, to.URL)})
			}
			tu.Links = append(tu.Links, id)
		}
		slices.Reverse(tu.Nodes)
		slices.Reverse(tu.Links)
		t.Tuples = append(t.Tuples, tu)
	}
	if err := t.Validate(); err != nil {
		// Not the snapshot's fault: this function's.
		return nil, fmt.Errorf("snapshot: the table of a valid snapshot: %w", err)
	}
	return t, nil
}

// unhashedIn reports whether p is a binary leaf that the other snapshot,
// whose pages by URL are others (nil if none), read without hashing it,
// or hashed another way that a Vigil before this one may have taken
// (digestsComparable), while p has its hash: its two hashes cannot tell
// whether it changed.
func unhashedIn(others map[string]*Page, p *Page) bool {
	if !p.BinaryLeaf() || p.Hash == "" {
		return false
	}
	q := others[p.URL]
	return q != nil && q.BinaryLeaf() && (q.Hash == "" || !digestsComparable(p, q))
}

// Identity says what tells two versions of a page apart in a web table
// (Snapshot.Table).
type Identity int

const (
	// ByContent takes the hash of the page's content, where it was read
	// (HTML and text), else its Version: a page served again with a new
	// Last-Modified date and the same bytes, as when a whole site is
	// deployed again, is the same version.
	ByContent Identity = iota
	// ByDate takes the page's Version, its Last-Modified date where the
	// server sent one (the seed's identity: URL and date, note 000 §2.2),
	// else the hash of its content.
	ByDate
)

// Unversioned is the version id in a web table of a page read without a
// version (see Snapshot.Table).
const Unversioned = "unversioned"

// linkType is the WebSQL type of a link between two pages of a snapshot:
// local within a host, global across hosts.
func linkType(from, to string) webtable.LinkType {
	f, err1 := url.Parse(from)
	t, err2 := url.Parse(to)
	if err1 != nil || err2 != nil || f.Scheme != t.Scheme || f.Host != t.Host {
		return webtable.Global
	}
	return webtable.Local
}

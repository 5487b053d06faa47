package crawl

// UnreadReason says why a URL that a page of a snapshot links to is no
// page of it.
type UnreadReason string

const (
	// UnreadPages: the crawl stopped at Query.MaxPages (Snapshot.Truncated)
	// before it, though a page short of the depth links to it.
	UnreadPages UnreadReason = "pages"
	// UnreadDepth: only pages at Query.MaxDepth link to it; their links
	// are recorded, not followed.
	UnreadDepth UnreadReason = "depth"
)

// UnreadLinks returns the URLs that pages read link to (in scope) but that
// are neither pages nor redirects of the snapshot, with why each was not
// read. A page that one crawl read and the next did not is then told
// apart: still linked but cut by the page limit or the depth, rather than
// no longer reached.
func (s *Snapshot) UnreadLinks() map[string]UnreadReason {
	known := make(map[string]bool, len(s.Pages)+len(s.Redirects))
	for _, p := range s.Pages {
		known[p.URL] = true
	}
	for _, r := range s.Redirects {
		known[r.From] = true
	}
	shallowest := map[string]int{} // the least depth of a page linking to it
	for _, p := range s.Pages {
		if p.Failed() {
			continue
		}
		for _, l := range p.Links {
			if d, ok := shallowest[l.Target]; !known[l.Target] && (!ok || p.Depth < d) {
				shallowest[l.Target] = p.Depth
			}
		}
	}
	out := make(map[string]UnreadReason, len(shallowest))
	for u, d := range shallowest {
		switch {
		case d >= s.Query.MaxDepth:
			out[u] = UnreadDepth
		case s.Truncated:
			out[u] = UnreadPages
		}
	}
	return out
}

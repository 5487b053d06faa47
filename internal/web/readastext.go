package web

import (
	"context"
	"slices"

	"github.com/vigil-web/vigil"
)

// versionBody is a version as the API answers it: with why its body is
// read as its source text.
type versionBody struct {
	*vigil.Version
	// ReadAsText is why the version's body, which does not parse as HTML
	// or XML, is read, compared and shown as its source text (the parse
	// error, in words; Warehouse.ReadAsText); empty, and so absent, for a
	// page and for a version whose reason is not known yet (past the
	// request's budget, or whose body cannot be read).
	ReadAsText string `json:"readAsText,omitempty"`
}

// DefaultReadAsTextBudget is how many bytes of bodies one request (a
// history page of 200 versions, a list of 500 versions or of changes
// naming up to 1000) parses at most to learn why versions not known yet
// are read as text: 4 MiB, some 70 ms of parsing at the 59 MB/s
// BENCHMARKS.md measures for HTML, and some 60 versions of a typical
// 64 KB page. A version past it is shown as not known yet; the monitor
// reads it in the background (warehouse.FillReadAsText).
const DefaultReadAsTextBudget = 4 << 20

// readAsTextAll returns why each version of vs is read as its source
// text, by version id (Warehouse.ReadAsTextAll): a version left out is
// shown without a reason, as not known yet. Its bodies parsed come to
// ReadAsTextBudget bytes at most. A version whose body cannot be read
// does not fail the page or list that shows it: the failures are logged,
// once for the request.
func (s *Server) readAsTextAll(ctx context.Context, vs []*vigil.Version) map[int64]string {
	budget := s.ReadAsTextBudget
	if budget == 0 {
		budget = DefaultReadAsTextBudget
	}
	known, failed := s.Warehouse.ReadAsTextAll(ctx, vs, budget)
	if len(failed) > 0 {
		ids := make([]int64, 0, len(failed))
		for id := range failed {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		s.logger().Warn("versions whose body cannot be read are shown without why each is read as text",
			"versions", ids, "version", ids[0], "err", failed[ids[0]])
	}
	return known
}

// versionBodies returns the versions of list as the API answers them.
func (s *Server) versionBodies(ctx context.Context, list []*vigil.Version) []*versionBody {
	why := s.readAsTextAll(ctx, list)
	out := make([]*versionBody, len(list))
	for i, v := range list {
		out[i] = &versionBody{Version: v, ReadAsText: why[v.ID]}
	}
	return out
}

// changeBody is a change as the API answers it: with why each of its two
// versions is read as its source text.
type changeBody struct {
	*vigil.Change
	// FromReadAsText and ToReadAsText are the ReadAsText of versions
	// FromVersion and ToVersion (versionBody); empty for a page, for a
	// version no longer kept, and for one whose reason is not known yet.
	FromReadAsText string `json:"fromReadAsText,omitempty"`
	ToReadAsText   string `json:"toReadAsText,omitempty"`
}

// changeBodies returns the changes of list as the API answers them. A
// version several changes name (one change's new version is the next
// one's old) is read once.
func (s *Server) changeBodies(ctx context.Context, list []*vigil.Change) ([]*changeBody, error) {
	var vs []*vigil.Version
	seen := map[int64]bool{0: true} // 0: no version (a first sighting)
	for _, c := range list {
		for _, id := range []int64{c.FromVersion, c.ToVersion} {
			if seen[id] {
				continue
			}
			seen[id] = true
			v, err := s.Store.FindVersionByID(ctx, id)
			if vigil.ErrorCode(err) == vigil.ENOTFOUND {
				continue // no longer kept
			}
			if err != nil {
				return nil, err
			}
			vs = append(vs, v)
		}
	}
	byID := s.readAsTextAll(ctx, vs)
	out := make([]*changeBody, len(list))
	for i, c := range list {
		out[i] = &changeBody{Change: c, FromReadAsText: byID[c.FromVersion], ToReadAsText: byID[c.ToVersion]}
	}
	return out, nil
}

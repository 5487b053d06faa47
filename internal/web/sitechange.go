package web

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
)

// maxSitePages bounds the pages a site change's page lists; the others
// are counted.
const maxSitePages = 500

// siteChangeData is the page of a change of a site: its pages added,
// removed and changed, each linked to its history or its diff.
type siteChangeData struct {
	Change   *vigil.Change
	Sentinel *vigil.Sentinel
	Pages    []sitePageRow
	More     int // pages not listed
}

// sitePageRow is one page of a site's change.
type sitePageRow struct {
	Op      string // added, removed, changed (as the summary says)
	Page    *intent.PageInfo
	History string // the page's history on the dashboard, if stored
	Diff    string // a changed page's diff, if both versions are stored
}

// siteChange returns the page records of a change of a site, or nil for
// a change of a page.
func siteChange(c *vigil.Change) []intent.Change {
	if c.FromVersion != 0 || len(c.Records) == 0 {
		return nil
	}
	var recs []intent.Change
	if json.Unmarshal(c.Records, &recs) != nil || len(recs) == 0 || recs[0].Kind != intent.KindPage {
		return nil
	}
	return recs
}

// handleSiteChange shows a change of a site whose sentinel belongs to
// the session's user.
func (s *Server) handleSiteChange(w http.ResponseWriter, r *http.Request, sess *session, c *vigil.Change, recs []intent.Change) error {
	sen, err := s.ownSentinel(r.Context(), sess.User, strconv.FormatInt(c.SentinelID, 10))
	if err != nil {
		return err
	}
	data := &siteChangeData{Change: c, Sentinel: sen}
	for i, rec := range recs {
		if i == maxSitePages {
			data.More = len(recs) - i
			break
		}
		p := rec.Page
		if p == nil {
			continue
		}
		row := sitePageRow{Page: p}
		switch rec.Op {
		case intent.Insert:
			row.Op = "added"
		case intent.Delete:
			row.Op = "removed"
		default:
			row.Op = "changed"
		}
		if p.ResourceID > 0 {
			row.History = idPath("/resources/", p.ResourceID)
			if rec.Op == intent.Update && p.OldVersion > 0 && p.NewVersion > 0 && p.OldVersion != p.NewVersion {
				row.Diff = row.History + "/diff?from=" + strconv.FormatInt(p.OldVersion, 10) + "&to=" + strconv.FormatInt(p.NewVersion, 10) + "&view=inline"
			}
		}
		data.Pages = append(data.Pages, row)
	}
	return s.page(w, r, sess, http.StatusOK, "sitechange", c.Summary, "sentinels", data)
}

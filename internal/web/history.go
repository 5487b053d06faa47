package web

import (
	"net/http"
	"strconv"

	"github.com/vigil-web/vigil"
)

// historyChanges is the number of changes a page's history lists (and
// plots), the newest.
const historyChanges = 100

// historyData is a resource's history page.
type historyData struct {
	Resource *vigil.Resource
	// Versions are the versions the timeline shows, the newest first: a
	// page of Pager's (timelinePage at most) of the Total kept.
	Versions []*versionRow
	Pager    *pager
	Total    int
	// Changes are the newest changes (historyChanges at most) the user's
	// sentinels reported on the page, of ChangesTotal; when they are not
	// all, ChangesBy are the user's sentinels with a change on the page
	// (ownSentinelsOn), whose pages list every change.
	Changes      []*vigil.Change
	ChangesTotal int
	ChangesBy    []*vigil.Sentinel
	Plot         *plot
	// FromSeq and ToSeq are the versions the compare form proposes: the
	// last two of the page shown that were fetched without error. It
	// takes any two of the versions kept, FirstSeq to LastSeq.
	FromSeq, ToSeq    int64
	FirstSeq, LastSeq int64
	// Problem is why the compare form was refused, said beside it, or
	// nil.
	Problem *compareProblem
	// ReadAsTextReasons are the distinct reasons of the versions shown
	// that are read as their source text, in the order first met: the
	// page says each once, and marks each version with its number.
	ReadAsTextReasons []*readAsTextReason
	// ReadingUnknown is whether a version shown is marked as not known
	// yet (versionRow.ReadingUnknown): the page says once what that means.
	ReadingUnknown bool
}

// Kept says how many versions the history keeps, as its page words it:
// "1 version kept.", "3 versions kept.".
func (d *historyData) Kept() string {
	switch d.Total {
	case 0:
		return "No version kept."
	case 1:
		return "1 version kept."
	}
	return strconv.Itoa(d.Total) + " versions kept."
}

// readAsTextReason is one reason a history says why versions are read as
// their source text.
type readAsTextReason struct {
	// N numbers the reason from 1 on the page; Numbered says that the
	// page has more than one, so that the markers name theirs.
	N        int
	Numbered bool
	Reason   string
}

type versionRow struct {
	*vigil.Version
	Prev int64 // the previous good version, to compare with
	// ReadAsText is the reason the version's body is read, and shown, as
	// its source text (Warehouse.ReadAsText), nil for a page or a version
	// whose reason is not known yet.
	ReadAsText *readAsTextReason
	// ReadingUnknown is whether the reason is not known yet (readingUnknown:
	// past the request's budget), as the diff page and the API say it.
	ReadingUnknown bool
}

// File says what binary document the version is of (fileText), "" for
// a version of another kind.
func (v *versionRow) File() string { return fileText(v.Version) }

// markReadAsText gives each version of rows read as text its reason, one
// value for each distinct reason (why, by version id), and returns those;
// it marks a version fetched without error that why leaves out as not
// known yet.
func markReadAsText(rows []*versionRow, why map[int64]string) []*readAsTextReason {
	var reasons []*readAsTextReason
	byText := map[string]*readAsTextReason{}
	for _, v := range rows {
		text, known := why[v.ID]
		if !known && v.Error == "" {
			v.ReadingUnknown = true
		}
		if text == "" {
			continue
		}
		if byText[text] == nil {
			byText[text] = &readAsTextReason{N: len(reasons) + 1, Reason: text}
			reasons = append(reasons, byText[text])
		}
		v.ReadAsText = byText[text]
	}
	for _, r := range reasons {
		r.Numbered = len(reasons) > 1
	}
	return reasons
}

func (s *Server) handleResourcePage(w http.ResponseWriter, r *http.Request, sess *session) error {
	res, err := s.readableResource(r, sess.User)
	if err != nil {
		return err
	}
	p, err := dashboardPage(r, timelinePage, timelinePage)
	if err != nil {
		return err
	}
	return s.historyPage(w, r, sess, res, p, nil)
}

// historyPage shows the history of res, the page p of its timeline; with
// a problem, the compare form's, beside the form, answering 400.
func (s *Server) historyPage(w http.ResponseWriter, r *http.Request, sess *session, res *vigil.Resource, p *pager, problem *compareProblem) error {
	// The whole history feeds the plot; the timeline shows timelinePage
	// versions at a time, the newest first.
	all, total, err := s.Store.FindVersions(r.Context(), vigil.VersionFilter{ResourceID: res.ID})
	if err != nil {
		return err
	}
	rows := make([]*versionRow, len(all))
	var prev int64
	for i, v := range all {
		rows[i] = &versionRow{Version: v, Prev: prev}
		if v.Error == "" {
			prev = v.ID
		}
	}
	for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
		rows[i], rows[j] = rows[j], rows[i]
	}
	changes, changesTotal, err := s.ownChangesOf(r, sess.User, res.ID, historyChanges)
	if err != nil {
		return err
	}
	data := &historyData{Resource: res, Total: total, Changes: changes, ChangesTotal: changesTotal, Plot: changePlot(all, changes, s.now(), s.displayLocation(sess.User))}
	if changesTotal > len(changes) {
		if data.ChangesBy, err = s.ownSentinelsOn(r, sess.User, res.ID, changes, changesTotal); err != nil {
			return err
		}
	}
	p.Total = len(rows)
	data.Versions = rows[min(p.Offset, len(rows)):min(p.Offset+p.Limit, len(rows))]
	p.Shown = len(data.Versions)
	data.Pager = p
	// Recorded with each version once it is read: those not read yet are
	// read here, within the request's budget (readAsTextAll).
	shown := make([]*vigil.Version, len(data.Versions))
	for i, v := range data.Versions {
		shown[i] = v.Version
	}
	why, err := s.readAsTextAll(r.Context(), shown)
	if err != nil {
		return err
	}
	data.ReadAsTextReasons = markReadAsText(data.Versions, why)
	for _, v := range data.Versions {
		data.ReadingUnknown = data.ReadingUnknown || v.ReadingUnknown
	}
	for _, v := range data.Versions {
		if v.Error == "" {
			if data.ToSeq == 0 {
				data.ToSeq = v.Seq
			} else if data.FromSeq == 0 {
				data.FromSeq = v.Seq
			}
		}
	}
	if len(all) > 0 {
		data.FirstSeq, data.LastSeq = all[0].Seq, all[len(all)-1].Seq
	}
	status := http.StatusOK
	if problem != nil {
		data.Problem, status = problem, http.StatusBadRequest
	}
	return s.page(w, r, sess, status, "resource", "History of "+res.URL, "resources", data)
}

// timelinePage is the most versions a history's timeline shows at once.
const timelinePage = 200

// ownSentinelsOn returns u's sentinels that reported the total changes on
// a resource, whose pages list them all: those of the changes listed
// first, then, if their changes are not all, any other of u's sentinels
// with a change on it (its changes being all older than those listed).
// The changes are counted by sentinel in one read, not one a sentinel.
func (s *Server) ownSentinelsOn(r *http.Request, u *vigil.User, resourceID int64, listed []*vigil.Change, total int) ([]*vigil.Sentinel, error) {
	counts, err := s.Store.CountChangesBySentinel(r.Context(), vigil.ChangeFilter{OwnerID: u.ID, ResourceID: resourceID})
	if err != nil {
		return nil, err
	}
	var sens []*vigil.Sentinel
	seen := map[int64]bool{}
	found := 0
	add := func(sen *vigil.Sentinel) {
		seen[sen.ID] = true
		if n := counts[sen.ID]; n > 0 {
			sens = append(sens, sen)
			found += n
		}
	}
	for _, c := range listed {
		if seen[c.SentinelID] {
			continue
		}
		sen, err := s.Store.FindSentinelByID(r.Context(), c.SentinelID)
		if vigil.ErrorCode(err) == vigil.ENOTFOUND {
			seen[c.SentinelID] = true
			continue // removed since, with its changes
		} else if err != nil {
			return nil, err
		}
		add(sen)
	}
	if found >= total {
		return sens, nil
	}
	all, _, err := s.Store.FindSentinels(r.Context(), vigil.SentinelFilter{OwnerID: u.ID})
	if err != nil {
		return nil, err
	}
	for _, sen := range all {
		if !seen[sen.ID] {
			add(sen)
		}
	}
	return sens, nil
}

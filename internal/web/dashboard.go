package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
)

func (s *Server) handleHome(w http.ResponseWriter, r *http.Request, _ *session) error {
	return seeOther(w, r, "/sentinels")
}

// sentinelRow is a line of the sentinel list.
type sentinelRow struct {
	*vigil.Sentinel
	URLs       []string
	Resources  []*sentinelPage
	LastChange *vigil.Change
	Error      string // the last fetch error of one of its pages (sentinelView.LastFetchError)
	// FailingSince is since when that page fails (sentinelView.FailingSince),
	// zero when Error is empty or the time is not known.
	FailingSince time.Time
	Lifespan     string // pending, active, ended; "" before the first check
	// Starts is the start of a sentinel that has not started, zero
	// otherwise: it is not checked before.
	Starts time.Time
	// Checking is set while the monitor checks the sentinel (see
	// Server.Checking): its NextCheck is the claim's end, not shown.
	Checking bool
	// ScopeNotes say what its scopes select nothing of (see
	// sentinelView.ScopeNotes).
	ScopeNotes []string
	// Warnings say how much less often this server checks it than it
	// says (sentinelView.fetchWarnings).
	Warnings []string
	// Unsent say which of its Notify clause's channels this server
	// cannot send on (sentinelView.unsendable).
	Unsent []string
	// Unreachable say which of its pages and webhooks this server does
	// not reach (sentinelView.unreachable).
	Unreachable []string
	// Digests says it sends digests now, and NextDigest when the next
	// goes out, zero before its first period (sentinelView.NextDigest)
	// and when DigestUnknown says the monitor's state could not be read.
	Digests, DigestUnknown bool
	NextDigest             time.Time
}

// sentinelRow returns the row of a sentinel whose view (lifespan phase,
// scope notes, pages and the failure of their last fetch) is v (see
// sentinelViews, which reads many at once).
func (s *Server) sentinelRow(ctx context.Context, sen *vigil.Sentinel, v sentinelView) (*sentinelRow, error) {
	lifespan := v.Lifespan
	row := &sentinelRow{Sentinel: sen, Lifespan: lifespan, Checking: s.Checking != nil && s.Checking(sen.ID), ScopeNotes: v.ScopeNotes,
		Warnings: v.fetchWarnings, Unsent: v.unsendable, Unreachable: v.unreachable, Digests: v.digests, DigestUnknown: v.digestUnknown,
		NextDigest: v.NextDigest}
	if c := v.checked; c != nil { // decoded once, for the view
		row.URLs = c.URLs
		if lifespan != "active" && lifespan != "ended" && c.Start.After(s.now()) {
			row.Starts = c.Start
		}
	}
	row.Resources, row.Error, row.FailingSince = v.pages, v.LastFetchError, v.FailingSince
	changes, _, err := s.Store.FindChanges(ctx, vigil.ChangeFilter{SentinelID: sen.ID, Limit: 1})
	if err != nil {
		return nil, err
	}
	if len(changes) > 0 {
		row.LastChange = changes[0]
	}
	return row, nil
}

// sentinelsData is the sentinel list: a page of its rows.
type sentinelsData struct {
	Rows  []*sentinelRow
	Pager *pager
	// Done says what the form that led here did (takeDone), or is
	// empty.
	Done string
}

func (s *Server) handleSentinelsPage(w http.ResponseWriter, r *http.Request, sess *session) error {
	p, err := dashboardPage(r, 100, 500)
	if err != nil {
		return err
	}
	list, total, err := s.Store.FindSentinels(r.Context(), vigil.SentinelFilter{OwnerID: sess.User.ID, Offset: p.Offset, Limit: p.Limit})
	if err != nil {
		return err
	}
	p.Total, p.Shown = total, len(list)
	rows := make([]*sentinelRow, 0, len(list))
	views := s.sentinelViews(r.Context(), list) // their lifespans in one read
	for i, sen := range list {
		row, err := s.sentinelRow(r.Context(), sen, views[i])
		if err != nil {
			return err
		}
		rows = append(rows, row)
	}
	return s.page(w, r, sess, http.StatusOK, "sentinels", "Sentinels", "sentinels", &sentinelsData{Rows: rows, Pager: p, Done: s.takeDone(w, r)})
}

// editorData is the sentinel editor: the source, its problems, and the
// source cut into segments so that the page marks errors without script.
type editorData struct {
	Editing  *vigil.Sentinel
	Source   string
	Errors   []Diagnostic
	Warnings []Diagnostic
	Segments []segment
	Row      *sentinelRow
	Changes  []*vigil.Change
	// ChangesPager pages Changes, the newest first (sentinelChangesPage
	// a page); nil in the editor of a new sentinel.
	ChangesPager *pager
	// Feeds are the sentinel's feeds, for its owner (feedLinks); none
	// in the editor of a new sentinel, or without Server.FeedPath.
	Feeds []feedLink
	// Done says what the form that led here did (takeDone), or is
	// empty.
	Done string
	// TimeZone names the zone the dates of the source are read in when
	// it is saved: the user's own or the deployment's (userLocation).
	TimeZone string
	// SavedZone names the zone the dates of the sentinel edited were
	// read in when it was saved (sentinelLocation), in which it runs
	// until it is saved again; empty for a new sentinel.
	SavedZone string
	// Revision is the revision of the sentinel edited that the form
	// carries (revisionField), on which alone its save is made; empty
	// for a new sentinel, and for the form again of one posted without
	// it.
	Revision string
	// Stale says the form was posted on a revision that is no longer the
	// stored one, and not saved (editorStale): Editing is the sentinel as
	// it is now, and Revision its revision.
	Stale bool
}

type segment struct {
	Text string
	Msg  string // non-empty for an error
}

// segments cuts src at the diagnostics' byte ranges.
func segments(src string, diags []Diagnostic) []segment {
	var out []segment
	at := 0
	for _, d := range diags {
		if d.Line == 0 || d.Offset < at || d.Offset > len(src) {
			continue
		}
		end := min(max(d.End, d.Offset+1), len(src))
		for end < len(src) && !utf8.RuneStart(src[end]) {
			end++ // not half a character
		}
		if d.Offset > at {
			out = append(out, segment{Text: src[at:d.Offset]})
		}
		text := src[d.Offset:end]
		if text == "" || text == "\n" {
			text = " " + text
		}
		out = append(out, segment{Text: text, Msg: d.Message})
		at = end
	}
	return append(out, segment{Text: src[min(at, len(src)):]})
}

const newSentinelTemplate = `Create Sentinel my_page
Using https://example.com/
Monitor any change
Fetch 1 hour
`

func (s *Server) handleSentinelNewPage(w http.ResponseWriter, r *http.Request, sess *session) error {
	src := newSentinelTemplate
	return s.page(w, r, sess, http.StatusOK, "sentinel", "New sentinel", "sentinels",
		&editorData{Source: src, Segments: segments(src, nil), TimeZone: s.zoneName(sess.User)})
}

func (s *Server) handleSentinelCreatePage(w http.ResponseWriter, r *http.Request, sess *session) error {
	src := formSource(r)
	sen, err := s.saveSentinel(r.Context(), sess.User, &sentinelInput{Source: src, editor: true}, nil)
	if err != nil {
		return s.editorError(w, r, sess, nil, src, "", err)
	}
	return s.seeOtherDone(w, r, sentinelPath(sen.ID), "created")
}

// formSource returns the sentinel source of the editor's form with its
// line breaks as the editor holds them: a browser sends a textarea's lines
// ended by CRLF, but its value, which the page's script maps the
// diagnostics' byte offsets into, ends them by LF.
func formSource(r *http.Request) string {
	return strings.ReplaceAll(r.PostFormValue("source"), "\r\n", "\n")
}

// editorError shows the editor again with the problems of src marked;
// rev is the revision the form was posted with (formRevision), which it
// carries again.
func (s *Server) editorError(w http.ResponseWriter, r *http.Request, sess *session, editing *vigil.Sentinel, src, rev string, err error) error {
	de, ok := err.(*diagnosticsError)
	if !ok {
		if vigil.ErrorCode(err) != vigil.EINVALID {
			return err
		}
		de = &diagnosticsError{err: &vigil.Error{Code: vigil.EINVALID}, Diagnostics: []Diagnostic{{Message: vigil.ErrorMessage(err)}}}
	}
	data, title, err := s.editorAgain(r, sess, editing, src, de.Diagnostics)
	if err != nil {
		return err
	}
	data.Revision = rev
	return s.page(w, r, sess, http.StatusUnprocessableEntity, "sentinel", title, "sentinels", data)
}

// editorAgain returns the editor of editing (nil for a new sentinel)
// shown again on a form that was not saved, with src, its source, and
// diags, its problems, marked, and the page's title.
func (s *Server) editorAgain(r *http.Request, sess *session, editing *vigil.Sentinel, src string, diags []Diagnostic) (*editorData, string, error) {
	data := &editorData{Editing: editing, Source: src, Errors: diags, Segments: segments(src, diags), TimeZone: s.zoneName(sess.User)}
	title := "New sentinel"
	if editing != nil {
		title = "Sentinel " + editing.Name
		data.SavedZone = s.sentinelLocation(editing).String()
		var err error
		if data.Row, err = s.sentinelRow(r.Context(), editing, s.sentinelView(r.Context(), editing)); err != nil {
			return nil, "", err
		}
		// The first page of changes: the form's address carries no
		// offset the editor would honour (a bad one is not the form's
		// fault).
		data.ChangesPager = &pager{Limit: sentinelChangesPage, Path: r.URL.Path, Query: url.Values{}}
		if data.Changes, err = s.sentinelChanges(r.Context(), editing, data.ChangesPager); err != nil {
			return nil, "", err
		}
	}
	return data, title, nil
}

// sentinelChanges returns the page p gives of sen's changes, and sets
// p's total and count shown.
func (s *Server) sentinelChanges(ctx context.Context, sen *vigil.Sentinel, p *pager) ([]*vigil.Change, error) {
	changes, total, err := s.Store.FindChanges(ctx, vigil.ChangeFilter{SentinelID: sen.ID, Offset: p.Offset, Limit: p.Limit})
	if err != nil {
		return nil, err
	}
	p.Total, p.Shown = total, len(changes)
	return changes, nil
}

// sentinelChangesPage is the most changes a sentinel's page lists at once.
const sentinelChangesPage = 50

func (s *Server) handleSentinelPage(w http.ResponseWriter, r *http.Request, sess *session) error {
	sen, err := s.ownSentinel(r.Context(), sess.User, r.PathValue("id"))
	if err != nil {
		return err
	}
	row, err := s.sentinelRow(r.Context(), sen, s.sentinelView(r.Context(), sen))
	if err != nil {
		return err
	}
	p, err := dashboardPage(r, sentinelChangesPage, sentinelChangesPage)
	if err != nil {
		return err
	}
	changes, err := s.sentinelChanges(r.Context(), sen, p)
	if err != nil {
		return err
	}
	data := &editorData{Editing: sen, Source: sen.Source, Segments: segments(sen.Source, nil), Row: row, Changes: changes, ChangesPager: p, Done: s.takeDone(w, r),
		TimeZone: s.zoneName(sess.User), SavedZone: s.sentinelLocation(sen).String(), Revision: sentinelETag(sen)}
	data.Feeds = s.feedLinks(r, sen)
	return s.page(w, r, sess, http.StatusOK, "sentinel", "Sentinel "+sen.Name, "sentinels", data)
}

// handleSentinelUpdatePage saves the editor's form. A form carrying the
// revision it was rendered from (formRevision) is saved only on that
// revision: checked at once, and again in the save's transaction; on
// another, the editor is shown again, nothing saved (editorStale).
func (s *Server) handleSentinelUpdatePage(w http.ResponseWriter, r *http.Request, sess *session) error {
	old, err := s.ownSentinel(r.Context(), sess.User, r.PathValue("id"))
	if err != nil {
		return err
	}
	src := formSource(r)
	in := &sentinelInput{Source: src, editor: true}
	rev, precondition := formRevision(r)
	if precondition != nil {
		if formMatches(rev, old) != nil {
			return s.editorStale(w, r, sess, old, src)
		}
		in.precondition = precondition
	}
	if _, err := s.saveSentinel(r.Context(), sess.User, in, old); err != nil {
		var stale *staleFormError
		if errors.As(err, &stale) {
			return s.editorStale(w, r, sess, stale.current, src)
		}
		return s.editorError(w, r, sess, old, src, rev, err)
	}
	return s.seeOtherDone(w, r, sentinelPath(old.ID), "saved")
}

func (s *Server) handleSentinelActionPage(w http.ResponseWriter, r *http.Request, sess *session) error {
	sen, err := s.ownSentinel(r.Context(), sess.User, r.PathValue("id"))
	if err != nil {
		return err
	}
	switch action := r.PathValue("action"); action {
	case "delete":
		if err := s.deleteSentinel(r.Context(), sess.User, sen); err != nil {
			return err
		}
		return s.seeOtherDone(w, r, "/sentinels", "deleted")
	default:
		if err := s.setStatus(r.Context(), sess.User, sen, action); err != nil {
			return err
		}
		return s.seeOtherDone(w, r, sentinelPath(sen.ID), map[string]string{"pause": "paused", "resume": "resumed", "check-now": "check"}[action])
	}
}

// resourcesData is the resource list: a page of it.
type resourcesData struct {
	Resources []*listedResource
	Pager     *pager
}

func (s *Server) handleResourcesPage(w http.ResponseWriter, r *http.Request, sess *session) error {
	p, err := dashboardPage(r, 200, 1000)
	if err != nil {
		return err
	}
	list, total, err := s.readableResources(r.Context(), sess.User, vigil.ResourceFilter{Offset: p.Offset, Limit: p.Limit})
	if err != nil {
		return err
	}
	p.Total, p.Shown = total, len(list)
	return s.page(w, r, sess, http.StatusOK, "resources", "Resources", "resources", &resourcesData{Resources: list, Pager: p})
}

// diffData is the diff page.
type diffData struct {
	Resource *vigil.Resource
	From, To *vigil.Version
	Versions []*vigil.Version
	View     string
	Frame    string // the iframe's URL, for the HTML views
	Records  []intent.Change
	API      string // the API URL of this diff, without format
	// Change is the stored change the page was opened for, if any, with
	// its typed records as the sentinel found them.
	Change *vigil.Change
	// ChangeSentinel is the sentinel that found Change, named on the page.
	ChangeSentinel *vigil.Sentinel
	ChangeRecords  string
	// ChangeLines says what the change's records found, a line each
	// (intent.Change.Line), as its message does; past maxChangeLines,
	// the last line counts the rest.
	ChangeLines []string
	// FromReading and ToReading say how each version is read (reading:
	// readingPage, readingText, or readingUnknown for one whose reason
	// is not known yet, past the request's budget), empty for a pair
	// with a failed fetch; FromReadAsText and ToReadAsText say why a
	// version is shown as its source text (Warehouse.ReadAsText), or are
	// empty.
	FromReading, ToReading       string
	FromReadAsText, ToReadAsText string
	// Latest says that the page was opened without from and to (nor a
	// change of two versions, whose own are shown), and shows the latest
	// change: From and To are the last two versions that can be compared
	// (lastComparable). Nothing says that there are not two such versions
	// yet; To is then the one there is, if any.
	Latest, Nothing bool
	// FromLink and ToLink link From and To in their history's timeline,
	// on the page of it that shows each (timelineLinks).
	FromLink, ToLink string
}

// maxChangeLines is the most lines of a change's records its page shows,
// as its message lists them.
const maxChangeLines = 50

// changeLines returns the lines of a change's records (intent.Change.Line),
// at most maxChangeLines and a count of the rest; none for records that
// are not a list of typed changes.
func changeLines(records []byte) []string {
	var recs []intent.Change
	if json.Unmarshal(records, &recs) != nil {
		return nil
	}
	var out []string
	for i, r := range recs {
		if i == maxChangeLines {
			out = append(out, fmt.Sprintf("... and %d more", len(recs)-maxChangeLines))
			break
		}
		out = append(out, r.Line())
	}
	return out
}

var diffViews = map[string]string{"inline": "html-inline", "side": "html-side-by-side", "changes": "html-changes"}

func (s *Server) handleDiffPage(w http.ResponseWriter, r *http.Request, sess *session) error {
	res, err := s.readableResource(r, sess.User)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	view := q.Get("view")
	if view == "" {
		view = "inline"
	}
	if _, ok := diffViews[view]; !ok && view != "records" {
		return vigil.Errorf(vigil.EINVALID, "view must be inline, side, changes or records")
	}
	versions, _, err := s.Store.FindVersions(r.Context(), vigil.VersionFilter{ResourceID: res.ID, Descending: true, Limit: 500})
	if err != nil {
		return err
	}
	data := &diffData{Resource: res, Versions: versions, View: view}
	if cid := q.Get("change"); cid != "" {
		c, err := s.ownChangeID(r, sess.User, cid)
		if err != nil {
			return err
		}
		if c.ResourceID != res.ID {
			return vigil.Errorf(vigil.EINVALID, "change %d is not a change of resource %d", c.ID, res.ID)
		}
		data.Change = c
		if data.ChangeSentinel, err = s.ownSentinel(r.Context(), sess.User, strconv.FormatInt(c.SentinelID, 10)); err != nil {
			return err
		}
		if len(c.Records) > 0 {
			var buf bytes.Buffer
			if json.Indent(&buf, c.Records, "", "  ") == nil {
				data.ChangeRecords = buf.String()
			}
			data.ChangeLines = changeLines(c.Records)
		}
	}
	fromText, toText := q.Get("from"), q.Get("to")
	if q.Has(fromVersionField) || q.Has(toVersionField) {
		// The history's compare form: two versions by number; one it
		// cannot compare is said beside the form, with what was typed.
		var problem *compareProblem
		if fromText, toText, problem, err = s.compareVersions(r.Context(), res, q.Get(fromVersionField), q.Get(toVersionField), view); err != nil {
			return err
		}
		if problem != nil {
			// The timeline's page the form was sent from (its offset,
			// which the form sends), or the first for an offset that
			// is none, or past what the pages' offsets take.
			p := &pager{Limit: timelinePage, Path: idPath("/resources/", res.ID), Query: url.Values{}}
			if offset, err := strconv.Atoi(q.Get("offset")); err == nil && offset > 0 && offset <= maxOffset {
				p.Offset = offset
			}
			return s.historyPage(w, r, sess, res, p, problem)
		}
	}
	if fromText == "" && toText == "" && data.Change != nil && data.Change.FromVersion != 0 {
		// A change named alone: its own two versions, not the latest.
		fromText, toText = strconv.FormatInt(data.Change.FromVersion, 10), strconv.FormatInt(data.Change.ToVersion, 10)
	}
	if fromText == "" && toText == "" {
		// A link to the resource's diff: its latest change.
		data.Latest = true
		if data.From, data.To, err = s.lastComparable(r.Context(), res.ID); err != nil {
			return err
		}
		if data.From == nil {
			data.Nothing = true
			if _, data.ToLink, err = s.timelineLinks(r.Context(), res, nil, data.To); err != nil {
				return err
			}
			return s.page(w, r, sess, http.StatusOK, "diff", "Changes of "+res.URL, "resources", data)
		}
		fromText, toText = strconv.FormatInt(data.From.ID, 10), strconv.FormatInt(data.To.ID, 10)
	}
	base := idPath("/resources/", res.ID)
	data.API = "/api/v1" + base + "/diff?" + "from=" + fromText + "&to=" + toText
	if view == "records" {
		p, err := s.loadDiff(r.Context(), res, fromText, toText, historyVersionList(res))
		if err != nil {
			return err
		}
		data.From, data.To = p.From, p.To
		if data.Records, err = s.records(r.Context(), p); err != nil {
			return err
		}
	} else {
		if data.From, data.To, err = s.diffVersions(r.Context(), res, fromText, toText, historyVersionList(res)); err != nil {
			return err
		}
		data.Frame = base + "/diff/frame?from=" + strconv.FormatInt(data.From.ID, 10) + "&to=" + strconv.FormatInt(data.To.ID, 10) + "&view=" + view
	}
	// Recorded with each version once it is read: one not read yet is
	// read here within the request's budget, as a history's are
	// (readAsTextAll), else said not known yet. Neither is a failed
	// fetch: diffVersions refuses one.
	why, err := s.readAsTextAll(r.Context(), []*vigil.Version{data.From, data.To})
	if err != nil {
		return err
	}
	data.FromReading, data.FromReadAsText = reading(why, data.From.ID)
	data.ToReading, data.ToReadAsText = reading(why, data.To.ID)
	if data.FromLink, data.ToLink, err = s.timelineLinks(r.Context(), res, data.From, data.To); err != nil {
		return err
	}
	return s.page(w, r, sess, http.StatusOK, "diff", "Changes of "+res.URL, "resources", data)
}

// timelineLinks returns the links to from and to in the timeline of
// their history, each to the page of it that shows the version (the
// newest timelinePage first, then the next...); "" for a nil version.
// The kept versions' numbers have no gap (only the oldest are deleted),
// so a version's place is its distance from the newest.
func (s *Server) timelineLinks(ctx context.Context, res *vigil.Resource, from, to *vigil.Version) (fromLink, toLink string, err error) {
	newest, _, err := s.Store.FindVersions(ctx, vigil.VersionFilter{ResourceID: res.ID, Descending: true, Limit: 1})
	if err != nil {
		return "", "", err
	}
	link := func(v *vigil.Version) string {
		if v == nil {
			return ""
		}
		p := idPath("/resources/", res.ID)
		if len(newest) > 0 {
			if offset := int(newest[0].Seq-v.Seq) / timelinePage * timelinePage; offset > 0 {
				p += "?offset=" + strconv.Itoa(offset)
			}
		}
		return p + "#version-" + strconv.FormatInt(v.ID, 10)
	}
	return link(from), link(to), nil
}

// lastComparable returns the last two versions of a resource that can be
// compared (a failed fetch has no body), older first: from is nil if
// there is one such version only, and to too if there is none.
func (s *Server) lastComparable(ctx context.Context, resourceID int64) (from, to *vigil.Version, err error) {
	const page = 100
	for offset := 0; ; offset += page {
		vs, _, err := s.Store.FindVersions(ctx, vigil.VersionFilter{ResourceID: resourceID, Descending: true, Offset: offset, Limit: page})
		if err != nil {
			return nil, nil, err
		}
		for _, v := range vs {
			switch {
			case v.Error != "":
			case to == nil:
				to = v
			default:
				return v, to, nil
			}
		}
		if len(vs) < page {
			return nil, to, nil
		}
	}
}

func idPath(prefix string, id int64) string { return prefix + strconv.FormatInt(id, 10) }

// sentinelPath is the path of a sentinel's page.
func sentinelPath(id int64) string { return idPath("/sentinels/", id) }

// handleDiffFrame serves an HTML view of a diff for the sandboxed iframe.
func (s *Server) handleDiffFrame(w http.ResponseWriter, r *http.Request, sess *session) error {
	res, err := s.readableResource(r, sess.User)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	format, ok := diffViews[q.Get("view")]
	if !ok {
		return vigil.Errorf(vigil.EINVALID, "view must be inline, side or changes")
	}
	p, err := s.loadDiff(r.Context(), res, q.Get("from"), q.Get("to"), historyVersionList(res))
	if err != nil {
		return err
	}
	return s.renderView(r.Context(), w, p, format)
}

// handleChangePage shows a change: the diff between its versions, or the
// pages of a site's change.
func (s *Server) handleChangePage(w http.ResponseWriter, r *http.Request, sess *session) error {
	c, err := s.ownChange(r, sess.User)
	if err != nil {
		return err
	}
	if recs := siteChange(c); recs != nil {
		return s.handleSiteChange(w, r, sess, c, recs)
	}
	if c.FromVersion == 0 {
		return seeOther(w, r, idPath("/resources/", c.ResourceID))
	}
	if to, err := s.Store.FindVersionByID(r.Context(), c.ToVersion); err == nil && (to.Error != "" || s.isFile(r, c.FromVersion)) {
		// A change into a version that has no body to compare (a file
		// Vigil does not read, vigil.Version.Binary), or out of one (the
		// file turned back into a page): its place in the history, which
		// says what it is, not a diff refused.
		_, link, err := s.timelineLinks(r.Context(), &vigil.Resource{ID: c.ResourceID}, nil, to)
		if err != nil {
			return err
		}
		return seeOther(w, r, link)
	}
	return seeOther(w, r, idPath("/resources/", c.ResourceID)+"/diff?from="+strconv.FormatInt(c.FromVersion, 10)+
		"&to="+strconv.FormatInt(c.ToVersion, 10)+"&view=inline&change="+strconv.FormatInt(c.ID, 10))
}

// isFile reports whether version id is a file Vigil does not read
// (vigil.Version.Binary); false when it cannot be read.
func (s *Server) isFile(r *http.Request, id int64) bool {
	v, err := s.Store.FindVersionByID(r.Context(), id)
	return err == nil && v.Binary()
}

// tokensData is the tokens page, the user's settings; Secret is set
// once, by the page the creation's redirect leads to (takeFlash), or
// Lost says why it cannot be.
type tokensData struct {
	Tokens []*vigil.Token
	Secret string
	Name   string
	Lost   string
	// WebhookKey is the user's webhook signing key, nil if the server
	// signs no webhooks.
	WebhookKey *webhookKey
	// TimeZone is the user's own zone, "" for the deployment's,
	// DeploymentZone; Done says the form of the zone saved it.
	TimeZone, DeploymentZone, Done string
}

func (s *Server) handleTokensPage(w http.ResponseWriter, r *http.Request, sess *session) error {
	list, err := s.Store.FindTokens(r.Context(), sess.User.ID)
	if err != nil {
		return err // the flash left for the page shown
	}
	f, err := s.takeFlash(w, r, sess)
	if err != nil {
		return err
	}
	return s.page(w, r, sess, http.StatusOK, "tokens", "API tokens", "tokens", &tokensData{Tokens: list, Secret: f.secret, Name: f.secretOf, Lost: f.lost,
		WebhookKey: s.webhookKeyOf(sess.User), TimeZone: sess.User.TimeZone, DeploymentZone: s.location().String(), Done: s.takeDone(w, r)})
}

func (s *Server) handleTokenCreatePage(w http.ResponseWriter, r *http.Request, sess *session) error {
	days := 0 // left empty: never expires
	if raw := strings.TrimSpace(r.PostFormValue("days")); raw != "" {
		var err error
		if days, err = strconv.Atoi(raw); err != nil {
			days = -1 // not a number: refused below, not taken for never
		}
	}
	if maxDays := int(maxTokenTTL / (24 * time.Hour)); days < 0 || days > maxDays {
		return vigil.Errorf(vigil.EINVALID, "days: the expiry must be a whole number of days from 0 (never) to %d", maxDays)
	}
	t, secret, err := s.createToken(r, sess.User, r.PostFormValue("name"), time.Duration(days)*24*time.Hour)
	if err != nil {
		return err
	}
	// The secret is shown by the redirect's page, from the server
	// (flash.go): a reload makes no second token.
	return s.seeOtherFlash(w, r, sess, "/tokens", &flash{secret: secret, secretOf: t.Name})
}

func (s *Server) handleTokenDeletePage(w http.ResponseWriter, r *http.Request, sess *session) error {
	if err := s.deleteOwnToken(r, sess.User, r.PathValue("id")); err != nil {
		return err
	}
	return seeOther(w, r, "/tokens")
}

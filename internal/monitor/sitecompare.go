package monitor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/webtable"
)

// siteOptions are the repairs of Algorithm Delta a site's check asks for,
// as vigil site diff does: no modified tuple without a modified page in
// it, every modified page in both versions, every tuple with a changed
// page in some delta table.
var siteOptions = webtable.Options{Strict: true, Cover: true, Complete: true}

// errReference marks an error of compareSites that is the previous
// crawl's, the reference's: its snapshot no longer makes a web table (it
// reads, but no longer validates). It depends on that snapshot alone, so
// every later comparison with it fails too: checkSite takes a new
// reference once the sentinel is edited after it (compareFailure says so).
var errReference = errors.New("previous crawl")

// compareSites returns the records of the pages added, deleted and
// modified from the crawl prev to cur: every page added or deleted (by
// URL), and the modified pages whose change the sentinel's Monitor clause
// finds, or whose versions it could not compare (notComparedNote), the
// most important in cur first. Its error, but for ctx's, says
// which crawl could not be compared and why, its URLs redacted: it is told
// to the user (compareFailure); one of the previous crawl alone is an
// errReference.
func (m *Monitor) compareSites(ctx context.Context, j *job, prev, cur *siteRecord, grant *memoryGrant) ([]intent.Change, error) {
	// Each against the other: a binary leaf's versions are compared only
	// where both crawls hashed it (crawl.Snapshot.TableAgainst), so that
	// a crawl kept by a Vigil before them reports no PDF changed.
	w1, err := prev.Snapshot.TableAgainst(cur.Snapshot, crawl.ByContent)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errReference, err)
	}
	w2, err := cur.Snapshot.TableAgainst(prev.Snapshot, crawl.ByContent)
	if err != nil {
		return nil, fmt.Errorf("this crawl: %w", err)
	}
	d, err := webtable.Diff(w1, w2, &siteOptions)
	if err != nil {
		// The tables are named by their start URLs, unredacted; the
		// error becomes the sentinel's last error (compareFailure).
		return nil, fmt.Errorf("diff the crawls: %s", vigil.RedactURLs(err.Error()))
	}
	pages1, pages2 := prev.Snapshot.PagesByURL(), cur.Snapshot.PagesByURL()
	redirected := map[string]string{}
	for _, r := range cur.Snapshot.Redirects {
		redirected[r.From] = r.To
	}
	unread1, unread2 := prev.Snapshot.UnreadLinks(), cur.Snapshot.UnreadLinks()
	addedWith, deletedWith := byContent(d.Added, pages2), byContent(d.Deleted, pages1)
	textLinkers := crawl.NewTextLinkers(prev.Snapshot, cur.Snapshot)
	cut := cur.Snapshot.LinksCut()
	var out []intent.Change
	for _, id := range sortedIDs(d.Added) {
		p := pages2[string(id)]
		info := &intent.PageInfo{URL: p.URL, Title: p.Title, NewVersion: cur.Versions[p.URL]}
		if before := pages1[p.URL]; before != nil && before.Failed() {
			info.Note = "failed before: " + before.Failure()
		} else if why := unread1[p.URL]; why != "" {
			info.Note = "linked before, " + unreadText(why, prev.Snapshot.Query)
		} else if from := textLinkers.ReachedThroughText(p.URL); from != "" {
			info.Note = "reached through " + from + ", read as text, whose URLs the crawl before did not follow"
		}
		if u := deletedWith[p.Hash]; u != "" {
			info.Note = addNote(info.Note, "the content of removed "+u)
		}
		info.Note = addNote(info.Note, p.LinksNote())
		info.ResourceID = m.knownResource(ctx, p.URL)
		out = append(out, intent.NewPageChange(intent.Insert, info))
	}
	for _, id := range sortedIDs(d.Deleted) {
		p := pages1[string(id)]
		info := &intent.PageInfo{URL: p.URL, Title: p.Title, OldVersion: prev.Versions[p.URL], Note: "no longer reached"}
		if at := prev.readAt[p.URL]; at != "" {
			// Read before the site moved to https: told at the URL it
			// was read at, of its version's resource.
			info.URL = at
		}
		if now := pages2[p.URL]; now != nil {
			info.Note = "now failing: " + now.Failure() + failingSince(p, now, j.location())
		} else if to, ok := redirected[p.URL]; ok {
			info.Note = "now redirected to " + to
		} else if why := unread2[p.URL]; why != "" {
			info.Note = "still linked, " + unreadText(why, cur.Snapshot.Query)
		} else if from := textLinkers.LinkerReadAsText(p.URL); from != "" {
			info.Note = "no longer reached: " + from + " is read as text"
		} else if len(cut) > 0 {
			// Its link may be past the links a page keeps.
			info.Note = crawl.CutNote(cut)
		}
		if u := addedWith[p.Hash]; u != "" && redirected[p.URL] != u {
			info.Note = addNote(info.Note, "its content now at "+u)
		}
		info.ResourceID = m.knownResource(ctx, info.URL)
		out = append(out, intent.NewPageChange(intent.Delete, info))
	}
	anyChange := isAnyChange(j.plan.expr)
	for _, id := range byImportance(d.Modified, pages2) {
		p, before := pages2[string(id)], pages1[string(id)]
		ref := prev.Versions[p.URL]
		info := &intent.PageInfo{URL: p.URL, Title: p.Title, OldVersion: ref, NewVersion: cur.Versions[p.URL]}
		if before.Title != p.Title {
			info.OldTitle = before.Title
		}
		switch {
		case !crawl.ReadingChanged(prev.Snapshot, cur.Snapshot, before, p):
		case p.Note != "":
			info.Note = p.Note // read as text, and why
		default:
			info.Note = "read as a page again"
		}
		if p.DigestNote != "" {
			// A binary document hashed as its bytes: why it may be
			// changed at every check.
			info.Note = addNote(info.Note, p.DigestNote)
		}
		info.Note = addNote(info.Note, p.LinksNote())
		if at := prev.readAt[p.URL]; at != "" {
			// Read before the site moved to https: its version then is
			// of the http URL's resource, not of this one (ResourceID),
			// so it is said in words, not as OldVersion.
			info.OldVersion = 0
			info.Note = addNote(info.Note, fmt.Sprintf("compared with version %d of %s, read there before the site moved to https", ref, vigil.RedactURL(at)))
		}
		info.ResourceID = m.knownResource(ctx, p.URL)
		if ref == 0 || info.NewVersion == 0 || ref == info.NewVersion || p.BinaryLeaf() {
			// Not both versions stored, or the new one a binary
			// document's, whose body the fetcher does not return (its
			// version says why, with its digest): only "any change" can
			// tell it changed.
			if anyChange {
				out = append(out, intent.NewPageChange(intent.Update, info))
			}
			continue
		}
		pe := &pairEval{m: m, url: p.URL, ref: ref, cur: info.NewVersion, grant: grant}
		ok, res, err := m.evaluateErr(ctx, pe, j)
		grant.done() // the page's comparison is over
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			// Reported changed, saying why it was not compared
			// (notComparedNote): dropped, its change would be lost,
			// as this crawl becomes the reference.
			m.Logger.Error("evaluate site page", LogSentinel, j.s.ID, logURL(p.URL), LogError, err)
			info.Note = addNote(info.Note, notComparedNote(err))
			out = append(out, intent.NewPageChange(intent.Update, info))
			continue
		}
		if !ok {
			continue
		}
		info.Summary = summarize(j.plan, res, res.AllChanges())
		out = append(out, intent.NewPageChange(intent.Update, info))
	}
	return out, nil
}

// notComparedNote is the note of a modified page of a site whose two
// versions could not be compared by the sentinel's Monitor clause (a
// stored version that cannot be read or parsed): the page is reported
// changed, as "any change" would report it, saying so and why, its URLs
// redacted. Left out, its change would be lost for good, the crawl
// becoming the reference; failing the check instead would hold back
// every other page's change for as long as the version stays unreadable,
// which may be for ever.
func notComparedNote(err error) string {
	return "changed, but its content could not be compared by the Monitor clause: " + vigil.RedactURLs(err.Error())
}

// byContent returns the URL of the first of the pages ids (by URL) that
// holds each content, by its hash: a page added with the content of a
// page deleted may be that page moved, which vigil site diff says too.
func byContent(ids []webtable.NodeID, pages map[string]*crawl.Page) map[string]string {
	out := map[string]string{}
	for _, id := range sortedIDs(ids) {
		if p := pages[string(id)]; p.Hash != "" && out[p.Hash] == "" {
			out[p.Hash] = p.URL
		}
	}
	return out
}

// addNote returns note with more after it ("; " between them), if any.
func addNote(note, more string) string {
	if note == "" || more == "" {
		return note + more
	}
	return note + "; " + more
}

// unreadText says which bound of a site's crawl left a linked page unread:
// its pages or its depth.
func unreadText(why crawl.UnreadReason, q crawl.Query) string {
	if why == crawl.UnreadDepth {
		return fmt.Sprintf("beyond the site's depth (depth %d)", q.MaxDepth)
	}
	return fmt.Sprintf("not read: the crawl stopped at its page limit (pages %d)", q.MaxPages)
}

// isAnyChange reports whether an expression is "any change".
func isAnyChange(x spec.Expr) bool {
	c, ok := x.(*spec.ChangeType)
	return ok && c.Kind == spec.AnyChange && c.Scope == nil && len(c.Ignore) == 0
}

func sortedIDs(ids []webtable.NodeID) []webtable.NodeID {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}

// byImportance returns the ids of pages, the most important first (by URL
// among equals), as vigil site diff lists the pages changed: a message,
// which shows the first pages of a change, leads with those that matter
// most.
func byImportance(ids []webtable.NodeID, pages map[string]*crawl.Page) []webtable.NodeID {
	out := sortedIDs(ids)
	slices.SortStableFunc(out, func(a, b webtable.NodeID) int {
		return cmp.Compare(pages[string(b)].Importance, pages[string(a)].Importance)
	})
	return out
}

// failingSince returns, for a page carried over (before) that failed for
// a moment again (now) past the bounds of carrying it (crawl.Carry),
// since when it fails and when it was last read, said in loc, the
// sentinel's zone (plan.location), as its message says times
// (messageTime): ", failing 4 crawls in a row since 2026-11-30 18:00
// JST, last read 2026-11-30 17:00 JST". For any other failure, a 404
// after a page was carried included, it is "": the failure says it all.
//
// The note is said in the sentinel's zone when the change is found, not
// stored without a zone and said in the reader's: it is words in the
// change's record (intent.PageInfo.Note), stored once and read as stored
// by the dashboard, the messages, the feed and the webhook's records, as
// the message that tells the change says it, and its zone's abbreviation
// places it for a reader in another zone.
func failingSince(before, now *crawl.Page, loc *time.Location) string {
	c := before.Carried
	if c == nil || !now.Momentary {
		return ""
	}
	// The crawls that carried it (one or more), and this one: always
	// crawls, plural.
	return fmt.Sprintf(", failing %d crawls in a row since %s, last read %s", c.Crawls+1, messageTime(c.Since, loc), messageTime(c.Read, loc))
}

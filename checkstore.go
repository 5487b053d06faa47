package vigil

import (
	"context"
	"encoding/json"
	"time"
)

// CheckRecord is the outcome of one check of one sentinel, written in one
// transaction with every other record of its batch: the sentinel's new
// run-time state (opaque JSON owned by the monitor service), the changes it
// found and the notifications they cause, and the time of its next check.
// Writing them together is what makes a restart neither lose nor repeat a
// notification.
type CheckRecord struct {
	SentinelID int64
	CheckedAt  time.Time
	NextCheck  time.Time
	// Leased, when set, is the NextCheck the claim of this check gave the
	// sentinel (its lease). A stored NextCheck other than it was set while
	// the check ran (check now, resume, an edit): the earlier of it and
	// NextCheck is kept, so that a check asked for during a check is not
	// lost.
	Leased time.Time
	State  json.RawMessage
	// Changes are created (their IDs set).
	Changes []*Change
	// Notifications are enqueued as by EnqueueNotification; a
	// notification's ChangeID is set from Changes[ChangeIndex[i]] when
	// ChangeIndex[i] >= 0.
	Notifications []*Notification
	ChangeIndex   []int
	// Wake moves the next check of these sentinels to CheckedAt (the
	// dependants of an event this check raised).
	Wake []int64
	// Site, when not nil, replaces the sentinel's site snapshot: what the
	// check of a sentinel watching a site crawled (opaque bytes owned by
	// the monitor service), which the next check compares with. Written
	// with the changes it caused, so that a crash neither loses a site's
	// change nor reports it twice.
	Site []byte
	// DropSite, when Site is nil, deletes the sentinel's site snapshot:
	// the sentinel no longer watches a site, and a crawl made before must
	// not be what a check compares with once it watches one again.
	DropSite bool
	// Skipped is set by RecordChecks when it wrote nothing of the record:
	// its sentinel was deleted or paused while it was checked. The claim
	// of a sentinel paused so is given back: its NextCheck, if still
	// Leased, becomes CheckedAt, so that once resumed it is due at once
	// (as a claim ReleaseSentinels gives back), not when the lease ends.
	Skipped bool
	// Importance is the importance the check estimated for each page it
	// read: each resource's Importance is set (a resource deleted
	// meanwhile is skipped), and the sentinel's becomes the largest of
	// them. None keeps the sentinel's.
	Importance []PageImportance
}

// PageImportance is the importance a check estimated for one page: its
// share, from 0 to 1, of the importance of the pages the monitor watches.
type PageImportance struct {
	ResourceID int64
	Importance float64
}

// Validate returns an EINVALID error naming the first bad field.
func (p PageImportance) Validate() error {
	if p.ResourceID <= 0 {
		return Errorf(EINVALID, "page importance resourceId required")
	}
	if !ValidImportance(p.Importance) {
		return Errorf(EINVALID, "page importance %v of resource %d is not from 0 to 1", p.Importance, p.ResourceID)
	}
	return nil
}

// MaxImportance returns the largest importance of pages, 0 if none.
func MaxImportance(pages []PageImportance) float64 {
	m := 0.0
	for _, p := range pages {
		m = max(m, p.Importance)
	}
	return m
}

// CheckStore keeps the monitor's per-sentinel run-time state and records
// checks.
type CheckStore interface {
	// SentinelStates returns the stored state of each sentinel of ids that
	// has one.
	SentinelStates(ctx context.Context, ids []int64) (map[int64]json.RawMessage, error)
	// RecordChecks writes the records in one transaction. A record of a
	// sentinel that no longer exists, or is paused (not active), is
	// skipped, nothing of it written (a paused sentinel's state stays as
	// before its check, which is made again once it is resumed, and its
	// claim is given back: CheckRecord.Skipped), and marked so. It returns EINVALID for an
	// invalid change or notification, writing nothing.
	RecordChecks(ctx context.Context, recs []*CheckRecord) error
	// SiteSnapshot returns the site snapshot last recorded for a sentinel
	// (CheckRecord.Site) and when it was recorded (the check's
	// CheckedAt); ENOTFOUND if it has none. Deleting the sentinel, or a
	// record with DropSite, deletes it.
	SiteSnapshot(ctx context.Context, sentinelID int64) ([]byte, time.Time, error)
}

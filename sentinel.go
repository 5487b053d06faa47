package vigil

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
)

// SentinelStatus is whether a sentinel is being checked.
type SentinelStatus string

const (
	SentinelActive SentinelStatus = "active"
	SentinelPaused SentinelStatus = "paused"
)

// Sentinel is a user's standing request to watch something, as stored: the
// source text in the sentinel language and the checked specification that the
// spec package produced from it (opaque JSON here).
type Sentinel struct {
	ID        int64           `json:"id"`
	OwnerID   int64           `json:"ownerId"`
	Name      string          `json:"name"`
	Source    string          `json:"source"`
	Spec      json.RawMessage `json:"spec"`
	Status    SentinelStatus  `json:"status"`
	CreatedAt time.Time       `json:"createdAt"`
	// UpdatedAt is when the sentinel was created or last edited (its
	// definition saved: SentinelStore.UpdateSentinel, saving it unchanged
	// included). Pausing, resuming and asking for a check now
	// (SentinelStore.SetSentinelStatus) leave it.
	UpdatedAt time.Time `json:"updatedAt"`
	// NextCheck is when the sentinel is next due; the scheduler sets it.
	NextCheck time.Time `json:"nextCheck,omitzero"`
	// LastCheck is when the sentinel was last checked, zero if never.
	LastCheck time.Time `json:"lastCheck,omitzero"`
	// FeedGeneration counts the rotations of the sentinel's feed token.
	// The token is derived from it (internal/notify/feed), so a rotation
	// revokes every feed URL handed out before it and leaves the other
	// sentinels' feeds alone. A new sentinel starts at 0; only
	// SentinelStore.RotateSentinelFeed changes it.
	FeedGeneration int64 `json:"feedGeneration"`
	// Importance is the largest Resource.Importance of the pages the
	// sentinel's last check read (0 before one did): with how late it
	// is, it orders the claims of due sentinels (ClaimPriority). Only
	// CheckStore.RecordChecks changes it.
	Importance float64 `json:"importance"`
	// TimeZone is the IANA name of the zone the dates written in the
	// sentinel were read in when it was saved (its owner's User.TimeZone
	// then, or the deployment's), in which the monitor runs its lifespan:
	// a later change of the owner's zone moves it only when it is edited
	// again. Empty, for a sentinel saved before zones were kept, is the
	// deployment's zone (vigil serve --tz).
	TimeZone string `json:"timeZone,omitempty"`
}

// ImportanceLead is how much earlier than its NextCheck a sentinel of
// importance 1 is claimed, ahead of sentinels due at the same time: a
// sentinel of importance i is claimed as if it fell due i·ImportanceLead
// earlier (ClaimPriority).
const ImportanceLead = 24 * time.Hour

// ClaimPriority returns the priority of a due sentinel at now, the order
// in which SentinelStore.ClaimDueSentinels hands due sentinels out when
// more are due than are claimed (highest first, then lowest id):
//
//	priority = (now − NextCheck) + Importance · ImportanceLead
//
// It is the refresh order of Cobéna's thesis §8.3.2 (θ = importance ×
// staleness × change rate; notes/001b §3.3), made additive so that
// nothing starves:
//
//   - staleness is how late the sentinel is, now − NextCheck: its priority
//     grows by one second every second it waits, whatever its importance;
//   - importance is the page's on-line OPIC estimate (Sentinel.Importance,
//     a share from 0 to 1 of the watched pages'), worth at most
//     ImportanceLead: a sentinel overdue by more than ImportanceLead comes
//     before a sentinel just due, however important; in general, a
//     sentinel late by L comes before one of importance higher by d and
//     late by L' once L − L' > d · ImportanceLead;
//   - the change rate acts through NextCheck: the schedule
//     (internal/schedule) sets the interval of an adaptive sentinel to
//     TargetRatio/λ̂, so a page that changes often falls due sooner. The
//     estimate λ̂ is in the sentinel's opaque run-time state, not a column
//     a store could order by.
//
// An importance not from 0 to 1 counts as 0: NaN, an infinity, a
// negative one or one above 1. CheckStore.RecordChecks refuses such a
// value, but one written past it (by hand, by an older bug) must neither
// fail every claim (PostgreSQL's make_interval refuses NaN, an infinity
// and a huge interval), nor hold its sentinel back (a negative one put it
// after now, where a claim's search stops), nor overflow the Duration.
//
// The order does not depend on now: it is that of NextCheck −
// Importance·ImportanceLead, so both stores sort on their columns, each
// with this clamping in its SQL (the conformance suite,
// internal/storetest, holds their claims to this function).
func ClaimPriority(s *Sentinel, now time.Time) time.Duration {
	importance := s.Importance
	if !ValidImportance(importance) {
		importance = 0
	}
	late, lead := now.Sub(s.NextCheck), time.Duration(importance*float64(ImportanceLead))
	if late > math.MaxInt64-lead { // Sub saturates; the sum must too
		return math.MaxInt64
	}
	return late + lead
}

// ValidImportance reports whether f is an importance: a share from 0 to 1
// (NaN, an infinity, a negative value or one above 1 is not). Stores read
// a stored importance that is not as 0, as ClaimPriority counts it.
func ValidImportance(f float64) bool { return f >= 0 && f <= 1 }

// SameSentinelName reports whether a and b name one sentinel of an owner:
// their lower cases (strings.ToLower) are equal, exactly as the sentinel
// checker keys the sentinels it knows (spec.Checker, whose Lookup finds
// a sentinel by name). This is not strings.EqualFold, which also takes
// 'ſ' for 's' where the checker does not. Names are compared as stored, in
// the form the sentinel language keeps them (spec.CanonicalName: in
// Unicode NFC where that is a valid name): the domain has no normalisation
// tables, so a caller comparing a name a user typed makes it canonical
// first. A name stored by a Vigil older than that rule in another form
// than NFC (Hangul jamo, a compatibility ideograph) is compared as
// written.
func SameSentinelName(a, b string) bool {
	return a == b || sentinelNameKey(a) == sentinelNameKey(b)
}

// sentinelNameKey is the checker's key of a sentinel's name: its lower
// case.
func sentinelNameKey(name string) string { return strings.ToLower(name) }

// StoredSentinelName is a stored sentinel's id, owner and name, as a store
// reads them to refuse a name its owner already uses.
type StoredSentinelName struct {
	ID, OwnerID int64
	Name        string
}

// SentinelNameFree returns SentinelNameUsed when one of used (an owner's
// stored sentinels) is called name (SameSentinelName), and nil otherwise:
// the look of a store's CreateSentinel, once it has read them.
func SentinelNameFree(used []StoredSentinelName, name string) error {
	for _, u := range used {
		if SameSentinelName(u.Name, name) {
			return SentinelNameUsed(name, u.ID, u.Name)
		}
	}
	return nil
}

// SentinelRenamesFree returns SentinelNameUsed for the first sentinel of
// list renamed (its new name not SameSentinelName as its stored one) to a
// name another sentinel of its owner has: a stored one not in list, or
// one of list under its new name; nil if none is. used holds the stored
// sentinels of the owners of list, list's own under their stored names;
// one of list not in used is left to the store's update to find missing.
// Sentinels of one list may so swap names. One not renamed is not looked
// at: two of one name kept by an older store do not stop an update that
// renames neither.
func SentinelRenamesFree(list []*Sentinel, used []StoredSentinelName) error {
	inList := make(map[int64]*Sentinel, len(list))
	for _, s := range list {
		inList[s.ID] = s
	}
	stored := make(map[int64]StoredSentinelName, len(used))
	for _, u := range used {
		stored[u.ID] = u
	}
	for _, s := range list {
		old, ok := stored[s.ID]
		if !ok || SameSentinelName(old.Name, s.Name) {
			continue
		}
		for _, u := range used {
			if u.OwnerID != old.OwnerID || u.ID == s.ID {
				continue
			}
			name := u.Name
			if n, ok := inList[u.ID]; ok {
				name = n.Name
			}
			if SameSentinelName(name, s.Name) {
				return SentinelNameUsed(s.Name, u.ID, name)
			}
		}
	}
	return nil
}

// SentinelNameUsed returns the ECONFLICT error of SentinelStore.CreateSentinel
// and UpdateSentinels for a sentinel called name when its owner's
// sentinel id, called idName, has that name.
func SentinelNameUsed(name string, id int64, idName string) *SentinelNameTakenError {
	return &SentinelNameTakenError{Name: name, ID: id, IDName: idName}
}

// SentinelNameTakenError is a store's refusal of a sentinel's name that
// another sentinel of its owner has (SentinelStore.CreateSentinel and
// UpdateSentinels): an ECONFLICT error (ErrorCode and ErrorMessage find
// it in the chain) that a caller tells from the store's other conflicts
// with errors.As, and that names the sentinel that has the name.
type SentinelNameTakenError struct {
	Name   string // the name refused
	ID     int64  // the owner's sentinel that has it
	IDName string // that sentinel's name, which may differ from Name in case
}

// Error implements the error interface.
func (e *SentinelNameTakenError) Error() string { return e.conflict().Error() }

// Unwrap returns the ECONFLICT error the refusal is.
func (e *SentinelNameTakenError) Unwrap() error { return e.conflict() }

// conflict is the refusal's ECONFLICT error, in the one wording of a
// name taken wherever it is found (spec.NameTakenMessage, which the
// domain, importing the standard library alone, cannot call: the store
// conformance suite holds the two to one message), naming the sentinel
// that has the name as far as it is known.
func (e *SentinelNameTakenError) conflict() *Error {
	who := "another of your sentinels"
	switch {
	case e.IDName != "" && e.ID != 0:
		who = fmt.Sprintf("your sentinel %s (sentinel %d)", shortName(e.IDName), e.ID)
	case e.IDName != "":
		who = "your sentinel " + shortName(e.IDName)
	}
	return Errorf(ECONFLICT, "sentinel name %s is taken: %s has it; choose another name", shortName(e.Name), who)
}

// maxNameShown is the number of characters of a sentinel's name that
// SentinelNameTakenError's message quotes, as spec's diagnostics quote
// the user's text (its maxQuoted): a longer name is cut.
const maxNameShown = 40

// shortName returns name, or its first maxNameShown characters and
// "..." when it is longer (cut between runes; a byte of invalid UTF-8
// counts as one), as spec's diagnostics shorten a name.
func shortName(name string) string {
	n := 0
	for i := range name {
		if n == maxNameShown {
			return name[:i] + "..."
		}
		n++
	}
	return name
}

// Validate returns an EINVALID error naming the first bad field.
func (s *Sentinel) Validate() error {
	switch {
	case s.OwnerID <= 0:
		return Errorf(EINVALID, "sentinel ownerId required")
	case s.Name == "":
		return Errorf(EINVALID, "sentinel name required")
	case len(s.Name) > 200:
		return Errorf(EINVALID, "sentinel name longer than 200 bytes")
	case s.Source == "":
		return Errorf(EINVALID, "sentinel source required")
	case len(s.Spec) > 0 && !json.Valid(s.Spec):
		return Errorf(EINVALID, "sentinel spec is not valid JSON")
	case s.Status != SentinelActive && s.Status != SentinelPaused:
		return Errorf(EINVALID, "sentinel status %q must be active or paused", s.Status)
	}
	if err := CheckStorableTime("sentinel nextCheck", s.NextCheck); err != nil {
		return err
	}
	if err := CheckStorableTime("sentinel lastCheck", s.LastCheck); err != nil {
		return err
	}
	return CheckTimeZone("sentinel timeZone", s.TimeZone)
}

// SentinelFilter selects sentinels. Zero fields do not filter.
type SentinelFilter struct {
	OwnerID int64
	Status  SentinelStatus
	Offset  int
	Limit   int
}

package vigil

import (
	"encoding/json"
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
	UpdatedAt time.Time       `json:"updatedAt"`
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
	return nil
}

// SentinelFilter selects sentinels. Zero fields do not filter.
type SentinelFilter struct {
	OwnerID int64
	Status  SentinelStatus
	Offset  int
	Limit   int
}

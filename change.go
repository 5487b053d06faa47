package vigil

import (
	"encoding/json"
	"time"
)

// Change is a change that a sentinel found in a resource between two of its
// versions: a summary line and the typed change records (JSON, produced by
// the intent layer).
type Change struct {
	ID          int64           `json:"id"`
	SentinelID  int64           `json:"sentinelId"`
	ResourceID  int64           `json:"resourceId"`
	FromVersion int64           `json:"fromVersion"` // version id; 0 for a first sighting
	ToVersion   int64           `json:"toVersion"`   // version id
	DetectedAt  time.Time       `json:"detectedAt"`
	Summary     string          `json:"summary"`
	Records     json.RawMessage `json:"records,omitempty"`
}

// Validate returns an EINVALID error naming the first bad field.
func (c *Change) Validate() error {
	switch {
	case c.SentinelID <= 0:
		return Errorf(EINVALID, "change sentinelId required")
	case c.ResourceID <= 0:
		return Errorf(EINVALID, "change resourceId required")
	case c.ToVersion <= 0:
		return Errorf(EINVALID, "change toVersion required")
	case c.FromVersion < 0 || c.FromVersion == c.ToVersion:
		return Errorf(EINVALID, "change fromVersion must differ from toVersion")
	case c.DetectedAt.IsZero():
		return Errorf(EINVALID, "change detectedAt required")
	case len(c.Records) > 0 && !json.Valid(c.Records):
		return Errorf(EINVALID, "change records are not valid JSON")
	}
	return nil
}

// ChangeFilter selects changes, newest first. Since is inclusive, Until
// exclusive (on DetectedAt); zero fields do not filter.
type ChangeFilter struct {
	SentinelID int64
	// OwnerID keeps the changes of that user's sentinels.
	OwnerID    int64
	ResourceID int64
	Since      time.Time
	Until      time.Time
	Offset     int
	Limit      int
}

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
	FromVersion int64           `json:"fromVersion"` // version id; 0 for a first sighting, and for a site's change (its records list its pages)
	ToVersion   int64           `json:"toVersion"`   // version id
	DetectedAt  time.Time       `json:"detectedAt"`
	Summary     string          `json:"summary"`
	Records     json.RawMessage `json:"records,omitempty"`
	// Reading says how the two versions were read when they were read
	// differently (one as a page, one as its source text), and which
	// selectors could not be applied to their texts; nil when they were
	// read alike, and for a change stored before it was kept.
	Reading *ChangeReading `json:"reading,omitempty"`
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
	case !StorableTime(c.DetectedAt):
		return timeOutOfRange("change detectedAt", c.DetectedAt)
	case len(c.Records) > 0 && !json.Valid(c.Records):
		return Errorf(EINVALID, "change records are not valid JSON")
	case c.Reading != nil:
		return c.Reading.validate()
	}
	return nil
}

// FirstRecords returns the first of c's records, at most n of them and
// at most size bytes of JSON, as a JSON array, and how many it leaves out.
// A change to every row of a large table has tens of thousands of records:
// messages and feed entries carry the first ones and say how many more the
// change holds. Records that are not a JSON array are returned whole.
func (c *Change) FirstRecords(n, size int) (json.RawMessage, int) {
	if len(c.Records) <= size && len(c.Records) < 2*n {
		return c.Records, 0 // too short to hold more than n records
	}
	var all []json.RawMessage
	if json.Unmarshal(c.Records, &all) != nil {
		return c.Records, 0
	}
	kept, used := 0, 2 // the brackets
	for kept < len(all) && kept < n && used+len(all[kept])+1 <= size {
		used += len(all[kept]) + 1
		kept++
	}
	if kept == len(all) {
		return c.Records, 0
	}
	out, err := json.Marshal(all[:kept])
	if err != nil {
		return c.Records, 0
	}
	return out, len(all) - kept
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

// ChangePage is a page a change names: one its records list as a page of
// a site (a record with a "page" object, as intent.PageInfo writes it: the
// page's URL as written and its resource's id, either possibly empty), or
// the resource the change is recorded on (ResourceID alone). The stores
// index them as changes are written (ChangeStore.FindChangePages).
type ChangePage struct {
	SentinelID int64  `json:"-"` // the sentinel whose change names it
	URL        string `json:"url"`
	ResourceID int64  `json:"resourceId"`
}

// Pages returns the pages c's records list: the "page" object of each
// record, none if the records are not a JSON array of objects (a change
// of a page rather than a site). The resource c is recorded on is not
// among them.
func (c *Change) Pages() []ChangePage {
	if len(c.Records) == 0 {
		return nil
	}
	var recs []struct {
		Page *ChangePage `json:"page"`
	}
	if json.Unmarshal(c.Records, &recs) != nil {
		return nil
	}
	var out []ChangePage
	for _, r := range recs {
		if r.Page != nil {
			p := *r.Page
			p.SentinelID = c.SentinelID
			out = append(out, p)
		}
	}
	return out
}

// Named returns the distinct pages c names: the resource it is recorded
// on, then the pages its records list (Pages), in their order. The stores
// index these.
func (c *Change) Named() []ChangePage {
	out := []ChangePage{{SentinelID: c.SentinelID, ResourceID: c.ResourceID}}
	seen := map[ChangePage]bool{out[0]: true}
	for _, p := range c.Pages() {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// ChangePageFilter selects the distinct pages that the changes of some
// sentinels name (ChangePage), in no set order.
type ChangePageFilter struct {
	// SentinelIDs are the sentinels whose changes are read; none selects
	// nothing.
	SentinelIDs []int64
	// ResourceID and URL, if either is set, keep the pages with that
	// resource id or with that URL (as written): what a change names that
	// is that page.
	ResourceID int64
	URL        string
	// Limit, if positive, returns at most that many pages.
	Limit int
}

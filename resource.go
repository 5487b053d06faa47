package vigil

import (
	"strings"
	"time"
)

// Resource is one web document Vigil knows, identified by its canonical URL
// (see CanonicalURL). Its fetched bodies are the resource's versions.
type Resource struct {
	ID        int64     `json:"id"`
	URL       string    `json:"url"`  // canonical form
	Host      string    `json:"host"` // lower-case host of URL, without port
	CreatedAt time.Time `json:"createdAt"`
	// Importance is the page's share of the importance of the pages the
	// monitor watches, from 0 to 1: the on-line OPIC estimate (package
	// opic) its last check stored, 0 if none did. The monitor sets it
	// through CheckRecord.Importance.
	Importance float64 `json:"importance"`
}

// Validate returns an EINVALID error naming the first bad field.
func (r *Resource) Validate() error {
	if r.URL == "" {
		return Errorf(EINVALID, "resource url required")
	}
	c, err := CanonicalURL(r.URL)
	if err != nil {
		return err
	}
	if c != r.URL {
		return Errorf(EINVALID, "resource url %q is not canonical (want %q)", RedactURL(r.URL), RedactURL(c))
	}
	if r.Host == "" || !strings.Contains(r.URL, r.Host) {
		return Errorf(EINVALID, "resource host %q does not match its url", r.Host)
	}
	return nil
}

// ResourceFilter selects resources. Zero fields do not filter.
type ResourceFilter struct {
	ID     *int64
	URL    *string // canonicalised before matching
	Host   *string // exact, lower-case host
	Offset int
	Limit  int // 0 means no limit
}

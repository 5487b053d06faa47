package vigil

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// Version is one fetch of a resource, as stored: its HTTP metadata and the
// SHA-256 of the body. The body itself is read through the warehouse.
//
// Seq numbers a resource's versions 1, 2, 3... in fetch order; IDs are
// unique across resources. A fetch that failed (Error set, no body) is a
// version too, so that the history shows the outage.
type Version struct {
	ID            int64         `json:"id"`
	ResourceID    int64         `json:"resourceId"`
	Seq           int64         `json:"seq"`
	FetchedAt     time.Time     `json:"fetchedAt"`
	Status        int           `json:"status"` // HTTP status; 0 when the fetch failed before a response
	ETag          string        `json:"etag,omitempty"`
	LastModified  time.Time     `json:"lastModified,omitzero"`
	ContentType   string        `json:"contentType,omitempty"` // media type without parameters
	Charset       string        `json:"charset,omitempty"`
	Size          int64         `json:"size"`        // body length in bytes
	ContentHash   string        `json:"contentHash"` // lower-case hex SHA-256 of the body
	FetchDuration time.Duration `json:"fetchDuration"`
	Error         string        `json:"error,omitempty"` // why the fetch failed, if it did
	// URL is the address the body was read from when it is not the
	// resource's: the final URL of a fetch that followed redirects
	// (vigil.FetchResult.URL), canonical (CanonicalURL), without
	// credentials (VersionURL), its query as read (the API shows it with
	// the values a redirect added hidden: ShownURL). "" when the body
	// was read from the resource's own URL, and for a version stored
	// before final URLs were recorded. The version's relative links and
	// image sources resolve against it (and the document's base
	// element), not against the resource's URL: PageURL gives the one to
	// take.
	URL string `json:"url,omitempty"`
	// ReadAsText is why the body is read as its source text: it does not
	// parse as HTML or XML (the parse error, in words), or it is served as
	// text that is not markup ("served as text/plain"); "" for a body read
	// as a page, or not read at all (a failed fetch, an empty body, a body
	// of another type). It holds only under
	// the reading of bodies into trees that TreeReading numbers.
	ReadAsText string `json:"-"`
	// TreeReading numbers the warehouse's reading of bodies into trees
	// under which ReadAsText was found; 0 when it was not, and ReadAsText
	// is then unknown: a version stored before reasons were recorded, or
	// one stored since whose body no one has read yet (the warehouse
	// stores a body without parsing it; the monitor records the reason
	// once it compares the version, the warehouse when first asked or
	// in the background).
	TreeReading int `json:"-"`
}

// DeltaName names the version in a delta's from or to (delta.Delta's
// From and To), as vigil diff names its two files: its id and when it
// was fetched, "version 12, fetched 2026-03-01T00:00:00Z". The API's
// diff and a webhook's delta both name their versions so.
func (v *Version) DeltaName() string {
	return fmt.Sprintf("version %d, fetched %s", v.ID, v.FetchedAt.UTC().Format(time.RFC3339))
}

// PageURL returns the address the version's body was read from, against
// which its relative links and image sources resolve (with the
// document's base element, intent.PageBase): URL, the final URL of a
// fetch that followed redirects, else resourceURL, the URL of the
// version's resource.
func (v *Version) PageURL(resourceURL string) string {
	if v == nil || v.URL == "" {
		return resourceURL
	}
	return v.URL
}

// VersionURL returns the Version.URL of a version of the resource at
// resourceURL whose body was read from finalURL (FetchResult.URL, after
// redirects): finalURL canonical and without credentials (user info, a
// secret the API would show and the page's relative links would carry),
// or "" when it is the resource's own URL, is empty, or is no URL
// CanonicalURL takes (the body is then read as the resource's).
func VersionURL(resourceURL, finalURL string) string {
	if finalURL == "" || finalURL == resourceURL {
		return ""
	}
	final, err := CanonicalURL(finalURL)
	if err != nil {
		return ""
	}
	final = withoutUserInfo(final)
	if own, err := CanonicalURL(resourceURL); err == nil && withoutUserInfo(own) == final {
		return ""
	}
	return final
}

// ShownURL returns the version's URL (Version.URL) as the API shows it
// to the readers of the resource at resourceURL: with the values of its
// query hidden ("xxxxx", as RedactURL writes a password), but those of
// the parameters that resourceURL, the URL watched, has itself, as
// written there. A site may put a session token or a signature in the
// query of a redirect's target (/login?next=... answering 302 to
// /fares?sid=8f3a...), a secret the watched URL never held, which the
// reader has no use for: the parameter's name says that the redirect
// added it. The path is kept, and so is the URL stored: the version's
// links resolve against it (PageURL), and an archive of the version
// (vigil export warc) keeps it exact. "" when Version.URL is.
func (v *Version) ShownURL(resourceURL string) string {
	if v == nil || v.URL == "" {
		return ""
	}
	base, query, ok := strings.Cut(v.URL, "?")
	if !ok {
		return v.URL
	}
	own := map[string]bool{}
	if _, q, ok := strings.Cut(resourceURL, "?"); ok {
		q, _, _ = strings.Cut(q, "#")
		for _, p := range strings.Split(q, "&") {
			own[p] = true
		}
	}
	params := strings.Split(query, "&")
	for i, p := range params {
		if own[p] || p == "" {
			continue
		}
		if name, _, ok := strings.Cut(p, "="); ok {
			params[i] = name + "=xxxxx"
		} else {
			params[i] = "xxxxx"
		}
	}
	return base + "?" + strings.Join(params, "&")
}

// withoutUserInfo returns u, a canonical URL, without its user info.
func withoutUserInfo(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.User == nil {
		return u
	}
	p.User = nil
	return p.String()
}

// SameLinkBase reports whether the relative links of a page resolve
// alike against page URLs a and b (Version.PageURL): the two are the same
// but for their queries and fragments, which every reference with a path
// of its own, or a query, replaces. (Only a reference to the page itself,
// "" or "#part", keeps the base's query.) A redirect that leads to the
// same page with another query at each fetch (a session or a cache
// buster) reads one page, not a new version a fetch.
func SameLinkBase(a, b string) bool {
	cut := func(u string) string {
		if i := strings.IndexAny(u, "?#"); i >= 0 {
			return u[:i]
		}
		return u
	}
	return cut(a) == cut(b)
}

// ReadAsTextServedAs begins the Version.ReadAsText of a body read as its
// source text because it is served as text that is not markup; its media
// type follows ("served as text/plain"). Any other reason is a parse
// error.
const ReadAsTextServedAs = "served as "

var hexSHA256 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// canonicalURL reports whether u is in its canonical form (CanonicalURL).
func canonicalURL(u string) bool {
	c, err := CanonicalURL(u)
	return err == nil && c == u
}

// Validate returns an EINVALID error naming the first bad field.
func (v *Version) Validate() error {
	if v.ResourceID <= 0 {
		return Errorf(EINVALID, "version resourceId required")
	}
	return v.ValidateFetch()
}

// ValidateFetch is Validate but for the resource: it checks what a fetch
// gives, so that a version can be checked before its resource is made.
func (v *Version) ValidateFetch() error {
	switch {
	case v.FetchedAt.IsZero():
		return Errorf(EINVALID, "version fetchedAt required")
	case !StorableTime(v.FetchedAt):
		return timeOutOfRange("version fetchedAt", v.FetchedAt)
	case !v.LastModified.IsZero() && !StorableTime(v.LastModified):
		return timeOutOfRange("version lastModified", v.LastModified)
	case v.Status < 0 || v.Status > 999:
		return Errorf(EINVALID, "version status %d out of range", v.Status)
	case v.Size < 0:
		return Errorf(EINVALID, "version size must not be negative")
	case !hexSHA256.MatchString(v.ContentHash):
		return Errorf(EINVALID, "version contentHash must be a lower-case hex SHA-256")
	case v.FetchDuration < 0:
		return Errorf(EINVALID, "version fetchDuration must not be negative")
	case v.TreeReading < 0:
		return Errorf(EINVALID, "version treeReading must not be negative")
	case v.URL != "" && !canonicalURL(v.URL):
		return Errorf(EINVALID, "version url must be a canonical http or https URL")
	case v.URL != "" && withoutUserInfo(v.URL) != v.URL:
		return Errorf(EINVALID, "version url must not carry credentials (user info)")
	}
	return nil
}

// VersionFilter selects versions of one resource, oldest first unless
// Descending. Since is inclusive and Until exclusive; zero times do not
// filter.
type VersionFilter struct {
	ResourceID int64
	Since      time.Time
	Until      time.Time
	Descending bool
	Offset     int
	Limit      int // 0 means no limit
}

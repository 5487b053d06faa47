package crawl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
)

// Format names the JSON form of a snapshot, in its "format" field: the
// form Crawl writes.
//
// A binary leaf's hash, size and content-hash version (Page.Hash) took no
// new format: they are fields format 4 has, each meaning what it means
// for a text page (a content's hash, a length, a version that is that
// hash), and a snapshot without them, as older ones are, is still right:
// a table compares a binary leaf's versions only where both snapshots
// hashed it (Snapshot.TableAgainst), so an older snapshot reads as it
// did. A Vigil before them reads such a snapshot the same way, but for
// one crawled with bodies (Query.Bodies), whose binary leaf it refuses:
// it wants a body of the leaf's size and hash.
//
// Nor did a binary leaf's note of why its hash may change at every crawl
// (Page.DigestNote): a field a snapshot has or not, of a leaf hashed,
// which no comparison reads. A snapshot without it, as older ones are,
// is read as before; a Vigil before it refuses a snapshot that has it,
// by its unknown field, as it would by a new format. Nor did a binary
// leaf's hash named by its kind ("pdf3-sha256:", "image1-sha256:":
// digestKind): a Vigil before it refuses such a hash ("is not
// \"sha256:\" and 64 lower-case hex digits").
const Format = "vigil-site-snapshot/4"

// FormatV3 is the third form of a snapshot, which Decode still reads. It
// has the fields of Format but two: a page that failed does not say
// whether its failure was momentary (Page.Momentary), and no page is
// carried over from the previous crawl (Page.Carried, Carry), which
// format 4 adds, and Validate refuses in a snapshot of format 3 or
// before, so that a Vigil that reads format 3 only refuses a snapshot of
// format 4 by its format.
const FormatV3 = "vigil-site-snapshot/3"

// FormatV2 is the second form of a snapshot, which Decode still reads. It
// has the fields of FormatV3; its crawl did not read a page served as text that
// is not markup (text/plain, JSON: a leaf, without a note), and found no
// links in a page read as its source text, where format 3 reads such a
// page and has for its links the URLs written in its text (Page.Note,
// Page.Links). Validate refuses links on a page read as text in a
// snapshot of format 2 or 1, so that a Vigil that reads format 2 only
// refuses a snapshot of format 3 by its format.
const FormatV2 = "vigil-site-snapshot/2"

// FormatV1 is the first form of a snapshot, which Decode still reads. It
// has the fields of FormatV2; its query's scope prefixes were matched as
// raw string prefixes of a URL ("https://example.org/docs" took
// "https://example.org/docs-old/"), where format 2 matches them at a
// path segment boundary (Query.Scope), and Validate checks a snapshot by
// the rule it was crawled with.
const FormatV1 = "vigil-site-snapshot/1"

// DefaultMaxSnapshotSize is the largest snapshot Decode reads when given no
// limit: 256 MiB, the default input cap of the markup parsers. Snapshots
// with bodies may need more: the caller passes its own limit.
const DefaultMaxSnapshotSize = 256 << 20

// Snapshot is the result of one run of a coupling query: the pages it
// reached and how they link, the material of a web table (note 000 §2).
type Snapshot struct {
	Format string `json:"format"`
	// Query is the query as run: canonical URLs, the scope filled in.
	Query    Query     `json:"query"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	// Truncated is set when MaxPages ended the crawl with URLs in scope
	// left unfetched.
	Truncated bool `json:"truncated,omitempty"`
	// Pages in the order of discovery; the first is the start page (or
	// the page it redirected to), the only one at depth 0.
	Pages     []*Page    `json:"pages"`
	Redirects []Redirect `json:"redirects,omitempty"`
	// Sites are the origins of the pages with their importance, the most
	// important first (importance.go).
	Sites []Site `json:"sites,omitempty"`
}

// Stats are the counts a summary of a snapshot gives.
type Stats struct {
	Pages     int // pages, failed ones included
	Failures  int // pages with an error
	Blocked   int // of those, URLs robots.txt disallows, never requested
	Links     int // links in scope, summed over the pages
	Redirects int
	Carried   int // pages kept from the previous crawl (Page.Carried), not failures
	// NotFetched counts, of the Carried, those the crawl did not fetch
	// (Carried.Fetched): the others failed for a moment.
	NotFetched int
}

// Stats counts the pages, failures, links and redirects of s.
func (s *Snapshot) Stats() Stats {
	st := Stats{Pages: len(s.Pages), Redirects: len(s.Redirects)}
	for _, p := range s.Pages {
		if p.Failed() {
			st.Failures++
		}
		if p.Blocked {
			st.Blocked++
		}
		if p.Carried != nil {
			st.Carried++
			if !p.Carried.Fetched() {
				st.NotFetched++
			}
		}
		st.Links += len(p.Links)
	}
	return st
}

// StartFailure returns the error of the start page, or "" if it was read:
// a crawl whose start failed found nothing of the site.
func (s *Snapshot) StartFailure() string {
	if len(s.Pages) == 0 {
		return "no start page"
	}
	return s.Pages[0].Error
}

// Page returns the page with the canonical URL u, or nil.
func (s *Snapshot) Page(u string) *Page {
	for _, p := range s.Pages {
		if p.URL == u {
			return p
		}
	}
	return nil
}

// PagesByURL returns the pages of s by their canonical URL.
func (s *Snapshot) PagesByURL() map[string]*Page {
	out := make(map[string]*Page, len(s.Pages))
	for _, p := range s.Pages {
		out[p.URL] = p
	}
	return out
}

// Encode writes s as indented JSON.
func (s *Snapshot) Encode(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(s)
}

// Decode reads a snapshot in JSON and validates it (Validate). It reads at
// most maxBytes (DefaultMaxSnapshotSize if maxBytes <= 0) and refuses a
// larger input, unknown fields and anything after the snapshot. Its errors
// are EINVALID errors that say where: the byte offset of a syntax error,
// the field of a value of the wrong type, the page and field of a value
// that breaks a rule.
func Decode(r io.Reader, maxBytes int64) (*Snapshot, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxSnapshotSize
	}
	data, err := io.ReadAll(io.LimitReader(r, maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	if int64(len(data)) > maxBytes {
		return nil, vigil.Errorf(vigil.EINVALID, "snapshot: larger than %d bytes", maxBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Snapshot
	if err := dec.Decode(&s); err != nil {
		if field := badTime(data); field != "" {
			return nil, vigil.Errorf(vigil.EINVALID, "snapshot: %s: %v", field, err)
		}
		return nil, jsonError(err, len(data))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, vigil.Errorf(vigil.EINVALID, "snapshot: data after the snapshot at byte %d", dec.InputOffset())
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

// badTime returns the name of the time field of a snapshot that is not a
// time in RFC 3339, or "": encoding/json's error for it does not say
// which.
func badTime(data []byte) string {
	var times struct {
		Started  json.RawMessage `json:"started"`
		Finished json.RawMessage `json:"finished"`
	}
	if json.Unmarshal(data, &times) != nil {
		return ""
	}
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"started", times.Started}, {"finished", times.Finished}} {
		var t time.Time
		if f.raw != nil && t.UnmarshalJSON(f.raw) != nil {
			return f.name
		}
	}
	return ""
}

// jsonError turns an error of encoding/json into an EINVALID error that
// says where; size is the length of the input, where one cut short ends.
func jsonError(err error, size int) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return vigil.Errorf(vigil.EINVALID, "snapshot: empty input")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return vigil.Errorf(vigil.EINVALID, "snapshot: unexpected end of input at byte %d: the file is cut short", size)
	case errors.As(err, &syn):
		return vigil.Errorf(vigil.EINVALID, "snapshot: invalid JSON at byte %d: %v", syn.Offset, syn)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "the snapshot"
		}
		return vigil.Errorf(vigil.EINVALID, "snapshot: %s: a JSON %s where %s belongs (byte %d)", field, typ.Value, typeName(typ), typ.Offset)
	}
	// Unknown fields, bad times: encoding/json's text names them.
	return vigil.Errorf(vigil.EINVALID, "snapshot: %v", err)
}

func typeName(e *json.UnmarshalTypeError) string {
	if e.Type == nil {
		return "another value"
	}
	switch e.Type.Kind().String() {
	case "string":
		return "a string"
	case "int", "int64":
		return "an integer"
	case "bool":
		return "true or false"
	case "slice":
		return "an array"
	case "struct", "ptr":
		return "an object"
	}
	return "a " + e.Type.String()
}

// hashPattern is a Hash: "sha256:", or a binary digest's prefix
// (pdfDigest, imageDigest, and those of Vigils to come: a kind and a
// revision), and 64 lower-case hex digits.
var hashPattern = regexp.MustCompile(`^(?:[a-z]+[0-9]+-)?sha256:[0-9a-f]{64}$`)

// Validate checks the rules a snapshot made by Crawl keeps, and returns an
// EINVALID error naming the first page and field that breaks one.
func (s *Snapshot) Validate() error { return s.validate(true) }

// validate is Validate; without bodies, it does not check that each body
// has the page's size and hash.
func (s *Snapshot) validate(bodies bool) error {
	bad := func(format string, args ...any) error {
		return vigil.Errorf(vigil.EINVALID, "snapshot: "+format, args...)
	}
	if s.Format != Format && s.Format != FormatV3 && s.Format != FormatV2 && s.Format != FormatV1 {
		return bad("format: %q, want %q (or the older %q, %q or %q)", s.Format, Format, FormatV3, FormatV2, FormatV1)
	}
	if err := s.validateQuery(); err != nil {
		return err
	}
	switch {
	case s.Started.IsZero():
		return bad("started: missing")
	case s.Finished.Before(s.Started):
		return bad("finished: %s is before started %s", s.Finished.Format(time.RFC3339Nano), s.Started.Format(time.RFC3339Nano))
	case len(s.Pages) == 0:
		return bad("pages: none (the start page is always recorded)")
	case s.fetched() > s.Query.MaxPages:
		return bad("pages: %d pages fetched, more than query.maxPages %d", s.fetched(), s.Query.MaxPages)
	}
	sc, err := newScope(&s.Query, s.Format == FormatV1)
	if err != nil {
		return bad("query: %v", err) // cannot happen: validateQuery compiled it
	}
	urls := make(map[string]bool, len(s.Pages))
	for i, p := range s.Pages {
		if p == nil {
			return bad("page %d: null", i+1)
		}
		if err := s.validatePage(i, p, bodies); err != nil {
			return err
		}
		if urls[p.URL] {
			return bad("page %d: url: %s is already page %d", i+1, vigil.RedactURL(p.URL), s.pageIndex(p.URL)+1)
		}
		if i > 0 && !sc.contains(p.URL) {
			return bad("page %d: url: %s is out of the query's scope", i+1, vigil.RedactURL(p.URL))
		}
		urls[p.URL] = true
	}
	// A link leads into the scope, or to a page of the snapshot (the
	// start page, or a page a redirect led to).
	for i, p := range s.Pages {
		for j, l := range p.Links {
			if !urls[l.Target] && !sc.contains(l.Target) {
				return bad("page %d (%s): link %d: target: %s is out of the query's scope", i+1, vigil.RedactURL(p.URL), j+1, vigil.RedactURL(l.Target))
			}
		}
	}
	if err := s.validateCarried(); err != nil {
		return err
	}
	from := map[string]bool{}
	startRedirected := false
	for i, r := range s.Redirects {
		for _, u := range []struct{ field, v string }{{"from", r.From}, {"to", r.To}} {
			if err := checkCanonical(u.v); err != nil {
				return bad("redirect %d: %s: %s", i+1, u.field, err)
			}
		}
		switch {
		case r.From == r.To:
			return bad("redirect %d: from and to are both %s", i+1, vigil.RedactURL(r.From))
		case from[r.From]:
			return bad("redirect %d: from: %s redirects twice", i+1, vigil.RedactURL(r.From))
		}
		from[r.From] = true
		startRedirected = startRedirected || r.From == s.Query.Start && r.To == s.Pages[0].URL
	}
	if s.Pages[0].URL != s.Query.Start && !startRedirected {
		return bad("page 1 (%s): url: neither query.start %s nor where a redirect from it led", vigil.RedactURL(s.Pages[0].URL), vigil.RedactURL(s.Query.Start))
	}
	for i, site := range s.Sites {
		origin, path, _, _ := splitURL(site.Origin)
		switch {
		case origin != site.Origin || path != "/" || checkCanonical(site.Origin+"/") != nil:
			return bad("site %d: origin: %q is not a scheme, host and port", i+1, vigil.RedactURL(site.Origin))
		case site.Pages < 1 || site.Pages > len(s.Pages):
			return bad("site %d (%s): pages: %d, want 1 to %d", i+1, vigil.RedactURL(site.Origin), site.Pages, len(s.Pages))
		}
		if err := validImportance(site.Importance); err != nil {
			return bad("site %d (%s): importance: %v", i+1, vigil.RedactURL(site.Origin), err)
		}
	}
	return nil
}

// fetched counts the pages of s that took one of the query's MaxPages
// fetches: all but those robots.txt blocked (never requested) and those
// carried over without a fetch (Carried.Error empty). The start page
// always takes one.
func (s *Snapshot) fetched() int {
	n := 0
	for i, p := range s.Pages {
		if i == 0 || p == nil || !p.Blocked && (p.Carried == nil || p.Carried.Error != "") {
			n++
		}
	}
	return n
}

// readsTextLinks reports whether a crawl of format f followed the URLs
// written in a page read as text: formats 3 and later.
func readsTextLinks(f string) bool { return f == Format || f == FormatV3 }

// validateCarried checks the pages carried over (Carry): a page not
// fetched is linked from a page carried at the depth before it.
func (s *Snapshot) validateCarried() error {
	linked := map[string]bool{}
	for _, p := range s.Pages {
		if p.Carried == nil {
			continue
		}
		for _, l := range p.Links {
			linked[fmt.Sprint(p.Depth+1, " ", l.Target)] = true
		}
	}
	for i, p := range s.Pages {
		if p.Carried != nil && p.Carried.Error == "" && !linked[fmt.Sprint(p.Depth, " ", p.URL)] {
			return vigil.Errorf(vigil.EINVALID, "snapshot: page %d (%s): carried: not fetched, but no page carried at depth %d links to it", i+1, vigil.RedactURL(p.URL), p.Depth-1)
		}
	}
	return nil
}

func (s *Snapshot) pageIndex(u string) int {
	for i, p := range s.Pages {
		if p != nil && p.URL == u {
			return i
		}
	}
	return -1
}

func (s *Snapshot) validateQuery() error {
	q := &s.Query
	bad := func(format string, args ...any) error {
		return vigil.Errorf(vigil.EINVALID, "snapshot: query: "+format, args...)
	}
	if err := q.Validate(); err != nil {
		return bad("%s", vigil.ErrorMessage(err))
	}
	if err := checkCanonical(q.Start); err != nil {
		return bad("start: %s", err)
	}
	if len(q.Scope) == 0 {
		return bad("scope: empty (a crawl records the scope it used)")
	}
	for i, p := range q.Scope {
		if err := checkCanonical(p); err != nil {
			return bad("scope %d: %s", i+1, err)
		}
	}
	return nil
}

func (s *Snapshot) validatePage(i int, p *Page, bodies bool) error {
	bad := func(field, format string, args ...any) error {
		return vigil.Errorf(vigil.EINVALID, "snapshot: page %d (%s): %s: %s", i+1, vigil.RedactURL(p.URL), field, fmt.Sprintf(format, args...))
	}
	if err := checkCanonical(p.URL); err != nil {
		return vigil.Errorf(vigil.EINVALID, "snapshot: page %d: url: %s", i+1, err)
	}
	switch {
	case i == 0 && p.Depth != 0:
		return bad("depth", "%d, but the first page is the start page, at depth 0", p.Depth)
	case i > 0 && p.Depth < 1:
		return bad("depth", "%d, but only the first page is at depth 0", p.Depth)
	case p.Depth > s.Query.MaxDepth:
		return bad("depth", "%d, deeper than query.maxDepth %d", p.Depth, s.Query.MaxDepth)
	case i > 0 && s.Pages[i-1] != nil && p.Depth < s.Pages[i-1].Depth:
		return bad("depth", "%d after a page at depth %d: pages are in the order of discovery", p.Depth, s.Pages[i-1].Depth)
	case p.Status != 0 && (p.Status < 100 || p.Status > 599):
		return bad("status", "%d is not an HTTP status", p.Status)
	case p.Error == "" && p.Status/100 != 2:
		return bad("status", "%d without an error: a page read has a 2xx status", p.Status)
	case p.Size < 0:
		return bad("size", "%d is negative", p.Size)
	case p.Hash != "" && !hashPattern.MatchString(p.Hash):
		return bad("hash", "%q is not \"sha256:\" (or a digest's kind, as \"pdf3-sha256:\") and 64 lower-case hex digits", p.Hash)
	case p.Hash == "" && p.Size != 0:
		return bad("size", "%d without a hash", p.Size)
	case p.Body != "" && !s.Query.Bodies:
		return bad("body", "present, but query.bodies is false")
	case p.Error != "" && len(p.Links) > 0:
		return bad("links", "a page that failed has no links")
	case p.Blocked && (p.Error == "" || p.Status != 0):
		return bad("blocked", "a page robots.txt blocked has an error and no status")
	case p.DigestNote != "" && (!p.BinaryLeaf() || p.Hash == ""):
		return bad("digestNote", "on a page that is no binary document hashed")
	case p.Note == "":
	case !strings.HasPrefix(p.Note, NoteReadAsText):
		return bad("note", "%q does not begin with %q", p.Note, NoteReadAsText)
	case p.Error != "":
		return bad("note", "a page that failed has no note")
	case p.Title != "":
		return bad("note", "a page read as text has no title")
	case len(p.Links) > 0 && !readsTextLinks(s.Format):
		return bad("note", "a page read as text has no links in format %q", s.Format)
	}
	if err := s.validateCarry(i, p, bad); err != nil {
		return err
	}
	switch p.VersionKind {
	case "":
		if p.Version != "" {
			return bad("versionKind", "missing for version %q", p.Version)
		}
	case VersionLastModified:
		if _, err := time.Parse(time.RFC3339, p.Version); err != nil {
			return bad("version", "%q is not an RFC 3339 date", p.Version)
		}
	case VersionContentHash:
		if p.Version != p.Hash {
			return bad("version", "%q is not the page's hash %q", p.Version, p.Hash)
		}
	default:
		return bad("versionKind", "%q, want %q or %q", p.VersionKind, VersionLastModified, VersionContentHash)
	}
	switch {
	case p.BinaryLeaf() && p.Body != "":
		return bad("body", "present on a binary document (%s), whose body is not kept", p.ContentType)
	case p.BinaryLeaf():
		// Its hash is its digest, of a body not kept (BinaryDigest).
	case s.Query.Bodies && p.Hash != "":
		if !bodies {
			break
		}
		if int64(len(p.Body)) != p.Size {
			return bad("body", "%d bytes, but size is %d", len(p.Body), p.Size)
		}
		if h := hashBody([]byte(p.Body)); h != p.Hash {
			return bad("body", "its hash is %s, not %s", h, p.Hash)
		}
	case p.Body != "":
		return bad("body", "present without a hash")
	}
	if err := validImportance(p.Importance); err != nil {
		return bad("importance", "%v", err)
	}
	if len(p.Links) > MaxLinks {
		return bad("links", "%d, more than the %d a page keeps", len(p.Links), MaxLinks)
	}
	seen := make(map[Link]bool, len(p.Links))
	for j, l := range p.Links {
		if err := checkCanonical(l.Target); err != nil {
			return bad(fmt.Sprintf("link %d: target", j+1), "%s", err)
		}
		switch {
		case l.Target == p.URL:
			return bad(fmt.Sprintf("link %d: target", j+1), "the page itself")
		case seen[l]:
			return bad(fmt.Sprintf("link %d", j+1), "(%s, %q) is there twice", vigil.RedactURL(l.Target), l.Label)
		}
		seen[l] = true
	}
	return nil
}

// validateCarry checks a page's Momentary and Carried fields, with bad
// naming the page.
func (s *Snapshot) validateCarry(i int, p *Page, bad func(field, format string, args ...any) error) error {
	switch {
	case (p.Momentary || p.Carried != nil) && s.Format != Format:
		field := "momentary"
		if p.Carried != nil {
			field = "carried"
		}
		return bad(field, "not in format %q", s.Format)
	case p.Momentary && (p.Error == "" || p.Blocked):
		return bad("momentary", "only a page that failed, and was requested, failed for a moment")
	case p.Carried == nil:
		return nil
	}
	c := p.Carried
	switch {
	case i == 0:
		return bad("carried", "the start page is never carried over")
	case p.Error != "":
		return bad("carried", "a page carried over is its last good read, without an error")
	case c.Crawls < 1 || c.Crawls > MaxCarriedCrawls:
		return bad("carried", "crawls: %d, want 1 to %d", c.Crawls, MaxCarriedCrawls)
	case c.Since.IsZero() || c.Since.After(s.Started):
		return bad("carried", "since: %s, want a time up to started %s", c.Since.Format(time.RFC3339Nano), s.Started.Format(time.RFC3339Nano))
	case s.Started.Sub(c.Since) > MaxCarriedAge:
		return bad("carried", "since: %s, more than %v before started %s", c.Since.Format(time.RFC3339Nano), MaxCarriedAge, s.Started.Format(time.RFC3339Nano))
	case c.Read.IsZero() || !c.Read.Before(c.Since):
		return bad("carried", "read: %s, want a time before since %s", c.Read.Format(time.RFC3339Nano), c.Since.Format(time.RFC3339Nano))
	case c.Status != 0 && (c.Status < 100 || c.Status > 599):
		return bad("carried", "status: %d is not an HTTP status", c.Status)
	case c.Error == "" && c.Status != 0:
		return bad("carried", "status: %d without an error", c.Status)
	}
	return nil
}

// checkCanonical returns an error if u is not a canonical http or https URL
// without fragment, as vigil.CanonicalURL writes them.
func checkCanonical(u string) error {
	c, err := vigil.CanonicalURL(u)
	if err != nil {
		return errors.New(vigil.ErrorMessage(err))
	}
	if c != u {
		return fmt.Errorf("%q is not in canonical form (%q)", vigil.RedactURL(u), vigil.RedactURL(c))
	}
	return nil
}

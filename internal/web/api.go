package web

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

//go:embed openapi.json
var openAPI []byte

func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request, _ *vigil.User) error {
	w.Header().Set("Content-Type", "application/json")
	w.Write(openAPI)
	return nil
}

// listBody is the answer of every list: a page of items and the number of
// items matching without paging.
type listBody[T any] struct {
	Items []T `json:"items"`
	Total int `json:"total"`
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

type page struct{ Offset, Limit int }

// paging reads offset (0 to 2^30) and limit (1 to 500, default 50), as the
// OpenAPI description says.
func paging(r *http.Request) (page, error) { return pagingWith(r, 50, 500) }

// maxOffset is the largest offset a list takes.
const maxOffset = 1 << 30

// pagingWith reads offset (0 to 2^30) and limit (1 to maxLimit, default
// def).
func pagingWith(r *http.Request, def, maxLimit int) (page, error) {
	p := page{Limit: def}
	q := r.URL.Query()
	for _, f := range []struct {
		name     string
		v        *int
		min, max int
	}{{"offset", &p.Offset, 0, maxOffset}, {"limit", &p.Limit, 1, maxLimit}} {
		if s := q.Get(f.name); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < f.min || n > f.max {
				return p, vigil.Errorf(vigil.EINVALID, "%s must be a number from %d to %d", f.name, f.min, f.max)
			}
			*f.v = n
		}
	}
	return p, nil
}

// orderParam reads the order query value: asc (the default) or desc.
func orderParam(r *http.Request) (descending bool, err error) {
	switch r.URL.Query().Get("order") {
	case "", "asc":
		return false, nil
	case "desc":
		return true, nil
	default:
		return false, vigil.Errorf(vigil.EINVALID, "order must be asc or desc")
	}
}

// idParam reads a positive integer path or query value; its error names
// the value's field, name, and does not repeat the value, which a link
// could have made say anything. A number past the ids' type is said to be
// too large, not "not positive".
func idParam(name, s string) (int64, error) {
	id, err := strconv.ParseInt(s, 10, 64)
	if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(s, "-") {
		return 0, vigil.Errorf(vigil.EINVALID, "%s is too large: ids go up to %d", name, int64(math.MaxInt64))
	}
	if err != nil || id <= 0 {
		return 0, vigil.Errorf(vigil.EINVALID, "%s must be a positive number", name)
	}
	return id, nil
}

// startOfDay returns the first instant of day (2006-01-02) given d, its
// midnight as time.ParseInLocation read it: in a zone that skips that
// midnight (its clock moved from 00:00 to 01:00, as Chile's and Cuba's
// are) d is an hour of the day before, and the day starts at the end of
// d's zone period, the transition.
func startOfDay(d time.Time, day string) time.Time {
	if d.Format(time.DateOnly) != day {
		if _, end := d.ZoneBounds(); !end.IsZero() {
			return end
		}
	}
	return d
}

// timeParam reads an optional query value that is an RFC 3339 time or a
// date alone (2026-12-02, as vigil export warc --since takes it): the
// start of that day in loc, the zone the user's dates are read in
// (userLocation). Anything else is EINVALID, naming the parameter.
func timeParam(r *http.Request, name string, loc *time.Location) (time.Time, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		if d, err := time.ParseInLocation(time.DateOnly, s, loc); err == nil {
			return startOfDay(d, s), nil
		}
		if i := strings.LastIndexByte(s, ' '); i >= 0 {
			if _, err := time.Parse(time.RFC3339, s[:i]+"+"+s[i+1:]); err == nil {
				return t, vigil.Errorf(vigil.EINVALID, "%s must be an RFC 3339 time: write the offset's + as %%2B in a URL, where a + is a space", name)
			}
		}
		return t, vigil.Errorf(vigil.EINVALID, "%s must be an RFC 3339 time (2026-01-02T15:04:05Z) or a date (2026-01-02)", name)
	}
	return t, nil
}

// hostProblem says why spec.CheckASCIIHost refuses the host of u, in
// words that do not repeat it: spec's error names the host, which a
// query parameter gave, and a link could make an answer say anything.
func hostProblem(u *url.URL) string {
	if spec.ASCIIHost(u) != nil {
		return "is not a name IDNA takes"
	}
	return "is not a name DNS takes: no empty label, labels of 63 bytes at most, 253 in all (in punycode)"
}

// ---- resources and versions

// asciiURLParam returns a URL given as a query parameter with its host, if
// spelt in Unicode or percent-encoded, in its ASCII (punycode) form, the
// one resources are stored under (spec.ASCIIHost); a host IDNA refuses,
// or one DNS refuses (spec.CheckHostName: an empty label, a label or a
// name too long), is EINVALID, saying which (hostProblem) without
// repeating it. A URL that does not parse is returned as it is, for
// vigil.CanonicalURL to refuse.
func asciiURLParam(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return raw, nil
	}
	host := u.Host
	if err := spec.CheckASCIIHost(u); err != nil {
		return "", vigil.Errorf(vigil.EINVALID, "url: its host %s", hostProblem(u))
	}
	if u.Host == host {
		return raw, nil
	}
	return u.String(), nil
}

func (s *Server) handleResourceList(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	p, err := paging(r)
	if err != nil {
		return err
	}
	f := vigil.ResourceFilter{Offset: p.Offset, Limit: p.Limit}
	if u := r.URL.Query().Get("url"); u != "" {
		if u, err = asciiURLParam(u); err != nil {
			return err
		}
		if _, err := vigil.CanonicalURL(u); err != nil {
			// Not its error, which quotes the URL: a link could make
			// the answer say anything.
			return vigil.Errorf(vigil.EINVALID, "url must be an absolute http or https URL with a host, such as https://example.com/page")
		}
		f.URL = &u
	}
	if h := r.URL.Query().Get("host"); h != "" {
		// A host spelt in Unicode is stored in punycode, and every
		// host in lower case and without a trailing dot, as
		// vigil.CanonicalURL writes it (vigil.Resource.Host).
		v := url.URL{Host: h}
		if err := spec.CheckASCIIHost(&v); err != nil {
			return vigil.Errorf(vigil.EINVALID, "host %s", hostProblem(&url.URL{Host: h}))
		}
		// A resource's host is its URL's host name alone (an IPv6
		// address without its brackets): one given with a port
		// would match nothing, and answer an empty list.
		if _, _, err := net.SplitHostPort(v.Host); err == nil {
			return vigil.Errorf(vigil.EINVALID, "host must be a host name without its port, as a resource's host is (its port is in its url)")
		}
		h = strings.TrimRight(strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(v.Host, "["), "]")), ".")
		f.Host = &h
	}
	list, total, err := s.readableResources(r.Context(), u, f)
	if err != nil {
		return err
	}
	items := make([]*vigil.Resource, len(list))
	for i, r := range list {
		items[i] = r.Resource
	}
	writeJSON(w, http.StatusOK, listBody[*vigil.Resource]{Items: items, Total: total})
	return nil
}

func (s *Server) resource(r *http.Request) (*vigil.Resource, error) {
	id, err := idParam("resource id", r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	return s.Store.FindResourceByID(r.Context(), id)
}

func (s *Server) handleResourceGet(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	res, err := s.readableResource(r, u)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

func (s *Server) handleVersionList(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	res, err := s.readableResource(r, u)
	if err != nil {
		return err
	}
	p, err := paging(r)
	if err != nil {
		return err
	}
	desc, err := orderParam(r)
	if err != nil {
		return err
	}
	f := vigil.VersionFilter{ResourceID: res.ID, Offset: p.Offset, Limit: p.Limit, Descending: desc}
	loc, _ := s.userLocation(u)
	if f.Since, err = timeParam(r, "since", loc); err != nil {
		return err
	}
	if f.Until, err = timeParam(r, "until", loc); err != nil {
		return err
	}
	list, total, err := s.Store.FindVersions(r.Context(), f)
	if err != nil {
		return err
	}
	items, err := s.versionBodies(r.Context(), res.URL, list)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, listBody[*versionBody]{Items: items, Total: total})
	return nil
}

func (s *Server) version(r *http.Request) (*vigil.Version, error) {
	id, err := idParam("version id", r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	return s.Store.FindVersionByID(r.Context(), id)
}

func (s *Server) handleVersionGet(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	v, res, err := s.readableVersion(r, u)
	if err != nil {
		return err
	}
	items, err := s.versionBodies(r.Context(), res.URL, []*vigil.Version{v})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, items[0])
	return nil
}

// handleVersionBody answers the exact bytes of a version, as a download
// that a browser will not run: sandboxed, no script, no sniffing. The
// page's own content type is in X-Vigil-Content-Type: served as the
// Content-Type, a body that was JavaScript or CSS would be a script or a
// style sheet of the dashboard's origin for any page that links to it.
func (s *Server) handleVersionBody(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	v, _, err := s.readableVersion(r, u)
	if err != nil {
		return err
	}
	if err := hasBody(v); err != nil {
		return err
	}
	wh, err := s.warehouse()
	if err != nil {
		return err
	}
	body, err := wh.Body(r.Context(), v.ID)
	if err != nil {
		return err
	}
	ct := "application/octet-stream"
	if v.Charset != "" || vigil.IsTextMediaType(v.ContentType) {
		// Bodies are kept decoded to UTF-8; text by the rule the
		// fetcher keeps bodies by (a body imported from a WARC file
		// without a charset parameter has none).
		ct = "text/plain; charset=utf-8"
	}
	h := w.Header()
	h.Set("Content-Type", ct)
	if v.ContentType != "" {
		h.Set("X-Vigil-Content-Type", v.ContentType)
	}
	h.Set("Content-Security-Policy", downloadCSP)
	h.Set("Content-Disposition", "attachment; filename=\"version-"+strconv.FormatInt(v.ID, 10)+"\"")
	// A body never changes, so the browser that read it keeps it, but
	// apart for each session and token (Vary): kept by its URL alone, it
	// was shown from the cache to another account signed in on the same
	// browser, which the server never asked whether it may read it.
	h.Set("Cache-Control", "private, max-age=86400, immutable")
	h.Set("Vary", "Cookie, Authorization")
	w.Write(body)
	return nil
}

// downloadCSP is the policy of what the API serves as a download (bodies,
// deltas): nothing runs or loads, should a browser show it anyway.
const downloadCSP = "sandbox; default-src 'none'; frame-ancestors 'none'"

// handleVersionText answers the text of a version: its document's text
// content, one line per block of text.
func (s *Server) handleVersionText(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	v, _, err := s.readableVersion(r, u)
	if err != nil {
		return err
	}
	if err := hasBody(v); err != nil {
		return err
	}
	wh, err := s.warehouse()
	if err != nil {
		return err
	}
	doc, err := wh.Document(r.Context(), v.ID)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write([]byte(documentText(doc)))
	return nil
}

// ---- changes and notifications

func (s *Server) handleChangeList(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	p, err := paging(r)
	if err != nil {
		return err
	}
	f := vigil.ChangeFilter{Offset: p.Offset, Limit: p.Limit}
	loc, _ := s.userLocation(u)
	q := r.URL.Query()
	if v := q.Get("sentinel"); v != "" {
		if f.SentinelID, err = idParam("sentinel", v); err != nil {
			return err
		}
	}
	if v := q.Get("resource"); v != "" {
		if f.ResourceID, err = idParam("resource", v); err != nil {
			return err
		}
	}
	if f.Since, err = timeParam(r, "since", loc); err != nil {
		return err
	}
	if f.Until, err = timeParam(r, "until", loc); err != nil {
		return err
	}
	if f.SentinelID != 0 {
		if _, err := s.ownSentinel(r.Context(), u, strconv.FormatInt(f.SentinelID, 10)); err != nil {
			return err
		}
	}
	if f.ResourceID != 0 {
		res, err := s.Store.FindResourceByID(r.Context(), f.ResourceID)
		if err == nil {
			err = s.checkReadable(r.Context(), u, res)
		}
		if vigil.ErrorCode(err) == vigil.ENOTFOUND {
			return vigil.Errorf(vigil.ENOTFOUND, "resource %d not found", f.ResourceID)
		}
		if err != nil {
			return err
		}
	}
	f.OwnerID = u.ID // the store pages through u's changes only
	list, total, err := s.Store.FindChanges(r.Context(), f)
	if err != nil {
		return err
	}
	items, err := s.changeBodies(r.Context(), list)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, listBody[*changeBody]{Items: items, Total: total})
	return nil
}

func (s *Server) ownChange(r *http.Request, u *vigil.User) (*vigil.Change, error) {
	return s.ownChangeID(r, u, r.PathValue("id"))
}

// ownChangeID returns change idText of one of u's sentinels; ENOTFOUND
// for another's.
func (s *Server) ownChangeID(r *http.Request, u *vigil.User, idText string) (*vigil.Change, error) {
	id, err := idParam("change id", idText)
	if err != nil {
		return nil, err
	}
	c, err := s.Store.FindChangeByID(r.Context(), id)
	if err != nil {
		return nil, err
	}
	if _, err := s.ownSentinel(r.Context(), u, strconv.FormatInt(c.SentinelID, 10)); err != nil {
		return nil, vigil.Errorf(vigil.ENOTFOUND, "change %d not found", id)
	}
	return c, nil
}

func (s *Server) handleChangeGet(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	c, err := s.ownChange(r, u)
	if err != nil {
		return err
	}
	items, err := s.changeBodies(r.Context(), []*vigil.Change{c})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, items[0])
	return nil
}

func (s *Server) handleNotificationList(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	p, err := paging(r)
	if err != nil {
		return err
	}
	st, err := stateParam(r)
	if err != nil {
		return err
	}
	desc, err := orderParam(r)
	if err != nil {
		return err
	}
	f := vigil.NotificationFilter{UserID: u.ID, State: st, Offset: p.Offset, Limit: p.Limit, Descending: desc}
	list, total, err := s.Store.FindNotifications(r.Context(), f)
	if err != nil {
		return err
	}
	items := make([]*notificationBody, len(list))
	for i, n := range list {
		items[i] = newNotificationBody(n)
	}
	writeJSON(w, http.StatusOK, listBody[*notificationBody]{Items: items, Total: total})
	return nil
}

func (s *Server) handleNotificationGet(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	id, err := idParam("notification id", r.PathValue("id"))
	if err != nil {
		return err
	}
	n, err := s.Store.FindNotificationByID(r.Context(), id)
	if err != nil {
		return err
	}
	if n.UserID != u.ID {
		return vigil.Errorf(vigil.ENOTFOUND, "notification %d not found", id)
	}
	writeJSON(w, http.StatusOK, newNotificationBody(n))
	return nil
}

// withChangeID gives a notification's payload the id of its change, as it
// is delivered (vigil.Notification.Message); a payload that cannot be read
// is shown as stored. Only a payload whose change has no id is read and
// written again (encoding/json writes the id first): payloads may hold
// deltas of hundreds of kilobytes.
func withChangeID(n *vigil.Notification) {
	if n.ChangeID == 0 || !bytes.Contains(n.Payload, []byte(`"change":{"id":0,`)) {
		return
	}
	m, err := n.Message()
	if err != nil {
		return
	}
	if p, err := json.Marshal(m); err == nil {
		n.Payload = p
	}
}

// ---- tokens

func (s *Server) handleTokenList(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	list, err := s.Store.FindTokens(r.Context(), u.ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, listBody[*vigil.Token]{Items: nonNil(list), Total: len(list)})
	return nil
}

// The bounds of a token's expiry: a token that expired before it was shown
// would be of no use, and the dashboard offers ten years at most.
const (
	minTokenTTL = time.Minute
	maxTokenTTL = 3650 * 24 * time.Hour
)

// fmtTTL writes a token expiry bound as ParseDuration reads it, without
// the zero units time.Duration.String adds ("1m", not "1m0s").
func fmtTTL(d time.Duration) string {
	out := d.String()
	for _, zero := range []string{"0s", "0m"} {
		if strings.HasSuffix(out, zero) && len(out) > len(zero) {
			out = strings.TrimSuffix(out, zero)
		}
	}
	return out
}

// createToken makes a token for u and returns it with its secret, which
// is shown once and stored only hashed. Only a signed-in session makes
// one: a token that made tokens would outlive its own expiry and its
// revocation in theirs.
func (s *Server) createToken(r *http.Request, u *vigil.User, name string, ttl time.Duration) (*vigil.Token, string, error) {
	if byToken(r) {
		return nil, "", vigil.Errorf(vigil.EFORBIDDEN, "API tokens are made from a signed-in session (the dashboard's Tokens page), not with a token")
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, "", fieldError("name", "name: a token needs a name, to tell it from the others")
	}
	if strings.ContainsFunc(name, unicode.IsControl) {
		return nil, "", fieldError("name", "name must have no control character")
	}
	if len(name) > 200 {
		// The store's limit (vigil.Token.Validate), said on the field.
		return nil, "", fieldError("name", "name: a token name is 200 bytes at most")
	}
	secret, err := randomSecret(32)
	if err != nil {
		return nil, "", err
	}
	secret = "vgl_" + secret
	t := &vigil.Token{UserID: u.ID, Name: name, Hash: vigil.HashToken(secret)}
	if ttl > 0 {
		t.ExpiresAt = s.now().Add(ttl).UTC()
	}
	if err := s.Store.CreateToken(r.Context(), t); err != nil {
		return nil, "", err
	}
	return t, secret, nil
}

func (s *Server) handleTokenCreate(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	var in struct {
		Name string `json:"name"`
		// A Go duration ("720h"); absent or null: never. "" is
		// refused: it says neither.
		ExpiresIn *string `json:"expiresIn,omitempty"`
	}
	if err := readJSON(r, &in); err != nil {
		return err
	}
	var ttl time.Duration
	if in.ExpiresIn != nil {
		if *in.ExpiresIn == "" {
			return fieldError("expiresIn", fmt.Sprintf("expiresIn is empty: give a duration from %s to %s, such as 720h, or leave it out (or null) for a token that never expires",
				fmtTTL(minTokenTTL), fmtTTL(maxTokenTTL)))
		}
		d, err := time.ParseDuration(*in.ExpiresIn)
		if err != nil || d < minTokenTTL || d > maxTokenTTL {
			return fieldError("expiresIn", fmt.Sprintf("expiresIn must be a duration from %s to %s, such as 720h (absent or null: never)",
				fmtTTL(minTokenTTL), fmtTTL(maxTokenTTL)))
		}
		ttl = d
	}
	t, secret, err := s.createToken(r, u, in.Name, ttl)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, struct {
		*vigil.Token
		Secret string `json:"secret"`
	}{t, secret})
	return nil
}

func (s *Server) deleteOwnToken(r *http.Request, u *vigil.User, idText string) error {
	id, err := idParam("token id", idText)
	if err != nil {
		return err
	}
	list, err := s.Store.FindTokens(r.Context(), u.ID)
	if err != nil {
		return err
	}
	for _, t := range list {
		if t.ID == id {
			return s.Store.DeleteToken(r.Context(), id)
		}
	}
	return vigil.Errorf(vigil.ENOTFOUND, "token %d not found", id)
}

func (s *Server) handleTokenDelete(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	if err := s.deleteOwnToken(r, u, r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

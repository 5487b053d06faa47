package web

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // Asia/Tokyo where the system has no zoneinfo

	"github.com/vigil-web/vigil"
)

// tokyoXmas is 09:00 on 24 December 2036 in Tokyo (UTC+9, no summer
// time): midnight UTC.
var tokyoXmas = time.Date(2036, 12, 24, 0, 0, 0, 0, time.UTC)

// parisXmas09 is 09:00 on 24 December 2036 in Paris (winter time).
var parisXmas09 = time.Date(2036, 12, 24, 8, 0, 0, 0, time.UTC)

const xmasSource = "Create Sentinel xmas Using http://a.example/ From 12/24/2036 09:00"

// meAnswer is the answer of GET and PATCH /api/v1/me.
type meAnswer struct {
	Email              string
	TimeZone           string // the user's own, "" for the deployment's
	EffectiveTimeZone  string
	DeploymentTimeZone string
}

// callMe sends method (GET or PATCH) to /api/v1/me with body and
// returns the answer, which must be a 200.
func callMe(t *testing.T, c *signedIn, method, body string) meAnswer {
	t.Helper()
	status, body := c.do(method, "/api/v1/me", body)
	var m meAnswer
	if err := json.Unmarshal([]byte(body), &m); status != 200 || err != nil {
		t.Fatalf("/api/v1/me: %d %s (%v)", status, body, err)
	}
	return m
}

// storedSentinel returns the sentinel id as the store keeps it, with the
// start of its checked form.
func storedSentinel(t *testing.T, s *Server, id int64) (*vigil.Sentinel, time.Time) {
	t.Helper()
	sen, err := s.Store.FindSentinelByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var checked struct{ Start time.Time }
	if err := json.Unmarshal(sen.Spec, &checked); err != nil {
		t.Fatal(err)
	}
	return sen, checked.Start
}

// TestUserTimeZoneAPI: PATCH /api/v1/me sets the user's own zone, which
// GET /api/v1/me answers as timeZone and, as the one in effect, as
// effectiveTimeZone (timeZone was the one in effect, which a client
// sending it back pinned);
// the sentinels they save from then on are read in it and keep it, and
// "" falls back on the deployment's. An unknown zone is refused with a
// diagnostic on timeZone and changes nothing. The dates were read in the
// deployment's zone whatever the user.
func TestUserTimeZoneAPI(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u) // the deployment's zone: none, UTC

	m := callMe(t, c, "GET", "")
	if m.TimeZone != "" || m.EffectiveTimeZone != "UTC" || m.DeploymentTimeZone != "UTC" {
		t.Errorf("before: %+v; want none of their own, in effect UTC, the deployment's", m)
	}
	// What GET answers, sent back, changes nothing: the user keeps no
	// zone of their own, and follows the deployment's.
	if m := callMe(t, c, "PATCH", `{"timeZone": "`+m.TimeZone+`"}`); m.TimeZone != "" || m.EffectiveTimeZone != "UTC" {
		t.Errorf("PATCH of what GET answered: %+v; want still none of their own", m)
	}
	if got, _ := s.Store.FindUserByID(context.Background(), u.ID); got.TimeZone != "" {
		t.Errorf("PATCH of what GET answered stored %q, want none", got.TimeZone)
	}
	if m := callMe(t, c, "PATCH", `{"timeZone": "Asia/Tokyo"}`); m.TimeZone != "Asia/Tokyo" || m.EffectiveTimeZone != "Asia/Tokyo" || m.Email != u.Email {
		t.Errorf("PATCH Asia/Tokyo answers %+v", m)
	}
	if m := callMe(t, c, "GET", ""); m.TimeZone != "Asia/Tokyo" || m.EffectiveTimeZone != "Asia/Tokyo" || m.DeploymentTimeZone != "UTC" {
		t.Errorf("after: %+v; want Asia/Tokyo, the user's own", m)
	}
	if got, _ := s.Store.FindUserByID(context.Background(), u.ID); got.TimeZone != "Asia/Tokyo" {
		t.Errorf("stored zone %q", got.TimeZone)
	}

	// Saved in Tokyo: 09:00 there is midnight UTC, and the zone is kept.
	status, body := c.do("POST", "/api/v1/sentinels", `{"source": "`+xmasSource+`"}`)
	var sen struct {
		ID        int64
		NextCheck time.Time
		TimeZone  string
	}
	if err := json.Unmarshal([]byte(body), &sen); status != 201 || err != nil {
		t.Fatalf("create: %d %s", status, body)
	}
	if !sen.NextCheck.Equal(tokyoXmas) || sen.TimeZone != "Asia/Tokyo" {
		t.Errorf("created: next check %s in %q; want %s in Asia/Tokyo", sen.NextCheck.UTC(), sen.TimeZone, tokyoXmas)
	}
	if st, start := storedSentinel(t, s, sen.ID); st.TimeZone != "Asia/Tokyo" || !start.Equal(tokyoXmas) {
		t.Errorf("stored: start %s in %q", start.UTC(), st.TimeZone)
	}
	page := "/sentinels/" + strconv.FormatInt(sen.ID, 10)
	if status, body := c.do("GET", "/sentinels/new", ""); status != 200 || !strings.Contains(body, "Dates you write are read in Asia/Tokyo.") {
		t.Errorf("the editor does not name the user's zone: %d", status)
	}

	// Unknown zones, and no zone at all, are refused; nothing changes.
	for _, in := range []string{`{"timeZone": "Mars/Olympus_Mons"}`, `{"timeZone": "Local"}`, `{"timeZone": "+09:00"}`, `{"timeZone": "localtime"}`, `{"timeZone": "right/Asia/Tokyo"}`} {
		status, body := c.do("PATCH", "/api/v1/me", in)
		var e errorBody
		if err := json.Unmarshal([]byte(body), &e); status != 400 || err != nil || e.Error.Code != vigil.EINVALID ||
			len(e.Error.Diagnostics) != 1 || e.Error.Diagnostics[0].Field != "timeZone" {
			t.Errorf("PATCH %s: %d %s; want 400 with a diagnostic on timeZone", in, status, body)
		}
	}
	if status, body := c.do("PATCH", "/api/v1/me", `{}`); status != 400 || !strings.Contains(body, "timeZone required") {
		t.Errorf("PATCH {}: %d %s", status, body)
	}
	if m := callMe(t, c, "GET", ""); m.TimeZone != "Asia/Tokyo" {
		t.Errorf("after the refusals: %+v; want Asia/Tokyo kept", m)
	}

	// A new zone moves no saved sentinel, until it is edited.
	callMe(t, c, "PATCH", `{"timeZone": "Europe/Paris"}`)
	if st, start := storedSentinel(t, s, sen.ID); st.TimeZone != "Asia/Tokyo" || !start.Equal(tokyoXmas) {
		t.Errorf("after the zone changed: start %s in %q; want it kept", start.UTC(), st.TimeZone)
	}
	if status, body := c.do("GET", page, ""); status != 200 || !strings.Contains(body, "Dates you write are read in Europe/Paris.") ||
		!strings.Contains(body, `read in <span id="saved-zone">Asia/Tokyo</span> when it was saved`) {
		t.Errorf("the sentinel's page does not name both zones: %d", status)
	}
	if status, body := c.do("PUT", "/api/v1/sentinels/"+strconv.FormatInt(sen.ID, 10), `{"source": "`+xmasSource+`"}`); status != 200 {
		t.Fatalf("edit: %d %s", status, body)
	}
	if st, start := storedSentinel(t, s, sen.ID); st.TimeZone != "Europe/Paris" || !start.Equal(parisXmas09) {
		t.Errorf("edited: start %s in %q; want %s in Europe/Paris", start.UTC(), st.TimeZone, parisXmas09)
	}

	// "" falls back on the deployment's zone.
	if m := callMe(t, c, "PATCH", `{"timeZone": ""}`); m.TimeZone != "" || m.EffectiveTimeZone != "UTC" {
		t.Errorf(`PATCH "": %+v; want the deployment's UTC`, m)
	}
	status, body = c.do("POST", "/api/v1/sentinels", `{"source": "Create Sentinel later Using http://b.example/ From 12/24/2036 09:00"}`)
	if err := json.Unmarshal([]byte(body), &sen); status != 201 || err != nil {
		t.Fatalf("create: %d %s", status, body)
	}
	if st, start := storedSentinel(t, s, sen.ID); st.TimeZone != "UTC" || !start.Equal(tokyoXmas.Add(9*time.Hour)) {
		t.Errorf("saved in the deployment's zone: start %s in %q; want 09:00 UTC, kept as UTC", start.UTC(), st.TimeZone)
	}
}

// TestUserTimeZoneKeptByUsers: the sentinels using one that is edited are
// checked again with it, each in the zone it was saved in, which it
// keeps: the edit of base, after its owner moved from Tokyo to Paris,
// leaves kid's From at 09:00 in Tokyo. kid was read again in the
// owner's new zone, its start moved by 8 hours.
func TestUserTimeZoneKeptByUsers(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	callMe(t, c, "PATCH", `{"timeZone": "Asia/Tokyo"}`)
	var base, kid struct{ ID int64 }
	for _, x := range []struct {
		src string
		out *struct{ ID int64 }
	}{
		{"Create Sentinel base Using http://a.example/ Fetch 1 hour", &base},
		{"Create Sentinel kid Using base From 12/24/2036 09:00", &kid},
	} {
		status, body := c.do("POST", "/api/v1/sentinels", `{"source": "`+x.src+`"}`)
		if err := json.Unmarshal([]byte(body), x.out); status != 201 || err != nil {
			t.Fatalf("create: %d %s", status, body)
		}
	}
	callMe(t, c, "PATCH", `{"timeZone": "Europe/Paris"}`)
	before, _ := storedSentinel(t, s, kid.ID)
	if status, body := c.do("PUT", "/api/v1/sentinels/"+strconv.FormatInt(base.ID, 10), `{"source": "Create Sentinel base Using http://a.example/ Fetch 2 hours"}`); status != 200 {
		t.Fatalf("edit base: %d %s", status, body)
	}
	after, start := storedSentinel(t, s, kid.ID)
	if after.UpdatedAt.Equal(before.UpdatedAt) {
		t.Fatalf("kid was not checked again with base's edit")
	}
	if after.TimeZone != "Asia/Tokyo" || !start.Equal(tokyoXmas) {
		t.Errorf("kid, checked again: start %s in %q; want %s in Asia/Tokyo", start.UTC(), after.TimeZone, tokyoXmas)
	}
	if st, _ := storedSentinel(t, s, base.ID); st.TimeZone != "Europe/Paris" {
		t.Errorf("base, edited: zone %q, want the owner's Europe/Paris", st.TimeZone)
	}
}

// TestUserTimeZonePage: the form of the tokens page (the user's
// settings) sets the user's zone, with the CSRF token of the other forms,
// and says which zone is in effect; a zone it does not know is refused.
func TestUserTimeZonePage(t *testing.T) {
	s, u := newTestServer(t)
	c := newSignedIn(t, s, u)
	if status, body := c.do("GET", "/tokens", ""); status != 200 || !strings.Contains(body, `the deployment's zone, <strong id="time-zone-current">UTC</strong>`) ||
		!strings.Contains(body, `action="/time-zone"`) {
		t.Fatalf("tokens page: %d, no time zone form naming the deployment's zone", status)
	}
	if status, _ := c.do("POST", "/time-zone", "timeZone=Asia%2FTokyo"); status != 303 || c.location != "/tokens" {
		t.Fatalf("form: %d to %q, want 303 to /tokens", status, c.location)
	}
	if got, _ := s.Store.FindUserByID(context.Background(), u.ID); got.TimeZone != "Asia/Tokyo" {
		t.Errorf("stored zone %q, want Asia/Tokyo", got.TimeZone)
	}
	if status, body := c.do("GET", "/tokens", ""); status != 200 || !strings.Contains(body, `your zone, <strong id="time-zone-current">Asia/Tokyo</strong>`) {
		t.Errorf("tokens page after: %d, does not name Asia/Tokyo as the user's", status)
	}
	if status, _ := c.do("POST", "/time-zone", "timeZone=Nowhere%2FLand"); status != 400 {
		t.Errorf("unknown zone: %d, want 400", status)
	}
	// Without the CSRF token, nothing changes.
	c.csrf = "forged"
	if status, _ := c.do("POST", "/time-zone", "timeZone="); status != 403 {
		t.Errorf("without the CSRF token: %d, want 403", status)
	}
	if got, _ := s.Store.FindUserByID(context.Background(), u.ID); got.TimeZone != "Asia/Tokyo" {
		t.Errorf("stored zone %q, want Asia/Tokyo kept", got.TimeZone)
	}
}

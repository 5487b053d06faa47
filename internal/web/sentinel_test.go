package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// TestDiagnosticRange: a diagnostic's range covers the offending text where
// the error is at it, and only the position otherwise. An "expected X"
// error of an X missing before a clause on the next line is at the
// clause's keyword, which it names, and marks it; it was reported just
// after the token before and highlighted the line break ("\nFetc" once,
// for a missing "change" before "Fetch", before the range was cut to the
// position's character). At the end of the source, where X is missing
// after the last token, the range is empty.
func TestDiagnosticRange(t *testing.T) {
	s, u := newTestServer(t)
	tests := map[string]struct {
		src              string
		at, end          int // byte offsets
		line, col        int
		highlightedStart string
	}{
		"missing before a clause on the next line": {
			src: "Create Sentinel a Using http://a.example/\nMonitor any\nFetch 1 hour\n",
			at:  54, end: 59, line: 3, col: 1, highlightedStart: "Fetch",
		},
		"missing before an indented clause": {
			src: "Create Sentinel a Using http://a.example/\nMonitor value In css \".price\"\n\tFetch on change\n",
			at:  73, end: 78, line: 3, col: 2, highlightedStart: "Fetch",
		},
		"offending token": {
			src: "Create Sentinel a Using http://a.example/\nMonitor frequent change\n",
			at:  50, end: 58, line: 2, col: 9, highlightedStart: "frequent",
		},
		"missing at the end, before a wide space": {
			// The position's one character is two bytes here (U+00A0): the
			// range held its first byte alone, invalid UTF-8.
			src: "Create Sentinel a Using http://a.example/\nMonitor any\u00a0\n",
			at:  53, end: 55, line: 2, col: 12, highlightedStart: "\u00a0",
		},
		"missing at the end": {
			// An empty range at the end: [53,54) went one byte past it.
			src: "Create Sentinel a Using http://a.example/\nMonitor any",
			at:  53, end: 53, line: 2, col: 12,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			res, err := s.liveCheck(context.Background(), u, &sentinelInput{Source: tc.src}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Errors) != 1 {
				t.Fatalf("errors %+v, want one", res.Errors)
			}
			d := res.Errors[0]
			if d.Offset != tc.at || d.End != tc.end || d.Line != tc.line || d.Column != tc.col {
				t.Errorf("%d:%d [%d,%d), want %d:%d [%d,%d) (%s)", d.Line, d.Column, d.Offset, d.End, tc.line, tc.col, tc.at, tc.end, d.Message)
			}
			if d.End <= len(tc.src) && !strings.HasPrefix(tc.src[d.Offset:d.End], tc.highlightedStart) {
				t.Errorf("highlights %q, want %q", tc.src[d.Offset:d.End], tc.highlightedStart)
			}
		})
	}
}

// diagnosticRangeSources are sources whose errors fall at the edges of
// the text: the end, inside a token, a string or a comment, after a
// carriage return, in a multi-byte character.
var diagnosticRangeSources = []string{
	"",
	" ",
	"\r",
	"C",
	"Create",
	"Create Sentinel",
	"Create Sentinel a",
	"Create Sentinel a Using",
	"Create Sentinel a Using http://a.example/\nFetch\r",
	"Create Sentinel a Using http://a.example/\nMonitor any change\nFetch 1 hour\r\nNotify\r",
	"Create Sentinel a Using http://a.example/\r\nMonitor\r\n",
	"Create Sentinel a Using http://a.example/\nMonitor any change\nFrom end(b)",
	"Create Sentinel a Using http://a.example/\nMonitor any change\nFrom 01/02/2020 To 01/01/2020",
	"Create Sentinel a Using http://a.example/\nMonitor",
	"Create Sentinel a Using http://a.example/\nMonitor any",
	"Create Sentinel a Using http://a.example/\nMonitor any\r",
	"Create Sentinel a Using http://a.example/\nMonitor an",
	"Create Sentinel a Using http://a.example/\nMonitor any change\nNotify",
	"Create Sentinel a Using http://a.example/\nMonitor any change\nNotify by email to \"a@",
	"Create Sentinel a Using http://a.example/\nMonitor any change\nNotify by email to \"a@\\",
	"Create Sentinel a Using http://a.example/\nMonitor any change\nNotify by email to \"a\\q\"",
	"Create Sentinel \"a",
	"Create Sentinel \"a\r",
	"Create Sentinel a Using http://a.example/\nMonitor any change\nFetch 1",
	"Create Sentinel a Using http://a.example/\nMonitor any change\nFetch 1 hour\nWhen \"",
	"Create Sentinel a Using http://a.example/\nMonitor any change // a comment",
	"Create Sentinel a Using http://a.example/\nMonitor any change\n$",
	"Create Sentinel a Using http://a.example/\nMonitor any change\nFetch \u00a0",
	"Create Sentinel a Using http://a.example/\nMonitor any change\n\xe2\x82",
	"Create Sentinel a Using http://a.example/\nMonitor any\u00a0",
	"Create Sentinel a Using http://a.example/\nMonitor keywords {sale\n\tFetch 1 hour\n",
	"Create Sentinel a Using http://a.example/\nMonitor any\nCreate Sentinel b Using http://b.example/\n",
	"Create \x00",
	"Create Sentinel a Using http://a.example/\nMonitor xpath \"//p[",
	"Create Sentinel a Using http://a.example/\nMonitor css \"p",
	"Create Sentinel a Using http://a.example/\nMonitor any change from 2020-01-",
}

// checkDiagnosticRanges fails t unless every diagnostic with a position
// has 0 <= offset <= end <= len(src), so that a client slicing src with
// them stays inside it, and cuts no character in two.
func checkDiagnosticRanges(t *testing.T, src string, ds []Diagnostic) {
	t.Helper()
	for _, d := range ds {
		if d.Line == 0 {
			continue
		}
		if d.Offset < 0 || d.Offset > d.End || d.End > len(src) {
			t.Errorf("%q: %d:%d %q: range [%d,%d) outside the source of %d bytes", src, d.Line, d.Column, d.Message, d.Offset, d.End, len(src))
			continue
		}
		for i := max(0, d.End-utf8.UTFMax+1); i < d.End; i++ {
			if r, w := utf8.DecodeRuneInString(src[i:]); r != utf8.RuneError && i+w > d.End {
				t.Errorf("%q: %q: range [%d,%d) ends inside a character", src, d.Message, d.Offset, d.End)
			}
		}
	}
}

// TestDiagnosticRangesInSource: every diagnostic of the live check, an
// error or a warning, lies within the source; an error at the very end
// reported an end one byte past it.
func TestDiagnosticRangesInSource(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	for _, src := range diagnosticRangeSources {
		res, err := s.liveCheck(context.Background(), u, &sentinelInput{Source: src}, 0)
		if err != nil {
			if strings.TrimSpace(src) == "" {
				continue // "sentinel source required", without a position
			}
			t.Fatalf("%q: %v", src, err)
		}
		if strings.TrimSpace(src) != "" && res.Valid {
			t.Errorf("%q: valid, want an error", src)
		}
		checkDiagnosticRanges(t, src, res.Errors)
		checkDiagnosticRanges(t, src, res.Warnings)
	}
}

// FuzzDiagnosticRanges: whatever the source, the parser's diagnostics lie
// within it.
func FuzzDiagnosticRanges(f *testing.F) {
	for _, src := range diagnosticRangeSources {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, err := spec.ParseSentinel("", []byte(src))
		checkDiagnosticRanges(t, src, diagnostics(err, src))
	})
}

// TestSentinelIDErrors: a sentinel id that is not a positive number is
// refused saying so; "-1" and "0" were said to be "not a number". One
// past the ids' type is said to be too large, where it was said to be
// not positive. The id is not repeated: a link could make it say
// anything.
func TestSentinelIDErrors(t *testing.T) {
	s, u := newTestServer(t)
	const notPositive = `sentinel id must be a positive number`
	const tooLarge = `sentinel id is too large: ids go up to 9223372036854775807`
	tests := map[string]struct{ id, want string }{
		"not a number":       {"abc", notPositive},
		"negative":           {"-1", notPositive},
		"zero":               {"0", notPositive},
		"too small":          {"-99999999999999999999", notPositive},
		"too large":          {"99999999999999999999", tooLarge},
		"one past the type":  {"9223372036854775808", tooLarge},
		"too large, signed":  {"+99999999999999999999", tooLarge},
		"the largest, found": {"9223372036854775807", ""},
	}
	for name, tc := range tests {
		_, err := s.ownSentinel(context.Background(), u, tc.id)
		if tc.want == "" {
			if vigil.ErrorCode(err) != vigil.ENOTFOUND {
				t.Errorf("%s: %s: %v (%s), want ENOTFOUND", name, tc.id, err, vigil.ErrorCode(err))
			}
			continue
		}
		if vigil.ErrorCode(err) != vigil.EINVALID || vigil.ErrorMessage(err) != tc.want {
			t.Errorf("%s: %s: %v (%s), want %q", name, tc.id, err, vigil.ErrorCode(err), tc.want)
		}
	}
}

// TestAPIIDTooLarge: an id in an API path or query that is too large for
// the ids' type is said to be too large, under the field's name.
func TestAPIIDTooLarge(t *testing.T) {
	s, u := newTestServer(t)
	c := newSignedIn(t, s, u)
	auth := bearer(t, s.Store, u, "id-range-secret")
	const big = "99999999999999999999"
	tests := map[string]struct{ path, want string }{
		"sentinel":          {"/api/v1/sentinels/" + big, "sentinel id is too large: ids go up to 9223372036854775807"},
		"resource":          {"/api/v1/resources/" + big, "resource id is too large: ids go up to 9223372036854775807"},
		"changes' sentinel": {"/api/v1/changes?sentinel=" + big, "sentinel is too large: ids go up to 9223372036854775807"},
	}
	for name, tc := range tests {
		status, body := apiCall(t, c.srv.URL, auth, "GET", tc.path, "")
		if status != 400 || !strings.Contains(fmt.Sprint(body), tc.want) {
			t.Errorf("%s: GET %s: %d %v, want 400 and %q", name, tc.path, status, body, tc.want)
		}
	}
}

// TestCheckReplacing: the live check's replacing must name a sentinel by
// a positive id; a negative one was ignored, the check made as for a new
// sentinel.
func TestCheckReplacing(t *testing.T) {
	s, u := newTestServer(t)
	for _, body := range []string{`{"source":"Create Sentinel a Using http://a.example/","replacing":-5}`} {
		req := jsonRequest("POST", "/api/v1/sentinels/check", body)
		rec := httptest.NewRecorder()
		err := s.handleSentinelCheck(rec, req, u)
		want := "replacing -5 is not a positive sentinel id"
		if vigil.ErrorCode(err) != vigil.EINVALID || vigil.ErrorMessage(err) != want {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}

// TestCheckNowEnded: an ended sentinel (its To passed) is checked no more,
// so "check now" is refused as for a paused one; it answered 200 with a
// next check of now, and the monitor then did nothing.
func TestCheckNowEnded(t *testing.T) {
	s, u := newTestServer(t)
	ctx := context.Background()
	sen := createChecked(t, s, u, "Create Sentinel done Using http://a.example/ Fetch 1 hour")
	phase := "ended"
	s.SentinelStates = func(_ context.Context, _ []*vigil.Sentinel) (map[int64]SentinelState, error) {
		return map[int64]SentinelState{sen.ID: {Lifespan: phase}}, nil
	}
	before := sen.NextCheck
	err := s.setStatus(ctx, u, sen, "check-now")
	if want := "sentinel done has ended (its To has passed): edit its To to check it again"; vigil.ErrorCode(err) != vigil.ECONFLICT || vigil.ErrorMessage(err) != want {
		t.Errorf("check-now of an ended sentinel: %v, want ECONFLICT %q", err, want)
	}
	if got, _ := s.Store.FindSentinelByID(ctx, sen.ID); !got.NextCheck.Equal(before) {
		t.Errorf("next check moved from %v to %v", before, got.NextCheck)
	}
	phase = "active"
	if err := s.setStatus(ctx, u, sen, "check-now"); err != nil {
		t.Errorf("check-now of an active sentinel: %v", err)
	}
}

// storeChecker is a Server.Checker over the owner's sentinels in the
// store, as cmd/vigil builds it (without the monitor's lifespan states).
func storeChecker(s *Server) func(ctx context.Context, owner *vigil.User, now time.Time) (*spec.Checker, error) {
	return func(ctx context.Context, owner *vigil.User, now time.Time) (*spec.Checker, error) {
		all, _, err := s.Store.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: owner.ID})
		if err != nil {
			return nil, err
		}
		known := map[string]*spec.Stored{}
		for _, sen := range all {
			var c spec.Checked
			if err := json.Unmarshal(sen.Spec, &c); err == nil && c.Sentinel != nil {
				known[strings.ToLower(sen.Name)] = &spec.Stored{Checked: &c, Location: s.sentinelLocation(sen)}
			}
		}
		return &spec.Checker{Now: now, Owner: owner.Email, Lookup: func(name string) *spec.Stored { return known[strings.ToLower(name)] }}, nil
	}
}

// TestEditReachesUsers: a sentinel that uses another (Using links) takes
// its pages and clauses when it is checked; an edit of the one it uses
// checks it again, so that it watches what that one watches now. It went
// on watching the page of before the edit, while both said "links".
func TestEditReachesUsers(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	ctx := context.Background()
	save := func(src string, replacing *vigil.Sentinel) (*vigil.Sentinel, error) {
		return s.saveSentinel(ctx, u, &sentinelInput{Source: src}, replacing)
	}
	urls := func(name string) []string {
		t.Helper()
		all, _, err := s.Store.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID})
		if err != nil {
			t.Fatal(err)
		}
		for _, sen := range all {
			if sen.Name == name {
				var c spec.Checked
				if err := json.Unmarshal(sen.Spec, &c); err != nil {
					t.Fatal(err)
				}
				return c.URLs
			}
		}
		t.Fatalf("no sentinel %s", name)
		return nil
	}
	links, err := save("Create Sentinel links Using http://a.example/one Monitor all links Fetch 1 day", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := save("Create Sentinel inh Using links Monitor keywords {x} Fetch 1 hour", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := save("Create Sentinel deeper Using inh Monitor keywords {y}", nil); err != nil {
		t.Fatal(err)
	}
	other, err := save("Create Sentinel other Using http://a.example/other", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := save("Create Sentinel links Using http://a.example/two Monitor all links Fetch 1 day", links); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"links", "inh", "deeper"} {
		if got := urls(name); !slices.Equal(got, []string{"http://a.example/two"}) {
			t.Errorf("%s watches %v after the edit of links, want http://a.example/two", name, got)
		}
	}
	if got, _ := s.Store.FindSentinelByID(ctx, other.ID); !got.UpdatedAt.Equal(other.UpdatedAt) {
		t.Errorf("a sentinel that does not use links was updated")
	}
	// An edit that would make a user invalid is refused, nothing saved:
	// inh fetches every hour and would inherit a confirmation after two.
	_, err = save("Create Sentinel links Using http://a.example/three Monitor all links Fetch 1 day Confirm after 2 hours", links)
	if vigil.ErrorCode(err) != vigil.ECONFLICT || !strings.Contains(vigil.ErrorMessage(err), "inh") {
		t.Errorf("edit that breaks inh: %v, want ECONFLICT naming inh", err)
	}
	if got := urls("links"); !slices.Equal(got, []string{"http://a.example/two"}) {
		t.Errorf("links watches %v after a refused edit", got)
	}
}

// TestEndedHasNoNextCheck: an ended sentinel is checked no more, and the
// monitor parks its next check 50 years on; the API said "nextCheck":
// "2076-...". Its view has no next check, in the API and on the dashboard.
func TestEndedHasNoNextCheck(t *testing.T) {
	s, u := newTestServer(t)
	ctx := context.Background()
	s.Checker = storeChecker(s)
	ended := createChecked(t, s, u, "Create Sentinel done Using http://a.example/ Fetch 1 hour")
	active := createChecked(t, s, u, "Create Sentinel going Using http://b.example/ Fetch 1 hour")
	far := time.Now().UTC().AddDate(50, 0, 0).Truncate(time.Second)
	ended.NextCheck = far
	if err := s.Store.UpdateSentinel(ctx, ended); err != nil {
		t.Fatal(err)
	}
	s.SentinelStates = func(_ context.Context, _ []*vigil.Sentinel) (map[int64]SentinelState, error) {
		return map[int64]SentinelState{ended.ID: {Lifespan: "ended"}, active.ID: {Lifespan: "active"}}, nil
	}
	c := newSignedIn(t, s, u)
	for _, tc := range []struct {
		path string
		want bool // a next check shown
	}{
		{"/api/v1/sentinels/" + strconv.FormatInt(ended.ID, 10), false},
		{"/api/v1/sentinels/" + strconv.FormatInt(active.ID, 10), true},
	} {
		status, body := c.do("GET", tc.path, "")
		if status != 200 {
			t.Fatalf("GET %s: %d %s", tc.path, status, body)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		if _, has := v["nextCheck"]; has != tc.want {
			t.Errorf("GET %s: nextCheck %v, want it %v", tc.path, v["nextCheck"], tc.want)
		}
	}
	status, body := c.do("GET", "/api/v1/sentinels", "")
	if status != 200 || strings.Contains(body, far.Format("2006-")) || !strings.Contains(body, `"nextCheck"`) {
		t.Errorf("GET /api/v1/sentinels: %d, want the active one's next check only: %s", status, body)
	}
	for _, path := range []string{"/sentinels", "/sentinels/" + strconv.FormatInt(ended.ID, 10)} {
		if status, body := c.do("GET", path, ""); status != 200 || strings.Contains(body, far.Format("2006-")) {
			t.Errorf("GET %s: %d, shows a next check in %s", path, status, far.Format("2006"))
		}
	}
	// A failed edit shows the editor again, without it either.
	status, body = c.do("POST", "/sentinels/"+strconv.FormatInt(ended.ID, 10), url.Values{"source": {"Create Sentinel done Monitor"}}.Encode())
	if status != 422 || strings.Contains(body, far.Format("2006-")) {
		t.Errorf("failed edit: %d, shows a next check in %s: %v", status, far.Format("2006"), strings.Contains(body, far.Format("2006-")))
	}
	if got, _ := s.Store.FindSentinelByID(ctx, ended.ID); !got.NextCheck.Equal(far) {
		t.Errorf("the stored next check moved from %v to %v", far, got.NextCheck)
	}
}

// TestPausedHasNoNextCheck: a paused sentinel is not due, and the
// dashboard says "paused" for its next check; the API gave it the stored
// date as its nextCheck, "when the sentinel is next due", which passed
// with nothing checked. Its view has no next check until it is resumed;
// the stored one is kept, for the resume.
func TestPausedHasNoNextCheck(t *testing.T) {
	s, u := newTestServer(t)
	ctx := context.Background()
	s.Checker = storeChecker(s)
	sen := createChecked(t, s, u, "Create Sentinel p Using http://a.example/ Fetch 1 hour")
	c := newSignedIn(t, s, u)
	path := "/api/v1/sentinels/" + strconv.FormatInt(sen.ID, 10)
	nextCheck := func(method, path string) (any, bool) {
		t.Helper()
		status, body := c.do(method, path, "")
		if status != 200 {
			t.Fatalf("%s %s: %d %s", method, path, status, body)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		n, has := v["nextCheck"]
		return n, has
	}
	if n, has := nextCheck("POST", path+"/pause"); has {
		t.Errorf("POST pause: nextCheck %v, want none", n)
	}
	if n, has := nextCheck("GET", path); has {
		t.Errorf("GET a paused sentinel: nextCheck %v, want none", n)
	}
	if status, body := c.do("GET", "/api/v1/sentinels", ""); status != 200 || strings.Contains(body, `"nextCheck"`) {
		t.Errorf("GET /api/v1/sentinels: %d, a next check for the paused sentinel: %s", status, body)
	}
	if got, err := s.Store.FindSentinelByID(ctx, sen.ID); err != nil || got.NextCheck.IsZero() {
		t.Errorf("the stored next check: %v, %v; want it kept", got, err)
	}
	if _, has := nextCheck("POST", path+"/resume"); !has {
		t.Errorf("POST resume: no nextCheck")
	}
}

// TestCheckNowPending: a sentinel whose lifespan has not started (its From
// is to come) is not checked before its start, so "check now" is refused
// saying when it starts, as for a paused or ended one; it answered 200 and
// the monitor did nothing. The dashboard offers no "Check now" for it.
func TestCheckNowPending(t *testing.T) {
	s, u := newTestServer(t)
	ctx := context.Background()
	s.Checker = storeChecker(s)
	start := time.Now().UTC().AddDate(1, 0, 0)
	src := "Create Sentinel later Using http://a.example/ Fetch 1 hour From " + start.Format("01/02/2006")
	sen := createChecked(t, s, u, src)
	sen.NextCheck = time.Date(start.Year(), start.Month(), start.Day(), 0, 0, 0, 0, time.UTC)
	if err := s.Store.UpdateSentinel(ctx, sen); err != nil {
		t.Fatal(err)
	}
	before := sen.NextCheck
	phase := "" // not checked yet: the monitor has no state for it
	s.SentinelStates = func(_ context.Context, _ []*vigil.Sentinel) (map[int64]SentinelState, error) {
		return map[int64]SentinelState{sen.ID: {Lifespan: phase}}, nil
	}
	c := newSignedIn(t, s, u)
	id := strconv.FormatInt(sen.ID, 10)
	wantMsg := "sentinel later has not started: it starts at " + start.Format("2006-01-02") + " 00:00:00 UTC; edit its From to check it before"
	for _, p := range []string{"", "pending"} {
		phase = p
		status, body := c.do("POST", "/api/v1/sentinels/"+id+"/check-now", "")
		if status != 409 || !strings.Contains(body, wantMsg) {
			t.Errorf("API check-now, lifespan %q: %d %s, want 409 %q", p, status, body, wantMsg)
		}
		status, body = c.do("POST", "/sentinels/"+id+"/check-now", "")
		if status != 409 || !strings.Contains(body, "has not started") {
			t.Errorf("dashboard check-now, lifespan %q: %d, want 409 saying it has not started", p, status)
		}
		if _, body := c.do("GET", "/sentinels/"+id, ""); strings.Contains(body, "/check-now") {
			t.Errorf("lifespan %q: the sentinel page offers Check now", p)
		}
	}
	if got, _ := s.Store.FindSentinelByID(ctx, sen.ID); !got.NextCheck.Equal(before) {
		t.Errorf("next check moved from %v to %v", before, got.NextCheck)
	}
	// Started, it is checked now.
	s.Now = func() time.Time { return start.AddDate(0, 0, 2) }
	phase = "active"
	if err := s.setStatus(ctx, u, sen, "check-now"); err != nil {
		t.Errorf("check-now of a started sentinel: %v", err)
	}
}

// TestEditReachesStoredUsers: an edit of a sentinel checks again the
// stored ones that use it without the URL rules added after they were
// stored: a user with a webhook on port 99999 or a site on port 70000,
// valid when it was stored, refused the edit ("sentinel links cannot be
// changed so: old, which uses it, would be invalid: ... port 99999 out
// of range"), though neither the edit nor that URL had anything to do
// with each other.
func TestEditReachesStoredUsers(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	ctx := context.Background()
	links, err := s.saveSentinel(ctx, u, &sentinelInput{Source: "Create Sentinel links Using http://a.example/one Fetch 1 day"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Stored as an earlier version stored it: checked with a port that
	// is valid, then written with the one it had.
	storeOld := func(name, src, port, old string) {
		t.Helper()
		c, err := s.checker(ctx, u, time.Now().UTC().Truncate(time.Second))
		if err != nil {
			t.Fatal(err)
		}
		sen, err := spec.ParseSentinel("", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		ch, err := c.Check(sen)
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(ch)
		if err != nil {
			t.Fatal(err)
		}
		out := &vigil.Sentinel{OwnerID: u.ID, Name: name, Source: strings.ReplaceAll(src, port, old),
			Spec: []byte(strings.ReplaceAll(string(data), port, old)), Status: vigil.SentinelActive, NextCheck: time.Now()}
		if err := s.Store.CreateSentinel(ctx, out); err != nil {
			t.Fatal(err)
		}
	}
	storeOld("old", `Create Sentinel old Using links Notify By webhook "http://h.example:9999/x"`, ":9999/", ":99999/")
	storeOld("oldsite", `Create Sentinel oldsite Using site http://b.example:7000/ depth 1 Every 1 day From start(links)`, ":7000/", ":70000/")
	if _, err := s.saveSentinel(ctx, u, &sentinelInput{Source: "Create Sentinel links Using http://a.example/two Fetch 1 day"}, links); err != nil {
		t.Fatalf("edit of links: %v", err)
	}
	all, _, err := s.Store.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID})
	if err != nil {
		t.Fatal(err)
	}
	for _, sen := range all {
		var c spec.Checked
		if err := json.Unmarshal(sen.Spec, &c); err != nil {
			t.Fatalf("%s: %v", sen.Name, err)
		}
		switch sen.Name {
		case "old":
			if !slices.Equal(c.URLs, []string{"http://a.example/two"}) {
				t.Errorf("old watches %v after the edit of links, want http://a.example/two", c.URLs)
			}
		case "oldsite":
			if c.Site == nil || c.Site.URL != "http://b.example:70000/" {
				t.Errorf("oldsite rechecked into site %+v, want its site kept", c.Site)
			}
		}
	}
}

// removedOnSave is a store that removes sentinel id as it is about to be
// saved: a sentinel using an edited one, removed between the edit's
// recheck of it and the edit's write.
type removedOnSave struct {
	vigil.Store
	id int64
}

func (s *removedOnSave) remove(ctx context.Context, list ...*vigil.Sentinel) {
	for _, sen := range list {
		if sen.ID == s.id {
			s.Store.DeleteSentinel(ctx, s.id)
		}
	}
}

func (s *removedOnSave) UpdateSentinel(ctx context.Context, sen *vigil.Sentinel) error {
	s.remove(ctx, sen)
	return s.Store.UpdateSentinel(ctx, sen)
}

func (s *removedOnSave) UpdateSentinels(ctx context.Context, list []*vigil.Sentinel) error {
	s.remove(ctx, list...)
	return s.Store.UpdateSentinels(ctx, list)
}

// TestEditSavedWithUsers: an edit and the sentinels using it that it
// checked again are saved together or not at all. A sentinel using it
// removed before it was saved (the last of the users) failed the edit
// after the edited one and the first user were saved: the first user
// watched the edit's page, the edited one too, and the edit was said to
// have failed. Now the failed write saves nothing, and the edit is
// checked again and saved with the users left (TestEditAsUserRemoved
// has users removed at every write, which refuses it).
func TestEditSavedWithUsers(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	ctx := context.Background()
	save := func(src string, replacing *vigil.Sentinel) (*vigil.Sentinel, error) {
		return s.saveSentinel(ctx, u, &sentinelInput{Source: src}, replacing)
	}
	links, err := save("Create Sentinel links Using http://a.example/one Monitor all links Fetch 1 day", nil)
	if err != nil {
		t.Fatal(err)
	}
	inh, err := save("Create Sentinel inh Using links Monitor keywords {x} Fetch 1 hour", nil)
	if err != nil {
		t.Fatal(err)
	}
	deeper, err := save("Create Sentinel deeper Using inh Monitor keywords {y}", nil)
	if err != nil {
		t.Fatal(err)
	}
	stored := s.Store
	s.Store = &removedOnSave{Store: stored, id: deeper.ID}
	if _, err := save("Create Sentinel links Using http://a.example/two Monitor all links Fetch 1 day", links); err != nil {
		t.Fatalf("edit as a user is removed: %v, want it saved with the users left", err)
	}
	if _, err := stored.FindSentinelByID(ctx, deeper.ID); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("deeper after the edit: %v; want it removed", err)
	}
	// The edit went through, its user left with it.
	if got, err := stored.FindSentinelByID(ctx, inh.ID); err != nil || bytes.Equal(got.Spec, inh.Spec) {
		t.Errorf("inh after the edit: %v; want its checked form changed", err)
	}
}

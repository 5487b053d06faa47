package web

// Unit tests of the web adapter's parts: the sanitiser, sessions, CSRF,
// the error table, the editor's segments and the plot. The API and the
// dashboard as a whole are tested end to end on the real daemon in
// cmd/vigil (web_test.go, web_browser_test.go).

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/spec"
)

func TestSanitizer(t *testing.T) {
	tests := map[string]struct {
		in   string
		want string   // kept
		not  []string // removed
	}{
		"script":         {`<p>a</p><script>alert(1)</script>`, `<p>a</p>`, []string{"script", "alert"}},
		"onerror":        {`<img src="http://x/a.png" onerror="alert(1)">`, `<img src="http://x/a.png"`, []string{"onerror"}},
		"javascript url": {`<a href="javascript:alert(1)">x</a>`, `x`, []string{"javascript"}},
		"mixed case url": {`<a href=" JaVaScRiPt:alert(1)">x</a>`, `x`, []string{"alert"}},
		"svg script":     {`<svg><script>alert(1)</script></svg>`, ``, []string{"script", "alert"}},
		"iframe":         {`<iframe src="http://evil/"></iframe>`, ``, []string{"iframe", "evil"}},
		"style":          {`<p style="background:url(http://evil/)">x</p><style>*{}</style>`, `<p>x</p>`, []string{"style", "evil"}},
		"form":           {`<form action="http://evil/"><input name=a></form>`, ``, []string{"form", "input"}},
		"meta refresh":   {`<meta http-equiv="refresh" content="0;url=http://evil/">`, ``, []string{"refresh"}},
		"title skipped":  {`<html><head><title>T</title></head><body><p>b</p></body></html>`, `<p>b</p>`, []string{"T<"}},
		"marks kept":     {`<p data-vigil="ins">new</p><ins data-vigil="upd">x</ins>`, `<p data-vigil="ins">new</p><ins data-vigil="upd">x</ins>`, nil},
		"http link kept": {`<a href="https://example.com/">e</a>`, `href="https://example.com/"`, nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			out := sanitizer.Sanitize(tc.in)
			if !strings.Contains(out, tc.want) {
				t.Errorf("%q lost %q: %q", tc.in, tc.want, out)
			}
			for _, n := range tc.not {
				if strings.Contains(strings.ToLower(out), strings.ToLower(n)) {
					t.Errorf("%q kept %q: %q", tc.in, n, out)
				}
			}
		})
	}
}

func TestErrorTable(t *testing.T) {
	for code, status := range map[string]int{vigil.EINVALID: 400, vigil.EUNAUTHORIZED: 401, vigil.EFORBIDDEN: 403, vigil.ETOOLARGE: 413, vigil.EMETHOD: 405, vigil.ENOTFOUND: 404,
		vigil.ECONFLICT: 409, vigil.ENOTIMPLEMENTED: 501, vigil.EUNAVAILABLE: 503, vigil.EUNSUPPORTEDMEDIA: 415, vigil.EPRECONDITION: 412, vigil.EINTERNAL: 500, "EOTHER": 500} {
		if got := errorStatus(code); got != status {
			t.Errorf("%s: %d, want %d", code, got, status)
		}
	}
	s := &Server{}
	w := httptest.NewRecorder()
	s.writeError(w, httptest.NewRequest("GET", "/", nil), errorsNew("database password is hunter2"))
	if w.Code != 500 || strings.Contains(w.Body.String(), "hunter2") || !strings.Contains(w.Body.String(), `"code": "EINTERNAL"`) {
		t.Errorf("internal error answer: %d %s", w.Code, w.Body)
	}
	// A store busy with another writer: 503, and when to ask again.
	w = httptest.NewRecorder()
	s.writeError(w, httptest.NewRequest("POST", "/api/v1/sentinels", nil), vigil.Errorf(vigil.EUNAVAILABLE, "the store is busy"))
	if w.Code != 503 || w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), `"code": "EUNAVAILABLE"`) {
		t.Errorf("busy answer: %d, Retry-After %q, %s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
}

type plainError string

func (e plainError) Error() string { return string(e) }
func errorsNew(s string) error     { return plainError(s) }

func TestSegments(t *testing.T) {
	src := "Create Sentinel s\nMonitor any chnge\n"
	d := []Diagnostic{{Line: 2, Column: 13, Offset: 30, End: 35, Message: "bad"}}
	segs := segments(src, d)
	var b strings.Builder
	for _, s := range segs {
		if s.Msg != "" {
			b.WriteString("[" + s.Text + "]")
		} else {
			b.WriteString(s.Text)
		}
	}
	if b.String() != "Create Sentinel s\nMonitor any [chnge]\n" {
		t.Errorf("segments: %q", b.String())
	}
	// A range ending inside a character takes the whole character: the
	// page held half of it, invalid UTF-8.
	segs = segments("any\u00a0x", []Diagnostic{{Line: 1, Column: 4, Offset: 3, End: 4, Message: "here"}})
	if len(segs) != 3 || segs[1].Text != "\u00a0" || segs[2].Text != "x" {
		t.Errorf("segments in a character: %+v", segs)
	}
	// A problem at the end of the text still shows.
	segs = segments("abc", []Diagnostic{{Line: 1, Column: 4, Offset: 3, End: 3, Message: "eof"}})
	if len(segs) < 2 || segs[1].Msg != "eof" || segs[1].Text == "" {
		t.Errorf("segments at the end: %+v", segs)
	}
}

// TestDiagnosticsTooMany: the live check goes through spec's cap: a
// source full of mistakes gives MaxErrors diagnostics and "too many
// errors" at the first left out, each marking a byte of the source, and a
// binary one gives one diagnostic at its NUL.
func TestDiagnosticsTooMany(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      int
		last      string
	}{
		{"mistakes", "Create Sentinel s Using http://a.example\n" + strings.Repeat("Monitor any chnge\n", 500), spec.MaxErrors + 1, "too many errors"},
		{"binary", "Create \x00\x01\x00" + strings.Repeat("\xff$\n", 500), 1, "not text: byte 0x00 (a sentinel file is UTF-8 text)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := spec.ParseSentinel("", []byte(tc.src))
			d := diagnostics(err, tc.src)
			if len(d) != tc.want || d[len(d)-1].Message != tc.last {
				t.Fatalf("%d diagnostics, want %d ending with %q: %+v", len(d), tc.want, tc.last, d)
			}
			last := d[len(d)-1]
			if last.Line == 0 || last.Offset < 0 || last.End <= last.Offset || last.End > len(tc.src) {
				t.Errorf("last diagnostic's range %d-%d outside the source", last.Offset, last.End)
			}
			if sum := diagSummary(d); tc.want > 1 && !strings.HasSuffix(sum, fmt.Sprintf("(and more than %d others)", spec.MaxErrors-1)) {
				t.Errorf("summary of a cut list: %q", sum)
			}
			marked := 0
			for _, s := range segments(tc.src, d) {
				if s.Msg != "" {
					marked++
				}
			}
			if marked != tc.want {
				t.Errorf("%d segments marked, want %d", marked, tc.want)
			}
		})
	}
}

func TestPlot(t *testing.T) {
	now := time.Date(2026, 1, 31, 12, 0, 0, 0, time.UTC)
	var vs []*vigil.Version
	for i := range 10 {
		v := &vigil.Version{Seq: int64(i + 1), FetchedAt: now.Add(-time.Duration(10-i) * 24 * time.Hour)}
		if i == 4 {
			v.Error = "timeout"
		}
		vs = append(vs, v)
	}
	p := changePlot(vs, nil, now, nil)
	if p.Empty || len(p.Bars) == 0 || len(p.Bars) > plotBins || p.Max != 1 || p.Period != "day" {
		t.Fatalf("plot: %+v", p)
	}
	total, errs := 0, 0
	for _, b := range p.Bars {
		total += b.Count
		errs += b.Errors
		if b.Y+b.H != float64(p.Bottom) || b.X < 30 || b.X+b.W > float64(p.Width) {
			t.Errorf("bar out of the plot: %+v", b)
		}
	}
	if total != 8 || errs != 1 {
		t.Errorf("counted %d versions and %d errors, want 8 and 1", total, errs)
	}
	if want := "Change frequency: 8 new versions from 2026-01-21 00:00 UTC to 2026-02-01 00:00 UTC, per day, at most 1 a day."; p.Label != want {
		t.Errorf("label %q, want %q", p.Label, want)
	}
	if want := "2026-01-22 00:00 UTC: 1 new version, 0 changes reported, 0 failed fetches"; p.Bars[1].Title != want {
		t.Errorf("bar title %q, want %q", p.Bars[1].Title, want)
	}
	if want := "2026-01-25 00:00 UTC: 0 new versions, 0 changes reported, 1 failed fetch"; p.Bars[4].Title != want {
		t.Errorf("bar title %q, want %q", p.Bars[4].Title, want)
	}
	short := changePlot([]*vigil.Version{{Seq: 1, FetchedAt: now.Add(-time.Hour)}, {Seq: 2, FetchedAt: now.Add(-time.Minute)}},
		[]*vigil.Change{{DetectedAt: now.Add(-time.Minute)}}, now, nil)
	if short.Period != "5 minutes" || !strings.Contains(short.Label, "per 5 minutes, at most 1 in 5 minutes.") {
		t.Errorf("period %q, label %q", short.Period, short.Label)
	}
	// In Tokyo a day's bar starts at Tokyo's midnight, 15:00 UTC.
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	if p := changePlot(vs, nil, now, tokyo); !strings.HasPrefix(p.Label, "Change frequency: 8 new versions from 2026-01-21 00:00 JST to 2026-02-01 00:00 JST, per day") ||
		!strings.HasPrefix(p.Bars[1].Title, "2026-01-22 00:00 JST: ") {
		t.Errorf("in Tokyo: label %q, second bar %q", p.Label, p.Bars[1].Title)
	}
	if e := changePlot(nil, nil, now, nil); !e.Empty {
		t.Errorf("no versions: %+v", e)
	}
}

func TestPassword(t *testing.T) {
	h, err := HashPassword("s3cret")
	if err != nil {
		t.Fatal(err)
	}
	if !CheckPassword(h, "s3cret") || CheckPassword(h, "s3cres") || CheckPassword("", "") || CheckPassword("plain", "plain") {
		t.Error("CheckPassword")
	}
}

// newTestServer is a Server over a fresh SQLite store with one admin.
func newTestServer(t testing.TB) (*Server, *vigil.User) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := EnsureAdmin(context.Background(), st, "Admin@Example.com", "pw"); err != nil {
		t.Fatal(err)
	}
	u, err := st.FindUserByEmail(context.Background(), "admin@example.com")
	if err != nil {
		t.Fatal(err)
	}
	return &Server{Store: st, Secret: []byte(strings.Repeat("k", 32))}, u
}

// TestEnsureAdmin: the admin account is made, an administrator, and
// made one, only when no administrator can sign in; a configured
// password is set on it whatever its role, a generated one only on an
// administrator's account without one.
func TestEnsureAdmin(t *testing.T) {
	s, u := newTestServer(t)
	ctx := context.Background()
	if g, err := EnsureAdmin(ctx, s.Store, "admin@example.com", ""); err != nil || g != "" {
		t.Errorf("second start without a password: %q %v", g, err)
	}
	if g, err := EnsureAdmin(ctx, s.Store, "admin@example.com", "new"); err != nil || g != "" {
		t.Errorf("configured password: %q %v", g, err)
	}
	u2, _ := s.Store.FindUserByID(ctx, u.ID)
	if !CheckPassword(u2.PasswordHash, "new") {
		t.Error("the configured password was not set")
	}
	for _, tc := range []struct {
		name  string
		users []vigil.User // the store's, besides the account
		// account is the account before the start (nil: none).
		account  *vigil.User
		password string // configured
		// The start's error code, and the account after it (nil: none),
		// and whether a password was generated.
		code      string
		wantAdmin bool
		made      bool
		generated bool
	}{
		{name: "empty store", code: "", wantAdmin: true, made: true, generated: true},
		{name: "empty store, configured", password: "pw", wantAdmin: true, made: true},
		{name: "removed beside an administrator", users: []vigil.User{{Email: "dave@example.com", PasswordHash: "h", Admin: true}},
			password: "pw", code: vigil.ENOTFOUND},
		{name: "removed, administrators who cannot sign in", users: []vigil.User{{Email: "dave@example.com", Admin: true}, {Email: "eve@example.com", PasswordHash: "h"}},
			code: "", wantAdmin: true, made: true, generated: true},
		{name: "revoked beside an administrator", users: []vigil.User{{Email: "dave@example.com", PasswordHash: "h", Admin: true}},
			account: &vigil.User{PasswordHash: "h"}, wantAdmin: false, made: true},
		{name: "revoked, without a password, beside an administrator", users: []vigil.User{{Email: "dave@example.com", PasswordHash: "h", Admin: true}},
			account: &vigil.User{}, wantAdmin: false, made: true},
		{name: "revoked, configured, beside an administrator", users: []vigil.User{{Email: "dave@example.com", PasswordHash: "h", Admin: true}},
			account: &vigil.User{}, password: "pw", wantAdmin: false, made: true},
		{name: "revoked, nobody an administrator", users: []vigil.User{{Email: "eve@example.com", PasswordHash: "h"}},
			account: &vigil.User{PasswordHash: "h"}, wantAdmin: true, made: true},
		{name: "an administrator without a password", users: []vigil.User{{Email: "dave@example.com", PasswordHash: "h", Admin: true}},
			account: &vigil.User{Admin: true}, wantAdmin: true, made: true, generated: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := sqlite.Open(ctx, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			for _, o := range tc.users {
				o.Name = "n"
				if err := st.CreateUser(ctx, &o); err != nil {
					t.Fatal(err)
				}
			}
			if tc.account != nil {
				a := *tc.account
				a.Email, a.Name = "ops@example.com", "ops"
				if err := st.CreateUser(ctx, &a); err != nil {
					t.Fatal(err)
				}
			}
			g, err := EnsureAdmin(ctx, st, " Ops@Example.com", tc.password)
			if vigil.ErrorCode(err) != tc.code {
				t.Fatalf("start: %v; want code %q", err, tc.code)
			}
			if (g != "") != tc.generated {
				t.Errorf("generated password %q; want one %v", g, tc.generated)
			}
			if want, _ := GeneratePassword(); tc.generated && len(g) != len(want) {
				// One generator for every password shown once: the
				// first start's was 20 characters, user add's 24.
				t.Errorf("generated password %q: %d characters, want %d as GeneratePassword's", g, len(g), len(want))
			}
			got, err := st.FindUserByEmail(ctx, "ops@example.com")
			if !tc.made {
				if vigil.ErrorCode(err) != vigil.ENOTFOUND {
					t.Errorf("the account: %+v %v; want none", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Admin != tc.wantAdmin {
				t.Errorf("the account's role: %v; want %v", got.Admin, tc.wantAdmin)
			}
			switch {
			case tc.password != "" && !CheckPassword(got.PasswordHash, tc.password):
				t.Error("the configured password was not set")
			case tc.generated && !CheckPassword(got.PasswordHash, g):
				t.Error("the generated password was not set")
			case tc.password == "" && !tc.generated && tc.account != nil && got.PasswordHash != tc.account.PasswordHash:
				t.Errorf("the account's password changed to %q", got.PasswordHash)
			}
		})
	}
}

// b64Alphabet is the alphabet of base64.RawURLEncoding, in order.
const b64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

func TestSessions(t *testing.T) {
	s, u := newTestServer(t)
	now := time.Now()
	s.Now = func() time.Time { return now }
	value, err := s.newSessionCookie(u)
	if err != nil {
		t.Fatal(err)
	}
	req := func(v string) *http.Request {
		r := httptest.NewRequest("GET", "/", nil)
		r.AddCookie(&http.Cookie{Name: sessionCookie, Value: v})
		return r
	}
	sess, err := s.readSession(req(value))
	if err != nil || sess.User.ID != u.ID || sess.csrf == "" {
		t.Fatalf("valid session: %v", err)
	}
	payload, sig, _ := strings.Cut(value, ".")
	for name, v := range map[string]string{
		"no signature":    payload,
		"other signature": payload + "." + strings.Repeat("A", len(sig)),
		"garbage":         "x.y",
		"swapped payload": strings.Repeat("A", len(payload)) + "." + sig,
		// The last character of a 32-byte signature carries two bits
		// that decoding ignores: set, they spell the same bytes in a
		// second form, which a strict decoder refuses.
		"same signature, other spelling": payload + "." + sig[:len(sig)-1] + string(b64Alphabet[strings.IndexByte(b64Alphabet, sig[len(sig)-1])|1]),
		"another's secret": func() string {
			o := *s
			o.Secret = []byte(strings.Repeat("x", 32))
			v, _ := o.newSessionCookie(u)
			return v
		}(),
	} {
		if _, err := s.readSession(req(v)); vigil.ErrorCode(err) != vigil.EUNAUTHORIZED {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Expired.
	now = now.Add(sessionTTL + time.Second)
	if _, err := s.readSession(req(value)); vigil.ErrorCode(err) != vigil.EUNAUTHORIZED {
		t.Errorf("expired session: %v", err)
	}
	now = now.Add(-sessionTTL)
	// A password change ends the session.
	hash, _ := HashPassword("changed")
	if err := s.Store.SetUserPassword(context.Background(), u.ID, hash); err != nil {
		t.Fatal(err)
	}
	if _, err := s.readSession(req(value)); vigil.ErrorCode(err) != vigil.EUNAUTHORIZED {
		t.Errorf("session after a password change: %v", err)
	}
}

func TestCSRF(t *testing.T) {
	s, u := newTestServer(t)
	value, _ := s.newSessionCookie(u)
	r := httptest.NewRequest("GET", "/", nil)
	r.AddCookie(&http.Cookie{Name: sessionCookie, Value: value})
	sess, err := s.readSession(r)
	if err != nil {
		t.Fatal(err)
	}
	post := func(form url.Values, header string) *http.Request {
		r := httptest.NewRequest("POST", "/sentinels", strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if header != "" {
			r.Header.Set(csrfHeader, header)
		}
		return r
	}
	if err := s.checkCSRF(post(url.Values{csrfField: {sess.csrf}}, ""), sess); err != nil {
		t.Errorf("form token: %v", err)
	}
	if err := s.checkCSRF(post(nil, sess.csrf), sess); err != nil {
		t.Errorf("header token: %v", err)
	}
	for name, r := range map[string]*http.Request{
		"none":   post(nil, ""),
		"forged": post(url.Values{csrfField: {"forged"}}, ""),
		"other session's": func() *http.Request {
			v2, _ := s.newSessionCookie(u)
			r := httptest.NewRequest("GET", "/", nil)
			r.AddCookie(&http.Cookie{Name: sessionCookie, Value: v2})
			s2, _ := s.readSession(r)
			return post(url.Values{csrfField: {s2.csrf}}, "")
		}(),
	} {
		if err := s.checkCSRF(r, sess); err == nil {
			t.Errorf("%s CSRF token accepted", name)
		}
	}
	// A bearer token needs none.
	if err := s.checkCSRF(post(nil, ""), &session{User: u}); err != nil {
		t.Errorf("token request: %v", err)
	}
}

func TestSafeNext(t *testing.T) {
	for in, want := range map[string]string{"/sentinels": "/sentinels", "//evil.com/": "", "https://evil.com/": "",
		"/\\evil.com": "", "": "", "/login": "", "/\t/evil.example/": "", "/\n/evil.example/": "", "/%09/evil.example/": "/%09/evil.example/",
		"/sentinels?x=1#y": "/sentinels?x=1#y", "/a\\b": "", "javascript:alert(1)": "", "/\x7f/evil.example": ""} {
		if got := safeNext(in); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTemplatesRender(t *testing.T) {
	s, u := newTestServer(t)
	for name, data := range map[string]any{
		"login":     loginData{},
		"error":     "boom",
		"sentinels": &sentinelsData{Pager: &pager{Limit: 100}},
		"sentinel":  &editorData{Source: "x", Segments: segments("x", nil)},
		"resources": &resourcesData{Resources: []*listedResource{{Resource: &vigil.Resource{ID: 2, URL: "http://a/b"}, Sites: []*vigil.Sentinel{{ID: 1, Name: "s"}}}},
			Pager: &pager{Limit: 200, Total: 1, Shown: 1}},
		"notifications": &notificationsData{Pager: &pager{Limit: 50}},
		"resource":      &historyData{Resource: &vigil.Resource{ID: 1, URL: "http://a/"}, Plot: changePlot(nil, nil, time.Now(), nil), Pager: &pager{Limit: timelinePage}},
		"diff":          &diffData{Resource: &vigil.Resource{ID: 1}, From: &vigil.Version{ID: 1}, To: &vigil.Version{ID: 2}, View: "records"},
		"tokens":        &tokensData{},
		"sitechange": &siteChangeData{Change: &vigil.Change{Summary: "site http://a/: 1 page added"}, Sentinel: &vigil.Sentinel{ID: 1, Name: "s"},
			Pages: []sitePageRow{{Op: "added", Page: &intent.PageInfo{URL: "http://a/b", Title: "B"}, History: "/resources/2"}}, More: 3},
	} {
		w := httptest.NewRecorder()
		s.render(w, httptest.NewRequest("GET", "/", nil), 200, name, &view{Title: name, User: u, CSRF: "c", Data: data})
		if w.Code != 200 || !strings.Contains(w.Body.String(), "</html>") {
			t.Errorf("%s: %d\n%s", name, w.Code, w.Body)
		}
	}
}

// TestPagingParams: offset, limit and order are held to what the OpenAPI
// description says (limit=0 was taken as 50, order=sideways as asc).
func TestPagingParams(t *testing.T) {
	for _, tc := range []struct {
		query string
		ok    bool
		want  page
		desc  bool
	}{
		{"", true, page{0, 50}, false},
		{"offset=3&limit=1&order=desc", true, page{3, 1}, true},
		{"limit=500&order=asc", true, page{0, 500}, false},
		{"limit=0", false, page{}, false},
		{"limit=501", false, page{}, false},
		{"offset=-1", false, page{}, false},
		{"offset=1073741825", false, page{}, false},
		{"order=sideways", false, page{}, false},
	} {
		r := httptest.NewRequest("GET", "/api/v1/resources/1/versions?"+tc.query, nil)
		p, err := paging(r)
		desc, oerr := orderParam(r)
		if err == nil {
			err = oerr
		}
		if (err == nil) != tc.ok || tc.ok && (p != tc.want || desc != tc.desc) {
			t.Errorf("%q: %+v desc %v, %v; want %+v desc %v, ok %v", tc.query, p, desc, err, tc.want, tc.desc, tc.ok)
		}
	}
}

// TestTimeElements: a time element's datetime attribute is a valid HTML
// date-time (RFC 3339), and a time that never was has none; it held the
// displayed "2006-01-02 15:04:05 UTC", or "—" for a sentinel never checked.
func TestTimeElements(t *testing.T) {
	s, u := newTestServer(t)
	checked := time.Date(2026, 11, 29, 9, 3, 18, 0, time.UTC)
	rows := []*sentinelRow{
		{Sentinel: &vigil.Sentinel{ID: 1, Name: "checked", Status: vigil.SentinelActive, LastCheck: checked, NextCheck: checked.Add(time.Hour)}},
		{Sentinel: &vigil.Sentinel{ID: 2, Name: "new", Status: vigil.SentinelActive, NextCheck: checked}},
	}
	w := httptest.NewRecorder()
	s.render(w, httptest.NewRequest("GET", "/sentinels", nil), 200, "sentinels", &view{Title: "Sentinels", User: u, CSRF: "c", Data: &sentinelsData{Rows: rows, Pager: &pager{Limit: 100, Total: 2, Shown: 2}}})
	body := w.Body.String()
	attrs := regexp.MustCompile(`<time[^>]*datetime="([^"]*)"`).FindAllStringSubmatch(body, -1)
	if len(attrs) == 0 {
		t.Fatalf("no datetime attribute:\n%s", body)
	}
	var got []string
	for _, a := range attrs {
		if _, err := time.Parse(time.RFC3339, a[1]); err != nil {
			t.Errorf("datetime %q is not RFC 3339", a[1])
		}
		got = append(got, a[1])
	}
	want := []string{"2026-11-29T09:03:18Z", "2026-11-29T10:03:18Z", "2026-11-29T09:03:18Z"}
	if !slices.Equal(got, want) {
		t.Errorf("datetimes %q, want %q", got, want)
	}
}

package main

// End-to-end tests of the REST API and the dashboard's security rules on
// the real binary (vigil serve on :0 with a temporary data directory),
// watching a local web site.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/web"
)

const testAdminPassword = "correct horse battery staple"

// webDaemon is a running vigil serve with the admin's password known.
type webDaemon struct {
	*daemonProc
	base string
	dir  string // its data directory
}

func startWebDaemon(t *testing.T, extra ...string) *webDaemon {
	t.Helper()
	t.Setenv("VIGIL_ADMIN_PASSWORD", testAdminPassword)
	t.Setenv("VIGIL_ADMIN_EMAIL", "")
	t.Setenv("VIGIL_METRICS_PUBLIC", "")
	args := append([]string{"--allow-private-networks", "--ignore-robots", "--host-delay", "10ms", "--poll", "100ms"}, extra...)
	dir := t.TempDir()
	d := startDaemon(t, dir, args...)
	return &webDaemon{daemonProc: d, base: "http://" + d.addr, dir: dir}
}

// addUser adds a user with a password and an API token to the daemon's
// store, beside the running daemon, and returns the token.
func (d *webDaemon) addUser(t *testing.T, email, password string) string {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, d.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	hash, err := web.HashPassword(password)
	if err != nil {
		t.Fatal(err)
	}
	u := &vigil.User{Email: email, Name: "other", PasswordHash: hash}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	secret := "vgl_" + strings.Repeat("x", 40) + strconv.FormatInt(u.ID, 10)
	if err := st.CreateToken(ctx, &vigil.Token{UserID: u.ID, Name: "test", Hash: vigil.HashToken(secret)}); err != nil {
		t.Fatal(err)
	}
	return secret
}

// apiClient calls the API with a bearer token (or none).
type apiClient struct {
	t     *testing.T
	base  string
	token string
}

type apiAnswer struct {
	status int
	header http.Header
	body   []byte
}

func (a *apiAnswer) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(a.body, v); err != nil {
		t.Fatalf("decode %s: %v", a.body, err)
	}
}

// errorCode returns the code of an error answer.
func (a *apiAnswer) errorCode(t *testing.T) string {
	t.Helper()
	var e struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	a.json(t, &e)
	if e.Error.Message == "" {
		t.Errorf("error without a message: %s", a.body)
	}
	return e.Error.Code
}

func (c *apiClient) do(method, path string, body any) *apiAnswer {
	c.t.Helper()
	var r io.Reader
	if raw, ok := body.(rawJSON); ok {
		r = strings.NewReader(string(raw))
	} else if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, r)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return &apiAnswer{status: resp.StatusCode, header: resp.Header, body: b}
}

// rawJSON is a request body sent as it is, not encoded.
type rawJSON string

func (c *apiClient) want(status int, method, path string, body any) *apiAnswer {
	c.t.Helper()
	a := c.do(method, path, body)
	if a.status != status {
		c.t.Fatalf("%s %s: status %d, want %d: %s", method, path, a.status, status, a.body)
	}
	return a
}

// browserSession signs in through the dashboard's form with a cookie jar,
// as a browser does.
type browserSession struct {
	t      *testing.T
	base   string
	client *http.Client
}

var csrfMeta = regexp.MustCompile(`name="csrf(?:-token)?" (?:content|value)="([^"]+)"`)

func signIn(t *testing.T, base, password string) (*browserSession, int) {
	t.Helper()
	return signInAs(t, base, "admin@localhost", password)
}

// signInAs signs in through the form as the user with the email.
func signInAs(t *testing.T, base, email, password string) (*browserSession, int) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	s := &browserSession{t: t, base: base, client: &http.Client{Jar: jar}}
	page := s.get("/login")
	m := csrfMeta.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no CSRF token in the sign-in form:\n%s", page)
	}
	noFollow := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.PostForm(base+"/login", url.Values{"csrf": {m[1]}, "email": {email}, "password": {password}})
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return s, resp.StatusCode
}

func (s *browserSession) get(path string) string {
	s.t.Helper()
	resp, err := s.client.Get(s.base + path)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// status returns the status of a GET of a dashboard page.
func (s *browserSession) status(path string) int {
	s.t.Helper()
	resp, err := s.client.Get(s.base + path)
	if err != nil {
		s.t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// csrf returns the CSRF token of a dashboard page.
func (s *browserSession) csrf() string {
	s.t.Helper()
	m := csrfMeta.FindStringSubmatch(s.get("/sentinels"))
	if m == nil {
		s.t.Fatal("no CSRF token on /sentinels")
	}
	return m[1]
}

func (s *browserSession) post(path string, form url.Values) (int, string) {
	s.t.Helper()
	resp, err := s.client.PostForm(s.base+path, form)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

var tokenPattern = regexp.MustCompile(`vgl_[A-Za-z0-9_-]{20,}`)

// newToken creates an API token through the dashboard: the form
// redirects to the Tokens page, which shows it.
func (s *browserSession) newToken(name string) string {
	s.t.Helper()
	status, page := s.post("/tokens", url.Values{"csrf": {s.csrf()}, "name": {name}, "days": {"30"}})
	tok := tokenPattern.FindString(page)
	if status != http.StatusOK || tok == "" {
		s.t.Fatalf("create token: status %d\n%s", status, page)
	}
	return tok
}

// waitChange waits until sentinel id has reported n changes and returns
// them, newest first.
func waitChanges(t *testing.T, c *apiClient, id int64, n int) []map[string]any {
	t.Helper()
	var list struct {
		Items []map[string]any `json:"items"`
	}
	waitFor(t, 60*time.Second, fmt.Sprintf("%d changes of sentinel %d", n, id), func() bool {
		c.want(200, "GET", fmt.Sprintf("/api/v1/sentinels/%d/changes", id), nil).json(t, &list)
		return len(list.Items) >= n
	})
	return list.Items
}

func waitVersions(t *testing.T, c *apiClient, n int) (resourceID int64, versions []map[string]any) {
	t.Helper()
	waitFor(t, 60*time.Second, fmt.Sprintf("%d versions", n), func() bool {
		var res struct {
			Items []struct {
				ID int64 `json:"id"`
			} `json:"items"`
		}
		c.want(200, "GET", "/api/v1/resources", nil).json(t, &res)
		if len(res.Items) == 0 {
			return false
		}
		resourceID = res.Items[0].ID
		var vs struct {
			Items []map[string]any `json:"items"`
		}
		c.want(200, "GET", fmt.Sprintf("/api/v1/resources/%d/versions", resourceID), nil).json(t, &vs)
		versions = vs.Items
		return len(vs.Items) >= n
	})
	return resourceID, versions
}

func TestWebAPI(t *testing.T) {
	site := newSite(t)
	site.set("/news", `<html><head><title>News</title></head><body><h1>News</h1><p>The bridge opened.</p></body></html>`)
	d := startWebDaemon(t)

	sess, status := signIn(t, d.base, testAdminPassword)
	if status != http.StatusSeeOther {
		t.Fatalf("sign in: status %d", status)
	}
	if _, status := signIn(t, d.base, "wrong"); status != http.StatusUnauthorized {
		t.Errorf("sign in with a wrong password: status %d, want 401", status)
	}
	c := &apiClient{t: t, base: d.base, token: sess.newToken("api test")}

	// Errors are {"error": {"code", "message"}} with the table's status.
	if code := c.want(400, "POST", "/api/v1/sentinels", map[string]string{}).errorCode(t); code != "EINVALID" {
		t.Errorf("empty sentinel: code %s", code)
	}
	if code := c.want(404, "GET", "/api/v1/sentinels/999", nil).errorCode(t); code != "ENOTFOUND" {
		t.Errorf("unknown sentinel: code %s", code)
	}
	if code := c.want(400, "GET", "/api/v1/sentinels/abc", nil).errorCode(t); code != "EINVALID" {
		t.Errorf("bad id: code %s", code)
	}
	if code := c.want(404, "GET", "/api/v1/nothing", nil).errorCode(t); code != "ENOTFOUND" {
		t.Errorf("unknown route: code %s", code)
	}
	// A route the API has, with a method it does not: 405, and which.
	if a := c.want(405, "PATCH", "/api/v1/sentinels/1", nil); a.errorCode(t) != "EMETHOD" || a.header.Get("Allow") != "GET, PUT, DELETE" {
		t.Errorf("PATCH a sentinel: code %s, Allow %q", a.errorCode(t), a.header.Get("Allow"))
	}
	// A JSON body is one object: what follows it is refused, not ignored.
	if code := c.want(400, "POST", "/api/v1/sentinels/check", rawJSON(`{"source":"x"} {"source":"y"}`)).errorCode(t); code != "EINVALID" {
		t.Errorf("two JSON objects: code %s", code)
	}
	bad := (&apiClient{t: t, base: d.base, token: "vgl_not_a_token"}).want(401, "GET", "/api/v1/sentinels", nil)
	if bad.errorCode(t) != "EUNAUTHORIZED" || bad.header.Get("WWW-Authenticate") == "" {
		t.Errorf("bad token: %s %v", bad.body, bad.header)
	}

	// A sentinel with an error: the diagnostics carry the position.
	src := "Create Sentinel news\nUsing " + site.srv.URL + "/news\nMonitor any chnge\nFetch 1 minute\n"
	a := c.want(400, "POST", "/api/v1/sentinels", map[string]string{"source": src})
	var e struct {
		Error struct {
			Code        string `json:"code"`
			Diagnostics []struct {
				Line, Column, Offset, End int
				Message                   string
			} `json:"diagnostics"`
		} `json:"error"`
	}
	a.json(t, &e)
	if e.Error.Code != "EINVALID" || len(e.Error.Diagnostics) == 0 || e.Error.Diagnostics[0].Line != 3 || e.Error.Diagnostics[0].Column != 13 {
		t.Fatalf("diagnostics: %s", a.body)
	}
	if d0 := e.Error.Diagnostics[0]; src[d0.Offset:d0.End] != "chnge" {
		t.Errorf("diagnostic range %d-%d is %q", d0.Offset, d0.End, src[d0.Offset:d0.End])
	}
	var check struct {
		Valid  bool
		Errors []map[string]any
	}
	c.want(200, "POST", "/api/v1/sentinels/check", map[string]string{"source": src}).json(t, &check)
	if check.Valid || len(check.Errors) != 1 {
		t.Errorf("live check of a bad sentinel: %+v", check)
	}
	// Without an SMTP relay, an email contact is valid but warned of.
	var warned struct {
		Valid    bool
		Warnings []struct{ Message string }
	}
	mail := "Create Sentinel m\nUsing " + site.srv.URL + "/news\nNotify By email news@example.com\n"
	c.want(200, "POST", "/api/v1/sentinels/check", map[string]string{"source": mail}).json(t, &warned)
	if !warned.Valid || len(warned.Warnings) != 1 || !strings.Contains(warned.Warnings[0].Message, "no SMTP relay") {
		t.Errorf("email contact without SMTP: %+v", warned)
	}
	// A Fetch shorter than the daemon's --min-interval (a minute by
	// default) is valid but warned of, with the interval it gets.
	fast := "Create Sentinel f\nUsing " + site.srv.URL + "/news\nFetch 1 second\n"
	warned.Warnings = nil
	c.want(200, "POST", "/api/v1/sentinels/check", map[string]string{"source": fast}).json(t, &warned)
	if want := "Fetch 1 second: this server checks at most every 1 minute (--min-interval)"; !warned.Valid || len(warned.Warnings) != 1 || warned.Warnings[0].Message != want {
		t.Errorf("Fetch 1 second: %+v, want the warning %q", warned, want)
	}

	// Create, read, list.
	src = strings.Replace(src, "chnge", "change", 1)
	var sen struct {
		ID     int64  `json:"id"`
		Name   string `json:"name"`
		Status string `json:"status"`
		Feed   string `json:"feed"`
	}
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": src}).json(t, &sen)
	if sen.Name != "news" || sen.Status != "active" || !strings.HasPrefix(sen.Feed, "/feeds/") {
		t.Fatalf("created: %+v", sen)
	}
	// A name taken is a conflict with the sentinel that has it.
	if code := c.want(409, "POST", "/api/v1/sentinels", map[string]string{"source": src}).errorCode(t); code != "ECONFLICT" {
		t.Errorf("duplicate name: code %s", code)
	}
	// The JSON form.
	var js struct{ ID int64 }
	form := map[string]any{"sentinel": map[string]any{"name": "news2", "using": map[string]string{"url": site.srv.URL + "/news"},
		"monitor": map[string]any{"kind": "any change"}, "fetch": map[string]string{"interval": "1 hour"}}}
	c.want(201, "POST", "/api/v1/sentinels", form).json(t, &js)
	// A sentinel another uses is neither removed nor renamed.
	var child struct{ ID int64 }
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": "Create Sentinel news3 Using news2 Fetch 1 day"}).json(t, &child)
	if a := c.want(409, "DELETE", fmt.Sprintf("/api/v1/sentinels/%d", js.ID), nil); !strings.Contains(string(a.body), "used by news3") {
		t.Errorf("delete of a used sentinel: %s", a.body)
	}
	renamed := "Create Sentinel news2b Using " + site.srv.URL + "/news Fetch 1 hour"
	if a := c.want(409, "PUT", fmt.Sprintf("/api/v1/sentinels/%d", js.ID), map[string]string{"source": renamed}); !strings.Contains(string(a.body), "used by news3") {
		t.Errorf("rename of a used sentinel: %s", a.body)
	}
	c.want(204, "DELETE", fmt.Sprintf("/api/v1/sentinels/%d", child.ID), nil)
	c.want(204, "DELETE", fmt.Sprintf("/api/v1/sentinels/%d", js.ID), nil)
	c.want(404, "GET", fmt.Sprintf("/api/v1/sentinels/%d", js.ID), nil)

	path := fmt.Sprintf("/api/v1/sentinels/%d", sen.ID)
	c.want(200, "GET", path, nil).json(t, &sen)
	var list struct {
		Items []map[string]any `json:"items"`
		Total int              `json:"total"`
	}
	c.want(200, "GET", "/api/v1/sentinels", nil).json(t, &list)
	if list.Total != 1 {
		t.Errorf("list: %+v", list)
	}

	// Update: the new text is checked as an edit of the same sentinel.
	var upd struct{ Source string }
	c.want(200, "PUT", path, map[string]string{"source": strings.Replace(src, "1 minute", "2 minute", 1)}).json(t, &upd)
	if !strings.Contains(upd.Source, "2 minutes") {
		t.Errorf("updated source: %q", upd.Source)
	}
	if code := c.want(400, "PUT", path, map[string]string{"source": "Create Sentinel news Using"}).errorCode(t); code != "EINVALID" {
		t.Errorf("bad update: %s", code)
	}
	c.want(200, "PUT", path, map[string]string{"source": src})

	// Pause, check now refused, resume.
	c.want(200, "POST", path+"/pause", nil).json(t, &sen)
	if sen.Status != "paused" {
		t.Errorf("paused: %+v", sen)
	}
	if code := c.want(409, "POST", path+"/check-now", nil).errorCode(t); code != "ECONFLICT" {
		t.Errorf("check now while paused: %s", code)
	}
	c.want(200, "POST", path+"/resume", nil).json(t, &sen)
	if sen.Status != "active" {
		t.Errorf("resumed: %+v", sen)
	}
	c.want(200, "POST", path+"/check-now", nil)

	// The first version, then a change. The page changes only once this
	// sentinel has been checked: news2, on the same page, may have stored
	// the first version, and a first check of news on the changed page
	// would take it as its starting point, with no change to report.
	rid, _ := waitVersions(t, c, 1)
	waitFor(t, 60*time.Second, "the first check of sentinel news", func() bool {
		var checked struct {
			LastCheck time.Time `json:"lastCheck"`
			Lifespan  string    `json:"lifespan"`
		}
		c.want(200, "GET", path, nil).json(t, &checked)
		// Checked, the sentinel's lifespan is known: it is running.
		if !checked.LastCheck.IsZero() && checked.Lifespan != "active" {
			t.Errorf("lifespan after the first check: %q, want active", checked.Lifespan)
		}
		return !checked.LastCheck.IsZero()
	})
	site.set("/news", `<html><head><title>News</title></head><body><h1>News</h1><p>The bridge opened.</p><p>The river rose by two metres.</p></body></html>`)
	c.want(200, "POST", path+"/check-now", nil)
	changes := waitChanges(t, c, sen.ID, 1)
	// The versions the change compared.
	from, to := int64(changes[0]["fromVersion"].(float64)), int64(changes[0]["toVersion"].(float64))
	changeID := int64(changes[0]["id"].(float64))
	c.want(200, "GET", fmt.Sprintf("/api/v1/changes/%d", changeID), nil)
	c.want(200, "GET", fmt.Sprintf("/api/v1/changes?sentinel=%d", sen.ID), nil).json(t, &list)
	if list.Total < 1 {
		t.Errorf("changes: %+v", list)
	}
	c.want(200, "GET", fmt.Sprintf("/api/v1/resources/%d", rid), nil)

	// Versions: metadata, raw body, text.
	body := c.want(200, "GET", fmt.Sprintf("/api/v1/versions/%d/body", to), nil)
	if !strings.Contains(string(body.body), "river rose") || !strings.Contains(body.header.Get("Content-Security-Policy"), "sandbox") ||
		!strings.HasPrefix(body.header.Get("Content-Disposition"), "attachment") {
		t.Errorf("raw body: %v %s", body.header, body.body)
	}
	// Never served with the page's own type: a body that was JavaScript
	// would be a script of the dashboard's origin.
	if ct, orig := body.header.Get("Content-Type"), body.header.Get("X-Vigil-Content-Type"); ct != "text/plain; charset=utf-8" || orig != "text/html" {
		t.Errorf("raw body served as %q (page type %q)", ct, orig)
	}
	text := c.want(200, "GET", fmt.Sprintf("/api/v1/versions/%d/text", to), nil)
	if !strings.Contains(string(text.body), "The river rose by two metres.") || strings.Contains(string(text.body), "<p>") {
		t.Errorf("text: %s", text.body)
	}

	// The diff in every format.
	diff := fmt.Sprintf("/api/v1/resources/%d/diff?from=%d&to=%d&format=", rid, from, to)
	for format, want := range map[string]string{
		"xydelta":           "<unit_delta",
		"json":              `"ops"`,
		"html-inline":       `<p data-vigil="ins">The river rose by two metres.</p>`,
		"html-side-by-side": `data-vigil="new"`,
		"html-changes":      "Inserted /html[1]/body[1]/p[2]",
		"text":              "+ /html[1]/body[1]/p[2]: The river rose by two metres.",
		"records":           `"op": "insert"`,
	} {
		a := c.want(200, "GET", diff+format, nil)
		if !strings.Contains(string(a.body), want) {
			t.Errorf("diff %s: no %q in\n%s", format, want, a.body)
		}
		if !strings.Contains(a.header.Get("Content-Security-Policy"), "sandbox") {
			t.Errorf("diff %s: CSP %q", format, a.header.Get("Content-Security-Policy"))
		}
		// A delta holds the page's markup: an XML view of it would run
		// the XHTML scripts inside. The formats that are not sanitised
		// pages are downloads.
		if cd := a.header.Get("Content-Disposition"); strings.HasPrefix(format, "html") == strings.HasPrefix(cd, "attachment") {
			t.Errorf("diff %s: Content-Disposition %q", format, cd)
		}
	}
	if code := c.want(400, "GET", diff+"pdf", nil).errorCode(t); code != "EINVALID" {
		t.Errorf("bad format: %s", code)
	}

	// Another user, with no sentinel on the page, reads none of it: not
	// the resource, its versions, their diffs, nor that it exists.
	bob := &apiClient{t: t, base: d.base, token: d.addUser(t, "bob@example.com", "bob's password")}
	var none struct{ Total int }
	bob.want(200, "GET", "/api/v1/resources", nil).json(t, &none)
	if none.Total != 0 {
		t.Errorf("another user lists %d resources", none.Total)
	}
	bob.want(200, "GET", "/api/v1/resources?url="+url.QueryEscape(site.srv.URL+"/news"), nil).json(t, &none)
	if none.Total != 0 {
		t.Errorf("another user finds the page by URL")
	}
	for _, p := range []string{fmt.Sprintf("/api/v1/resources/%d", rid), fmt.Sprintf("/api/v1/resources/%d/versions", rid),
		fmt.Sprintf("/api/v1/versions/%d", to), fmt.Sprintf("/api/v1/versions/%d/body", to), fmt.Sprintf("/api/v1/versions/%d/text", to),
		diff + "json"} {
		if code := bob.want(404, "GET", p, nil).errorCode(t); code != "ENOTFOUND" {
			t.Errorf("another user, %s: %s", p, code)
		}
	}
	bs, st := signInAs(t, d.base, "bob@example.com", "bob's password")
	if st != http.StatusSeeOther {
		t.Fatalf("bob signs in: %d", st)
	}
	for _, p := range []string{fmt.Sprintf("/resources/%d", rid), fmt.Sprintf("/resources/%d/diff?from=%d&to=%d", rid, from, to),
		fmt.Sprintf("/resources/%d/diff/frame?from=%d&to=%d&view=inline", rid, from, to)} {
		if st := bs.status(p); st != http.StatusNotFound {
			t.Errorf("another user, page %s: %d, want 404", p, st)
		}
	}
	if page := bs.get("/resources"); strings.Contains(page, "/news") {
		t.Errorf("another user's resources page lists the page")
	}
	// The answers that set their own headers keep them under the daemon's
	// web.Secure: the diff frame is framed by the dashboard only, and
	// sandboxed; a feed is sandboxed and sends no referrer.
	get := func(client *http.Client, p string) http.Header {
		t.Helper()
		resp, err := client.Get(d.base + p)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("GET %s: %d", p, resp.StatusCode)
		}
		return resp.Header
	}
	h := get(sess.client, fmt.Sprintf("/resources/%d/diff/frame?from=%d&to=%d&view=inline", rid, from, to))
	if csp := h.Get("Content-Security-Policy"); h.Get("X-Frame-Options") != "SAMEORIGIN" ||
		!strings.HasPrefix(csp, "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none';") || !strings.Contains(csp, "frame-ancestors 'self'") {
		t.Errorf("diff frame: X-Frame-Options %q, CSP %q", h.Get("X-Frame-Options"), csp)
	}
	var withFeed struct {
		Feed string `json:"feed"`
	}
	c.want(200, "GET", path, nil).json(t, &withFeed)
	h = get(http.DefaultClient, strings.TrimPrefix(withFeed.Feed, d.base))
	if h.Get("Content-Security-Policy") != "sandbox; default-src 'none'" || h.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("feed %s: CSP %q, Referrer-Policy %q", withFeed.Feed, h.Get("Content-Security-Policy"), h.Get("Referrer-Policy"))
	}
	// The owner still reads all of it.
	var mine struct{ Total int }
	c.want(200, "GET", "/api/v1/resources", nil).json(t, &mine)
	if mine.Total != 1 {
		t.Errorf("the owner lists %d resources, want 1", mine.Total)
	}

	// Notifications: the sentinel has no Notify clause and this daemon no
	// SMTP relay, so it notifies nobody (the default, the owner's email,
	// would only make notifications that fail); its changes are on the
	// dashboard and in its feed.
	var notes struct{ Total int }
	c.want(200, "GET", "/api/v1/notifications", nil).json(t, &notes)
	if notes.Total != 0 {
		t.Errorf("%d notifications without a Notify clause or SMTP", notes.Total)
	}
	c.want(400, "GET", "/api/v1/notifications?state=lost", nil)

	// OpenAPI and metrics.
	var doc struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
	}
	c.want(200, "GET", "/api/v1/openapi.json", nil).json(t, &doc)
	for _, p := range []string{"/sentinels", "/sentinels/{id}/check-now", "/sentinels/{id}/rotate-feed", "/resources/{id}/diff", "/versions/{id}/body", "/notifications", "/users", "/users/{id}/password"} {
		if doc.Paths[p] == nil {
			t.Errorf("openapi: no path %s", p)
		}
	}
	m := c.want(200, "GET", "/metrics", nil)
	for _, name := range []string{"vigil_fetches_total", "vigil_checks_total", "vigil_checks_per_second", "vigil_sentinels_due",
		"vigil_notifications_queued", "vigil_diff_duration_seconds_count", `vigil_panics_total{in="check"} 0`, `vigil_panics_total{in="delivery"} 0`} {
		if !strings.Contains(string(m.body), name) {
			t.Errorf("metrics: no %s", name)
		}
	}

	// Tokens: listed without their secret, made from a session only (a
	// token's would outlive it), revoked.
	var toks struct {
		Items []struct {
			ID   int64
			Name string
		} `json:"items"`
	}
	tl := c.want(200, "GET", "/api/v1/tokens", nil)
	tl.json(t, &toks)
	if len(toks.Items) != 1 || strings.Contains(string(tl.body), c.token) {
		t.Errorf("tokens: %s", tl.body)
	}
	if code := c.want(403, "POST", "/api/v1/tokens", map[string]string{"name": "forever"}).errorCode(t); code != "EFORBIDDEN" {
		t.Errorf("token made with a token: %s", code)
	}
	other := &apiClient{t: t, base: d.base, token: sess.newToken("short")}
	other.want(200, "GET", "/api/v1/me", nil)
	c.want(200, "GET", "/api/v1/tokens", nil).json(t, &toks)
	for _, tok := range toks.Items {
		if tok.Name == "short" {
			c.want(204, "DELETE", fmt.Sprintf("/api/v1/tokens/%d", tok.ID), nil)
		}
	}
	other.want(401, "GET", "/api/v1/me", nil)

	c.want(204, "DELETE", path, nil)
	c.want(404, "GET", path, nil)
}

// TestWebAuthRequired: every route but health, the sign-in page, static
// assets and tokenised feeds answers 401 without a session or token; with
// VIGIL_METRICS_PUBLIC, /metrics is open.
func TestWebAuthRequired(t *testing.T) {
	d := startWebDaemon(t)
	routes := []string{
		"GET /api/v1/openapi.json", "GET /api/v1/me", "GET /api/v1/sentinels", "POST /api/v1/sentinels",
		"POST /api/v1/sentinels/check", "GET /api/v1/sentinels/1", "PUT /api/v1/sentinels/1", "DELETE /api/v1/sentinels/1",
		"POST /api/v1/sentinels/1/pause", "POST /api/v1/sentinels/1/resume", "POST /api/v1/sentinels/1/check-now",
		"POST /api/v1/sentinels/1/rotate-feed",
		"GET /api/v1/sentinels/1/changes", "GET /api/v1/resources", "GET /api/v1/resources/1", "GET /api/v1/resources/1/versions",
		"GET /api/v1/resources/1/diff?from=1&to=2", "GET /api/v1/versions/1", "GET /api/v1/versions/1/body",
		"GET /api/v1/versions/1/text", "GET /api/v1/changes", "GET /api/v1/changes/1", "GET /api/v1/notifications",
		"GET /api/v1/notifications/1", "POST /api/v1/notifications/1/retry", "GET /api/v1/tokens", "POST /api/v1/tokens", "DELETE /api/v1/tokens/1",
		"GET /api/v1/users", "POST /api/v1/users", "GET /api/v1/users/1", "DELETE /api/v1/users/1", "PUT /api/v1/users/1/admin",
		"POST /api/v1/users/1/password",
		"GET /api/v1/unknown", "GET /metrics",
		"GET /", "POST /logout", "GET /sentinels", "GET /sentinels/new", "POST /sentinels", "GET /sentinels/1",
		"POST /sentinels/1", "POST /sentinels/1/pause", "POST /sentinels/1/resume", "POST /sentinels/1/check-now",
		"POST /sentinels/1/delete", "POST /sentinels/1/rotate-feed", "GET /resources", "GET /resources/1", "GET /resources/1/diff?from=1&to=2",
		"GET /resources/1/diff/frame?from=1&to=2&view=inline", "GET /changes/1", "GET /notifications", "POST /notifications/1/retry", "GET /tokens", "POST /tokens",
		"POST /tokens/1/delete",
	}
	anon := &apiClient{t: t, base: d.base}
	for _, r := range routes {
		method, path, _ := strings.Cut(r, " ")
		if a := anon.do(method, path, nil); a.status != http.StatusUnauthorized {
			t.Errorf("%s without a session: %d, want 401", r, a.status)
		}
	}
	for _, path := range []string{"/healthz", "/login", "/static/app.css", "/static/app.js"} {
		if a := anon.do("GET", path, nil); a.status != 200 {
			t.Errorf("GET %s: %d, want 200", path, a.status)
		}
	}
	// A session cookie that was tampered with is refused.
	sess, _ := signIn(t, d.base, testAdminPassword)
	u, _ := url.Parse(d.base)
	for _, c := range sess.client.Jar.Cookies(u) {
		if c.Name == "vigil_session" {
			last := "A"
			if strings.HasSuffix(c.Value, "A") {
				last = "B"
			}
			forged := &http.Cookie{Name: c.Name, Value: c.Value[:len(c.Value)-1] + last}
			req, _ := http.NewRequest("GET", d.base+"/api/v1/me", nil)
			req.AddCookie(forged)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 401 {
				t.Errorf("forged session: %d", resp.StatusCode)
			}
		}
	}

	d.stop(t)
	t.Setenv("VIGIL_METRICS_PUBLIC", "true")
	d2 := startDaemon(t, t.TempDir())
	if a := (&apiClient{t: t, base: "http://" + d2.addr}).do("GET", "/metrics", nil); a.status != 200 {
		t.Errorf("public metrics: %d", a.status)
	}
}

// TestWebCSRF: form posts and cookie-authenticated API calls without the
// CSRF token are refused; with it they pass.
func TestWebCSRF(t *testing.T) {
	site := newSite(t)
	site.set("/p", "<html><body><p>x</p></body></html>")
	d := startWebDaemon(t)
	sess, _ := signIn(t, d.base, testAdminPassword)
	src := "Create Sentinel p Using " + site.srv.URL + "/p Monitor any change Fetch 1 hour"

	if status, _ := sess.post("/sentinels", url.Values{"source": {src}}); status != http.StatusForbidden {
		t.Errorf("form post without CSRF: %d, want 403", status)
	}
	if status, _ := sess.post("/sentinels", url.Values{"source": {src}, "csrf": {"forged"}}); status != http.StatusForbidden {
		t.Errorf("form post with a forged CSRF token: %d, want 403", status)
	}
	if status, _ := sess.post("/tokens", url.Values{"name": {"x"}}); status != http.StatusForbidden {
		t.Errorf("token form without CSRF: %d, want 403", status)
	}
	// An expiry that is not a number is refused, not taken for "never".
	if status, page := sess.post("/tokens", url.Values{"csrf": {sess.csrf()}, "name": {"x"}, "days": {"soon"}}); status != http.StatusBadRequest || tokenPattern.MatchString(page) {
		t.Errorf("token with days=soon: %d, a token made: %v", status, tokenPattern.MatchString(page))
	}
	if status, _ := sess.post("/logout", nil); status != http.StatusForbidden {
		t.Errorf("sign-out without CSRF: %d, want 403", status)
	}
	// The sign-in form has its own token (double submit).
	resp, err := http.PostForm(d.base+"/login", url.Values{"email": {"admin@localhost"}, "password": {testAdminPassword}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("sign-in without CSRF: %d, want 403", resp.StatusCode)
	}
	// The API with the session cookie needs the X-CSRF-Token header.
	req, _ := http.NewRequest("POST", d.base+"/api/v1/sentinels", strings.NewReader(`{"source":"`+src+`"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err = sess.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(b), `"EFORBIDDEN"`) {
		t.Errorf("API post with a cookie and no CSRF header: %d %s, want 403 EFORBIDDEN", resp.StatusCode, b)
	}
	// A body over 1 MiB is refused as too large, form or JSON, before
	// anything else is read from it.
	big := strings.Repeat("x", 1<<20)
	if status, page := sess.post("/sentinels", url.Values{"source": {big}, "csrf": {sess.csrf()}}); status != http.StatusRequestEntityTooLarge ||
		!strings.Contains(page, "over 1048576 bytes") {
		t.Errorf("form post over 1 MiB: %d, want 413 and a page that says so\n%.300s", status, page)
	}
	// A multipart form is read as well (curl -F), its limit the same.
	postMultipart := func(fields map[string]string) (int, string) {
		var body bytes.Buffer
		mw := multipartWriter(&body, fields)
		req, _ := http.NewRequest("POST", d.base+"/tokens", &body)
		req.Header.Set("Content-Type", mw)
		resp, err := sess.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if status, page := postMultipart(map[string]string{"csrf": sess.csrf(), "name": "multipart", "days": "30"}); status != http.StatusOK || !tokenPattern.MatchString(page) {
		t.Errorf("multipart token form with CSRF: %d, want 200 (its redirect followed) and the token\n%.300s", status, page)
	}
	if status, _ := postMultipart(map[string]string{"csrf": sess.csrf(), "name": big}); status != http.StatusRequestEntityTooLarge {
		t.Errorf("multipart form over 1 MiB: %d, want 413", status)
	}
	// A page's query is not a form: a malformed one does not refuse the page.
	if st := sess.status("/resources?a=1;b=2&page=%zz"); st != http.StatusOK {
		t.Errorf("page with a malformed query: %d, want 200", st)
	}
	api := &apiClient{t: t, base: d.base, token: sess.newToken("csrf test")}
	if code := api.want(http.StatusRequestEntityTooLarge, "POST", "/api/v1/sentinels", map[string]string{"source": big}).errorCode(t); code != "ETOOLARGE" {
		t.Errorf("API post over 1 MiB: code %s, want ETOOLARGE", code)
	}
	// A cross-site browser post is refused even with the token.
	req, _ = http.NewRequest("POST", d.base+"/sentinels", strings.NewReader(url.Values{"source": {src}, "csrf": {sess.csrf()}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err = sess.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site post: %d, want 403", resp.StatusCode)
	}
	// The form sends the textarea's lines ended by CRLF; the diagnostics'
	// offsets are into its value, where they end by LF.
	bad := "Create Sentinel p\r\nUsing " + site.srv.URL + "/p\r\nMonitor any chnge\r\nFetch 1 hour\r\n"
	status, page := sess.post("/sentinels", url.Values{"source": {bad}, "csrf": {sess.csrf()}})
	lf := strings.ReplaceAll(bad, "\r\n", "\n")
	at := strings.Index(lf, "chnge")
	if want := fmt.Sprintf(`data-offset="%d" data-end="%d">3:13:`, at, at+len("chnge")); status != http.StatusUnprocessableEntity || !strings.Contains(page, want) {
		t.Errorf("form post with CRLF lines and an error: %d, want 422 and %s in\n%s", status, want, page)
	}
	// With the token, the form works.
	status, page = sess.post("/sentinels", url.Values{"source": {src}, "csrf": {sess.csrf()}})
	if status != 200 || !strings.Contains(page, "Sentinel p") {
		t.Errorf("form post with CSRF: %d\n%s", status, page)
	}

	// Signing out ends the session for a copy of its cookie too, and for
	// the user's other sessions; a new sign-in works.
	other, _ := signIn(t, d.base, testAdminPassword)
	u, _ := url.Parse(d.base)
	kept := sess.client.Jar.Cookies(u)
	if status, _ := sess.post("/logout", url.Values{"csrf": {sess.csrf()}}); status != http.StatusOK {
		t.Fatalf("sign out: %d", status)
	}
	copyJar, _ := cookiejar.New(nil)
	copyJar.SetCookies(u, kept)
	copied := &browserSession{t: t, base: d.base, client: &http.Client{Jar: copyJar}}
	for name, bs := range map[string]*browserSession{"a copy of the signed-out cookie": copied, "another session": other} {
		if st := bs.status("/api/v1/me"); st != http.StatusUnauthorized {
			t.Errorf("%s after signing out: %d, want 401", name, st)
		}
	}
	if again, st := signIn(t, d.base, testAdminPassword); st != http.StatusSeeOther || again.status("/api/v1/me") != http.StatusOK {
		t.Errorf("signing in again: %d", st)
	}
}

// TestWebAdminPasswordPrinted: without a configured password, the first
// start generates one and, its output being no terminal, writes it to a file
// only its user can read, and says where; the next start does not.
func TestWebAdminPasswordPrinted(t *testing.T) {
	t.Setenv("VIGIL_ADMIN_PASSWORD", "")
	dir := t.TempDir()
	var pw string
	for i := range 2 {
		out := serveOutput(t, dir)
		if strings.Contains(out, "with password") {
			t.Fatalf("the password was printed to a non-terminal output: %q", out)
		}
		m := regexp.MustCompile(`its password is in (\S+)`).FindStringSubmatch(out)
		switch {
		case i == 0 && m == nil:
			t.Fatalf("first start did not say where the password is: %q", out)
		case i == 0:
			b, err := os.ReadFile(m[1])
			if err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Stat(m[1]); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("password file mode %v, %v; want 0600", fi.Mode(), err)
			}
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			if len(lines) != 2 || lines[0] != "admin@localhost" || len(lines[1]) < 16 {
				t.Fatalf("password file %q", b)
			}
			pw = lines[1]
		case m != nil:
			t.Errorf("second start announced a password again: %q", out)
		}
	}
	d := startDaemon(t, dir)
	if _, status := signIn(t, "http://"+d.addr, pw); status != http.StatusSeeOther {
		t.Errorf("sign in with the printed password: %d", status)
	}
}

// TestWebAdminPasswordFileReplaced: a start with VIGIL_ADMIN_PASSWORD sets
// the admin's password, and removes the admin-password file of the first
// start, whose password no longer signs in; the file stayed, holding it.
func TestWebAdminPasswordFileReplaced(t *testing.T) {
	t.Setenv("VIGIL_ADMIN_PASSWORD", "")
	dir := t.TempDir()
	serveOutput(t, dir)
	file := filepath.Join(dir, adminPasswordFile)
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("the first start wrote no password file: %v", err)
	}
	t.Setenv("VIGIL_ADMIN_PASSWORD", "a-new-password-for-the-admin")
	serveOutput(t, dir)
	if b, err := os.ReadFile(file); err == nil {
		t.Errorf("the password file stays after VIGIL_ADMIN_PASSWORD replaced its password: %q", b)
	}
	d := startDaemon(t, dir)
	if _, status := signIn(t, "http://"+d.addr, "a-new-password-for-the-admin"); status != http.StatusSeeOther {
		t.Errorf("sign in with VIGIL_ADMIN_PASSWORD: %d", status)
	}
}

// serveOutput starts vigil serve, returns what it printed up to its
// "listening on" line, and stops it.
func serveOutput(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command(vigilBinary(t), "serve", "--data", dir, "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "VIGIL_DATA=", "VIGIL_POSTGRES_DSN=")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	var out strings.Builder
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		if strings.HasPrefix(sc.Text(), "listening on ") {
			break
		}
	}
	return out.String()
}

// multipartWriter writes fields to body as multipart/form-data and returns
// the Content-Type that goes with it.
func multipartWriter(body *bytes.Buffer, fields map[string]string) string {
	mw := multipart.NewWriter(body)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	mw.Close()
	return mw.FormDataContentType()
}

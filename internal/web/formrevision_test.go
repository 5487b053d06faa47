package web

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// revisionInput finds the editor's hidden revision field in a page.
var revisionInput = regexp.MustCompile(`<input type="hidden" name="revision" value="([^"]*)">`)

// formRevisionOf returns the value of the editor's revision field in
// page, "" if it has none.
func formRevisionOf(page string) string {
	m := revisionInput.FindStringSubmatch(page)
	if m == nil {
		return ""
	}
	return html.UnescapeString(m[1])
}

// editorForm is the body of the editor's form: src, and rev in its
// revision field unless rev is "".
func editorForm(src, rev string) string {
	v := url.Values{"source": {src}}
	if rev != "" {
		v.Set(revisionField, rev)
	}
	return v.Encode()
}

// staleMessage is what the editor says of a form posted on a revision
// that is no longer the stored one.
const staleMessage = "was changed since this form was opened"

// TestEditorFormRevision, on SQLite and on PostgreSQL when
// VIGIL_TEST_POSTGRES_DSN is set: the sentinel editor carries the
// revision it was opened on (the API's ETag), and its save on a sentinel
// changed since in another tab (an edit, a pause, a resume) saves
// nothing, 409, and shows the editor again with the text posted, saying
// so, the sentinel as it is now and its revision, on which a second
// submit saves; a form without the field saves whatever the stored
// revision, as before. Before, the second tab's save overwrote the
// first's edit, or undid its pause, unseen.
func TestEditorFormRevision(t *testing.T) {
	for name, open := range raceStores() {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				name string
				// between changes the sentinel at path after the form
				// is opened, through c, the same user's other tab.
				between func(t *testing.T, c *signedIn, path string)
				status  vigil.SentinelStatus // the sentinel's status after both saves
			}{
				{"edited", func(t *testing.T, c *signedIn, path string) {
					if code, body := c.do("POST", path, editorForm("Create Sentinel a Using http://a.example/other", "")); code != http.StatusSeeOther {
						t.Fatalf("the other tab's edit: %d %s", code, body)
					}
				}, vigil.SentinelActive},
				{"paused", func(t *testing.T, c *signedIn, path string) {
					if code, body := c.do("POST", path+"/pause", ""); code != http.StatusSeeOther {
						t.Fatalf("the other tab's pause: %d %s", code, body)
					}
				}, vigil.SentinelPaused},
				{"paused and resumed, edited through the API", func(t *testing.T, c *signedIn, path string) {
					for _, action := range []string{"/pause", "/resume"} {
						if code, body := c.do("POST", path+action, ""); code != http.StatusSeeOther {
							t.Fatalf("the other tab's %s: %d %s", action, code, body)
						}
					}
					if code, body := c.do("PUT", "/api/v1"+path, `{"source":"Create Sentinel a Using http://a.example/api"}`); code != http.StatusOK {
						t.Fatalf("the API's edit: %d %s", code, body)
					}
				}, vigil.SentinelActive},
			} {
				t.Run(tc.name, func(t *testing.T) { testEditorFormRevision(t, open(t), tc.between, tc.status) })
			}
		})
	}
}

func testEditorFormRevision(t *testing.T, st vigil.Store, between func(*testing.T, *signedIn, string), status vigil.SentinelStatus) {
	ctx := context.Background()
	s, u := checkingServer(t, st)
	sen := createChecked(t, s, u, "Create Sentinel a Using http://a.example/")
	c := newSignedIn(t, s, u)
	path := "/sentinels/" + strconv.FormatInt(sen.ID, 10)
	stored := func() *vigil.Sentinel {
		t.Helper()
		got, err := s.Store.FindSentinelByID(ctx, sen.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	code, page := c.do("GET", path, "")
	rev := formRevisionOf(page)
	if code != http.StatusOK || rev != sentinelETag(stored()) {
		t.Fatalf("GET %s: %d, revision field %q; want the ETag %s", path, code, rev, sentinelETag(stored()))
	}
	between(t, c, path)
	before := stored()

	const mine = "Create Sentinel a Using http://a.example/mine"
	code, page = c.do("POST", path, editorForm(mine, rev))
	text := html.UnescapeString(page)
	if code != http.StatusConflict || !strings.Contains(text, staleMessage) || !strings.Contains(text, ">"+mine+"</textarea>") {
		t.Errorf("POST on the stale revision: %d; want 409, the editor saying %q with the text posted:\n%s", code, staleMessage, page)
	}
	if !strings.Contains(text, `id="stale-source">`+before.Source+"</pre>") {
		t.Errorf("POST on the stale revision: the page does not show the source as it is now, %q:\n%s", before.Source, page)
	}
	if after := stored(); after.Source != before.Source || after.Status != before.Status || !after.UpdatedAt.Equal(before.UpdatedAt) {
		t.Errorf("POST on the stale revision saved: %q %s %v, was %q %s %v", after.Source, after.Status, after.UpdatedAt, before.Source, before.Status, before.UpdatedAt)
	}
	fresh := formRevisionOf(page)
	if fresh != sentinelETag(before) {
		t.Fatalf("the editor shown again holds the revision %q; want the one now, %s", fresh, sentinelETag(before))
	}

	// Saving again, on the revision now, overwrites the change.
	if code, page = c.do("POST", path, editorForm(mine, fresh)); code != http.StatusSeeOther {
		t.Fatalf("POST again on the revision now: %d; want 303:\n%s", code, page)
	}
	if after := stored(); !strings.Contains(after.Source, "/mine") || after.Status != status {
		t.Errorf("POST again saved %q, %s; want the text posted, %s", after.Source, after.Status, status)
	}
	// That revision is stale in turn.
	if code, _ = c.do("POST", path, editorForm(mine+"/again", fresh)); code != http.StatusConflict {
		t.Errorf("POST a third time on the revision of before the second: %d, want 409", code)
	}
}

// TestEditorFormRevisionKept: the editor shown again for a source with
// errors keeps the revision it was posted with, not the stored one, and
// says nothing of a change; a form without the field is saved whatever
// the stored revision (the last write wins, as before the field), and
// its editor shown again holds none.
func TestEditorFormRevisionKept(t *testing.T) {
	ctx := context.Background()
	s, u := checkingServer(t, raceStores()["sqlite"](t))
	sen := createChecked(t, s, u, "Create Sentinel a Using http://a.example/")
	c := newSignedIn(t, s, u)
	path := "/sentinels/" + strconv.FormatInt(sen.ID, 10)
	_, page := c.do("GET", path, "")
	rev := formRevisionOf(page)

	for _, tc := range []struct {
		name, src, rev string
		status         int
		wantRev        string
		saved          string // a part of the source stored after, if saved
	}{
		{"errors, with the field", "Create Sentinel a Using", rev, http.StatusUnprocessableEntity, rev, ""},
		{"errors, without the field", "Create Sentinel a Using", "", http.StatusUnprocessableEntity, "", ""},
		{"with the field", "Create Sentinel a Using http://a.example/1", rev, http.StatusSeeOther, "", "/1"},
		{"without the field, on a stale page", "Create Sentinel a Using http://a.example/2", "", http.StatusSeeOther, "", "/2"},
		{"empty field", "Create Sentinel a Using http://a.example/3", "", http.StatusSeeOther, "", "/3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := editorForm(tc.src, tc.rev)
			if tc.name == "empty field" {
				body += "&" + revisionField + "="
			}
			code, page := c.do("POST", path, body)
			if code != tc.status {
				t.Fatalf("POST: %d, want %d:\n%s", code, tc.status, page)
			}
			if strings.Contains(page, staleMessage) {
				t.Errorf("POST: the editor says the sentinel changed:\n%s", page)
			}
			if code != http.StatusSeeOther {
				if got := formRevisionOf(page); got != tc.wantRev {
					t.Errorf("the editor shown again holds the revision %q, want %q", got, tc.wantRev)
				}
			}
			if tc.saved != "" {
				got, err := s.Store.FindSentinelByID(ctx, sen.ID)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(got.Source, tc.saved) {
					t.Errorf("stored %q, want the text posted", got.Source)
				}
			}
		})
	}
}

// TestEditorFormRevisionInTransaction, on both stores: the form's
// revision is compared again as the edit is saved, in its transaction:
// an edit saved between the handler's reading of the sentinel and its
// save is not overwritten, and the editor shown again holds its
// revision.
func TestEditorFormRevisionInTransaction(t *testing.T) {
	for name, open := range raceStores() {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			s, u := checkingServer(t, open(t))
			sen := createChecked(t, s, u, "Create Sentinel a Using http://a.example/")
			s.Store = &editedBetween{Store: s.Store}
			c := newSignedIn(t, s, u)
			path := "/sentinels/" + strconv.FormatInt(sen.ID, 10)
			_, page := c.do("GET", path, "")
			code, page := c.do("POST", path, editorForm("Create Sentinel a Using http://a.example/mine", formRevisionOf(page)))
			got, err := s.Store.FindSentinelByID(ctx, sen.ID)
			if err != nil {
				t.Fatal(err)
			}
			if code != http.StatusConflict || !strings.Contains(page, staleMessage) {
				t.Errorf("POST over an edit saved in between: %d, want 409 saying %q:\n%s", code, staleMessage, page)
			}
			if !strings.Contains(got.Source, "between") {
				t.Errorf("the edit saved in between was overwritten: %q", got.Source)
			}
			if rev := formRevisionOf(page); rev != sentinelETag(got) {
				t.Errorf("the editor shown again holds %q, want the revision now, %s", rev, sentinelETag(got))
			}
		})
	}
}

// TestEditorFormRevisionRefused: a form carrying its revision is still
// refused without a CSRF token (403) and without a session (401),
// another user's sentinel is not found (404) whatever the revision, and
// none of them saves anything.
func TestEditorFormRevisionRefused(t *testing.T) {
	ctx := context.Background()
	s, u := checkingServer(t, raceStores()["sqlite"](t))
	sen := createChecked(t, s, u, "Create Sentinel a Using http://a.example/")
	c := newSignedIn(t, s, u)
	path := "/sentinels/" + strconv.FormatInt(sen.ID, 10)
	_, page := c.do("GET", path, "")
	rev := formRevisionOf(page)
	other := &vigil.User{Email: "other@example.com", Name: "Other", PasswordHash: "h"}
	if err := s.Store.CreateUser(ctx, other); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		cookie string
		csrf   string
		want   int
	}{
		{"no CSRF token", c.cookie, "", http.StatusForbidden},
		{"a forged CSRF token", c.cookie, "forged", http.StatusForbidden},
		{"no session", "", "", http.StatusUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest("POST", c.srv.URL+path, strings.NewReader(editorForm("Create Sentinel a Using http://a.example/mine", rev)))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if tc.cookie != "" {
				req.AddCookie(&http.Cookie{Name: sessionCookie, Value: tc.cookie})
			}
			if tc.csrf != "" {
				req.Header.Set(csrfHeader, tc.csrf)
			}
			resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Errorf("POST: %d, want %d", resp.StatusCode, tc.want)
			}
		})
	}
	t.Run("another user's sentinel", func(t *testing.T) {
		code, _ := newSignedIn(t, s, other).do("POST", path, editorForm("Create Sentinel a Using http://a.example/mine", rev))
		if code != http.StatusNotFound {
			t.Errorf("POST: %d, want 404", code)
		}
	})
	got, err := s.Store.FindSentinelByID(ctx, sen.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Source != sen.Source {
		t.Errorf("a refused form saved %q", got.Source)
	}
}

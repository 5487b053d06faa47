package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// etagClient sends API requests with an administrator's token and
// returns the status, the ETag and the body of the answer.
type etagClient struct {
	t     *testing.T
	base  string
	token string
}

func (c *etagClient) send(method, path, ifMatch, body string) (int, string, errorBody) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.base+path, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if ifMatch != "" {
		req.Header.Set("If-Match", ifMatch)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var e errorBody
	if resp.StatusCode >= 400 {
		if err := json.Unmarshal(b, &e); err != nil {
			c.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
		}
	}
	return resp.StatusCode, resp.Header.Get("ETag"), e
}

// TestSentinelETagIfMatch, on SQLite and on PostgreSQL when
// VIGIL_TEST_POSTGRES_DSN is set: GET /api/v1/sentinels/{id} gives the
// sentinel's revision as a strong ETag, which a check leaves as it is
// and an edit changes; PUT with If-Match saves only on that revision
// (or on *), and answers a stale one, or a weak one, 412 saving
// nothing; without If-Match the last write wins, as before.
func TestSentinelETagIfMatch(t *testing.T) {
	for name, open := range raceStores() {
		t.Run(name, func(t *testing.T) { testSentinelETagIfMatch(t, open(t)) })
	}
}

func testSentinelETagIfMatch(t *testing.T, st vigil.Store) {
	ctx := context.Background()
	s, u := checkingServer(t, st)
	bearer(t, s.Store, u, "secret")
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	c := &etagClient{t: t, base: srv.URL, token: "secret"}
	sen := createChecked(t, s, u, "Create Sentinel a Using http://a.example/")
	path := "/api/v1/sentinels/" + strconv.FormatInt(sen.ID, 10)
	edit := func(n int) string {
		return `{"source":"Create Sentinel a Using http://a.example/` + strconv.Itoa(n) + `"}`
	}
	source := func() string {
		t.Helper()
		got, err := s.Store.FindSentinelByID(ctx, sen.ID)
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(got.Source)
	}

	code, e1, _ := c.send("GET", path, "", "")
	if code != http.StatusOK || len(e1) < 3 || e1[0] != '"' || e1[len(e1)-1] != '"' {
		t.Fatalf("GET: %d, ETag %q; want a strong ETag", code, e1)
	}
	// A check is no edit.
	if err := s.Store.CheckedSentinel(ctx, sen.ID, time.Now(), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, e, _ := c.send("GET", path, "", ""); e != e1 {
		t.Errorf("ETag after a check %s, want %s still", e, e1)
	}

	code, e2, eb := c.send("PUT", path, e1, edit(1))
	if code != http.StatusOK || e2 == "" || e2 == e1 {
		t.Fatalf("PUT If-Match current: %d %+v, ETag %s (was %s)", code, eb, e2, e1)
	}
	if _, e, _ := c.send("GET", path, "", ""); e != e2 {
		t.Errorf("GET after the edit: ETag %s, want the PUT's %s", e, e2)
	}
	for _, stale := range []string{e1, "W/" + e2, `"nope", ` + e1, strings.Trim(e2, `"`)} {
		code, _, eb = c.send("PUT", path, stale, edit(2))
		if code != http.StatusPreconditionFailed || eb.Error.Code != vigil.EPRECONDITION ||
			!strings.Contains(eb.Error.Message, "sentinel a was changed since it was read") || !strings.Contains(eb.Error.Message, e2) {
			t.Errorf("PUT If-Match %s: %d %+v, want 412 naming the ETag", stale, code, eb.Error)
		}
		if got := source(); !strings.HasSuffix(got, "/1") {
			t.Fatalf("PUT If-Match %s saved %q", stale, got)
		}
	}
	// A stale If-Match is 412 before the body is read.
	if code, _, eb = c.send("PUT", path, e1, `{"source":`); code != http.StatusPreconditionFailed {
		t.Errorf("PUT stale If-Match, bad body: %d %+v, want 412", code, eb.Error)
	}
	if code, _, eb = c.send("PUT", path, `"nope", `+e2, edit(3)); code != http.StatusOK || !strings.HasSuffix(source(), "/3") {
		t.Errorf("PUT If-Match one of a list: %d %+v", code, eb.Error)
	}
	if code, _, eb = c.send("PUT", path, "*", edit(4)); code != http.StatusOK || !strings.HasSuffix(source(), "/4") {
		t.Errorf("PUT If-Match *: %d %+v", code, eb.Error)
	}
	// Without If-Match, the last write wins.
	if code, _, eb = c.send("PUT", path, "", edit(5)); code != http.StatusOK || !strings.HasSuffix(source(), "/5") {
		t.Errorf("PUT without If-Match: %d %+v", code, eb.Error)
	}
	// Nor does the 412 hide a sentinel that is not the caller's: 404.
	if code, _, _ = c.send("PUT", "/api/v1/sentinels/999999", e1, edit(6)); code != http.StatusNotFound {
		t.Errorf("PUT of no sentinel: %d, want 404", code)
	}
}

// editedBetween is a store that, at the first UpdateSentinelsIf, saves
// another edit of the sentinel first: an edit made between the handler's
// reading of the sentinel and its save.
type editedBetween struct {
	vigil.Store
	done bool
}

func (st *editedBetween) UpdateSentinelsIf(ctx context.Context, list []*vigil.Sentinel, check func(*vigil.Sentinel) error) error {
	if !st.done {
		st.done = true
		other, err := st.Store.FindSentinelByID(ctx, list[0].ID)
		if err != nil {
			return err
		}
		other.Source = strings.Replace(other.Source, "http://a.example/", "http://a.example/between", 1)
		if err := st.Store.UpdateSentinel(ctx, other); err != nil {
			return err
		}
	}
	return st.Store.UpdateSentinelsIf(ctx, list, check)
}

// TestSentinelIfMatchInTransaction, on both stores: If-Match is checked again as the edit
// is saved, in its transaction, not only when the handler reads the
// sentinel: an edit saved in between is not overwritten, 412.
func TestSentinelIfMatchInTransaction(t *testing.T) {
	for name, open := range raceStores() {
		t.Run(name, func(t *testing.T) { testSentinelIfMatchInTransaction(t, open(t)) })
	}
}

func testSentinelIfMatchInTransaction(t *testing.T, st vigil.Store) {
	ctx := context.Background()
	s, u := checkingServer(t, st)
	bearer(t, s.Store, u, "secret")
	sen := createChecked(t, s, u, "Create Sentinel a Using http://a.example/")
	s.Store = &editedBetween{Store: s.Store}
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	c := &etagClient{t: t, base: srv.URL, token: "secret"}
	path := "/api/v1/sentinels/" + strconv.FormatInt(sen.ID, 10)
	_, etag, _ := c.send("GET", path, "", "")
	code, _, eb := c.send("PUT", path, etag, `{"source":"Create Sentinel a Using http://a.example/mine"}`)
	if code != http.StatusPreconditionFailed || eb.Error.Code != vigil.EPRECONDITION {
		t.Errorf("PUT over an edit saved in between: %d %+v, want 412", code, eb.Error)
	}
	got, err := s.Store.FindSentinelByID(ctx, sen.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.Source, "between") {
		t.Errorf("the edit saved in between was overwritten: %q", got.Source)
	}
}

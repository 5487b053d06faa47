package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
)

// readAsTextServer is a test server with a warehouse over its store, and
// a resource of three versions: a page, one that does not parse (nested
// deeper than 512 elements), and a page whose reason was recorded as the
// caller found it ("recorded <here>"), which only the record tells.
func readAsTextServer(t *testing.T) (get func(path string) string, res int64, vs []*vigil.Version) {
	t.Helper()
	e := newReadAsTextEnv(t)
	return e.get, e.res, e.vs
}

// readAsTextEnv is readAsTextServer's server, its sentinel, resource and
// versions.
type readAsTextEnv struct {
	s   *Server
	u   *vigil.User // the sentinel's owner, signed in by get
	sen *vigil.Sentinel
	get func(path string) string
	res int64
	vs  []*vigil.Version
}

func newReadAsTextEnv(t *testing.T) *readAsTextEnv {
	t.Helper()
	var (
		get func(path string) string
		vs  []*vigil.Version
	)
	ctx := context.Background()
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	sen := createChecked(t, s, u, "Create Sentinel p Using http://a.example/p")
	deep := strings.Repeat("<div>", 600) + "x" + strings.Repeat("</div>", 600)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, f := range []*warehouse.Fetch{
		{Body: []byte("<p>a page</p>")},
		{Body: []byte(deep)},
		{Body: []byte("<p>told</p>")},
	} {
		f.URL, f.FetchedAt, f.Status, f.ContentType = "http://a.example/p", at.Add(time.Duration(i)*time.Hour), 200, "text/html"
		v, err := w.Put(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
	}
	if err := w.RecordReadAsText(ctx, vs[2].ID, "recorded <here>"); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	s.Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	cookie, err := s.newSessionCookie(u)
	if err != nil {
		t.Fatal(err)
	}
	get = func(path string) string {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.AddCookie(&http.Cookie{Name: sessionCookie, Value: cookie})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %v\n%s", path, resp.StatusCode, err, b)
		}
		return string(b)
	}
	return &readAsTextEnv{s: s, u: u, sen: sen, get: get, res: vs[0].ResourceID, vs: vs}
}

// TestDiffPageReadAsTextAsRecorded: the diff page says why a side is read
// as its source text from what is recorded with the version, not by
// reading its body again: a page whose record says so is noted, escaped.
func TestDiffPageReadAsTextAsRecorded(t *testing.T) {
	get, res, vs := readAsTextServer(t)
	id := func(v *vigil.Version) string { return strconv.FormatInt(v.ID, 10) }
	page := get("/resources/" + strconv.FormatInt(res, 10) + "/diff?from=" + id(vs[1]) + "&to=" + id(vs[2]) + "&view=inline")
	for _, want := range []string{
		`id="from-read-as-text">Version #2 does not parse, so it is shown, and compared, as its source text: parse HTML: elements nested more than 512 deep`,
		`id="to-read-as-text">Version #3 does not parse, so it is shown, and compared, as its source text: recorded &lt;here&gt;.`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the diff page lacks %q:\n%s", want, page)
		}
	}
	if page := get("/resources/" + strconv.FormatInt(res, 10) + "/diff?from=" + id(vs[0]) + "&to=" + id(vs[0]) + "&view=inline"); strings.Contains(page, "read-as-text") {
		t.Errorf("a page noted as read as text:\n%s", page)
	}
}

// TestResourcePageReadAsText: the history of a resource marks each
// version read as its source text with a short marker, a link to why,
// and says each distinct reason once (escaped), from what is recorded
// with the versions; a version read as a page has no marker.
func TestResourcePageReadAsText(t *testing.T) {
	ctx := context.Background()
	e := newReadAsTextEnv(t)
	deep := strings.Repeat("<div>", 600) + "again" + strings.Repeat("</div>", 600)
	again, err := e.s.Warehouse.(*warehouse.Warehouse).Put(ctx, &warehouse.Fetch{URL: "http://a.example/p",
		FetchedAt: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), Status: 200, ContentType: "text/html", Body: []byte(deep)})
	if err != nil {
		t.Fatal(err)
	}
	page := e.get("/resources/" + strconv.FormatInt(e.res, 10))
	const reason = "parse HTML: elements nested more than 512 deep"
	if n := strings.Count(page, reason); n != 1 {
		t.Errorf("the reason %q is said %d times, want once:\n%s", reason, n, page)
	}
	// The newest first: the deep versions' reason is the first met.
	for _, want := range []string{
		`<p class="alert note" id="read-as-text-reason-1"><strong>Read as text (1):</strong> the versions so marked do not parse, and are read, compared and shown as their source text: ` + reason,
		`<p class="alert note" id="read-as-text-reason-2"><strong>Read as text (2):</strong> the versions so marked do not parse, and are read, compared and shown as their source text: recorded &lt;here&gt;.</p>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("no %q:\n%s", want, page)
		}
	}
	for _, tc := range []struct {
		v    *vigil.Version
		note int
	}{{e.vs[0], 0}, {e.vs[1], 1}, {e.vs[2], 2}, {again, 1}} {
		id := `id="read-as-text-` + strconv.FormatInt(tc.v.ID, 10) + `"`
		marker := `<a class="status read-as-text" ` + id + ` href="#read-as-text-reason-` + strconv.Itoa(tc.note) +
			`" aria-describedby="read-as-text-reason-` + strconv.Itoa(tc.note) + `">read as text (` + strconv.Itoa(tc.note) + `)</a>`
		switch {
		case tc.note == 0 && strings.Contains(page, id):
			t.Errorf("version #%d, a page, marked as read as text:\n%s", tc.v.Seq, page)
		case tc.note != 0 && !strings.Contains(page, marker):
			t.Errorf("version #%d: no marker %q:\n%s", tc.v.Seq, marker, page)
		}
	}
}

// TestResourcePageReadAsTextOneReason: a history whose versions read as
// text all have one reason says it once, and marks them without a number.
func TestResourcePageReadAsTextOneReason(t *testing.T) {
	e := newReadAsTextEnv(t)
	if err := e.s.Warehouse.(*warehouse.Warehouse).RecordReadAsText(context.Background(), e.vs[2].ID, ""); err != nil {
		t.Fatal(err)
	}
	page := e.get("/resources/" + strconv.FormatInt(e.res, 10))
	for _, want := range []string{
		`<p class="alert note" id="read-as-text-reason-1"><strong>Read as text:</strong> the versions so marked do not parse, and are read, compared and shown as their source text: parse HTML: elements nested more than 512 deep`,
		`href="#read-as-text-reason-1" aria-describedby="read-as-text-reason-1">read as text</a>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("no %q:\n%s", want, page)
		}
	}
}

// TestAPIReadAsText: the API's versions carry why each is read as its
// source text (readAsText), and its changes why each side is
// (fromReadAsText, toReadAsText); none for a page.
func TestAPIReadAsText(t *testing.T) {
	ctx := context.Background()
	e := newReadAsTextEnv(t)
	const deep = "parse HTML: elements nested more than 512 deep"
	var list struct {
		Items []struct {
			ID         int64  `json:"id"`
			ReadAsText string `json:"readAsText"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(e.get("/api/v1/resources/"+strconv.FormatInt(e.res, 10)+"/versions")), &list); err != nil {
		t.Fatal(err)
	}
	want := map[int64]string{e.vs[0].ID: "", e.vs[1].ID: deep, e.vs[2].ID: "recorded <here>"}
	if len(list.Items) != 3 {
		t.Fatalf("%d versions listed, want 3", len(list.Items))
	}
	for _, v := range list.Items {
		if !strings.HasPrefix(v.ReadAsText, want[v.ID]) || (v.ReadAsText == "") != (want[v.ID] == "") {
			t.Errorf("version %d listed read as text %q, want %q", v.ID, v.ReadAsText, want[v.ID])
		}
	}
	var one map[string]any
	if err := json.Unmarshal([]byte(e.get("/api/v1/versions/"+strconv.FormatInt(e.vs[2].ID, 10))), &one); err != nil {
		t.Fatal(err)
	}
	if one["readAsText"] != "recorded <here>" {
		t.Errorf("version %d: readAsText %v, want %q", e.vs[2].ID, one["readAsText"], "recorded <here>")
	}
	one = nil
	if err := json.Unmarshal([]byte(e.get("/api/v1/versions/"+strconv.FormatInt(e.vs[0].ID, 10))), &one); err != nil {
		t.Fatal(err)
	}
	if _, ok := one["readAsText"]; ok {
		t.Errorf("a page: readAsText %v, want none", one["readAsText"])
	}

	c := &vigil.Change{SentinelID: e.sen.ID, ResourceID: e.res, FromVersion: e.vs[0].ID, ToVersion: e.vs[1].ID,
		DetectedAt: time.Now().UTC(), Summary: "changed"}
	if err := e.s.Store.CreateChange(ctx, c); err != nil {
		t.Fatal(err)
	}
	type change struct {
		ID             int64   `json:"id"`
		FromReadAsText *string `json:"fromReadAsText"`
		ToReadAsText   *string `json:"toReadAsText"`
	}
	check := func(where string, got change) {
		t.Helper()
		if got.FromReadAsText != nil || got.ToReadAsText == nil || !strings.HasPrefix(*got.ToReadAsText, deep) {
			t.Errorf("%s: change %d from %v to %v, want none, then %q...", where, got.ID, got.FromReadAsText, got.ToReadAsText, deep)
		}
	}
	var got change
	if err := json.Unmarshal([]byte(e.get("/api/v1/changes/"+strconv.FormatInt(c.ID, 10))), &got); err != nil {
		t.Fatal(err)
	}
	check("GET /api/v1/changes/{id}", got)
	for _, path := range []string{"/api/v1/changes?resource=" + strconv.FormatInt(e.res, 10), "/api/v1/sentinels/" + strconv.FormatInt(e.sen.ID, 10) + "/changes"} {
		var changes struct {
			Items []change `json:"items"`
		}
		if err := json.Unmarshal([]byte(e.get(path)), &changes); err != nil {
			t.Fatal(err)
		}
		if len(changes.Items) != 1 {
			t.Fatalf("%s: %d changes, want 1", path, len(changes.Items))
		}
		check(path, changes.Items[0])
	}
}

// retentionRace is the warehouse of a test server that, asked why a
// version is read as text for the first time, first drops the versions
// older than the newest (the monitor's retention, after a write), as
// though between the listing of a history and the reading of its bodies.
type retentionRace struct {
	*warehouse.Warehouse
	dropped bool
}

func (r *retentionRace) ReadAsTextAll(ctx context.Context, vs []*vigil.Version, budget int64) (map[int64]string, map[int64]error) {
	if !r.dropped && len(vs) > 0 {
		r.dropped = true
		if _, err := r.Warehouse.ApplyRetention(ctx, vs[0].ResourceID, warehouse.Retention{MaxVersions: 1}); err != nil {
			return nil, map[int64]error{vs[0].ID: err}
		}
	}
	return r.Warehouse.ReadAsTextAll(ctx, vs, budget)
}

// TestReadAsTextOfVersionDropped: a history, and a list of versions, whose
// older versions retention drops while their reasons are read (not known:
// stored before reasons were recorded), are answered all the same, with
// no reason for the versions no longer kept.
func TestReadAsTextOfVersionDropped(t *testing.T) {
	ctx := context.Background()
	for name, path := range map[string]string{"history": "/resources/%d", "API versions": "/api/v1/resources/%d/versions"} {
		t.Run(name, func(t *testing.T) {
			e := newReadAsTextEnv(t)
			for _, v := range e.vs {
				if err := e.s.Store.RecordReadAsText(ctx, v.ID, "", 1); err != nil { // stored by an older Vigil
					t.Fatal(err)
				}
			}
			e.s.Warehouse = &retentionRace{Warehouse: e.s.Warehouse.(*warehouse.Warehouse)}
			e.get(strings.Replace(path, "%d", strconv.FormatInt(e.res, 10), 1))
			if _, err := e.s.Store.FindVersionByID(ctx, e.vs[0].ID); vigil.ErrorCode(err) != vigil.ENOTFOUND {
				t.Errorf("version #1 kept (%v): the race did not happen", err)
			}
		})
	}
}

// versionReads counts the versions a store is asked for by id.
type versionReads struct {
	vigil.Store
	n int
}

func (s *versionReads) FindVersionByID(ctx context.Context, id int64) (*vigil.Version, error) {
	s.n++
	return s.Store.FindVersionByID(ctx, id)
}

// TestChangeListReadsEachVersionOnce: a list of changes that share
// versions (one change's new version the next one's old) reads each
// version once, not once for each change that names it.
func TestChangeListReadsEachVersionOnce(t *testing.T) {
	ctx := context.Background()
	e := newReadAsTextEnv(t)
	for i := 1; i < len(e.vs); i++ {
		c := &vigil.Change{SentinelID: e.sen.ID, ResourceID: e.res, FromVersion: e.vs[i-1].ID, ToVersion: e.vs[i].ID,
			DetectedAt: time.Now().UTC(), Summary: "changed"}
		if err := e.s.Store.CreateChange(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	reads := &versionReads{Store: e.s.Store}
	e.s.Store = reads
	var list struct {
		Items []struct {
			ToReadAsText string `json:"toReadAsText"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(e.get("/api/v1/sentinels/"+strconv.FormatInt(e.sen.ID, 10)+"/changes")), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 2 {
		t.Fatalf("%d changes, want 2", len(list.Items))
	}
	if reads.n != len(e.vs) {
		t.Errorf("%d reads of a version for %d changes of %d versions, want %d", reads.n, len(list.Items), len(e.vs), len(e.vs))
	}
}

// bodyReads counts the stored bodies a store is asked for.
type bodyReads struct {
	vigil.Store
	n int
}

func (s *bodyReads) Body(ctx context.Context, versionID int64) (*vigil.StoredBody, error) {
	s.n++
	return s.Store.Body(ctx, versionID)
}

// TestReadAsTextOneWalk: the first view of a history, or a list of its
// versions, whose reasons are not known reads each stored body once (one
// walk down the patch chain), not once for each version whose chain
// passes it.
func TestReadAsTextOneWalk(t *testing.T) {
	for name, path := range map[string]string{"history": "/resources/%d", "API versions": "/api/v1/resources/%d/versions"} {
		t.Run(name, func(t *testing.T) {
			e := newReadAsTextEnv(t)
			codec, err := zstd.New(0)
			if err != nil {
				t.Fatal(err)
			}
			reads := &bodyReads{Store: e.s.Store}
			if e.s.Warehouse, err = warehouse.New(reads, warehouse.Options{Codec: codec}); err != nil {
				t.Fatal(err)
			}
			e.get(strings.Replace(path, "%d", strconv.FormatInt(e.res, 10), 1))
			if reads.n > len(e.vs) {
				t.Errorf("%d stored bodies read for a history of %d versions", reads.n, len(e.vs))
			}
		})
	}
}

// bodyFails is a store whose stored body of one version cannot be read
// (a corrupt patch).
type bodyFails struct {
	vigil.Store
	versionID int64
}

func (s *bodyFails) Body(ctx context.Context, versionID int64) (*vigil.StoredBody, error) {
	if versionID == s.versionID {
		return nil, errors.New("corrupt patch")
	}
	return s.Store.Body(ctx, versionID)
}

// TestReadAsTextOfBodyUnreadable: a history, and a list of versions, one
// of whose versions has a body that cannot be read are answered: that
// version without a reason, the others with theirs; the error is logged
// once.
func TestReadAsTextOfBodyUnreadable(t *testing.T) {
	ctx := context.Background()
	for name, tc := range map[string]struct{ path, want string }{
		"history":      {"/resources/%d", "parse HTML: elements nested more than 512 deep"},
		"API versions": {"/api/v1/resources/%d/versions", `"readAsText": "parse HTML: elements nested more than 512 deep`},
	} {
		t.Run(name, func(t *testing.T) {
			e := newReadAsTextEnv(t)
			for _, v := range e.vs[:2] {
				if err := e.s.Store.RecordReadAsText(ctx, v.ID, "", 1); err != nil { // stored by an older Vigil
					t.Fatal(err)
				}
			}
			var log bytes.Buffer
			e.s.Logger = slog.New(slog.NewTextHandler(&log, nil))
			codec, err := zstd.New(0)
			if err != nil {
				t.Fatal(err)
			}
			if e.s.Warehouse, err = warehouse.New(&bodyFails{Store: e.s.Store, versionID: e.vs[0].ID}, warehouse.Options{Codec: codec}); err != nil {
				t.Fatal(err)
			}
			page := e.get(strings.Replace(tc.path, "%d", strconv.FormatInt(e.res, 10), 1))
			if !strings.Contains(page, tc.want) {
				t.Errorf("the other versions' reasons are missing (%q):\n%s", tc.want, page)
			}
			if n := strings.Count(log.String(), "corrupt patch"); n != 1 {
				t.Errorf("the unreadable body logged %d times, want once:\n%s", n, log.String())
			}
		})
	}
}

// recordedBytes sums the sizes of the versions whose reasons a store is
// asked to record: the bytes of bodies parsed to learn them.
type recordedBytes struct {
	vigil.Store
	n int64
}

func (s *recordedBytes) RecordReadAsText(ctx context.Context, versionID int64, reason string, reading int) error {
	v, err := s.Store.FindVersionByID(ctx, versionID)
	if err != nil {
		return err
	}
	s.n += v.Size
	return s.Store.RecordReadAsText(ctx, versionID, reason, reading)
}

// TestReadAsTextBudget: a history, or a list of versions, whose reasons
// are not known parses bodies of no more than the request's budget; a
// version past it is shown as not known yet (no note; no readAsText),
// until the background fill reads it.
func TestReadAsTextBudget(t *testing.T) {
	ctx := context.Background()
	const deep = "parse HTML: elements nested more than 512 deep"
	for name, tc := range map[string]struct{ path, known string }{
		"history":      {"/resources/%d", `shown as their source text: ` + deep},
		"API versions": {"/api/v1/resources/%d/versions", `"readAsText": "` + deep},
	} {
		t.Run(name, func(t *testing.T) {
			e := newReadAsTextEnv(t)
			for _, v := range e.vs {
				if err := e.s.Store.RecordReadAsText(ctx, v.ID, "", 1); err != nil { // stored by an older Vigil
					t.Fatal(err)
				}
			}
			codec, err := zstd.New(0)
			if err != nil {
				t.Fatal(err)
			}
			count := &recordedBytes{Store: e.s.Store}
			w, err := warehouse.New(count, warehouse.Options{Codec: codec})
			if err != nil {
				t.Fatal(err)
			}
			e.s.Warehouse = w
			e.s.ReadAsTextBudget = e.vs[1].Size - 1 // the deep version does not fit; the two small ones do
			path := strings.Replace(tc.path, "%d", strconv.FormatInt(e.res, 10), 1)
			page := e.get(path)
			if count.n > e.s.ReadAsTextBudget {
				t.Errorf("%d bytes of bodies parsed, past the budget of %d", count.n, e.s.ReadAsTextBudget)
			}
			if count.n == 0 {
				t.Errorf("no body parsed within the budget")
			}
			if strings.Contains(page, deep) {
				t.Errorf("the version past the budget is noted:\n%s", page)
			}
			for {
				n, _, err := w.FillReadAsText(ctx, 1<<20)
				if err != nil {
					t.Fatal(err)
				}
				if n == 0 {
					break
				}
			}
			if page := e.get(path); !strings.Contains(page, tc.known) {
				t.Errorf("after the background fill, no %q:\n%s", tc.known, page)
			}
		})
	}
}

// TestAPIReading: each version the API answers says how its body is read
// (reading): "page", "text" (with readAsText, why) or "unknown" (not known
// yet: past the request's budget), and each change says it of its two
// versions (fromReading, toReading), none for a first sighting: a client
// tells a page from a version whose reason is not known yet.
func TestAPIReading(t *testing.T) {
	ctx := context.Background()
	e := newReadAsTextEnv(t)
	const deep = "parse HTML: elements nested more than 512 deep"
	e.get("/api/v1/resources/" + strconv.FormatInt(e.res, 10) + "/versions") // the three read, their reasons recorded
	later := strings.Repeat("<div>", 700) + "later" + strings.Repeat("</div>", 700)
	unknown, err := e.s.Warehouse.(*warehouse.Warehouse).Put(ctx, &warehouse.Fetch{URL: "http://a.example/p",
		FetchedAt: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), Status: 200, ContentType: "text/html", Body: []byte(later)})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.s.Store.RecordReadAsText(ctx, unknown.ID, "", 1); err != nil { // as stored by an older Vigil
		t.Fatal(err)
	}
	e.s.ReadAsTextBudget = 1 // the fourth not read
	type state struct{ reading, readAsText string }
	want := map[int64]state{e.vs[0].ID: {"page", ""}, e.vs[1].ID: {"text", deep}, unknown.ID: {"unknown", ""}}
	check := func(where string, v map[string]any) {
		t.Helper()
		id := int64(v["id"].(float64))
		w := want[id]
		why, has := v["readAsText"].(string)
		if v["reading"] != w.reading || has != (w.readAsText != "") || !strings.HasPrefix(why, w.readAsText) {
			t.Errorf("%s: version %d reading %v, readAsText %v; want %q, %q", where, id, v["reading"], v["readAsText"], w.reading, w.readAsText)
		}
	}
	for id := range want {
		var one map[string]any
		if err := json.Unmarshal([]byte(e.get("/api/v1/versions/"+strconv.FormatInt(id, 10))), &one); err != nil {
			t.Fatal(err)
		}
		check("GET /api/v1/versions/{id}", one)
	}
	var list struct {
		Items []map[string]any `json:"items"`
	}
	if err := json.Unmarshal([]byte(e.get("/api/v1/resources/"+strconv.FormatInt(e.res, 10)+"/versions")), &list); err != nil {
		t.Fatal(err)
	}
	for _, v := range list.Items {
		if _, ok := want[int64(v["id"].(float64))]; ok {
			check("GET /api/v1/resources/{id}/versions", v)
		}
	}

	type sides struct{ from, to state }
	changes := map[int64]sides{}
	for _, c := range []struct {
		from, to int64
		want     sides
	}{
		{0, e.vs[0].ID, sides{state{}, state{"page", ""}}},
		{e.vs[0].ID, e.vs[1].ID, sides{state{"page", ""}, state{"text", deep}}},
		{e.vs[1].ID, unknown.ID, sides{state{"text", deep}, state{"unknown", ""}}},
	} {
		ch := &vigil.Change{SentinelID: e.sen.ID, ResourceID: e.res, FromVersion: c.from, ToVersion: c.to,
			DetectedAt: time.Now().UTC(), Summary: "changed"}
		if err := e.s.Store.CreateChange(ctx, ch); err != nil {
			t.Fatal(err)
		}
		changes[ch.ID] = c.want
	}
	checkChange := func(where string, c map[string]any) {
		t.Helper()
		id := int64(c["id"].(float64))
		w := changes[id]
		for _, side := range []struct {
			name string
			want state
		}{{"from", w.from}, {"to", w.to}} {
			reading, hasReading := c[side.name+"Reading"]
			why, has := c[side.name+"ReadAsText"].(string)
			if hasReading != (side.want.reading != "") || (hasReading && reading != side.want.reading) ||
				has != (side.want.readAsText != "") || !strings.HasPrefix(why, side.want.readAsText) {
				t.Errorf("%s: change %d %sReading %v, %sReadAsText %v; want %q, %q",
					where, id, side.name, reading, side.name, c[side.name+"ReadAsText"], side.want.reading, side.want.readAsText)
			}
		}
	}
	for id := range changes {
		var one map[string]any
		if err := json.Unmarshal([]byte(e.get("/api/v1/changes/"+strconv.FormatInt(id, 10))), &one); err != nil {
			t.Fatal(err)
		}
		checkChange("GET /api/v1/changes/{id}", one)
	}
	for _, path := range []string{"/api/v1/changes?resource=" + strconv.FormatInt(e.res, 10), "/api/v1/sentinels/" + strconv.FormatInt(e.sen.ID, 10) + "/changes"} {
		var list struct {
			Items []map[string]any `json:"items"`
		}
		if err := json.Unmarshal([]byte(e.get(path)), &list); err != nil {
			t.Fatal(err)
		}
		if len(list.Items) != len(changes) {
			t.Fatalf("%s: %d changes, want %d", path, len(list.Items), len(changes))
		}
		for _, c := range list.Items {
			checkChange(path, c)
		}
	}
}

// TestDiffPageReadAsTextBudget: the diff page learns why its versions are
// read as text within the request's budget, as the history does: a
// version whose reason is not known yet and whose body is past the budget
// is not read, and the page, in every view, says that it is not known yet
// rather than showing it as a page; once known (the background fill), the
// reason is shown.
func TestDiffPageReadAsTextBudget(t *testing.T) {
	ctx := context.Background()
	const deep = "parse HTML: elements nested more than 512 deep"
	for _, view := range []string{"inline", "records"} {
		t.Run(view, func(t *testing.T) {
			e := newReadAsTextEnv(t)
			w := e.s.Warehouse.(*warehouse.Warehouse)
			if err := w.RecordReadAsText(ctx, e.vs[0].ID, ""); err != nil { // known: a page
				t.Fatal(err)
			}
			if err := e.s.Store.RecordReadAsText(ctx, e.vs[1].ID, "", 1); err != nil { // stored by an older Vigil
				t.Fatal(err)
			}
			codec, err := zstd.New(0)
			if err != nil {
				t.Fatal(err)
			}
			count := &recordedBytes{Store: e.s.Store}
			if e.s.Warehouse, err = warehouse.New(count, warehouse.Options{Codec: codec}); err != nil {
				t.Fatal(err)
			}
			e.s.ReadAsTextBudget = 4
			path := "/resources/" + strconv.FormatInt(e.res, 10) + "/diff?from=" + strconv.FormatInt(e.vs[0].ID, 10) +
				"&to=" + strconv.FormatInt(e.vs[1].ID, 10) + "&view=" + view
			page := e.get(path)
			if count.n > e.s.ReadAsTextBudget {
				t.Errorf("%d bytes of bodies parsed to learn why, past the budget of %d", count.n, e.s.ReadAsTextBudget)
			}
			unknown := `<p class="alert note" id="to-read-as-text-unknown">Whether version #2 parses, or is shown and compared as its source text, is not known yet`
			if !strings.Contains(page, unknown) {
				t.Errorf("no %q:\n%s", unknown, page)
			}
			if strings.Contains(page, `id="to-read-as-text"`) || strings.Contains(page, `id="from-read-as-text`) {
				t.Errorf("a version noted as read as text, or the page as not known:\n%s", page)
			}
			if _, _, err := w.FillReadAsText(ctx, 1<<20); err != nil {
				t.Fatal(err)
			}
			page = e.get(path)
			if want := `id="to-read-as-text">Version #2 does not parse, so it is shown, and compared, as its source text: ` + deep; !strings.Contains(page, want) {
				t.Errorf("once known, no %q:\n%s", want, page)
			}
			if strings.Contains(page, "read-as-text-unknown") {
				t.Errorf("once known, still said not known:\n%s", page)
			}
		})
	}
}

// TestHistoryReadAsTextUnknown: the history marks a version whose reason
// is not known yet (past the request's budget) as not known yet, as the
// diff page and the API's reading say it, and says once what that means,
// rather than show it like a page; once known, the mark is gone.
func TestHistoryReadAsTextUnknown(t *testing.T) {
	ctx := context.Background()
	e := newReadAsTextEnv(t)
	w := e.s.Warehouse.(*warehouse.Warehouse)
	if err := w.RecordReadAsText(ctx, e.vs[0].ID, ""); err != nil { // known: a page
		t.Fatal(err)
	}
	if err := e.s.Store.RecordReadAsText(ctx, e.vs[1].ID, "", 1); err != nil { // stored by an older Vigil
		t.Fatal(err)
	}
	e.s.ReadAsTextBudget = 4 // the deep version not read
	path := "/resources/" + strconv.FormatInt(e.res, 10)
	page := e.get(path)
	mark := func(v *vigil.Version) string { return `id="read-as-text-unknown-` + strconv.FormatInt(v.ID, 10) + `"` }
	if !strings.Contains(page, mark(e.vs[1])) {
		t.Errorf("the version past the budget is not marked not known yet (%s):\n%s", mark(e.vs[1]), page)
	}
	for _, v := range []*vigil.Version{e.vs[0], e.vs[2]} {
		if strings.Contains(page, mark(v)) {
			t.Errorf("version #%d, known, marked not known yet:\n%s", v.Seq, page)
		}
	}
	if n := strings.Count(page, `<p class="alert note" id="read-as-text-unknown">`); n != 1 {
		t.Errorf("%d notes of what not known yet means, want 1:\n%s", n, page)
	}
	if _, _, err := w.FillReadAsText(ctx, 1<<20); err != nil {
		t.Fatal(err)
	}
	page = e.get(path)
	if strings.Contains(page, "read-as-text-unknown") {
		t.Errorf("once known, still said not known:\n%s", page)
	}
	if !strings.Contains(page, `id="read-as-text-`+strconv.FormatInt(e.vs[1].ID, 10)+`"`) {
		t.Errorf("once known, not marked read as text:\n%s", page)
	}
}

// TestReadAsTextServedAsText: a version served as text that is not markup
// (text/plain) is read as its source, and the API says so (reading
// "text", readAsText "served as text/plain"), as do the history page and
// the diff page, in words that do not say it fails to parse.
func TestReadAsTextServedAsText(t *testing.T) {
	ctx := context.Background()
	e := newReadAsTextEnv(t)
	var vs []*vigil.Version
	for i, body := range []string{"User-agent: *\nDisallow: /a\n", "User-agent: *\nDisallow: /b\n"} {
		v, err := e.s.Warehouse.(*warehouse.Warehouse).Put(ctx, &warehouse.Fetch{URL: "http://a.example/p",
			FetchedAt: time.Date(2026, 1, 2+i, 0, 0, 0, 0, time.UTC), Status: 200, ContentType: "text/plain", Body: []byte(body)})
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
	}
	var list struct {
		Items []struct {
			ID         int64  `json:"id"`
			Reading    string `json:"reading"`
			ReadAsText string `json:"readAsText"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(e.get("/api/v1/resources/"+strconv.FormatInt(e.res, 10)+"/versions")), &list); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, it := range list.Items {
		if it.ID != vs[0].ID && it.ID != vs[1].ID {
			continue
		}
		found++
		if it.Reading != readingText || it.ReadAsText != "served as text/plain" {
			t.Errorf("version %d: reading %q, readAsText %q, want %q, %q", it.ID, it.Reading, it.ReadAsText, readingText, "served as text/plain")
		}
	}
	if found != 2 {
		t.Fatalf("%d of the 2 text versions listed", found)
	}
	id := func(v *vigil.Version) string { return strconv.FormatInt(v.ID, 10) }
	page := e.get("/resources/" + strconv.FormatInt(e.res, 10) + "/diff?from=" + id(vs[0]) + "&to=" + id(vs[1]) + "&view=inline")
	for _, want := range []string{
		`id="from-read-as-text">Version #4 is served as text/plain, so it is shown, and compared, as its source text.</p>`,
		`id="to-read-as-text">Version #5 is served as text/plain, so it is shown, and compared, as its source text.</p>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the diff page lacks %q:\n%s", want, page)
		}
	}
	page = e.get("/resources/" + strconv.FormatInt(e.res, 10))
	if want := `<strong>Read as text (1):</strong> the versions so marked are served as text/plain, and are read, compared and shown as their source text.</p>`; !strings.Contains(page, want) {
		t.Errorf("the history page lacks %q:\n%s", want, page)
	}
}

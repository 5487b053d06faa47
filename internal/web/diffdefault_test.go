package web

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestDiffPageDefaultsToLatest: the diff page opened without from and to
// (a link to a resource's diff) shows the latest change, between the last
// two versions that can be compared (a failed fetch has no body), and
// says which it chose; a resource with fewer than two says there is
// nothing to compare yet. It answered 400, "from is missing". The API
// stays strict: it is asked by programs, which name what they compare.
func TestDiffPageDefaultsToLatest(t *testing.T) {
	e := newReadAsTextEnv(t)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	put := func(f *warehouse.Fetch) int64 {
		t.Helper()
		f.FetchedAt, f.ContentType = at, "text/html"
		at = at.Add(time.Hour)
		v, err := e.s.Warehouse.(*warehouse.Warehouse).Put(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		return v.ResourceID
	}
	owner, err := e.s.Store.FindUserByID(ctx, e.sen.OwnerID)
	if err != nil {
		t.Fatal(err)
	}
	createChecked(t, e.s, owner, "Create Sentinel one Using http://b.example/one")
	createChecked(t, e.s, owner, "Create Sentinel failed Using http://c.example/failed")
	// The newest version of e's resource is a failed fetch: the latest
	// change is from #2 to #3.
	put(&warehouse.Fetch{URL: "http://a.example/p", Error: "connection refused"})
	one := put(&warehouse.Fetch{URL: "http://b.example/one", Status: 200, Body: []byte("<p>one</p>")})
	failed := put(&warehouse.Fetch{URL: "http://c.example/failed", Error: "connection refused"})
	put(&warehouse.Fetch{URL: "http://c.example/failed", Status: 200, Body: []byte("<p>back</p>")})

	res := strconv.FormatInt(e.res, 10)
	from, to := strconv.FormatInt(e.vs[1].ID, 10), strconv.FormatInt(e.vs[2].ID, 10)
	for _, view := range []string{"", "?view=side", "?view=records"} {
		page := e.get("/resources/" + res + "/diff" + view)
		for _, want := range []string{
			`id="diff-default"`, "the latest change", "#2", "#3",
			`href="/api/v1/resources/` + res + `/diff?from=` + from + `&amp;to=` + to + `&amp;format=json"`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("diff%s lacks %q:\n%s", view, want, page)
			}
		}
		if view != "?view=records" && !strings.Contains(page, `/diff/frame?from=`+from+`&amp;to=`+to) {
			t.Errorf("diff%s: the frame is not from #2 to #3:\n%s", view, page)
		}
	}
	if page := e.get("/resources/" + res + "/diff?from=" + to + "&to=" + from); strings.Contains(page, `id="diff-default"`) {
		t.Errorf("a diff that names its versions says it chose them:\n%s", page)
	}
	for name, id := range map[string]int64{"one version": one, "a failed fetch and one version": failed} {
		page := e.get("/resources/" + strconv.FormatInt(id, 10) + "/diff")
		for _, want := range []string{`id="diff-nothing"`, "Nothing to compare yet", `href="/resources/` + strconv.FormatInt(id, 10) + `"`} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: the page lacks %q:\n%s", name, want, page)
			}
		}
		if strings.Contains(page, "<iframe") {
			t.Errorf("%s: the page shows a frame:\n%s", name, page)
		}
	}

	// The API stays strict, naming the parameter missing.
	status, body := newSignedIn(t, e.s, owner).do("GET", "/api/v1/resources/"+res+"/diff", "")
	if status != http.StatusBadRequest || !strings.Contains(body, "from is missing") {
		t.Errorf("the API without from and to: %d %s", status, body)
	}
}

// TestDiffPageChangeWithoutVersions: the diff page of a change named
// without from and to shows that change, between its own two versions,
// not the resource's latest change under the change's summary.
func TestDiffPageChangeWithoutVersions(t *testing.T) {
	e := newReadAsTextEnv(t)
	c := &vigil.Change{SentinelID: e.sen.ID, ResourceID: e.res, FromVersion: e.vs[0].ID, ToVersion: e.vs[1].ID,
		DetectedAt: time.Now().UTC(), Summary: "the first change"}
	if err := e.s.Store.CreateChange(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	res := strconv.FormatInt(e.res, 10)
	from, to := strconv.FormatInt(e.vs[0].ID, 10), strconv.FormatInt(e.vs[1].ID, 10)
	for _, view := range []string{"", "&view=records"} {
		page := e.get("/resources/" + res + "/diff?change=" + strconv.FormatInt(c.ID, 10) + view)
		if want := `/diff?from=` + from + `&amp;to=` + to + `&amp;format=json"`; !strings.Contains(page, want) || strings.Contains(page, `id="diff-default"`) {
			t.Errorf("diff?change%s: not the change's versions (want %q), or said to be the latest:\n%s", view, want, page)
		}
	}
}

// TestDiffPageChangeReading: the diff page of a change whose versions
// were read differently says so, as the change's message did (its stored
// vigil.Change.Reading): which version is read as text and why, and what
// could not be applied to the texts; one read alike says nothing.
func TestDiffPageChangeReading(t *testing.T) {
	e := newReadAsTextEnv(t)
	res := strconv.FormatInt(e.res, 10)
	for _, tc := range []struct {
		reading *vigil.ChangeReading
		want    string
	}{
		{&vigil.ChangeReading{AsText: "new", Why: "served as text/plain", NotApplied: []string{vigil.SelectorScope}, ScopeNotApplied: []string{"too <deep>"}},
			`<p class="alert note" id="change-reading">The new version is read as text (served as text/plain): both versions were compared as text. The scope could not be applied (too &lt;deep&gt;): the whole texts were compared.</p>`},
		{nil, ""},
	} {
		c := &vigil.Change{SentinelID: e.sen.ID, ResourceID: e.res, FromVersion: e.vs[0].ID, ToVersion: e.vs[1].ID,
			DetectedAt: time.Now().UTC(), Summary: "a change", Reading: tc.reading}
		if err := e.s.Store.CreateChange(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		page := e.get("/resources/" + res + "/diff?change=" + strconv.FormatInt(c.ID, 10))
		if tc.want != "" && !strings.Contains(page, tc.want) || tc.want == "" && strings.Contains(page, `id="change-reading"`) {
			t.Errorf("reading %+v: the page does not hold %q:\n%s", tc.reading, tc.want, page)
		}
		// The API gives it too, as the change keeps it.
		api := e.get("/api/v1/changes/" + strconv.FormatInt(c.ID, 10))
		var got vigil.Change
		if err := json.Unmarshal([]byte(api), &got); err != nil || !reflect.DeepEqual(got.Reading, tc.reading) {
			t.Errorf("reading %+v: the API gives %s (%v)", tc.reading, api, err)
		}
	}
}

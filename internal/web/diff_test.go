package web

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestDiffPageVersionLabels: the diff page names its two versions as the
// history does, by their date and sequence number, each linking to its
// place in the history; "From #1" linked to the history's top, and "#4"
// beside ?to=5 (a version id) read as another version.
func TestDiffPageVersionLabels(t *testing.T) {
	e := newReadAsTextEnv(t)
	ctx := context.Background()
	at := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	put := func(url, body string, at time.Time) int64 {
		t.Helper()
		v, err := e.s.Warehouse.(*warehouse.Warehouse).Put(ctx, &warehouse.Fetch{URL: url, FetchedAt: at, Status: 200, ContentType: "text/html", Body: []byte(body)})
		if err != nil {
			t.Fatal(err)
		}
		return v.ID
	}
	put("http://b.example/q", "<p>another page</p>", at)
	to := put("http://a.example/p", "<p>later</p>", at.Add(time.Hour)) // seq 4, another id
	from := e.vs[0]
	res := strconv.FormatInt(e.res, 10)
	page := e.get("/resources/" + res + "/diff?from=" + strconv.FormatInt(from.ID, 10) + "&to=" + strconv.FormatInt(to, 10) + "&view=inline")
	for _, want := range []string{
		`From <a href="/resources/` + res + `#version-` + strconv.FormatInt(from.ID, 10) + `"><time datetime="` + datetime(from.FetchedAt) + `">` + fmtTime(from.FetchedAt, nil) + `</time> #1</a>`,
		` to <a href="/resources/` + res + `#version-` + strconv.FormatInt(to, 10) + `"><time datetime="` + datetime(at.Add(time.Hour)) + `">` + fmtTime(at.Add(time.Hour), nil) + `</time> #4</a>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the diff page lacks %q:\n%s", want, page)
		}
	}
	history := e.get("/resources/" + res)
	for _, id := range []int64{from.ID, to} {
		if !strings.Contains(history, `id="version-`+strconv.FormatInt(id, 10)+`"`) {
			t.Errorf("the history has no anchor for version %d:\n%s", id, history)
		}
	}
}

// TestDiffVersionsMissing: a diff without its from or to version says
// which query parameter is missing and what it takes; it said
// `from "" is not a positive number`, as if an empty value had been given.
func TestDiffVersionsMissing(t *testing.T) {
	e := newReadAsTextEnv(t)
	res := &vigil.Resource{ID: e.res}
	v := strconv.FormatInt(e.vs[0].ID, 10)
	r := strconv.FormatInt(e.res, 10)
	for _, c := range []struct{ from, to, want string }{
		{"", "", "from is missing: want a version id of resource " + r + " (GET /api/v1/resources/" + r + "/versions lists them)"},
		{v, "", "to is missing: want a version id of resource " + r + " (GET /api/v1/resources/" + r + "/versions lists them)"},
		{"x", v, `from must be a positive number`},
	} {
		_, err := e.s.loadDiff(context.Background(), res, c.from, c.to, apiVersionList(res))
		if vigil.ErrorCode(err) != vigil.EINVALID || vigil.ErrorMessage(err) != c.want {
			t.Errorf("from %q to %q: %v (%s), want %q", c.from, c.to, err, vigil.ErrorCode(err), c.want)
		}
	}
}

// TestDiffPageLegend: the colour legend is shown with the views that
// colour the page, not above the change records' table, which has none.
func TestDiffPageLegend(t *testing.T) {
	e := newReadAsTextEnv(t)
	res := strconv.FormatInt(e.res, 10)
	for _, tc := range []struct {
		view   string
		legend bool
	}{{"inline", true}, {"side", true}, {"changes", true}, {"records", false}} {
		page := e.get("/resources/" + res + "/diff?from=" + strconv.FormatInt(e.vs[0].ID, 10) + "&to=" + strconv.FormatInt(e.vs[1].ID, 10) + "&view=" + tc.view)
		if got := strings.Contains(page, `class="legend"`); got != tc.legend {
			t.Errorf("view %s: legend shown %v, want %v", tc.view, got, tc.legend)
		}
	}
}

// TestDiffVersionsNamed: a diff (the dashboard's page, each of its views,
// and the API's) that cannot be made names the version at fault by its
// parameter: "version 99 not found" did not say whether from or to, nor
// "a failed fetch has no body to compare" which one failed. The page that
// misses a version points to the history, where the dashboard lists them,
// not to the API only.
func TestDiffVersionsNamed(t *testing.T) {
	e := newReadAsTextEnv(t)
	ctx := context.Background()
	failed, err := e.s.Warehouse.(*warehouse.Warehouse).Put(ctx, &warehouse.Fetch{URL: "http://a.example/p", FetchedAt: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), Error: "HTTP 503"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := e.s.Warehouse.(*warehouse.Warehouse).Put(ctx, &warehouse.Fetch{URL: "http://b.example/q", FetchedAt: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
		Status: 200, ContentType: "text/html", Body: []byte("<p>another page</p>")})
	if err != nil {
		t.Fatal(err)
	}
	owner, err := e.s.Store.FindUserByID(ctx, e.sen.OwnerID)
	if err != nil {
		t.Fatal(err)
	}
	client := newSignedIn(t, e.s, owner)
	get := func(path string) (int, string) {
		t.Helper()
		code, body := client.do("GET", path, "")
		return code, html.UnescapeString(body)
	}
	r := strconv.FormatInt(e.res, 10)
	v := strconv.FormatInt(e.vs[0].ID, 10)
	f := strconv.FormatInt(failed.ID, 10)
	o := strconv.FormatInt(other.ID, 10)
	for _, c := range []struct {
		query string
		code  int
		want  string
	}{
		{"from=" + v + "&to=99999", http.StatusNotFound, "to: version 99999 not found"},
		{"from=99999&to=" + v, http.StatusNotFound, "from: version 99999 not found"},
		{"from=" + f + "&to=" + v, http.StatusBadRequest, "from: version " + f + " is a failed fetch (HTTP 503), which has no body to compare"},
		{"from=" + v + "&to=" + f, http.StatusBadRequest, "to: version " + f + " is a failed fetch (HTTP 503), which has no body to compare"},
		{"from=" + o + "&to=" + v, http.StatusBadRequest, "from: version " + o + " is not a version of resource " + r},
	} {
		for _, path := range []string{
			"/api/v1/resources/" + r + "/diff?" + c.query,
			"/resources/" + r + "/diff?" + c.query + "&view=inline",
			"/resources/" + r + "/diff?" + c.query + "&view=records",
		} {
			if code, body := get(path); code != c.code || !strings.Contains(body, c.want) {
				t.Errorf("GET %s: %d, want %d and %q:\n%s", path, code, c.code, c.want, body)
			}
		}
	}
	want := "to is missing: want a version id of resource " + r + " (its history, /resources/" + r + ", lists them)"
	if code, body := get("/resources/" + r + "/diff?from=" + v); code != http.StatusBadRequest || !strings.Contains(body, want) {
		t.Errorf("the diff page without to: %d, want 400 and %q:\n%s", code, want, body)
	}
}

// TestDiffNamesVersions: the API's delta, in JSON and in XyDelta, names
// its two versions in from and to, by id and fetch time, as vigil diff
// names its two files there; both were empty.
func TestDiffNamesVersions(t *testing.T) {
	e := newReadAsTextEnv(t)
	from, to := e.vs[0], e.vs[2]
	path := "/api/v1/resources/" + strconv.FormatInt(e.res, 10) + "/diff?from=" + strconv.FormatInt(from.ID, 10) + "&to=" + strconv.FormatInt(to.ID, 10)
	label := func(v *vigil.Version) string {
		return "version " + strconv.FormatInt(v.ID, 10) + ", fetched " + v.FetchedAt.UTC().Format(time.RFC3339)
	}
	var d struct{ From, To string }
	if err := json.Unmarshal([]byte(e.get(path+"&format=json")), &d); err != nil {
		t.Fatal(err)
	}
	if d.From != label(from) || d.To != label(to) {
		t.Errorf("JSON from %q, to %q; want %q and %q", d.From, d.To, label(from), label(to))
	}
	xml := e.get(path + "&format=xydelta")
	for _, want := range []string{`from="` + label(from) + `"`, `to="` + label(to) + `"`} {
		if !strings.Contains(xml, want) {
			t.Errorf("XyDelta lacks %s:\n%.300s", want, xml)
		}
	}
}

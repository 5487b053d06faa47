package web

import (
	"context"
	"io"
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
	ctx := context.Background()
	s, u := newTestServer(t)
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	w, err := warehouse.New(s.Store, warehouse.Options{Codec: codec})
	if err != nil {
		t.Fatal(err)
	}
	s.Warehouse = w
	createChecked(t, s, u, "Create Sentinel p Using http://a.example/p")
	deep := strings.Repeat("<div>", 600) + "x" + strings.Repeat("</div>", 600)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, f := range []*warehouse.Fetch{
		{Body: []byte("<p>a page</p>")},
		{Body: []byte(deep)},
		{Body: []byte("<p>told</p>"), Read: true, ReadAsText: "recorded <here>"},
	} {
		f.URL, f.FetchedAt, f.Status, f.ContentType = "http://a.example/p", at.Add(time.Duration(i)*time.Hour), 200, "text/html"
		v, err := w.Put(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
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
	return get, vs[0].ResourceID, vs
}

// TestDiffPageReadAsTextAsRecorded: the diff page says why a side is read
// as its source text from what is recorded with the version, not by
// reading its body again: a page whose record says so is noted, escaped.
func TestDiffPageReadAsTextAsRecorded(t *testing.T) {
	get, res, vs := readAsTextServer(t)
	id := func(v *vigil.Version) string { return strconv.FormatInt(v.ID, 10) }
	page := get("/resources/" + strconv.FormatInt(res, 10) + "/diff?from=" + id(vs[1]) + "&to=" + id(vs[2]) + "&view=inline")
	for _, want := range []string{
		`id="from-as-source">Version #2 does not parse, so it is shown, and compared, as its source text: parse HTML: elements nested more than 512 deep`,
		`id="to-as-source">Version #3 does not parse, so it is shown, and compared, as its source text: recorded &lt;here&gt;.`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the diff page lacks %q:\n%s", want, page)
		}
	}
	if page := get("/resources/" + strconv.FormatInt(res, 10) + "/diff?from=" + id(vs[0]) + "&to=" + id(vs[0]) + "&view=inline"); strings.Contains(page, "as-source") {
		t.Errorf("a page noted as read as text:\n%s", page)
	}
}

// TestResourcePageReadAsText: the history of a resource notes each version
// read as its source text, and why (escaped), from what is recorded with
// it; a version read as a page has no such note.
func TestResourcePageReadAsText(t *testing.T) {
	get, res, vs := readAsTextServer(t)
	page := get("/resources/" + strconv.FormatInt(res, 10))
	for i, want := range []string{
		"",
		"parse HTML: elements nested more than 512 deep",
		"recorded &lt;here&gt;",
	} {
		id := `id="as-source-` + strconv.FormatInt(vs[i].ID, 10) + `"`
		switch {
		case want == "" && strings.Contains(page, id):
			t.Errorf("version #%d, a page, noted as read as text:\n%s", i+1, page)
		case want != "" && !strings.Contains(page, id+`>Read as its source text, as it does not parse: `+want):
			t.Errorf("version #%d: no note %q:\n%s", i+1, want, page)
		}
	}
}

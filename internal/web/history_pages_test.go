package web

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestHistoryTimelinePages: a history of more versions than its timeline
// shows at once has pages, so that its oldest versions can be reached
// (and compared) from the dashboard; the compare form offers the versions
// of the page shown.
func TestHistoryTimelinePages(t *testing.T) {
	ctx := context.Background()
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	createChecked(t, s, u, "Create Sentinel p Using http://a.example/p")
	const n = timelinePage + 5
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var res int64
	for i := range n {
		v, err := w.Put(ctx, &warehouse.Fetch{URL: "http://a.example/p", FetchedAt: at.Add(time.Duration(i) * time.Hour),
			Status: 200, ContentType: "text/html", Body: fmt.Appendf(nil, "<p>version %d</p>", i+1)})
		if err != nil {
			t.Fatal(err)
		}
		res = v.ResourceID
	}
	c := newSignedIn(t, s, u)
	path := "/resources/" + strconv.FormatInt(res, 10)

	code, first := c.do("GET", path, "")
	if code != 200 {
		t.Fatalf("GET %s: %d\n%s", path, code, first)
	}
	for _, want := range []string{
		fmt.Sprintf("Showing 1–%d of %d.", timelinePage, n),
		fmt.Sprintf(`<a href="%s?offset=%d" rel="next">`, path, timelinePage),
		fmt.Sprintf("<strong>#%d</strong>", n),
	} {
		if !strings.Contains(first, want) {
			t.Errorf("first page: no %q", want)
		}
	}
	if strings.Contains(first, "<strong>#1</strong>") {
		t.Errorf("first page shows the oldest version, #1")
	}

	code, older := c.do("GET", fmt.Sprintf("%s?offset=%d", path, timelinePage), "")
	if code != 200 {
		t.Fatalf("older page: %d\n%s", code, older)
	}
	for _, want := range []string{
		fmt.Sprintf("Showing %d–%d of %d.", timelinePage+1, n, n),
		fmt.Sprintf(`<a href="%s" rel="prev">`, path),
		"<strong>#1</strong>", "<strong>#5</strong>", "first version",
		">#1 2026-01-01 00:00:00 UTC</option>",
	} {
		if !strings.Contains(older, want) {
			t.Errorf("older page: no %q", want)
		}
	}
	if strings.Contains(older, "<strong>#6</strong>") || strings.Contains(older, fmt.Sprintf("<strong>#%d</strong>", n)) {
		t.Errorf("older page shows versions of the first page")
	}

	if code, body := c.do("GET", path+"?offset=-1", ""); code != 400 || !strings.Contains(body, "offset") {
		t.Errorf("offset -1: %d, want 400 naming offset\n%s", code, body)
	}
}

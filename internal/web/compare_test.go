package web

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestCompareAnyTwoVersions: a history's compare form compares any two
// versions of the page, by their numbers, not only those of the page of
// the timeline shown: the oldest with the newest, months apart. A number
// the page has no version of, a failed fetch, or not a number at all
// is said beside the form, naming the field and the versions there are.
func TestCompareAnyTwoVersions(t *testing.T) {
	ctx := context.Background()
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	createChecked(t, s, u, "Create Sentinel p Using http://a.example/p")
	const n = timelinePage + 10
	const failed = 7 // a failed fetch
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var res int64
	for i := range n {
		f := &warehouse.Fetch{URL: "http://a.example/p", FetchedAt: at.Add(time.Duration(i) * 24 * time.Hour),
			Status: 200, ContentType: "text/html", Body: fmt.Appendf(nil, "<p>version %d</p>", i+1)}
		if i+1 == failed {
			f.Status, f.Body, f.Error = 0, nil, "timeout"
		}
		v, err := w.Put(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		res = v.ResourceID
	}
	c := newSignedIn(t, s, u)
	history := "/resources/" + strconv.FormatInt(res, 10)

	code, page := c.do("GET", history, "")
	if code != 200 {
		t.Fatalf("GET %s: %d", history, code)
	}
	for _, want := range []string{
		fmt.Sprintf(`name="from_version" min="1" max="%d" value="%d"`, n, n-1),
		fmt.Sprintf(`name="to_version" min="1" max="%d" value="%d"`, n, n),
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the compare form has no %s", want)
		}
	}

	diff := func(from, to string) (int, string) {
		t.Helper()
		q := url.Values{"view": {"records"}}
		if from != "-" {
			q.Set("from_version", from)
		}
		if to != "-" {
			q.Set("to_version", to)
		}
		return c.do("GET", history+"/diff?"+q.Encode(), "")
	}
	// The oldest version, off the timeline's first page, with the newest.
	code, page = diff("1", fmt.Sprint(n))
	if code != 200 {
		t.Fatalf("compare #1 with #%d: %d\n%s", n, code, page)
	}
	for _, want := range []string{"#1</a> to <a", fmt.Sprintf("#%d</a>.", n), "version 1", fmt.Sprintf("version %d", n)} {
		if !strings.Contains(page, want) {
			t.Errorf("compare #1 with #%d: no %q", n, want)
		}
	}
	// Each version links to its place in the timeline: #1's is on its
	// last page. The links led to the first page, where an old version
	// is not.
	first, err := s.Store.FindVersionBySeq(ctx, res, 1)
	if err != nil {
		t.Fatal(err)
	}
	last, err := s.Store.FindVersionBySeq(ctx, res, n)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		fmt.Sprintf(`From <a href="%s?offset=%d#version-%d">`, history, timelinePage, first.ID),
		fmt.Sprintf(`to <a href="%s#version-%d">`, history, last.ID),
	} {
		if !strings.Contains(page, want) {
			t.Errorf("compare #1 with #%d: no link %s", n, want)
		}
	}
	if _, older := c.do("GET", fmt.Sprintf("%s?offset=%d", history, timelinePage), ""); !strings.Contains(older, fmt.Sprintf(`id="version-%d"`, first.ID)) {
		t.Errorf("the timeline's page the link names does not hold #1")
	}
	if code, page = diff("#2", " 3 "); code != 200 || !strings.Contains(page, "#2</a> to <a") {
		t.Errorf("compare #2 with 3 (a # and spaces as typed): %d", code)
	}

	// A version it cannot compare is said on the history, beside the
	// form, which keeps what was typed and marks the field at fault.
	keeps := fmt.Sprintf("it keeps versions #1 to #%d.", n)
	const lure = "Your session has expired. Sign in again at https://evil.example/login"
	for name, tc := range map[string]struct {
		from, to string
		want     []string
	}{
		"no such version": {"1", "999", []string{"To version: this page has no version #999; " + keeps,
			fmt.Sprintf(`name="to_version" min="1" max="%d" value="999" list="compare-versions" required aria-invalid="true"`, n)}},
		"version 0": {"0", "3", []string{"From version: this page has no version #0; " + keeps}},
		"not a number": {"yesterday", "3", []string{"From version: not a version number (#12 or 12); " + keeps,
			fmt.Sprintf(`name="from_version" min="1" max="%d" list="compare-versions" required aria-invalid="true"`, n)}},
		"a link's words": {lure, "3", []string{"From version: not a version number (#12 or 12); " + keeps}},
		"missing":        {"1", "-", []string{"To version: missing: give the number of a version; " + keeps}},
		"empty":          {"1", "", []string{"To version: missing"}},
		"failed fetch": {fmt.Sprint(failed), "3", []string{fmt.Sprintf("From version: version #%d is a failed fetch (timeout), which has no body to compare", failed),
			fmt.Sprintf(`name="from_version" min="1" max="%d" value="%d" list="compare-versions" required aria-invalid="true"`, n, failed),
			fmt.Sprintf(`name="to_version" min="1" max="%d" value="3" list="compare-versions" required>`, n),
			`<option value="records" selected>`}}, // the view asked for, kept too
		"the smallest int64": {"-9223372036854775808", "3", []string{"From version: this page has no version #-9223372036854775808"}},
	} {
		code, page := diff(tc.from, tc.to)
		if code != 400 {
			t.Errorf("%s: %d, want 400", name, code)
		}
		// What was typed, when it is no version number, is not said
		// again, neither in the alert nor in the field: a link can
		// type anything.
		if strings.Contains(page, "expired") || strings.Contains(page, "yesterday") {
			t.Errorf("%s: the history repeats what was typed:\n%s", name, problemText(page))
		}
		for _, want := range append(tc.want, `id="compare-problem"`, "<h2>Timeline</h2>") {
			if !strings.Contains(page, want) {
				t.Errorf("%s: the history does not say %q:\n%s", name, want, problemText(page))
			}
		}
	}

	// Sent from an older page of the timeline, the form's problem shows
	// that page again, not the first: the history kept the versions the
	// user was reading, and the form offers them.
	older := fmt.Sprintf("%s?offset=%d", history, timelinePage)
	hidden := fmt.Sprintf(`<input type="hidden" name="offset" value="%d">`, timelinePage)
	if _, page := c.do("GET", older, ""); !strings.Contains(page, hidden) {
		t.Errorf("GET %s: the compare form does not send the offset (%s)", older, hidden)
	}
	q := url.Values{"from_version": {"yesterday"}, "to_version": {"1"}, "offset": {strconv.Itoa(timelinePage)}}
	code, page = c.do("GET", history+"/diff?"+q.Encode(), "")
	if code != 400 || !strings.Contains(page, "From version: not a version number") {
		t.Fatalf("compare from the timeline's page at %d: %d\n%s", timelinePage, code, problemText(page))
	}
	for _, want := range []string{fmt.Sprintf(`id="version-%d"`, first.ID), hidden, `<option value="1">#1 `} {
		if !strings.Contains(page, want) {
			t.Errorf("compare from the timeline's page at %d: its problem shows another page, without %s", timelinePage, want)
		}
	}
	if strings.Contains(page, fmt.Sprintf(`id="version-%d"`, last.ID)) {
		t.Errorf("compare from the timeline's page at %d: its problem shows the first page", timelinePage)
	}
	// An offset that is none shows the first page, with the problem.
	for _, bad := range []string{"-1", "x", "99999999999999999999", "9223372036854775807"} {
		code, page := c.do("GET", history+"/diff?from_version=x&to_version=1&offset="+url.QueryEscape(bad), "")
		if code != 400 || !strings.Contains(page, "From version: not a version number") || !strings.Contains(page, fmt.Sprintf(`id="version-%d"`, last.ID)) {
			t.Errorf("compare with offset %q: %d, want 400 and the problem on the first page:\n%s", bad, code, problemText(page))
		}
	}
}

// problemText is the part of a history about its compare form, for a
// test's report.
func problemText(page string) string {
	if i := strings.Index(page, "<h2>Compare"); i >= 0 {
		page = page[i:]
	}
	if i := strings.Index(page, "<h2>Timeline"); i >= 0 {
		page = page[:i]
	}
	return page
}

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
	"github.com/vigil-web/vigil/internal/zstd"
)

// TestCompareAnyTwoVersions: a history's compare form compares any two
// versions of the page, by their numbers, not only those of the page of
// the timeline shown: the oldest with the newest, months apart. A number
// the page has no version of, a failed fetch, or not a number at all
// gets an error that names the field and the versions there are.
func TestCompareAnyTwoVersions(t *testing.T) {
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
	if code, page = diff("#2", " 3 "); code != 200 || !strings.Contains(page, "#2</a> to <a") {
		t.Errorf("compare #2 with 3 (a # and spaces as typed): %d", code)
	}

	keeps := fmt.Sprintf("versions #1 to #%d", n)
	for name, tc := range map[string]struct {
		from, to string
		want     []string
	}{
		"no such version":   {"1", "999", []string{"to_version: this page has no version #999", keeps}},
		"version 0":         {"0", "3", []string{"from_version: this page has no version #0", keeps}},
		"not a number":      {"yesterday", "3", []string{`from_version: &#34;yesterday&#34; is not a version number`, keeps}},
		"missing":           {"1", "-", []string{"to_version is missing", keeps}},
		"failed fetch":      {fmt.Sprint(failed), "3", []string{fmt.Sprintf("from_version: version #%d is a failed fetch (timeout)", failed)}},
		"mixed with an id":  {"1", "", []string{"to_version is missing"}},
		"a version of none": {"-9223372036854775808", "3", []string{"from_version: this page has no version #-9223372036854775808"}},
	} {
		code, page := diff(tc.from, tc.to)
		if code != 400 {
			t.Errorf("%s: %d, want 400", name, code)
		}
		for _, want := range tc.want {
			if !strings.Contains(page, want) {
				t.Errorf("%s: the error page does not say %q:\n%s", name, want, errorText(page))
			}
		}
	}
}

// errorText is the message of an error page, for a test's report.
func errorText(page string) string {
	if i := strings.Index(page, "<main"); i >= 0 {
		page = page[i:]
	}
	if len(page) > 600 {
		page = page[:600]
	}
	return page
}

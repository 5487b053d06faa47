package monitor

import (
	"slices"
	"strings"
	"testing"
)

// TestPageNames: the pages of a message's changes are named in its
// subject by their host and path, the path clipped in its middle when
// long, with their query when two differ by it alone, and by more of
// their URL when clipping names two alike; a message on one page names
// none.
func TestPageNames(t *testing.T) {
	long := "https://reports.example/annual/2026/departments/finance/quarterly/"
	for _, tc := range []struct {
		name string
		urls []string
		want []string
	}{
		{"one page", []string{"https://a.example/x", "https://a.example/x"}, nil},
		{"host and path", []string{"https://a.example/x", "https://b.example/", "https://a.example/x"},
			[]string{"a.example/x", "b.example", "a.example/x"}},
		{"no user nor fragment", []string{"https://u:secret@a.example/x#top", "http://b.example/y"},
			[]string{"a.example/x", "b.example/y"}},
		{"clipped in the middle", []string{long + "summary-a.html", long + "summary-b.html"},
			[]string{"reports.example/…/summary-a.html", "reports.example/…/summary-b.html"}},
		{"clipped in a long name", []string{"https://a.example/" + strings.Repeat("x", 60), "https://a.example/y"},
			[]string{"a.example/…" + strings.Repeat("x", 29), "a.example/y"}},
		{"a host too long to leave room for the path", []string{"https://intranet-reports.finance-department.example.com/a", "https://intranet-reports.finance-department.example.com/b"},
			[]string{"intranet-reports.finance-department.example.com/a", "intranet-reports.finance-department.example.com/b"}},
		{"a long host and a long path", []string{"https://intranet-reports.finance-department.example.com/2026/q1/summary-a.html", "https://b.example/"},
			[]string{"intranet-reports.finance-department.example.com/…/q1/summary-a.html", "b.example"}},
		{"a long host and a long last segment", []string{"https://intranet-reports.finance-department.example.com/" + strings.Repeat("y", 30), "https://b.example/"},
			[]string{"intranet-reports.finance-department.example.com/…" + strings.Repeat("y", 21), "b.example"}},
		{"clipped after a percent escape", []string{"https://a.example/" + strings.Repeat("%C3%A9", 12), "https://a.example/y"},
			[]string{"a.example/…" + strings.Repeat("%C3%A9", 4), "a.example/y"}},
		{"differ by query", []string{"https://a.example/item?id=1", "https://a.example/item?id=2"},
			[]string{"a.example/item?id=1", "a.example/item?id=2"}},
		{"alike once clipped", []string{"https://reports.example/one" + long[23:] + "x", "https://reports.example/two" + long[23:] + "x"},
			[]string{"reports.example/one/annual/2026/departments/finance/quarterly/x", "reports.example/two/annual/2026/departments/finance/quarterly/x"}},
		{"differ by scheme", []string{"http://a.example/x", "https://a.example/x"},
			[]string{"http://a.example/x", "https://a.example/x"}},
		{"differ by user", []string{"https://ann:secret@a.example/x", "https://bob:secret@a.example/x"},
			[]string{"https://ann:xxxxx@a.example/x", "https://bob:xxxxx@a.example/x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := pageNames(tc.urls)
			if !slices.Equal(got, tc.want) {
				t.Errorf("pageNames(%q) = %q, want %q", tc.urls, got, tc.want)
			}
		})
	}
}

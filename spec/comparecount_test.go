package spec

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestCompareCountPlace: a Compare count below 2 is told at the count,
// which the error's Found names (the editor marks it there), as a Fetch
// interval of 0 is told at the interval; it was told at Compare, where
// the editor marked the C.
func TestCompareCountPlace(t *testing.T) {
	const head = "Create Sentinel s Using http://a.example/\n"
	for name, tc := range map[string]struct{ src, want string }{
		"every 0":        {"Compare every 0", "2:15: Compare every 0: n must be at least 2 (n = 1 is pairwise)"},
		"every 1":        {"Compare every 1", "2:15: Compare every 1: n must be at least 2 (n = 1 is pairwise)"},
		"moving 1":       {"Compare moving 1", "2:16: Compare moving 1: n must be at least 2 (moving 1 would compare each version with itself; moving 2 is pairwise)"},
		"moving -3":      {"Compare moving -3", "2:16: Compare moving -3: n must be at least 2 (moving 1 would compare each version with itself; moving 2 is pairwise)"},
		"spaced":         {"Compare   every\t1 # why", "2:17: Compare every 1: n must be at least 2 (n = 1 is pairwise)"},
		"comment inside": {"Compare every # why\n  1", "3:3: Compare every 1: n must be at least 2 (n = 1 is pairwise)"},
	} {
		t.Run(name, func(t *testing.T) {
			src := head + tc.src + "\n"
			f, err := Parse("f.ssl", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			_, err = NewChecker(time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)).CheckFile(f)
			var el ErrorList
			if !errors.As(err, &el) || len(el) != 1 {
				t.Fatalf("error %v, want one: %s", err, tc.want)
			}
			e := el[0]
			if got := e.Pos.String()[len("f.ssl:"):] + ": " + e.Msg; got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if !strings.HasPrefix(src[e.Pos.Offset:], e.Found) {
				t.Errorf("found %q, not the text at the error: %q", e.Found, src[e.Pos.Offset:])
			}
		})
	}
}

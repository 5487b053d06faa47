package monitor

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestGuardLogsNoSecret: a check whose panic names a URL with a password
// (a fetcher's error, a crawl worker's panic) is logged with the URL
// redacted, as the URLs of its sentinels are.
func TestGuardLogsNoSecret(t *testing.T) {
	var logs syncBuffer
	m := &Monitor{Logger: slogJSON(&logs)}
	j := &job{s: &vigil.Sentinel{ID: 7}, plan: &plan{urls: []string{"https://ann:s3cret@a.example/x"}}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // ending: the jobs are given back, nothing is stored
	var given []int64
	ok := m.guard(ctx, []*job{j}, []begun{{}}, true, func(*vigil.CheckRecord) {}, func(ids []int64) { given = ids }, func() {
		panic("fetch https://ann:s3cret@a.example/x?token=t0ken: broken")
	})
	if ok {
		t.Fatal("guard returned true for a check that panicked")
	}
	log := logs.String()
	if !strings.Contains(log, "check panicked") || strings.Contains(log, "s3cret") || strings.Contains(log, "t0ken") {
		t.Errorf("panic logged as %s; want it logged with no password nor token", log)
	}
	if !slices.Equal(given, []int64{7}) {
		t.Errorf("jobs given back %v; want [7]", given)
	}
}

// TestGuardGoexit: a check that ends its goroutine without a panic
// (runtime.Goexit) gives its jobs back, rather than leave them in flight,
// never checked again until the daemon stops.
func TestGuardGoexit(t *testing.T) {
	m := &Monitor{Logger: slogJSON(&syncBuffer{})}
	j := &job{s: &vigil.Sentinel{ID: 9}, plan: &plan{}}
	given := make(chan []int64, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		m.guard(context.Background(), []*job{j}, []begun{{}}, true, func(*vigil.CheckRecord) {}, func(ids []int64) { given <- ids }, runtime.Goexit)
	}()
	<-done
	select {
	case ids := <-given:
		if !slices.Equal(ids, []int64{9}) {
			t.Errorf("jobs given back %v; want [9]", ids)
		}
	default:
		t.Error("a check that ended with runtime.Goexit kept its jobs")
	}
}

// TestClipMiddleEscapes: a URL cut in the middle for a subject keeps its
// host and starts its end where a character starts, not inside a percent
// escape nor at a byte that continues a UTF-8 character (…%C…C3%A9 read
// as another path).
func TestClipMiddleEscapes(t *testing.T) {
	url := "https://shop.example/" + strings.Repeat("%C3%A9", 40)
	for n := 44; n < 64; n++ { // room for the host in half of n
		got := clipMiddle(url, n)
		front, back, ok := strings.Cut(got, "…")
		if !ok || front != "https://shop.example/" || !strings.HasPrefix(back, "%C3%A9") || len([]rune(got)) > n {
			t.Errorf("clipMiddle(n=%d) = %q; want the host, then the end from a whole %%C3%%A9, at most %d characters", n, got, n)
		}
	}
}

// TestSubjectClipsAtClusters: a subject's name or page is cut at the edge
// of a character as a reader sees it, within its limit: never between a
// letter and its accent, an emoji and its skin tone, or a flag's two
// regional indicators.
func TestSubjectClipsAtClusters(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		n        int
		clip     func(string, int) string
		want     string
	}{
		{"ascii", "abcdef", 4, clip, "abc…"},
		{"accent", "ab" + "e\u0301" + "cd", 4, clip, "ab…"},
		{"skin tone", "ab👍🏽cd", 4, clip, "ab…"},
		{"flag", "a🇫🇷🇩🇪x", 3, clip, "a…"},
		{"between flags", "a🇫🇷🇩🇪x", 4, clip, "a🇫🇷…"},
		{"middle, accent at the front", "ab" + "e\u0301" + "cdefgh", 7, clipMiddle, "ab…fgh"},
		{"middle, skin tone at the back", "abcd👍🏽xy", 6, clipMiddle, "ab…xy"},
		{"middle, flag at the back", "abcd🇫🇷🇩🇪", 6, clipMiddle, "ab…🇩🇪"},
		{"conjunct", "ab\u0915\u094d\u0937cd", 4, clip, "ab…"},
		{"Hangul in jamo", "a\u1100\u1161\u11a8b", 3, clip, "a…"},
		{"a letter under dozens of marks", "a" + strings.Repeat("\u0301", 40) + "b", 10, clip, "…"},
		{"middle, a letter under dozens of marks at the back", "abcd" + "a" + strings.Repeat("\u0301", 40), 8, clipMiddle, "abc…"},
	} {
		got := tc.clip(tc.in, tc.n)
		if got != tc.want || len([]rune(got)) > tc.n {
			t.Errorf("%s: cut %+q to %d = %+q, want %+q", tc.name, tc.in, tc.n, got, tc.want)
		}
	}
}

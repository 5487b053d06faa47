package monitor

import (
	"testing"

	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/spec"
)

// TestReference checks which earlier sighting each new version of a page
// is compared with, per compare option (the seed's §5.7 as the spec
// package reads it): pairwise (Vi-1, Vi); every 3: (V1, V4), (V4, V7);
// moving 4: (V1, V4), (V2, V5), ...
func TestReference(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    intent.Compare
		want map[int64]int64 // version id (= its sighting number here) -> reference, 0 for none
	}{
		{"pairwise", intent.Compare{Method: spec.Pairwise}, map[int64]int64{1: 0, 2: 1, 3: 2, 4: 3, 5: 4}},
		{"every 3", intent.Compare{Method: spec.EveryN, N: 3}, map[int64]int64{1: 0, 2: 0, 3: 0, 4: 1, 5: 0, 6: 0, 7: 4}},
		{"moving 4", intent.Compare{Method: spec.MovingN, N: 4}, map[int64]int64{1: 0, 2: 0, 3: 0, 4: 1, 5: 2, 6: 3, 7: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p pageState
			for v := int64(1); v <= int64(len(tc.want)); v++ {
				ref, ok := p.reference(tc.c)
				if want := tc.want[v]; (want != 0) != ok || ref != want {
					t.Errorf("V%d: reference %d (%v), want %d", v, ref, ok, want)
				}
				p.add(v, tc.c)
				if len(p.Seen) > max(tc.c.N, 1) {
					t.Errorf("V%d: keeps %d ids", v, len(p.Seen))
				}
			}
		})
	}
}

func TestStateRoundTrip(t *testing.T) {
	st := decodeState(nil)
	st.Pages["http://x/"] = &pageState{Count: 2, Seen: []int64{5, 9}}
	st.Confirm = &pendingConfirm{URL: "http://x/", Ref: 5, Cand: 9}
	back := decodeState(st.encode())
	if back.Pages["http://x/"].last() != 9 || back.Confirm.Cand != 9 {
		t.Errorf("round trip: %+v", back)
	}
	if bad := decodeState([]byte("{not json")); bad.Pages == nil {
		t.Error("unreadable state not reset")
	}
}

// TestStateFollowsNormalForm: the pages of a state kept under a URL
// spelt as spec.NormalizeURL used to ("http://a.example", a default port)
// are found under the URL the sentinel is checked with now; pages that are
// not the same page, or that the sentinel no longer watches, are left.
func TestStateFollowsNormalForm(t *testing.T) {
	st := decodeState(nil)
	st.Pages["http://a.example"] = &pageState{Count: 3, Seen: []int64{7}}
	st.Pages["http://b.example:80/x"] = &pageState{Count: 1, Seen: []int64{8}}
	st.Pages["http://c.example/"] = &pageState{Count: 1, Seen: []int64{9}}
	st.Pages["http://gone.example"] = &pageState{Count: 1, Seen: []int64{10}}
	st.Confirm = &pendingConfirm{URL: "http://b.example:80/x", Ref: 8, Cand: 11}
	st.follow([]string{"http://a.example/", "http://b.example/x", "http://c.example/", "http://d.example/"})
	for url, last := range map[string]int64{"http://a.example/": 7, "http://b.example/x": 8, "http://c.example/": 9, "http://gone.example": 10} {
		if got := st.Pages[url].last(); got != last {
			t.Errorf("page %s: last seen %d, want %d", url, got, last)
		}
	}
	if len(st.Pages) != 4 {
		t.Errorf("pages %v, want 4", st.Pages)
	}
	if st.Confirm.URL != "http://b.example/x" {
		t.Errorf("confirmation of %s, want http://b.example/x", st.Confirm.URL)
	}
}

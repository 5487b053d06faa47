package web

import (
	"testing"
	"time"
)

// TestBucketTable checks which bucket a full table forgets for a new key:
// the one full again soonest: one that has refilled, the one full the
// longest first, else the one nearest to refilled, never the most
// drained; a new key is never refused.
func TestBucketTable(t *testing.T) {
	const interval = 10 * time.Second
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	type step struct {
		key    string
		at     time.Duration // after t0
		tokens int           // taken; -1 gives the key's last token back
	}
	for name, tc := range map[string]struct {
		steps  []step
		newKey string
		at     time.Duration
		want   []string // the keys tracked after it
	}{
		"refilled first": {
			steps:  []step{{"a", 0, 2}, {"b", 0, 1}},
			newKey: "c", at: interval, // b has refilled, a not
			want: []string{"a", "c"},
		},
		"the longest full first": {
			steps:  []step{{"a", 0, 1}, {"b", 0, 2}},
			newKey: "c", at: 3 * interval, // both full, a the longer
			want: []string{"b", "c"},
		},
		"every bucket active: the nearest to refilled": {
			steps:  []step{{"a", 0, 3}, {"b", 0, 2}},
			newKey: "c", at: interval, // b full again in one interval, a in two
			want: []string{"a", "c"},
		},
		"the drained key stays": {
			steps:  []step{{"b", 0, 1}, {"a", 0, 3}},
			newKey: "c", at: 0,
			want: []string{"a", "c"},
		},
		"a token given back": {
			steps:  []step{{"a", 0, 1}, {"b", 0, 1}, {"b", 0, -1}},
			newKey: "c", at: 0,
			want: []string{"a", "c"},
		},
		"a tracked key in a full table": {
			steps:  []step{{"a", 0, 3}, {"b", 0, 3}},
			newKey: "a", at: 0,
			want: []string{"a", "b"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			tbl := newBucketTable(interval, 3, 2)
			last := map[string]*takenToken{}
			for _, s := range tc.steps {
				now := t0.Add(s.at)
				b := tbl.get(s.key, now)
				if s.tokens < 0 {
					last[s.key].r.CancelAt(now)
					tbl.update(b, now)
					continue
				}
				for range s.tokens {
					r := b.lim.ReserveN(now, 1)
					if !r.OK() || r.DelayFrom(now) > 0 {
						t.Fatalf("step %+v: no token", s)
					}
					last[s.key] = &takenToken{tbl, b, r}
					tbl.update(b, now)
				}
			}
			if b := tbl.get(tc.newKey, t0.Add(tc.at)); b != tbl.byKey[tc.newKey] {
				t.Errorf("get(%q) returned a bucket the table does not hold", tc.newKey)
			}
			if tbl.len() != len(tc.want) {
				t.Errorf("%d keys tracked, want %v", tbl.len(), tc.want)
			}
			for _, k := range tc.want {
				if tbl.byKey[k] == nil {
					t.Errorf("%q forgotten; want %v tracked", k, tc.want)
				}
			}
		})
	}
}

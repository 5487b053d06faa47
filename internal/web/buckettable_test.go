package web

import (
	"testing"
	"time"
)

// TestBucketTable checks which bucket a full table forgets for a new key:
// one that has refilled, the one full the longest first, never an active
// one; with none refilled the new key is refused until one has.
func TestBucketTable(t *testing.T) {
	const interval = 10 * time.Second
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	type step struct {
		key    string
		at     time.Duration // after t0
		tokens int           // taken; -1 gives the key's last token back
	}
	for name, tc := range map[string]struct {
		steps    []step
		newKey   string
		at       time.Duration
		wantWait time.Duration // 0: admitted
		want     []string      // the keys tracked after it
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
		"every bucket active": {
			steps:  []step{{"a", 0, 3}, {"b", 0, 2}},
			newKey: "c", at: interval,
			wantWait: interval, // until b has refilled
			want:     []string{"a", "b"},
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
				b, wait := tbl.get(s.key, now)
				if b == nil {
					t.Fatalf("step %+v refused for %v", s, wait)
				}
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
			b, wait := tbl.get(tc.newKey, t0.Add(tc.at))
			if (b == nil) != (tc.wantWait > 0) || wait != tc.wantWait {
				t.Errorf("get(%q): bucket %v, wait %v; want wait %v", tc.newKey, b != nil, wait, tc.wantWait)
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

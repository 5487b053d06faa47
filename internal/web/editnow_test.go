package web

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/vigil-web/vigil/spec"
)

// TestEditedNowReachesUsers: evD starts at the end of evC (From
// end(evC)); evC, created at T0 with no To, is edited at T1, more than a
// minute later, to end To Now + 1 minute. Now in evC is the time of that
// edit: the edit is saved, evD starts (and is next checked) at T1 + 1
// minute, and a sentinel added later From end(evC) starts then too.
// Before, end(evC) was worked out from evC's creation (T0 + 1 minute,
// passed): the edit was refused as making evD invalid. On SQLite, and on
// PostgreSQL when VIGIL_TEST_POSTGRES_DSN is set.
func TestEditedNowReachesUsers(t *testing.T) {
	const (
		evC = "Create Sentinel evC Using http://a.example/ Monitor any change Fetch 2 seconds"
		evD = "Create Sentinel evD Using http://b.example/ Fetch 1 hour From end(evC)"
		evE = "Create Sentinel evE Using http://c.example/ Fetch 1 hour From end(evC)"
	)
	for name, open := range raceStores() {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			st := open(t)
			s, u := checkingServer(t, st)
			clock := time.Now().UTC().Truncate(time.Second)
			s.Now = func() time.Time { return clock }
			saved := saveAll(t, s, u, evC, evD)
			c := newSignedIn(t, s, u)

			clock = clock.Add(2 * time.Minute)
			edited := clock
			path := "/api/v1/sentinels/" + strconv.FormatInt(saved[0].ID, 10)
			body, _ := json.Marshal(map[string]string{"source": evC + " To Now + 1 minute"})
			if got, page := c.do("PUT", path, string(body)); got != 200 {
				t.Fatalf("PUT %s To Now + 1 minute, two minutes after its creation: %d, want 200:\n%s", path, got, page)
			}
			want := edited.Add(time.Minute)
			startOf := func(id int64) (time.Time, time.Time) {
				t.Helper()
				sen, err := st.FindSentinelByID(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				var ch spec.Checked
				if err := json.Unmarshal(sen.Spec, &ch); err != nil {
					t.Fatal(err)
				}
				return ch.Start, sen.NextCheck
			}
			if start, next := startOf(saved[1].ID); !start.Equal(want) || !next.Equal(want) {
				t.Errorf("evD after evC's edit: start %v, next check %v; want both %v", start, next, want)
			}

			clock = clock.Add(10 * time.Second)
			added := saveAll(t, s, u, evE)
			if start, _ := startOf(added[0].ID); !start.Equal(want) {
				t.Errorf("evE, added From end(evC) after the edit: start %v, want %v", start, want)
			}
		})
	}
}

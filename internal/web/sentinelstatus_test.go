package web

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestSentinelStatusIsNoEdit: pausing, resuming and asking for a check
// now, through the API or the dashboard, set the sentinel's status and
// next check and leave its updatedAt, the time of its last edit, which a
// site whose reference can never be compared again waits for to start
// anew; saving it (unchanged) is an edit, and moves it. Before, each of
// them was saved as an edit (UpdateSentinel), so a pause and a resume
// replaced such a reference as an edit does.
func TestSentinelStatusIsNoEdit(t *testing.T) {
	s, u := newTestServer(t)
	ctx := context.Background()
	s.Checker = storeChecker(s)
	s.SentinelStates = func(_ context.Context, list []*vigil.Sentinel) (map[int64]SentinelState, error) {
		out := map[int64]SentinelState{}
		for _, sen := range list {
			out[sen.ID] = SentinelState{Lifespan: "active"}
		}
		return out, nil
	}
	clock := time.Now().UTC()
	s.Now = func() time.Time { return clock }
	c := newSignedIn(t, s, u)
	const src = "Create Sentinel docs Using site http://a.example/docs/ Every 1 day"
	status, body := c.do("POST", "/api/v1/sentinels", `{"source": "`+src+`"}`)
	var sen struct{ ID int64 }
	if err := json.Unmarshal([]byte(body), &sen); status != 201 || err != nil {
		t.Fatalf("create: %d %s", status, body)
	}
	id := strconv.FormatInt(sen.ID, 10)
	created, err := s.Store.FindSentinelByID(ctx, sen.ID)
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name, path string
		want       vigil.SentinelStatus
	}{
		{"API pause", "/api/v1/sentinels/" + id + "/pause", vigil.SentinelPaused},
		{"API resume", "/api/v1/sentinels/" + id + "/resume", vigil.SentinelActive},
		{"API check now", "/api/v1/sentinels/" + id + "/check-now", vigil.SentinelActive},
		{"dashboard pause", "/sentinels/" + id + "/pause", vigil.SentinelPaused},
		{"dashboard resume", "/sentinels/" + id + "/resume", vigil.SentinelActive},
		{"dashboard check now", "/sentinels/" + id + "/check-now", vigil.SentinelActive},
	} {
		clock = clock.Add(time.Hour)
		time.Sleep(2 * time.Millisecond) // the store's clock moves too
		if status, body := c.do("POST", tc.path, ""); status >= 400 {
			t.Fatalf("%s: %d %s", tc.name, status, body)
		}
		got, err := s.Store.FindSentinelByID(ctx, sen.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != tc.want {
			t.Errorf("%s: status %s, want %s", tc.name, got.Status, tc.want)
		}
		if !got.UpdatedAt.Equal(created.UpdatedAt) {
			t.Errorf("%s: updatedAt moved from %v to %v: it counted as an edit", tc.name, created.UpdatedAt, got.UpdatedAt)
		}
		if tc.name == "API check now" && !got.NextCheck.Equal(clock.Truncate(time.Microsecond)) {
			t.Errorf("%s: next check %v, want now, %v", tc.name, got.NextCheck, clock)
		}
	}

	// Saved unchanged: an edit.
	time.Sleep(2 * time.Millisecond)
	if status, body := c.do("PUT", "/api/v1/sentinels/"+id, `{"source": "`+src+`"}`); status != 200 {
		t.Fatalf("edit: %d %s", status, body)
	}
	if got, err := s.Store.FindSentinelByID(ctx, sen.ID); err != nil {
		t.Fatal(err)
	} else if !got.UpdatedAt.After(created.UpdatedAt) {
		t.Errorf("after an edit: updatedAt %v, want after %v", got.UpdatedAt, created.UpdatedAt)
	}
}

package web

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestNextDigestShown: when the monitor has opened a digest period for
// a sentinel that sends digests (Every <interval>, SentinelState.NextDigest),
// the end of the period, when its digest goes out, is the sentinel's
// nextDigest in the API (in UTC, as nextCheck) and is said on its page
// and on the Notifications page, as the other times are; a sentinel
// that sends no digests, one edited since to send none, and a paused one
// have none. No page or answer said when the next digest would go out.
func TestNextDigestShown(t *testing.T) {
	s, u := newTestServer(t)
	daily := createChecked(t, s, u, "Create Sentinel daily Using http://a.example/ Fetch 1 hour Every 1 day")
	fresh := createChecked(t, s, u, "Create Sentinel fresh Using http://b.example/ Fetch 1 hour Every 1 day")
	instant := createChecked(t, s, u, "Create Sentinel instant Using http://c.example/ Fetch 1 hour")
	paused := createChecked(t, s, u, "Create Sentinel paused Using http://d.example/ Fetch 1 hour Every 2 days")
	paused.Status = vigil.SentinelPaused
	if err := s.Store.UpdateSentinel(context.Background(), paused); err != nil {
		t.Fatal(err)
	}
	due := time.Date(2036, 3, 2, 9, 30, 0, 0, time.FixedZone("JST", 9*3600))
	s.SentinelStates = func(_ context.Context, sens []*vigil.Sentinel) (map[int64]SentinelState, error) {
		out := map[int64]SentinelState{}
		for _, sen := range sens {
			switch sen.ID {
			case daily.ID, instant.ID, paused.ID: // instant's was left by an edit
				out[sen.ID] = SentinelState{Lifespan: "active", NextDigest: due}
			case fresh.ID: // not checked since it sends digests
				out[sen.ID] = SentinelState{Lifespan: "active"}
			}
		}
		return out, nil
	}
	c := newSignedIn(t, s, u)
	callMe(t, c, "PATCH", `{"timeZone": "Asia/Tokyo"}`)
	for _, tc := range []struct {
		sen  *vigil.Sentinel
		want string
	}{{daily, `"2036-03-02T00:30:00Z"`}, {fresh, ""}, {instant, ""}, {paused, ""}} {
		path := "/api/v1/sentinels/" + strconv.FormatInt(tc.sen.ID, 10)
		status, body := c.do("GET", path, "")
		var v struct{ NextDigest json.RawMessage }
		if err := json.Unmarshal([]byte(body), &v); status != 200 || err != nil {
			t.Fatalf("GET %s: %d %v %s", path, status, err, body)
		}
		if string(v.NextDigest) != tc.want {
			t.Errorf("sentinel %s: nextDigest %s, want %q", tc.sen.Name, v.NextDigest, tc.want)
		}
	}
	if status, body := c.do("GET", "/api/v1/sentinels", ""); status != 200 || strings.Count(body, `"nextDigest"`) != 1 {
		t.Errorf("GET /api/v1/sentinels: %d, want one sentinel with nextDigest: %s", status, body)
	}
	shown := fmt.Sprintf(`<time datetime="%s">%s</time>`, datetime(due), "2036-03-02 09:30:00 JST") // in the user's zone
	status, page := c.do("GET", "/sentinels/"+strconv.FormatInt(daily.ID, 10), "")
	if status != 200 || !strings.Contains(page, "<dt>Next digest</dt><dd>"+shown) {
		t.Errorf("the page of a sentinel sending digests: %d, does not say its next digest is %s", status, shown)
	}
	status, page = c.do("GET", "/sentinels/"+strconv.FormatInt(fresh.ID, 10), "")
	if status != 200 || !strings.Contains(page, "<dt>Next digest</dt><dd>at the end of its first period, which its next check starts") {
		t.Errorf("the page of a sentinel whose first digest period has not started: %d, does not say when it starts", status)
	}
	for _, sen := range []*vigil.Sentinel{instant, paused} {
		if status, page := c.do("GET", "/sentinels/"+strconv.FormatInt(sen.ID, 10), ""); status != 200 || strings.Contains(page, "Next digest") {
			t.Errorf("the page of sentinel %s, which sends no digest now: %d, names a next digest", sen.Name, status)
		}
	}
	status, page = c.do("GET", "/notifications", "")
	if status != 200 {
		t.Fatalf("GET /notifications: %d", status)
	}
	for _, want := range []string{
		`<h2 id="next-digests">Next digests</h2>`,
		fmt.Sprintf(`<a href="/sentinels/%d">daily</a>: %s`, daily.ID, shown),
		fmt.Sprintf(`<a href="/sentinels/%d">fresh</a>: at the end of its first period`, fresh.ID),
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the Notifications page does not say %q", want)
		}
	}
	for _, sen := range []*vigil.Sentinel{instant, paused} {
		if strings.Contains(page, ">"+sen.Name+"</a>") {
			t.Errorf("the Notifications page lists sentinel %s, which sends no digest now", sen.Name)
		}
	}
}

// TestNextDigestStatesUnread: when the monitor's states cannot be read
// (Server.SentinelStates fails), a sentinel that sends digests is said
// to send them, its next one not known now, on its page and on the
// Notifications page; they said it went out at the end of its first
// period, which its next check starts, of a sentinel whose period may
// be open for days.
func TestNextDigestStatesUnread(t *testing.T) {
	s, u := newTestServer(t)
	daily := createChecked(t, s, u, "Create Sentinel daily Using http://a.example/ Fetch 1 hour Every 1 day")
	s.SentinelStates = func(context.Context, []*vigil.Sentinel) (map[int64]SentinelState, error) {
		return nil, vigil.Errorf(vigil.EUNAVAILABLE, "the store is busy")
	}
	c := newSignedIn(t, s, u)
	for _, path := range []string{"/sentinels/" + strconv.FormatInt(daily.ID, 10), "/notifications"} {
		status, page := c.do("GET", path, "")
		if status != 200 || strings.Contains(page, "at the end of its first period") || !strings.Contains(page, "not known now") {
			t.Errorf("GET %s: %d, says when the first period ends, or not that the next digest is not known now", path, status)
		}
	}
}

// TestNextDigestPast: a digest period that ended before the page is
// shown (the sentinel paused past its end, or its next check late) sends
// its digest at the next check, and the page says so, with the end,
// where it gave the past time as the next digest's.
func TestNextDigestPast(t *testing.T) {
	s, u := newTestServer(t)
	daily := createChecked(t, s, u, "Create Sentinel daily Using http://a.example/ Fetch 1 hour Every 1 day")
	ended := time.Date(2020, 3, 2, 0, 30, 0, 0, time.UTC)
	s.SentinelStates = func(_ context.Context, sens []*vigil.Sentinel) (map[int64]SentinelState, error) {
		return map[int64]SentinelState{daily.ID: {Lifespan: "active", NextDigest: ended}}, nil
	}
	c := newSignedIn(t, s, u)
	want := fmt.Sprintf(`at its next check: its period ended <time datetime="%s">2020-03-02 00:30:00 UTC</time>`, datetime(ended))
	status, page := c.do("GET", "/sentinels/"+strconv.FormatInt(daily.ID, 10), "")
	if status != 200 || !strings.Contains(page, "<dt>Next digest</dt><dd>"+want) {
		t.Errorf("the page of a sentinel whose digest period has ended: %d, does not say %q", status, want)
	}
	if status, page = c.do("GET", "/notifications", ""); status != 200 || !strings.Contains(page, fmt.Sprintf(`<a href="/sentinels/%d">daily</a>: %s`, daily.ID, want)) {
		t.Errorf("the Notifications page: %d, does not say %q", status, want)
	}
}

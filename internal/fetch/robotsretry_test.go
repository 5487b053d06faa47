package fetch

import (
	"context"
	"net/url"
	"testing"
	"testing/synctest"
	"time"
)

// TestRobotsServerErrorAskedAgain: a robots.txt that answered 5xx, which
// disallows every page of its origin, is asked again after robotsRetry,
// not after the cache's hour, so that a deploy's minute of 503s does not
// block the origin's pages for an hour; rules that were read are kept the
// hour.
func TestRobotsServerErrorAskedAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newRobotsCache(time.Hour)
		u, _ := url.Parse("https://example.com/page")
		asked := 0
		status := 503
		fetch := func(context.Context, string) (*robotsRules, error) {
			asked++
			return parseRobots(status, []byte("User-agent: *\nDisallow: /private\n")), nil
		}
		get := func() *robotsRules {
			r, err := c.get(context.Background(), u, fetch)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		if r := get(); r.allowed("vigil", u) || asked != 1 {
			t.Fatalf("robots.txt 503: allowed %v, asked %d times", r.allowed("vigil", u), asked)
		}
		time.Sleep(robotsRetry - time.Second)
		if get(); asked != 1 {
			t.Errorf("within %v of the 503, robots.txt asked %d times, want 1", robotsRetry, asked)
		}
		status = 200
		time.Sleep(2 * time.Second)
		if r := get(); !r.allowed("vigil", u) || asked != 2 {
			t.Errorf("%v after the 503, the server back: allowed %v, asked %d times, want allowed and 2", robotsRetry, r.allowed("vigil", u), asked)
		}
		time.Sleep(30 * time.Minute)
		if get(); asked != 2 {
			t.Errorf("rules read are kept the hour: asked %d times, want 2", asked)
		}
		time.Sleep(31 * time.Minute)
		if get(); asked != 3 {
			t.Errorf("after the hour: asked %d times, want 3", asked)
		}
	})
}

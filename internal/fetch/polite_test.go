package fetch

import (
	"context"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// TestHostDelayOfEveryOrigin: a host's turns are spaced by the largest
// Crawl-delay of the robots.txt of each origin on it (http and https have
// one each), not by whichever was read last: a request over https, whose
// robots.txt asks for no delay, made the next one over http, whose
// robots.txt asks for one, come at once.
func TestHostDelayOfEveryOrigin(t *testing.T) {
	ctx := context.Background()
	table := newHostTable(0, 1)
	for _, step := range []struct {
		origin string
		delay  time.Duration
		want   time.Duration
	}{
		{"http://example.com", 2 * time.Second, 2 * time.Second},
		{"https://example.com", 0, 2 * time.Second},
		{"https://example.com", 3 * time.Second, 3 * time.Second},
		{"http://example.com", 0, 3 * time.Second},
		{"https://example.com", 0, 0}, // each origin's robots.txt read again, with no delay
	} {
		release, err := table.acquire(ctx, "example.com", step.origin, step.delay)
		if err != nil {
			t.Fatal(err)
		}
		release()
		table.mu.Lock()
		s := table.hosts["example.com"]
		got := s.delay
		s.limiter = rate.NewLimiter(rate.Inf, 1) // the next turn at once: what is tested is the delay set
		table.mu.Unlock()
		if got != step.want {
			t.Errorf("after %s asked for %v: the host's delay is %v, want %v", step.origin, step.delay, got, step.want)
		}
	}
}

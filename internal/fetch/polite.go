package fetch

import (
	"context"
	"time"

	"golang.org/x/time/rate"
)

// hostSlot is the politeness state of one host: a semaphore bounding the
// requests in flight and a limiter spacing their starts.
type hostSlot struct {
	sem     chan struct{}
	limiter *rate.Limiter
	delay   time.Duration
	// crawlDelays is the Crawl-delay of each origin on the host (http
	// and https each have a robots.txt), as last read: the host's delay
	// is the largest.
	crawlDelays map[string]time.Duration
	lastUsed    time.Time
	users       int
	// notBefore is when the host may be asked again, as its Retry-After
	// said (holdOff); zero if it said nothing.
	notBefore time.Time
}

func newHostTable(delay time.Duration, concurrency int) *hostTable {
	return &hostTable{hosts: map[string]*hostSlot{}, delay: delay, concurrency: concurrency}
}

func every(d time.Duration) rate.Limit {
	if d <= 0 {
		return rate.Inf
	}
	return rate.Every(d)
}

// acquire waits for host's turn: a free slot, then the delay since the
// previous request: the largest of the table's delay and the Crawl-delay
// of each origin on the host, crawlDelay for origin (as its robots.txt
// says now) and the others' as last given. The returned function releases
// the slot.
func (t *hostTable) acquire(ctx context.Context, host, origin string, crawlDelay time.Duration) (func(), error) {
	t.mu.Lock()
	s := t.hosts[host]
	if s == nil {
		if len(t.hosts) > 10000 {
			t.sweepLocked()
		}
		s = &hostSlot{sem: make(chan struct{}, t.concurrency), limiter: rate.NewLimiter(every(t.delay), 1), delay: t.delay}
		t.hosts[host] = s
	}
	if s.crawlDelays == nil {
		s.crawlDelays = map[string]time.Duration{}
	}
	s.crawlDelays[origin] = crawlDelay
	delay := t.delay
	for _, d := range s.crawlDelays {
		delay = max(delay, d)
	}
	if s.delay != delay {
		s.delay = delay
		s.limiter.SetLimit(every(delay))
	}
	s.users++
	t.mu.Unlock()
	done := func() {
		t.mu.Lock()
		s.users--
		s.lastUsed = time.Now()
		t.mu.Unlock()
	}
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		done()
		return nil, ctx.Err()
	}
	if err := s.limiter.Wait(ctx); err != nil {
		<-s.sem
		done()
		return nil, err
	}
	t.mu.Lock()
	wait := time.Until(s.notBefore)
	t.mu.Unlock()
	if wait > 0 {
		timer := time.NewTimer(wait)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			<-s.sem
			done()
			return nil, ctx.Err()
		}
	}
	return func() { <-s.sem; done() }, nil
}

// holdOff makes the turns of host wait until until, as its answer's
// Retry-After asked: every fetch of the host, not only the page's.
func (t *hostTable) holdOff(host string, until time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.hosts[host]; s != nil && until.After(s.notBefore) {
		s.notBefore = until
	}
}

// sweepLocked forgets hosts idle for longer than their delay, and not
// held off (holdOff) any more.
func (t *hostTable) sweepLocked() {
	now := time.Now()
	for h, s := range t.hosts {
		if s.users == 0 && now.Sub(s.lastUsed) > max(s.delay, time.Minute) && now.After(s.notBefore) {
			delete(t.hosts, h)
		}
	}
}

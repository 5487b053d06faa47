package web

import (
	"container/heap"
	"time"

	"golang.org/x/time/rate"
)

// bucketTable holds the sign-in buckets of one kind of key (client
// addresses, or accounts), at most maxTracked of them. A full table makes
// room for a new key by forgetting the bucket that is full again soonest:
// one that has refilled (forgetting it loses nothing: a new bucket starts
// full), the one full for the longest first, else the one nearest to
// refilled. A key under attack, its bucket drained by every attempt, is
// the last to be forgotten: a flood of fresh keys, each of which has
// spent fewer tokens, forgets its own keys first, and to push out an
// emptied bucket it must empty as many of its own, the attempts the limit
// is there to slow. A new key is never refused for want of room: a flood
// of fresh addresses (IPv6 /64s are cheap) would otherwise lock every
// other user out of signing in.
type bucketTable struct {
	interval time.Duration // one token back each interval
	burst    int
	max      int // the most keys tracked
	byKey    map[string]*keyBucket
	byFull   fullHeap // the buckets by when they are full again
}

// keyBucket is one key's token bucket and when it is full again.
type keyBucket struct {
	key    string
	lim    *rate.Limiter
	fullAt time.Time
	index  int // in bucketTable.byFull; -1 once forgotten
}

func newBucketTable(interval time.Duration, burst, max int) *bucketTable {
	return &bucketTable{interval: interval, burst: burst, max: max, byKey: map[string]*keyBucket{}}
}

// get returns the bucket of key, creating it full; a full table first
// forgets the bucket that is full again soonest (see bucketTable).
func (t *bucketTable) get(key string, now time.Time) *keyBucket {
	if b := t.byKey[key]; b != nil {
		return b
	}
	if len(t.byKey) >= t.max {
		soonest := heap.Pop(&t.byFull).(*keyBucket)
		delete(t.byKey, soonest.key)
	}
	b := &keyBucket{key: key, lim: rate.NewLimiter(rate.Every(t.interval), t.burst), fullAt: now}
	t.byKey[key] = b
	heap.Push(&t.byFull, b)
	return b
}

// update records when b is full again, after a token was taken from it or
// given back at now; a forgotten bucket is left alone.
func (t *bucketTable) update(b *keyBucket, now time.Time) {
	if b.index < 0 {
		return
	}
	missing := float64(t.burst) - b.lim.TokensAt(now)
	b.fullAt = now.Add(time.Duration(max(missing, 0) * float64(t.interval)))
	heap.Fix(&t.byFull, b.index)
}

// len returns how many keys are tracked.
func (t *bucketTable) len() int { return len(t.byKey) }

// fullHeap orders buckets by fullAt, the earliest first (container/heap).
type fullHeap []*keyBucket

func (h fullHeap) Len() int           { return len(h) }
func (h fullHeap) Less(i, j int) bool { return h[i].fullAt.Before(h[j].fullAt) }

func (h fullHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}

func (h *fullHeap) Push(x any) {
	b := x.(*keyBucket)
	b.index = len(*h)
	*h = append(*h, b)
}

func (h *fullHeap) Pop() any {
	old := *h
	b := old[len(old)-1]
	old[len(old)-1] = nil
	b.index = -1
	*h = old[:len(old)-1]
	return b
}

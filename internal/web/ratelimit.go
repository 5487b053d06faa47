package web

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Sign-in limits: token buckets per client address and per account. Every
// attempt takes a token from both before the password is checked, under
// one lock, so that parallel attempts cannot slip through together; a
// successful sign-in gives its tokens back. An address gets a burst of 20
// and one more every 3 seconds (behind a proxy every client shares the
// proxy's address: the limit is generous; an IPv6 address counts by its
// /64); an account a burst of 10 and one more every 20 seconds, so that
// guessing one password from many addresses is slow too. The price of the
// account bucket: whoever knows an address can keep its account from
// signing in, at three attempts a minute.
const (
	addressBurst    = 20
	addressInterval = 3 * time.Second
	accountBurst    = 10
	accountInterval = 20 * time.Second
	// maxTracked bounds each table (bucketTable). When one is full, a
	// new key takes the slot of a bucket that has refilled; while none
	// has, new keys are refused: memory stays bounded and a flood of new
	// keys cannot free the slot of a key it keeps limited. The price: a
	// flood of fresh keys refuses the keys not yet tracked until its
	// buckets refill (at most accountBurst*accountInterval after it).
	maxTracked = 10000
	// maxAccountKey is the longest account name kept: longer ones are no
	// email address and share one bucket.
	maxAccountKey = 254
)

// failedLoginDelay holds every failed sign-in's answer back a little, on top
// of the buckets.
var failedLoginDelay = 200 * time.Millisecond

// loginLimiter holds the buckets of sign-in attempts.
type loginLimiter struct {
	mu        sync.Mutex
	addresses *bucketTable
	accounts  *bucketTable
}

func newLoginLimiter() *loginLimiter {
	return &loginLimiter{
		addresses: newBucketTable(addressInterval, addressBurst, maxTracked),
		accounts:  newBucketTable(accountInterval, accountBurst, maxTracked),
	}
}

// attempt is a sign-in attempt that took its tokens.
type attempt struct {
	limiter *loginLimiter
	taken   []takenToken
}

// takenToken is a token an attempt took from one bucket.
type takenToken struct {
	table  *bucketTable
	bucket *keyBucket
	r      *rate.Reservation
}

// succeeded gives the attempt's tokens back: only failures count.
func (a *attempt) succeeded(now time.Time) {
	if a == nil {
		return
	}
	a.limiter.mu.Lock()
	defer a.limiter.mu.Unlock()
	a.giveBack(now)
}

// giveBack gives the attempt's tokens back, with the limiter's lock held.
func (a *attempt) giveBack(now time.Time) {
	for _, t := range a.taken {
		t.r.CancelAt(now)
		t.table.update(t.bucket, now)
	}
}

// take takes a token from the address's bucket, then from the account's,
// and returns the attempt; when either is empty, it takes nothing and
// returns how long until a token is back.
func (l *loginLimiter) take(address, account string, now time.Time) (*attempt, time.Duration) {
	if l == nil {
		return nil, 0 // a Server used without Register
	}
	if len(account) > maxAccountKey {
		account = "\x00long"
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	a := &attempt{limiter: l}
	for _, k := range []struct {
		table *bucketTable
		key   string
	}{{l.addresses, address}, {l.accounts, account}} {
		b := k.table.get(k.key, now)
		r := b.lim.ReserveN(now, 1)
		if wait := r.DelayFrom(now); !r.OK() || wait > 0 {
			r.CancelAt(now)
			a.giveBack(now)
			return nil, max(wait, time.Second)
		}
		a.taken = append(a.taken, takenToken{k.table, b, r})
		k.table.update(b, now)
	}
	return a, 0
}

// clientAddress returns the address a request came from, without its port;
// an IPv6 address is reduced to its /64, which one host usually has whole.
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = strings.TrimSpace(r.RemoteAddr)
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.Is6() && !ip.Is4In6() {
		if p, err := ip.Prefix(64); err == nil {
			return p.String()
		}
	}
	return host
}

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
	// maxTracked bounds each table. When one is full, the buckets that
	// have refilled are forgotten, then, if that is not enough, a tenth of
	// the others: memory stays bounded and a flood of new keys cannot
	// lock everyone out.
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
	addresses map[string]*rate.Limiter
	accounts  map[string]*rate.Limiter
}

func newLoginLimiter() *loginLimiter {
	return &loginLimiter{addresses: map[string]*rate.Limiter{}, accounts: map[string]*rate.Limiter{}}
}

// attempt is a sign-in attempt that took its tokens.
type attempt struct {
	reservations []*rate.Reservation
}

// succeeded gives the attempt's tokens back: only failures count.
func (a *attempt) succeeded(now time.Time) {
	if a == nil {
		return
	}
	for _, r := range a.reservations {
		r.CancelAt(now)
	}
}

// take takes a token from the address's bucket, then from the account's,
// and returns the attempt; when either is empty it takes nothing and
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
	a := &attempt{}
	for _, b := range []struct {
		table    map[string]*rate.Limiter
		key      string
		interval time.Duration
		burst    int
	}{{l.addresses, address, addressInterval, addressBurst}, {l.accounts, account, accountInterval, accountBurst}} {
		r := bucket(b.table, b.key, b.interval, b.burst, now).ReserveN(now, 1)
		if wait := r.DelayFrom(now); !r.OK() || wait > 0 {
			r.CancelAt(now)
			a.succeeded(now) // give back what the first bucket gave
			return nil, max(wait, time.Second)
		}
		a.reservations = append(a.reservations, r)
	}
	return a, 0
}

// bucket returns the limiter of key, creating it full; when the table is
// full it first forgets refilled buckets, then a tenth of the others.
func bucket(table map[string]*rate.Limiter, key string, interval time.Duration, burst int, now time.Time) *rate.Limiter {
	if lim := table[key]; lim != nil {
		return lim
	}
	if len(table) >= maxTracked {
		for k, lim := range table {
			if lim.TokensAt(now) >= float64(burst) {
				delete(table, k)
			}
		}
		for k := range table { // in the map's random order
			if len(table) < maxTracked*9/10 {
				break
			}
			delete(table, k)
		}
	}
	lim := rate.NewLimiter(rate.Every(interval), burst)
	table[key] = lim
	return lim
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

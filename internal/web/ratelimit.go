package web

import (
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Sign-in limits: token buckets of failed attempts, per client address and
// per account. A wrong password costs a token of each; a sign-in is refused
// while either bucket is empty. An address gets a burst of 20 and one more
// every 3 seconds (behind a proxy every client shares the proxy's address:
// the limit is generous); an account a burst of 10 and one more every 20
// seconds, so that guessing one password from many addresses is slow too.
const (
	addressBurst    = 20
	addressInterval = 3 * time.Second
	accountBurst    = 10
	accountInterval = 20 * time.Second
	// maxTracked bounds each table; when full, the buckets that have
	// refilled are forgotten, and while it stays full new keys are refused.
	maxTracked = 10000
)

// failedLoginDelay holds every failed sign-in's answer back a little, on top
// of the buckets.
var failedLoginDelay = 200 * time.Millisecond

// loginLimiter holds the buckets of failed sign-ins.
type loginLimiter struct {
	mu        sync.Mutex
	addresses map[string]*rate.Limiter
	accounts  map[string]*rate.Limiter
}

func newLoginLimiter() *loginLimiter {
	return &loginLimiter{addresses: map[string]*rate.Limiter{}, accounts: map[string]*rate.Limiter{}}
}

// allow reports whether a sign-in from address to account may be tried at
// now, and if not, how long until it may.
func (l *loginLimiter) allow(address, account string, now time.Time) (bool, time.Duration) {
	if l == nil {
		return true, 0 // a Server used without Register
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	wait := time.Duration(0)
	for _, b := range []struct {
		table    map[string]*rate.Limiter
		key      string
		interval time.Duration
		burst    int
	}{{l.addresses, address, addressInterval, addressBurst}, {l.accounts, account, accountInterval, accountBurst}} {
		lim, ok := bucket(b.table, b.key, b.interval, b.burst, now)
		if !ok {
			return false, b.interval
		}
		if tokens := lim.TokensAt(now); tokens < 1 {
			wait = max(wait, time.Duration((1-tokens)*float64(b.interval)))
		}
	}
	return wait == 0, wait
}

// failed charges a failed sign-in to its address and account.
func (l *loginLimiter) failed(address, account string, now time.Time) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if lim, ok := bucket(l.addresses, address, addressInterval, addressBurst, now); ok {
		lim.AllowN(now, 1)
	}
	if lim, ok := bucket(l.accounts, account, accountInterval, accountBurst, now); ok {
		lim.AllowN(now, 1)
	}
}

// bucket returns the limiter of key, creating it full; false when the
// table is full of buckets still in use.
func bucket(table map[string]*rate.Limiter, key string, interval time.Duration, burst int, now time.Time) (*rate.Limiter, bool) {
	if lim := table[key]; lim != nil {
		return lim, true
	}
	if len(table) >= maxTracked {
		for k, lim := range table {
			if lim.TokensAt(now) >= float64(burst) {
				delete(table, k)
			}
		}
		if len(table) >= maxTracked {
			return nil, false
		}
	}
	lim := rate.NewLimiter(rate.Every(interval), burst)
	table[key] = lim
	return lim, true
}

// clientAddress returns the address a request came from, without its port.
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return strings.TrimSpace(r.RemoteAddr)
	}
	return host
}

package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLoginRateLimit signs in through the real handler: wrong passwords
// empty the account's bucket, after which even the right password is
// refused with 429 and a Retry-After, from any address; the bucket refills
// with time. Another account is not affected; an address that fails too
// often is refused for every account.
func TestLoginRateLimit(t *testing.T) {
	s, _ := newTestServer(t)
	defer func(d time.Duration) { failedLoginDelay = d }(failedLoginDelay)
	failedLoginDelay = 0
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { return now }
	mux := http.NewServeMux()
	s.Register(mux)
	login := func(addr, email, password string) *httptest.ResponseRecorder {
		t.Helper()
		form := url.Values{"email": {email}, "password": {password}, csrfField: {strings.Repeat("t", 32)}}
		r := httptest.NewRequest("POST", "/login", strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.AddCookie(&http.Cookie{Name: loginCookie, Value: strings.Repeat("t", 32)})
		r.RemoteAddr = addr + ":40000"
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		return w
	}
	if w := login("192.0.2.1", "admin@example.com", "pw"); w.Code != http.StatusSeeOther {
		t.Fatalf("right password: %d %s", w.Code, w.Body)
	}
	for i := 0; i < accountBurst; i++ {
		if w := login("192.0.2.1", "admin@example.com", "guess"); w.Code != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: %d", i, w.Code)
		}
	}
	for _, addr := range []string{"192.0.2.1", "198.51.100.7"} {
		w := login(addr, "Admin@Example.com", "pw")
		if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), "Too many failed sign-ins") {
			t.Fatalf("after %d failures, from %s: %d Retry-After %q", accountBurst, addr, w.Code, w.Header().Get("Retry-After"))
		}
	}
	if w := login("192.0.2.1", "other@example.com", "x"); w.Code != http.StatusUnauthorized {
		t.Errorf("another account: %d, want 401", w.Code)
	}
	now = now.Add(accountInterval + time.Second)
	if w := login("192.0.2.1", "admin@example.com", "pw"); w.Code != http.StatusSeeOther {
		t.Errorf("after the bucket refilled: %d", w.Code)
	}

	// One address trying many accounts.
	for i := 0; i < addressBurst; i++ {
		login("203.0.113.9", "user"+strings.Repeat("x", i)+"@example.com", "guess")
	}
	if w := login("203.0.113.9", "admin@example.com", "pw"); w.Code != http.StatusTooManyRequests {
		t.Errorf("address after %d failures: %d, want 429", addressBurst, w.Code)
	}
	if w := login("192.0.2.1", "admin@example.com", "pw"); w.Code != http.StatusSeeOther {
		t.Errorf("another address: %d", w.Code)
	}
}

// TestLoginRateLimitParallel sends many wrong passwords at once: the
// tokens are taken before the password is checked, so no more attempts
// than the account's burst get an answer about the password.
func TestLoginRateLimitParallel(t *testing.T) {
	s, _ := newTestServer(t)
	defer func(d time.Duration) { failedLoginDelay = d }(failedLoginDelay)
	failedLoginDelay = 0
	mux := http.NewServeMux()
	s.Register(mux)
	const n = 60
	codes := make(chan int, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			form := url.Values{"email": {"admin@example.com"}, "password": {"guess"}, csrfField: {strings.Repeat("t", 32)}}
			r := httptest.NewRequest("POST", "/login", strings.NewReader(form.Encode()))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.AddCookie(&http.Cookie{Name: loginCookie, Value: strings.Repeat("t", 32)})
			r.RemoteAddr = fmt.Sprintf("198.51.100.%d:4000", i) // many addresses, one account
			w := httptest.NewRecorder()
			mux.ServeHTTP(w, r)
			codes <- w.Code
		}(i)
	}
	wg.Wait()
	close(codes)
	count := map[int]int{}
	for c := range codes {
		count[c]++
	}
	if count[http.StatusUnauthorized] > accountBurst || count[http.StatusTooManyRequests] != n-count[http.StatusUnauthorized] {
		t.Errorf("%d parallel wrong passwords: %v; want at most %d answered 401, the rest 429", n, count, accountBurst)
	}
}

// TestLoginLimiterBounded checks that the tables stay bounded, that a full
// table still admits new keys once old buckets have refilled (it forgets
// them), that a refused attempt takes no token and creates no account
// bucket, and that overlong account names share one bucket.
func TestLoginLimiterBounded(t *testing.T) {
	l := newLoginLimiter()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for i := 0; i < 3*maxTracked; i++ {
		if i%maxTracked == 0 {
			// The buckets of the keys before have refilled.
			now = now.Add(accountBurst * accountInterval)
		}
		if _, wait := l.take(fmt.Sprintf("10.0.%d.%d", i/250, i%250), fmt.Sprintf("user%d@example.com", i), now); wait > 0 {
			t.Fatalf("attempt %d refused", i)
		}
		if n, m := l.tracked(); n > maxTracked || m > maxTracked {
			t.Fatalf("%d addresses and %d accounts tracked, max %d", n, m, maxTracked)
		}
	}
	// One address past its burst: refused, and no account bucket appears.
	now = now.Add(accountBurst * accountInterval) // the slots are free again
	for i := 0; i < addressBurst; i++ {
		if _, wait := l.take("192.0.2.99", fmt.Sprintf("a%d@example.com", i), now); wait > 0 {
			t.Fatalf("attempt %d of an address refused", i)
		}
	}
	_, before := l.tracked()
	if _, wait := l.take("192.0.2.99", "fresh@example.com", now); wait == 0 {
		t.Error("an address past its burst was admitted")
	}
	if _, ok := l.tokens(accountTable, "fresh@example.com", now); ok {
		t.Error("a refused attempt created an account bucket")
	}
	if _, after := l.tracked(); after != before {
		t.Errorf("a refused attempt changed the accounts tracked from %d to %d", before, after)
	}
	long1, long2 := strings.Repeat("x", 300), strings.Repeat("y", 300)
	l.take("192.0.2.1", long1, now)
	l.take("192.0.2.2", long2, now)
	for k := range l.accounts.byKey {
		if len(k) > maxAccountKey {
			t.Errorf("an account key of %d bytes is kept", len(k))
		}
	}
	// A successful attempt gives its tokens back.
	for i := 0; i < 3*accountBurst; i++ {
		a, wait := l.take("192.0.2.7", "ok@example.com", now)
		if wait > 0 {
			t.Fatalf("successful sign-in %d refused", i)
		}
		a.succeeded(now)
	}
}

func TestClientAddress(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.1:443":                 "192.0.2.1",
		"[2001:db8:1:2:3:4:5:6]:443":    "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff:4:5:6]:443": "2001:db8:1:2::/64",
		"[::ffff:192.0.2.1]:80":         "::ffff:192.0.2.1",
		"not an address":                "not an address",
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = in
		if got := clientAddress(r); got != want {
			t.Errorf("clientAddress(%q) = %q, want %q", in, got, want)
		}
	}
}

// The tables of a loginLimiter, for tokens.
const (
	addressTable = iota
	accountTable
)

// tracked returns how many addresses and accounts l tracks.
func (l *loginLimiter) tracked() (addresses, accounts int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.addresses.len(), l.accounts.len()
}

// tokens returns the tokens of key's bucket in the table, and whether it
// is tracked.
func (l *loginLimiter) tokens(table int, key string, now time.Time) (float64, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.addresses
	if table == accountTable {
		t = l.accounts
	}
	b, ok := t.byKey[key]
	if !ok {
		return 0, false
	}
	return b.lim.TokensAt(now), true
}

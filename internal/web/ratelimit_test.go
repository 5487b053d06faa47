package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
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

// TestLoginLimiterBounded checks that the tables stay bounded: refilled
// buckets are forgotten when a table is full, and new keys are refused
// while it stays full of buckets in use.
func TestLoginLimiterBounded(t *testing.T) {
	l := newLoginLimiter()
	now := time.Now()
	for i := 0; i < maxTracked+10; i++ {
		l.failed("a", fmt.Sprintf("user%d@example.com", i), now)
	}
	if len(l.accounts) != maxTracked {
		t.Fatalf("%d accounts tracked, want the maximum, %d", len(l.accounts), maxTracked)
	}
	if ok, _ := l.allow("c", "newcomer@example.com", now); ok {
		t.Error("a new account was admitted while the table is full of buckets in use")
	}
	later := now.Add(accountInterval * accountBurst)
	if ok, _ := l.allow("c", "newcomer@example.com", later); !ok {
		t.Error("refilled buckets were not forgotten")
	}
	if len(l.accounts) > maxTracked {
		t.Errorf("%d accounts tracked, max %d", len(l.accounts), maxTracked)
	}
}

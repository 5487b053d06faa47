package web

import (
	"fmt"
	"testing"
	"time"
)

// TestLoginLimiterFloodKeepsLimited: an attacker who sends 20 000 attempts
// of fresh accounts from fresh addresses, twice the keys the tables hold,
// does not free the slots of the accounts and addresses it has limited, so
// that their limits hold; and a newcomer still signs in meanwhile: the
// flood's own keys make room.
func TestLoginLimiterFloodKeepsLimited(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	l := newLoginLimiter()
	const victims = 20
	victimAccount := func(v int) string { return fmt.Sprintf("victim%d@example.com", v) }
	victimAddress := func(v int) string { return fmt.Sprintf("192.0.2.%d", v) }
	for v := range victims {
		// The account from two addresses of its own, the address with
		// accounts of its own: both buckets empty.
		for i := range accountBurst {
			l.take(fmt.Sprintf("198.51.100.%d", v), victimAccount(v), now)
			l.take(victimAddress(v), fmt.Sprintf("a%d-%d@example.com", v, i), now)
			l.take(victimAddress(v), fmt.Sprintf("b%d-%d@example.com", v, i), now)
		}
		if _, wait := l.take("203.0.113.1", victimAccount(v), now); wait == 0 {
			t.Fatalf("victim account %d not limited before the flood", v)
		}
		if _, wait := l.take(victimAddress(v), "someone@example.com", now); wait == 0 {
			t.Fatalf("victim address %d not limited before the flood", v)
		}
	}
	// At once: the buckets do not refill meanwhile.
	for i := range 2 * maxTracked {
		l.take(fmt.Sprintf("10.%d.%d.%d", i>>16, i>>8&255, i&255), fmt.Sprintf("flood%d@example.com", i), now)
		if n, m := l.tracked(); n > maxTracked || m > maxTracked {
			t.Fatalf("after %d flood keys: %d addresses and %d accounts tracked, max %d", i+1, n, m, maxTracked)
		}
	}
	for v := range victims {
		if tokens, ok := l.tokens(accountTable, victimAccount(v), now); !ok || tokens >= 1 {
			t.Errorf("after the flood, victim account %d: tracked %v, %.2f tokens; want tracked and limited", v, ok, tokens)
		}
		if tokens, ok := l.tokens(addressTable, victimAddress(v), now); !ok || tokens >= 1 {
			t.Errorf("after the flood, victim address %d: tracked %v, %.2f tokens; want tracked and limited", v, ok, tokens)
		}
	}
	if _, wait := l.take("203.0.113.200", "newcomer@example.com", now); wait > 0 {
		t.Errorf("a newcomer was refused for %v during the flood", wait)
	}
	for v := range victims {
		if _, wait := l.take("203.0.113.1", victimAccount(v), now); wait == 0 {
			t.Errorf("victim account %d admitted after the flood and the newcomer", v)
		}
	}
}

package monitor

import (
	"testing"

	"github.com/vigil-web/vigil"
)

// TestChecking: a sentinel is being checked from its admission to the
// commit of its check, and while claimed again meanwhile.
func TestChecking(t *testing.T) {
	m := &Monitor{}
	if m.Checking(1) {
		t.Fatal("checking before any claim")
	}
	m.flight.admit([]*vigil.Sentinel{{ID: 1}, {ID: 2}})
	if !m.Checking(1) || !m.Checking(2) || m.Checking(3) {
		t.Errorf("admitted 1 and 2: checking 1 %v, 2 %v, 3 %v", m.Checking(1), m.Checking(2), m.Checking(3))
	}
	m.flight.admit([]*vigil.Sentinel{{ID: 1}}) // claimed again: waits
	m.flight.done([]int64{1, 2}, false)
	if !m.Checking(1) {
		t.Error("1, claimed again while checked, is not being checked again")
	}
	if m.Checking(2) {
		t.Error("2 is still being checked after its commit")
	}
	m.flight.takeReady()
	m.flight.done([]int64{1}, false)
	if m.Checking(1) {
		t.Error("1 is still being checked after its second commit")
	}
}

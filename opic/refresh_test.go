package opic

import (
	"slices"
	"testing"
	"time"
)

// TestRefreshOrder is the note's §5.5 example: now = day 100, change rates
// in changes per year; expected order B, A, C.
func TestRefreshOrder(t *testing.T) {
	epoch := time.Date(2002, 1, 1, 0, 0, 0, 0, time.UTC)
	dayN := func(n int) time.Time { return epoch.Add(time.Duration(n) * 24 * time.Hour) }
	now := dayN(100)
	sites := []SiteState{
		{Importance: 0.02, ChangeRate: 186.3, LastVisit: dayN(90), Pages: 1000}, // A
		{Importance: 0.001, ChangeRate: 365, LastVisit: dayN(40), Pages: 50},    // B
		{Importance: 0.05, ChangeRate: 2, LastVisit: dayN(0), Pages: 20000},     // C
	}
	theta := []float64{37.26, 21.9, 10}
	rho := []float64{0.03726, 0.438, 0.0005}
	for i, s := range sites {
		if got := Theta(s, now); !near(got, theta[i], 1e-9) {
			t.Errorf("θ(%c) = %v, want %v", 'A'+i, got, theta[i])
		}
		if got := Rho(s, now); !near(got, rho[i], 1e-12) {
			t.Errorf("ρ(%c) = %v, want %v", 'A'+i, got, rho[i])
		}
	}
	if got := RefreshOrder(sites, now); !slices.Equal(got, []int{1, 0, 2}) {
		t.Errorf("order %v, want B, A, C = [1 0 2]", got)
	}
	// A visit in the future counts as no staleness; no pages as one.
	if got := Rho(SiteState{Importance: 1, ChangeRate: 1, LastVisit: dayN(101)}, now); got != 0 {
		t.Errorf("ρ of a future visit = %v", got)
	}
}

// TestSiteChangeRate is site A's weighted change rate of §5.5.
func TestSiteChangeRate(t *testing.T) {
	mean, bound := SiteChangeRate([]PageChange{{0.5, 365}, {0.1, 1}, {0.1, 1}, {0.3, 12}})
	if !near(mean, 186.3, 1e-9) || !near(bound, 379, 1e-9) {
		t.Errorf("ch̄ = %v, Σ ch = %v; want 186.3, 379", mean, bound)
	}
	if m, b := SiteChangeRate(nil); m != 0 || b != 0 {
		t.Errorf("empty site: %v %v", m, b)
	}
}

package opic

import (
	"slices"
	"time"
)

// SiteState is what the BnF refresh order (seed §8.3.2) knows of a site.
type SiteState struct {
	// Importance is i(S), for instance the sum of its pages' importances.
	Importance float64
	// ChangeRate is ch(S), in changes per year (see SiteChangeRate).
	ChangeRate float64
	// LastVisit is when the site was last crawled.
	LastVisit time.Time
	// Pages is the number of pages of the site, the cost of a visit; for a
	// site never loaded, the number of its known URLs.
	Pages int
}

// day is the unit of staleness in Theta, as in the seed's example.
const day = 24 * time.Hour

// Theta returns the seed's θ(S) = i(S) · (now − lastCrawl(S)) · ch(S), with
// the time since the last visit in days (never negative). The unit only
// scales θ; it does not change the order.
func Theta(s SiteState, now time.Time) float64 {
	age := now.Sub(s.LastVisit)
	if age < 0 {
		age = 0
	}
	return s.Importance * (float64(age) / float64(day)) * s.ChangeRate
}

// Rho returns ρ(S) = θ(S) / pages(S): the priority of a site for a refresh,
// charged for the cost of reading it (at least one page).
func Rho(s SiteState, now time.Time) float64 {
	return Theta(s, now) / float64(max(s.Pages, 1))
}

// RefreshOrder returns the indexes of sites, the next to refresh first:
// by decreasing ρ, ties to the lower index.
func RefreshOrder(sites []SiteState, now time.Time) []int {
	rho := make([]float64, len(sites))
	idx := make([]int, len(sites))
	for i, s := range sites {
		rho[i] = Rho(s, now)
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case rho[a] > rho[b]:
			return -1
		case rho[a] < rho[b]:
			return 1
		}
		return 0
	})
	return idx
}

// PageChange is a page's importance i(p) and change rate ch(p).
type PageChange struct {
	Importance float64
	ChangeRate float64
}

// SiteChangeRate returns the change rate of a site from its pages': the
// importance-weighted mean Σ ch(p)·i(p) / Σ i(p) the seed recommends, and
// the upper bound Σ ch(p) (the site changes when any page does).
func SiteChangeRate(pages []PageChange) (mean, bound float64) {
	var num, den float64
	for _, p := range pages {
		num += p.ChangeRate * p.Importance
		den += p.Importance
		bound += p.ChangeRate
	}
	if den > 0 {
		mean = num / den
	}
	return mean, bound
}

// Package schedule decides when each sentinel is checked next. It is pure
// policy: no clock, no randomness and no store of its own; the monitor
// passes the time, a jitter draw and the sentinel's persisted State, and
// persists the State it gets back, so that a restart loses nothing.
//
// Seeds: WebVigiL (Jacob 2003, §2.3 and §2.6; notes/003-webvigil.md §1.5,
// §1.7) for fixed-interval ("IB rule") and best-effort ("BE rule", Fetch on
// change) fetching and for lifespans as event-condition-action rules; the
// change-rate driven refresh of Cobéna's thesis ch. 8 (notes/001b §3.3),
// with Cho and Garcia-Molina's estimator of the change rate.
//
// Phases, in the order the monitor applies them at each check:
//
//  1. Lifespan (lifespan.go): resolve From and To against the clock and the
//     events of other sentinels (start(s), end(s), during(s), with offsets
//     of days, weeks and months on the owner's clock, Lifespan.Location);
//     a sentinel is Pending, Active or Ended. Transitions are events
//     (Transition.Raised) that the rules of dependent sentinels react to:
//     the monitor evaluates again the lifespans whose Lifespan.Refs name
//     the sentinel.
//  2. Outcome: the check found a change, no change, or failed.
//  3. Interval: fixed (Fetch <interval>), or adaptive (Fetch on change): the
//     change rate λ is estimated from the page's own history with
//     r̂ = −ln((n − X + 0.5)/(n + 0.5)) over the observed time, where n
//     visits saw X changes; the next interval is TargetRatio/λ̂, clamped to
//     [MinInterval, MaxInterval] and allowed to grow at most GrowthLimit
//     times per check.
//  4. Back-off: after k consecutive failures the interval is doubled k
//     times, up to MaxBackoff.
//  5. Jitter: ±Jitter of the interval, so that sentinels created together
//     spread out.
//
// Which due sentinel is checked first is not this package's: the store
// claims them by vigil.ClaimPriority, (now − NextCheck) + importance ·
// vigil.ImportanceLead, the refresh order importance × staleness × change
// rate of Cobéna's thesis §8.3.2 (notes/001b §3.3) made additive so that
// nothing starves; the change rate enters through the interval set here,
// and the importance is the monitor's on-line OPIC estimate of the page.
//
// Differences from the seeds:
//   - WebVigiL's best-effort algorithm is in a reference the thesis does not
//     reproduce ([9]); Cho and Garcia-Molina's estimator stands in for it.
//   - The estimator's counts decay (Decay per visit) so that the estimate
//     follows a page whose change rate drifts; the seed's estimator assumes a
//     constant Poisson rate over the whole history.
//   - Visits are irregular here (jitter, adaptive intervals), so I is the
//     mean of the observed intervals rather than one fixed interval.
//   - The seed's sentinels are not edited once created. Here one can be: an
//     ended sentinel whose To clause is edited to one not reached yet is
//     taken up again (Lifespan.Evaluate): the edit gave it more time.
package schedule

package opic

import (
	"math"
	"testing"
)

// TestResumeEstimates: a state resumed from kept estimates gives each page
// its estimate back as Estimate, which counts the cash spread to it, and
// as H/T after its first read: the cash a page holds is what it collected
// since its last read, which Resume places 1/Σ est of Z before the
// resume, so that Interpolation's window makes room for it. Before, every
// page was last read at Z = 0 = now: its cash came on top of a whole
// window, and each estimate rose by 1/(Σ est · T) at its first read (by
// 15 % for estimates summing to 0.85 and T = 8, by 150 % for a tenth of
// them, as a monitor's first batch after a restart may be).
func TestResumeEstimates(t *testing.T) {
	for name, est := range map[string][]float64{
		"summing to 0.85":    {0.4, 0.25, 0.15, 0.05},
		"a tenth of those":   {0.04, 0.025, 0.015, 0.005},
		"one page":           {0.3},
		"some pages at zero": {0.5, 0, 0.25, 0},
	} {
		o, err := Resume(est, Config{Alpha: DefaultAlpha, History: Interpolation{Window: 8}})
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range est {
			if got := o.Estimate(PageID(i)); math.Abs(got-e) > 1e-6 {
				t.Errorf("%s: page %d: Estimate %v after Resume, want %v", name, i, got, e)
			}
		}
		// The first read of a page: its history is the window up to now,
		// the estimate it was resumed from (the cash it collects fills the
		// room the gap since its last read makes).
		if err := o.Read(0, nil); err != nil {
			t.Fatal(err)
		}
		if got := o.Importance(0); math.Abs(got-est[0]) > 1e-6 {
			t.Errorf("%s: page 0: H/T %v after its first read, want %v", name, got, est[0])
		}
		checkInvariants(t, o, false)
	}
}

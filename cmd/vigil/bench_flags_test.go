package main

import "testing"

// TestBenchFlagValuesRefused: a count or a share that a benchmark cannot
// use is refused before anything is measured, naming the flag, the value
// and what is wanted. bench store --versions 0 panicked, --runs 0 reported
// every target missed, and bench monitor --workers 0 ran with 16 workers
// while its first line said 0.
func TestBenchFlagValuesRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "store", "--versions", "0"}, "vigil bench store: --versions 0: want at least 1\n"},
		{[]string{"bench", "store", "--size", "-5"}, "vigil bench store: --size -5: want at least 1\n"},
		{[]string{"bench", "store", "--change", "-1"}, "vigil bench store: --change -1: want a share of the page between 0 and 1\n"},
		{[]string{"bench", "store", "--runs", "0"}, "vigil bench store: --runs 0: want at least 1\n"},
		{[]string{"bench", "monitor", "--pages", "0"}, "vigil bench monitor: --pages 0: want at least 1\n"},
		{[]string{"bench", "monitor", "--size", "0"}, "vigil bench monitor: --size 0: want at least 1\n"},
		{[]string{"bench", "monitor", "--sentinels", "0"}, "vigil bench monitor: --sentinels 0: want at least 1\n"},
		{[]string{"bench", "monitor", "--memory-sentinels", "-1"}, "vigil bench monitor: --memory-sentinels -1: want 0 (skip the measure) or more\n"},
		{[]string{"bench", "monitor", "--workers", "0"}, "vigil bench monitor: --workers 0: want at least 1\n"},
		{[]string{"bench", "monitor", "--batch", "-2"}, "vigil bench monitor: --batch -2: want at least 1\n"},
		{[]string{"bench", "quality", "--max-pairs", "0"}, "vigil bench quality: --max-pairs 0: want at least 1\n"},
		{[]string{"bench", "opic", "--alpha", "1"}, "vigil bench opic: --alpha 1: want a share from 0 up to but not including 1\n"},
		{[]string{"bench", "opic", "--change", "2"}, "vigil bench opic: --change 2: want a fraction between 0 and 1\n"},
	} {
		_, errOut, code := runCmd(t, nil, tc.args...)
		if code != exitError || errOut != tc.want {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

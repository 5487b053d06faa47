//go:build unix

package markup_test

import (
	"syscall"
	"time"
)

// cpuTime returns the user and system CPU time of the process so far, GC
// workers included: a measure of work that other load on the machine
// disturbs less than wall time does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

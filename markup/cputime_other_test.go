//go:build !unix

package markup_test

import "time"

// cpuTime is not measured on this platform.
func cpuTime() time.Duration { return 0 }

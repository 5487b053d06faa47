package treediff

// The phases keep their working space from call to call, in the matching:
// a diff of a large document calls them hundreds of thousands of times.

// grow returns (*buf)[:n], reallocating *buf when it is too short. The
// contents are whatever they were: callers set every element.
func grow[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

// carve returns the next n elements of *buf, a buffer that slices kept for
// a while are cut from: when it has no room left, a new one of at least
// chunk elements takes its place (the slices cut before keep the old one
// alive). The slice returned has no room past its n elements, so an append
// to it cannot reach the next one.
func carve[T any](buf *[]T, n, chunk int) []T {
	if cap(*buf)-len(*buf) < n {
		*buf = make([]T, 0, max(n, chunk))
	}
	l := len(*buf)
	*buf = (*buf)[:l+n]
	return (*buf)[l : l+n : l+n]
}

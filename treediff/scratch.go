package treediff

import "slices"

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

// push appends v to s, doubling s's room when it is full. append grows a
// long slice a quarter at a time, allocating about five times its final
// size on the way: for the phases' stacks and lists, which grow to tens
// of thousands of items on a large document, that is megabytes the
// runtime clears (and faults in, when it has given the pages back) for
// nothing.
func push[T any](s []T, v T) []T {
	if len(s) == cap(s) {
		s = slices.Grow(s, max(len(s), 16))
	}
	return append(s, v)
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

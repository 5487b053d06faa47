//go:build !linux

package hugepage

// Reserve does nothing here: transparent huge pages are Linux's.
func Reserve(n int) (int, error) { return 0, nil }

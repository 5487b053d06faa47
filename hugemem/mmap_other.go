//go:build !linux

package hugemem

// mapHuge returns nils: only Linux is asked for huge pages, and Make uses
// the Go heap elsewhere.
func mapHuge(size int) (mapping, mem []byte) { return nil, nil }

func unmapHuge(mapping []byte) {}

func protect(mapping []byte) {}

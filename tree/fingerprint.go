package tree

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"slices"
	"strings"
)

// Fingerprint is a 64-bit digest of a tree's content that is the same in
// every process and every release: the first 8 bytes of the SHA-256 of a
// canonical form of the tree (each node in post-order with its kind, size,
// name, attributes sorted by name, and value; XIDs left out). Signatures,
// which a diff compares by the million, are keyed per process and cannot
// be written down; a fingerprint can, in a delta, to tell later whether a
// document is the one the delta was computed from. It is never 0.
type Fingerprint uint64

// FingerprintOf returns the fingerprint of the tree f holds.
func FingerprintOf(f *Flat) Fingerprint {
	h := sha256.New()
	var buf [16]byte
	field := func(s string) {
		binary.LittleEndian.PutUint64(buf[:8], uint64(len(s)))
		h.Write(buf[:8])
		h.Write([]byte(s))
	}
	var attrs []Attr
	for i := range int32(f.Len()) {
		buf[0] = byte(f.Kind[i])
		binary.LittleEndian.PutUint32(buf[1:5], uint32(f.Size[i]))
		h.Write(buf[:5])
		field(f.Name(i))
		attrs = append(attrs[:0], f.Attrs(i)...)
		slices.SortFunc(attrs, func(a, b Attr) int { return strings.Compare(a.Name, b.Name) })
		binary.LittleEndian.PutUint32(buf[:4], uint32(len(attrs)))
		h.Write(buf[:4])
		for _, a := range attrs {
			field(a.Name)
			field(a.Value)
		}
		field(f.Value(i))
	}
	return fingerprintSum(h)
}

func fingerprintSum(h hash.Hash) Fingerprint {
	fp := Fingerprint(binary.BigEndian.Uint64(h.Sum(nil)))
	if fp == 0 {
		fp = 1 // 0 stands for "unknown"
	}
	return fp
}

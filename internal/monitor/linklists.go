package monitor

import (
	"encoding/binary"
	"hash/maphash"
	"slices"
)

// linkList is the link keys of a version (linkKeys), shared by every page
// of the importance state whose version has the same: pages served under
// several URLs, a site's pages that link alike, pages that link to
// absolute URLs and are alike. A page holds a pointer, 8 bytes, rather
// than the keys, 8 bytes a link.
type linkList struct {
	keys []uint64
	hash uint64 // of keys, its key in linkLists.m; 0 if not in it
	refs int    // the pages that hold it
}

// linkLists are the link lists of the importance state by the hash of
// their keys. A list not shared (its hash taken by another list) is held
// as it is, outside the map. The caller holds importance.mu.
type linkLists struct {
	m map[uint64]*linkList
}

// hold returns the list of keys, shared if another page holds the same,
// nil for none.
func (l *linkLists) hold(keys []uint64) *linkList {
	if len(keys) == 0 {
		return nil
	}
	h := hashKeys(keys) | 1 // 0 means outside the map
	if l.m == nil {
		l.m = map[uint64]*linkList{}
	}
	if s, ok := l.m[h]; ok {
		if slices.Equal(s.keys, keys) {
			s.refs++
			return s
		}
		return &linkList{keys: keys, refs: 1} // another list has its hash
	}
	s := &linkList{keys: keys, hash: h, refs: 1}
	l.m[h] = s
	return s
}

// release gives back a page's hold on s (nil: none); a list no page
// holds is forgotten.
func (l *linkLists) release(s *linkList) {
	if s == nil {
		return
	}
	if s.refs--; s.refs == 0 && s.hash != 0 && l.m[s.hash] == s {
		delete(l.m, s.hash)
	}
}

// hashKeys returns a hash of keys.
func hashKeys(keys []uint64) uint64 {
	var h maphash.Hash
	h.SetSeed(keySeed)
	var b [8]byte
	for _, k := range keys {
		binary.LittleEndian.PutUint64(b[:], k)
		h.Write(b[:])
	}
	return h.Sum64()
}

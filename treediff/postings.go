package treediff

// postings is pairByWords's inverted index: for each key (a word under a
// name), the old candidates that hold it, in the order they were added.
// The lists lie one after the other in one array (compressed rows), found
// through an open-addressing table of the keys. It is built in two passes
// over the candidates' words, counting and then filling, where a Go map of
// slices allocated a slice a key and grew it word by word: on the 10 MB
// records pair of vigil bench diff that map cost some 4 % of the whole
// diff (a CPU profile), most of it waiting for memory.
type postings struct {
	slots []postingSlot
	shift uint
	// at holds the lists; a key's list is at[end-n:end] of its slot.
	at []int32
}

// postingSlot is one key of the table.
type postingSlot struct {
	key uint64
	// n is the length of the key's list, at most leftoverPostings+1 (a
	// key held by more is skipped as too common, its list not kept); 0
	// for an empty slot.
	n int32
	// end is where the key's list ends in postings.at, once filled.
	end int32
}

// build indexes the words of cands, each word under the hash of its
// candidate's name (nameOf), with the candidates' numbers in cands, in
// memory from spare (see release).
func (x *postings) build(spare *spare, cands []leftover, nameOf func(node int32) uint64) {
	total := 0
	for _, c := range cands {
		total += len(c.words)
	}
	x.reset(spare, total)
	// The slot of each word counted, in order, for the second pass.
	place := take[int32](spare, total)[:0]
	defer give(spare, place)
	for _, c := range cands {
		name := nameOf(c.node)
		for _, w := range c.words {
			place = append(place, x.count(w^name))
		}
	}
	x.lay(spare)
	next := 0
	for k, c := range cands {
		for range c.words {
			x.fill(int32(k), place[next])
			next++
		}
	}
}

// reset empties the index and sizes it for up to n keys added.
func (x *postings) reset(spare *spare, n int) {
	size, shift := 16, uint(60)
	for size*3 < 4*n {
		size <<= 1
		shift--
	}
	x.release(spare)
	x.slots = take[postingSlot](spare, size)
	x.shift = shift
}

// release hands the index's memory back to spare, for a later index or
// phase; the index is empty after.
func (x *postings) release(spare *spare) {
	give(spare, x.slots)
	give(spare, x.at)
	*x = postings{}
}

// slot returns the slot of key: where it is, or the empty slot where it
// goes.
func (x *postings) slot(key uint64) int32 {
	mask := uint64(len(x.slots) - 1)
	for s := key * 0x9e3779b97f4a7c15 >> x.shift; ; s = (s + 1) & mask {
		if x.slots[s].n == 0 || x.slots[s].key == key {
			return int32(s)
		}
	}
}

// count adds one occurrence of key, for the first pass, and returns its
// slot.
func (x *postings) count(key uint64) int32 {
	s := x.slot(key)
	slot := &x.slots[s]
	slot.key = key
	if slot.n <= leftoverPostings {
		slot.n++
	}
	return s
}

// lay places the lists, after the first pass.
func (x *postings) lay(spare *spare) {
	total := int32(0)
	for s := range x.slots {
		if slot := &x.slots[s]; slot.n > 0 && slot.n <= leftoverPostings {
			slot.end = total
			total += slot.n
		}
	}
	x.at = take[int32](spare, int(total))
}

// fill adds candidate k to the list of the key in slot s, for the second
// pass.
func (x *postings) fill(k, s int32) {
	if slot := &x.slots[s]; slot.n <= leftoverPostings {
		x.at[slot.end] = k
		slot.end++
	}
}

// list returns the candidates holding key, in the order they were added:
// none when more than leftoverPostings hold it (too common to tell
// candidates apart; their list is not kept).
func (x *postings) list(key uint64) []int32 {
	slot := &x.slots[x.slot(key)]
	if slot.n > leftoverPostings {
		return nil
	}
	return x.at[slot.end-slot.n : slot.end]
}

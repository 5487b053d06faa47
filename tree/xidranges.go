package tree

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// XIDRanges is a version's XID-map (a delta's fromXidMap or toXidMap) held
// as its runs of consecutive XIDs, the seed's string form parsed but not
// expanded. A document's XIDs are post-order ranks until it is edited, and
// the XIDs an edit allocates are consecutive too, so the map of a million
// nodes is a few runs where an XIDMap lists a million XIDs: a delta of one
// update to a large document decodes, composes and encodes in a few bytes,
// and a hostile map of a few bytes, (1-60000000), costs a few bytes.
//
// The zero value is the empty map. Consecutive runs are merged, so that
// two maps listing the same XIDs in the same order have the same runs.
type XIDRanges struct {
	runs []XIDRun
	n    int
	// Next is the next XID to allocate, zero when the map states none.
	Next XID
}

// XIDRun is a run of consecutive XIDs, First to Last inclusive.
type XIDRun struct{ First, Last XID }

// RangesOf returns the XID-map that lists xids in order, with next as its
// next XID.
func RangesOf(xids []XID, next XID) XIDRanges {
	var b RangesBuilder
	// Run by run: a document's XIDs are one run or a few, and a tight loop
	// finds each end, where Add for each XID costs a call and a look at the
	// run before.
	for k := 0; k < len(xids); {
		e := k + 1
		for e < len(xids) && xids[e-1] != math.MaxUint64 && xids[e] == xids[e-1]+1 {
			e++
		}
		b.Add(xids[k], xids[e-1])
		k = e
	}
	return b.Ranges(next)
}

// RangesBuilder builds an XIDRanges run by run. The zero value is ready.
type RangesBuilder struct {
	runs []XIDRun
	n    int
}

// Add appends the XIDs first to last (first <= last), merged with the
// run before when they follow it.
func (b *RangesBuilder) Add(first, last XID) {
	b.n += int(last-first) + 1
	if k := len(b.runs) - 1; k >= 0 && b.runs[k].Last != math.MaxUint64 && b.runs[k].Last+1 == first {
		b.runs[k].Last = last
		return
	}
	b.runs = append(b.runs, XIDRun{first, last})
}

// Ranges returns the map of the XIDs added, with next as its next XID.
// It shares the builder's runs: the builder must not be used after.
func (b *RangesBuilder) Ranges(next XID) XIDRanges {
	return XIDRanges{runs: b.runs, n: b.n, Next: next}
}

// ParseXIDRanges parses the seed's string form of an XID-map without
// expanding it. Its errors are ParseXIDMap's: a map of more than
// MaxXIDMapLen XIDs is refused, so that its length fits the trees it can
// describe.
func ParseXIDRanges(s string) (XIDRanges, error) {
	var b RangesBuilder
	next, err := parseXIDRanges(s, b.Add)
	if err != nil {
		return XIDRanges{}, err
	}
	return b.Ranges(next), nil
}

// Len returns the number of XIDs m lists.
func (m XIDRanges) Len() int { return m.n }

// Runs returns m's runs, in order. The caller must not change them.
func (m XIDRanges) Runs() []XIDRun { return m.runs }

// Root returns the last XID of m, that of the version's root, or 0 if m is
// empty.
func (m XIDRanges) Root() XID {
	if len(m.runs) == 0 {
		return 0
	}
	return m.runs[len(m.runs)-1].Last
}

// Max returns the largest XID of m, or 0 if m is empty.
func (m XIDRanges) Max() XID {
	var top XID
	for _, r := range m.runs {
		top = max(top, r.Last)
	}
	return top
}

// Equal reports whether m and o list the same XIDs in the same order, with
// the same next XID: whether their string forms are equal.
func (m XIDRanges) Equal(o XIDRanges) bool {
	return m.Next == o.Next && m.n == o.n && slices.Equal(m.runs, o.runs)
}

// Expand returns the XIDs of m, listed, as an XIDMap.
func (m XIDRanges) Expand() XIDMap {
	out := XIDMap{Next: m.Next}
	if m.n > 0 {
		out.XIDs = make([]XID, 0, m.n)
	}
	for _, r := range m.runs {
		for x := r.First; ; x++ {
			out.XIDs = append(out.XIDs, x)
			if x == r.Last {
				break
			}
		}
	}
	return out
}

// String returns the seed's compact form of m, as XIDMap.String writes
// the same XIDs.
func (m XIDRanges) String() string {
	var b strings.Builder
	b.WriteByte('(')
	for k, r := range m.runs {
		if k > 0 {
			b.WriteByte(';')
		}
		b.WriteString(strconv.FormatUint(uint64(r.First), 10))
		if r.Last != r.First {
			b.WriteByte('-')
			b.WriteString(strconv.FormatUint(uint64(r.Last), 10))
		}
	}
	if m.Next != 0 {
		b.WriteByte('|')
		b.WriteString(strconv.FormatUint(uint64(m.Next), 10))
	}
	b.WriteByte(')')
	return b.String()
}

// Check returns an error naming an XID that m lists twice (the smallest
// such), or nil: a version's map lists each of its nodes once. It sorts a
// copy of the runs, and costs their number, not the XIDs'.
func (m XIDRanges) Check() error {
	runs := slices.Clone(m.runs)
	slices.SortFunc(runs, func(a, b XIDRun) int { return cmpXID(a.First, b.First) })
	for k := 1; k < len(runs); k++ {
		if runs[k].First <= runs[k-1].Last {
			return xidError(runs[k].First)
		}
	}
	return nil
}

func cmpXID(a, b XID) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// FirstDifference returns the first place (0-based, in post-order) where m
// and o list different XIDs, and the XIDs there; ok is false when one map
// is the start of the other (equal maps included): their lengths tell them
// apart. It compares run by run.
func (m XIDRanges) FirstDifference(o XIDRanges) (at int, mx, ox XID, ok bool) {
	a, b := m.Cursor(), o.Cursor()
	for !a.Done() && !b.Done() {
		if a.x != b.x {
			return at, a.x, b.x, true
		}
		// Equal here, both stay equal to the end of the shorter run.
		step := min(a.Left(), b.Left())
		at += step
		a.Skip(step)
		b.Skip(step)
	}
	return 0, 0, 0, false
}

// Cursor returns a cursor at the first XID of m.
func (m XIDRanges) Cursor() XIDCursor {
	c := XIDCursor{runs: m.runs}
	c.load()
	return c
}

// XIDCursor reads the XIDs of an XIDRanges in order, without expanding it.
type XIDCursor struct {
	runs []XIDRun // the runs after the current one
	x    XID      // the current XID
	last XID      // the last XID of the current run
	done bool     // past the last XID
}

func (c *XIDCursor) load() {
	if len(c.runs) == 0 {
		c.done = true
		return
	}
	c.x, c.last, c.runs = c.runs[0].First, c.runs[0].Last, c.runs[1:]
}

// Done reports whether the cursor is past the last XID.
func (c *XIDCursor) Done() bool { return c.done }

// XID returns the current XID; it must not be called once Done.
func (c *XIDCursor) XID() XID { return c.x }

// Next moves to the next XID.
func (c *XIDCursor) Next() {
	if c.x == c.last {
		c.load()
		return
	}
	c.x++
}

// Left returns the number of XIDs from the current one to the end of its
// run, which follow each other: the cursor may Skip that many at once.
func (c *XIDCursor) Left() int { return int(c.last-c.x) + 1 }

// Skip moves n XIDs on, n at most Left.
func (c *XIDCursor) Skip(n int) {
	if n == c.Left() {
		c.load()
		return
	}
	c.x += XID(n)
}

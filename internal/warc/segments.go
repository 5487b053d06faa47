package warc

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Joiner reassembles the records split in segments (WARC 1.1 section
// 6.7, "Segmentation"): a record whose block was too long for one file
// is written as its first segment, the record itself with
// WARC-Segment-Number 1 and the start of its block, and continuation
// records, each with WARC-Segment-Origin-ID naming it and the next
// WARC-Segment-Number, the last with WARC-Segment-Total-Length. The
// segments of one record are joined when they follow each other in the
// stream read, others between them or not. One Joiner reads the files
// of one import in turn, its File naming each, and joins the segments of
// a record written across them, in whatever order the files are given:
// a continuation read before its record's first segment (the files of a
// crawl named out of their order) is kept until the first segment, and
// the segments between, come. A record whose last segment none of them
// holds, or continuations whose first segment none holds, are reported
// as incomplete (see End), each record once.
//
// A Joiner keeps the segments of the records it has not finished in
// memory, no more than MaxBlock bytes of blocks in all, and no more than
// the constant MaxHeader bytes of their headers (what a record's header
// may take): a file of many first segments, or continuations, whose
// other segments never come does not fill memory.
type Joiner struct {
	// MaxBlock, when positive and under the constant MaxBlock, is the
	// most bytes of segments' blocks kept at once: a record whose
	// segments pass it is dropped with an error wrapping ErrTooLong.
	MaxBlock int64
	// File names the file of the records Add takes next: a caller that
	// reads several files sets it before each. The errors name a
	// record's file by it (SegmentError.File), and a segment in another
	// file than its record's first.
	File    string
	files   int                   // the files read (File's values in turn)
	file    string                // File when Add was last called
	open    map[string]*segmented // by the id of the first segment
	opened  int                   // first segments taken, for End's order
	size    int64                 // the bytes of blocks in open
	headers int64                 // the bytes of headers in open
	// broken holds the ids of the records whose chains broke, or whose
	// continuations came without their first segment (an error said
	// so), whose later continuations are theirs, not records of their
	// own; brokenSize counts its bytes, at most MaxHeader.
	broken     map[string]bool
	brokenSize int64
	// orphaned holds those of broken whose chain broke at a
	// continuation read before their first segment (keepEarly): their
	// first segment, when it comes, is dropped without an error of its
	// own, as their later continuations are, the record's error said.
	orphaned map[string]bool
	// early holds, by the id of their record, the continuations read
	// before their record's first segment (the files of a crawl given
	// out of their order), to be joined when it comes; their blocks
	// count in size, their headers in headers.
	early map[string]*earlySegments
	// number and where are Origin's.
	number int
	where  string
}

// segmented is a record whose segments are being joined.
type segmented struct {
	origin  *Record // its first segment, without its block
	number  int     // the caller's number of its first segment
	where   string  // the caller's name of its first segment
	file    string  // Joiner.File at its first segment
	last    string  // Joiner.File at its last segment read
	next    int     // the segment number due
	block   []byte
	order   int   // Joiner.opened when it was taken
	headers int64 // the bytes of origin's header
}

// earlySegments are the continuations of one record read before its
// first segment, in the order read.
type earlySegments struct {
	segs  []earlySegment
	order int // Joiner.opened when the first was read, for End's order
}

// earlySegment is a continuation record read before its first segment,
// with what the caller named it by and the Joiner's File then.
type earlySegment struct {
	rec    *Record
	number int
	where  string
	file   string
}

// SegmentError is the error of a record split in segments that cannot be
// joined. Number and Where are what the caller gave Add with its first
// segment, or with the continuation record in error if its first is not
// known; ID is that record's id, and File the Joiner's File then.
type SegmentError struct {
	Number int
	Where  string
	File   string
	ID     string
	Err    error
}

// Error names the record and says what is wrong.
func (e *SegmentError) Error() string {
	return fmt.Sprintf("%s (%s): %v", e.Where, e.ID, e.Err)
}

// Unwrap returns what is wrong.
func (e *SegmentError) Unwrap() error { return e.Err }

func (j *Joiner) limit() int64 {
	if j.MaxBlock > 0 && j.MaxBlock < MaxBlock {
		return j.MaxBlock
	}
	return MaxBlock
}

// Add takes the next record read, which the caller names by number and
// where (its position, for errors). It returns rec itself if it is not a
// segment; nil if it is one of a record not complete yet; and the record
// joined (its first segment's header, without WARC-Segment-Number and
// WARC-Block-Digest, which was its first segment's, and its blocks
// joined) when rec is its last segment. A segment that cannot be joined
// is an error (*SegmentError), and so is the record it belongs to: the
// segments of it already taken are dropped, and the continuations of it
// after it (or after a continuation whose first segment was not read)
// are dropped without an error of their own (nil, nil), the record's
// error said (of the ids of up to MaxHeader bytes of such records; past
// them, each is an error). A first segment read after them starts the
// record again, unless the error was of a continuation read before it
// (too long to keep): it is dropped too, the record named once.
func (j *Joiner) Add(rec *Record, number int, where string) (*Record, error) {
	if j.files == 0 || j.File != j.file {
		j.files++
		j.file = j.File
	}
	n := rec.Header.Get(FieldSegmentNumber)
	continuation := rec.Type() == TypeContinuation
	if n == "" && !continuation {
		j.number, j.where = number, where
		return rec, nil
	}
	num, err := strconv.Atoi(strings.TrimSpace(n))
	if err != nil || num < 1 {
		return nil, &SegmentError{number, where, j.File, rec.ID(), fmt.Errorf("bad %s %q", FieldSegmentNumber, n)}
	}
	if !continuation {
		if num != 1 {
			return nil, &SegmentError{number, where, j.File, rec.ID(), fmt.Errorf("%s record with %s %d: only a continuation record has a number past 1", rec.Type(), FieldSegmentNumber, num)}
		}
		id := rec.ID()
		if j.orphaned[id] {
			// Its continuations read before it were named in error.
			delete(j.orphaned, id)
			return nil, nil
		}
		j.unbreak(id)
		if s := j.open[id]; s != nil {
			return nil, &SegmentError{number, where, j.File, id, fmt.Errorf("a first segment of a record whose segments are being joined, from %s", s.where)}
		}
		headers := headerSize(rec.Header)
		if j.headers+headers > MaxHeader {
			return nil, &SegmentError{number, where, j.File, id, fmt.Errorf("the headers of the records whose segments are being joined pass %d bytes: %w", MaxHeader, ErrTooLong)}
		}
		if err := j.grow(int64(len(rec.Block))); err != nil {
			return nil, &SegmentError{number, where, j.File, id, err}
		}
		if j.open == nil {
			j.open = map[string]*segmented{}
		}
		// The header is kept apart from the block, so that the block is
		// kept once.
		origin := &Record{Version: rec.Version, Header: slices.Clone(rec.Header)}
		j.open[id] = &segmented{origin: origin, number: number, where: where, file: j.File, last: j.File, next: 2, block: slices.Clone(rec.Block), order: j.opened, headers: headers}
		j.opened++
		j.headers += headers
		return j.joinEarly(id)
	}
	originID := StripID(rec.Header.Get(FieldSegmentOriginID))
	if originID == "" {
		return nil, &SegmentError{number, where, j.File, rec.ID(), fmt.Errorf("continuation without %s", FieldSegmentOriginID)}
	}
	s := j.open[originID]
	if s == nil && j.broken[originID] {
		// A segment of a record already named in error.
		return nil, nil
	}
	if s == nil {
		return j.keepEarly(rec, originID, num, number, where)
	}
	if whole, err := j.add(s, rec, originID, num, where); err != nil || whole != nil {
		return whole, err
	}
	// The continuations after it, read before the record's first segment.
	return j.joinEarly(originID)
}

// add joins rec, the continuation segment num of the record originID
// whose segments s holds, named by where, as Add does.
func (j *Joiner) add(s *segmented, rec *Record, originID string, num int, where string) (*Record, error) {
	s.last = j.File
	if j.File != s.file {
		// A segment in another file than its record's first is named
		// with its file.
		where = j.File + ": " + where
	}
	fail := func(err error) (*Record, error) {
		j.drop(originID)
		j.breakChain(originID)
		return nil, &SegmentError{s.number, s.where, s.file, originID, err}
	}
	if num < s.next {
		return fail(fmt.Errorf("segment %d (%s) again, where segment %d was due: a segment given twice", num, where, s.next))
	}
	if num != s.next {
		return fail(fmt.Errorf("segment %d (%s) where segment %d was due: a segment is missing", num, where, s.next))
	}
	if err := j.grow(int64(len(rec.Block))); err != nil {
		return fail(err)
	}
	s.block = append(s.block, rec.Block...)
	s.next++
	total := rec.Header.Get(FieldSegmentTotalLength)
	if total == "" {
		return nil, nil
	}
	j.drop(originID)
	if t, err := strconv.ParseInt(strings.TrimSpace(total), 10, 64); err != nil || t != int64(len(s.block)) {
		return nil, &SegmentError{s.number, s.where, s.file, originID, fmt.Errorf("%s %s (%s), but the segments hold %d bytes", FieldSegmentTotalLength, total, where, len(s.block))}
	}
	j.number, j.where = s.number, s.where
	whole := &Record{Version: s.origin.Version, Block: s.block}
	for _, f := range s.origin.Header {
		if !strings.EqualFold(f.Name, FieldSegmentNumber) && !strings.EqualFold(f.Name, FieldBlockDigest) {
			whole.Header = append(whole.Header, f)
		}
	}
	if whole.Header.Get(FieldContentLength) != "" {
		whole.Header.Set(FieldContentLength, strconv.Itoa(len(whole.Block)))
	}
	return whole, nil
}

// keepEarly keeps rec, the continuation segment num of the record
// originID, read before its first segment, which the caller names by
// number and where, for joinEarly to join when the first segment comes.
// A continuation past the bytes kept is an error, and drops the others
// of its record kept.
func (j *Joiner) keepEarly(rec *Record, originID string, num, number int, where string) (*Record, error) {
	e := j.early[originID]
	headers := headerSize(rec.Header)
	if e == nil {
		headers += int64(len(originID))
	}
	fail := func(err error) (*Record, error) {
		first := earlySegment{number: number, where: where, file: j.File, rec: rec}
		if e != nil {
			first = e.segs[0]
			j.dropEarly(originID)
		}
		if j.breakChain(originID) {
			if j.orphaned == nil {
				j.orphaned = map[string]bool{}
			}
			j.orphaned[originID] = true
		}
		return nil, &SegmentError{first.number, first.where, first.file, first.rec.ID(), err}
	}
	if j.headers+headers > MaxHeader {
		return fail(fmt.Errorf("continuation segment %d of %s, whose first segment is not in the %s before it, and the headers of the records whose segments are being joined pass %d bytes: %w", num, originID, plural(j.files, "file", "files"), MaxHeader, ErrTooLong))
	}
	if err := j.grow(int64(len(rec.Block))); err != nil {
		return fail(err)
	}
	if e == nil {
		if j.early == nil {
			j.early = map[string]*earlySegments{}
		}
		e = &earlySegments{order: j.opened}
		j.early[originID] = e
		j.opened++
	}
	j.headers += headers
	e.segs = append(e.segs, earlySegment{rec: &Record{Version: rec.Version, Header: slices.Clone(rec.Header), Block: slices.Clone(rec.Block)}, number: number, where: where, file: j.File})
	return nil, nil
}

// dropEarly forgets the continuations of the record id kept by
// keepEarly.
func (j *Joiner) dropEarly(id string) {
	for len(j.early[id].segs) > 0 {
		j.takeEarly(id, 0)
	}
}

// takeEarly returns the continuation i of the record id kept by
// keepEarly, and forgets it.
func (j *Joiner) takeEarly(id string, i int) earlySegment {
	e := j.early[id]
	seg := e.segs[i]
	e.segs = slices.Delete(e.segs, i, i+1)
	j.size -= int64(len(seg.rec.Block))
	j.headers -= headerSize(seg.rec.Header)
	if len(e.segs) == 0 {
		j.headers -= int64(len(id))
		delete(j.early, id)
	}
	return seg
}

// segmentNumber returns the WARC-Segment-Number of rec, 0 for none.
func segmentNumber(rec *Record) int {
	n, _ := strconv.Atoi(strings.TrimSpace(rec.Header.Get(FieldSegmentNumber)))
	return n
}

// joinEarly joins to the record id, whose segments are being joined, its
// continuations read before its first segment (keepEarly) that come
// next, in the order of their numbers, a segment read in another file
// named with its file; those that come later are kept for the
// continuations between to come. It returns the record joined when one
// of them completes it, or the error of the chain one breaks (a segment
// given twice).
func (j *Joiner) joinEarly(id string) (*Record, error) {
	file := j.File
	defer func() { j.File = file }()
	for j.early[id] != nil && j.open[id] != nil {
		s := j.open[id]
		i := slices.IndexFunc(j.early[id].segs, func(seg earlySegment) bool { return segmentNumber(seg.rec) <= s.next })
		if i < 0 {
			return nil, nil // the segments between to come
		}
		seg := j.takeEarly(id, i)
		j.File = seg.file
		whole, err := j.add(s, seg.rec, id, segmentNumber(seg.rec), seg.where)
		if err != nil || whole != nil {
			if e := j.early[id]; whole != nil && e != nil {
				// A segment past the one whose total closed it.
				next := e.segs[0]
				j.dropEarly(id)
				j.breakChain(id)
				return nil, &SegmentError{s.number, s.where, s.file, id, fmt.Errorf("segment %d (%s: %s) after the last, segment %d", segmentNumber(next.rec), next.file, next.where, s.next-1)}
			}
			if err != nil && j.early[id] != nil {
				j.dropEarly(id)
			}
			return whole, err
		}
	}
	return nil, nil
}

// Origin returns the number and where that Add was given with the
// record it last returned: for a record joined, its first segment's, by
// which the caller names it (as a SegmentError does), not its last's.
func (j *Joiner) Origin() (number int, where string) { return j.number, j.where }

// grow counts n more bytes kept, or refuses them past the limit.
func (j *Joiner) grow(n int64) error {
	if j.size+n > j.limit() {
		return fmt.Errorf("segments of more than %d bytes: %w", j.limit(), ErrTooLong)
	}
	j.size += n
	return nil
}

// drop forgets the record open under id.
func (j *Joiner) drop(id string) {
	s := j.open[id]
	j.size -= int64(len(s.block))
	j.headers -= s.headers
	delete(j.open, id)
}

// breakChain remembers that the chain of the record id broke, while the
// ids remembered take no more than MaxHeader bytes, and reports whether
// it is remembered.
func (j *Joiner) breakChain(id string) bool {
	if j.broken[id] {
		return true
	}
	if j.brokenSize+int64(len(id)) > MaxHeader {
		return false
	}
	if j.broken == nil {
		j.broken = map[string]bool{}
	}
	j.broken[id] = true
	j.brokenSize += int64(len(id))
	return true
}

// unbreak forgets that the chain of the record id broke: a first segment
// of it starts another.
func (j *Joiner) unbreak(id string) {
	if j.broken[id] {
		delete(j.broken, id)
		j.brokenSize -= int64(len(id))
	}
}

// headerSize is about what h takes in memory: its names and values, and
// a few bytes a field.
func headerSize(h Header) int64 {
	n := int64(0)
	for _, f := range h {
		n += int64(len(f.Name)+len(f.Value)) + 4
	}
	return n
}

// errIncomplete is End's error for a record whose last segment was not
// read.
var errIncomplete = errors.New("the segments after it are missing")

// End returns an error (*SegmentError) for each record whose last segment
// has not been read, in the order of their first segments, and forgets
// them: at the end of a file, the records it holds only part of, or, for
// a caller reading several files whose records may run from one into the
// next, at the end of the last.
func (j *Joiner) End() []error {
	open := slices.SortedFunc(maps.Values(j.open), func(a, b *segmented) int { return a.order - b.order })
	var errs []error
	for _, s := range open {
		if e := j.early[s.origin.ID()]; e != nil {
			// A continuation read before the first segment, after a gap.
			seg := e.segs[0]
			errs = append(errs, &SegmentError{s.number, s.where, s.file, s.origin.ID(),
				fmt.Errorf("segment %d (%s: %s) where segment %d was due: a segment is missing", segmentNumber(seg.rec), seg.file, seg.where, s.next)})
			continue
		}
		last := "the last in the file"
		if s.last != s.file {
			last = "the last read, in " + s.last
		}
		errs = append(errs, &SegmentError{s.number, s.where, s.file, s.origin.ID(),
			fmt.Errorf("split in segments, segment %d %s, without %s: %w", s.next-1, last, FieldSegmentTotalLength, errIncomplete)})
	}
	early := slices.SortedFunc(maps.Keys(j.early), func(a, b string) int { return j.early[a].order - j.early[b].order })
	for _, id := range early {
		if j.open[id] != nil {
			continue // named with its record, a segment missing before them
		}
		// Continuations whose first segment no file read holds; an
		// error names the first read, after the records whose first
		// segments were read.
		first := j.early[id].segs[0]
		num := strings.TrimSpace(first.rec.Header.Get(FieldSegmentNumber))
		errs = append(errs, &SegmentError{first.number, first.where, first.file, first.rec.ID(),
			fmt.Errorf("continuation segment %s of %s, whose first segment is %s", num, id, plural(j.files, "not in the file", "in none of the files"))})
	}
	j.open, j.size, j.headers = nil, 0, 0
	j.broken, j.brokenSize, j.orphaned = nil, 0, nil
	j.early = nil
	return errs
}

// plural returns one if n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

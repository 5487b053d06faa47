package warc

import (
	"bufio"
	"compress/gzip"
	"io"
)

// members reads a gzip stream of one or many members, as a gzip.Reader in
// multistream mode does, and notes where each member starts: in the file
// (the offset a CDX index gives a record) and in the stream decompressed.
type members struct {
	in     *countingReader
	zbr    *bufio.Reader // in, buffered: gzip reads no further than a member's end
	zr     *gzip.Reader
	out    int64         // bytes decompressed so far
	starts []memberStart // the members not yet passed by the records read
	err    error         // after the last member
}

// memberStart is where a member starts: out in the decompressed stream, in
// in the file.
type memberStart struct{ out, in int64 }

// countingReader counts the bytes read from r.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// newMembers returns a reader of the gzip stream r, whose first bytes are
// a gzip header.
func newMembers(r io.Reader) (*members, error) {
	m := &members{in: &countingReader{r: r}}
	m.zbr = bufio.NewReader(m.in)
	zr, err := gzip.NewReader(m.zbr)
	if err != nil {
		return nil, err
	}
	zr.Multistream(false)
	m.zr = zr
	m.starts = []memberStart{{0, 0}}
	return m, nil
}

// Read reads the decompressed stream, member after member.
func (m *members) Read(p []byte) (int, error) {
	for m.err == nil {
		n, err := m.zr.Read(p)
		m.out += int64(n)
		if err != io.EOF {
			return n, err
		}
		// The member ends: the next one, if any, starts where the file
		// has been read to, less what is buffered.
		at := m.in.n - int64(m.zbr.Buffered())
		if err := m.zr.Reset(m.zbr); err != nil {
			m.err = err // io.EOF after the last member
		} else {
			m.zr.Multistream(false)
			m.starts = append(m.starts, memberStart{m.out, at})
		}
		if n > 0 {
			return n, nil
		}
	}
	return 0, m.err
}

// at returns the offset in the file of the member that starts at out in
// the decompressed stream, if one does, and forgets the members before
// out: the records are read in order.
func (m *members) at(out int64) (int64, bool) {
	i := 0
	for i < len(m.starts) && m.starts[i].out < out {
		i++
	}
	m.starts = m.starts[i:]
	if len(m.starts) > 0 && m.starts[0].out == out {
		return m.starts[0].in, true
	}
	return 0, false
}

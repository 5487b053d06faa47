package main

import (
	"bytes"
	"io"
	"os"
)

// sizeInputsReadingPipe returns the bytes in all of the named inputs, for the
// huge-page reservation of a command that loads them (reserveHugeHeap):
// files by their size (inputSize), and standard input, when it is a pipe,
// whose size is known only once it is read, by reading it first
// (readPipeAhead). The command's own read of "-" (readInput) then takes
// the bytes read, or the error of reading them, as it would have read
// them: the errors of an input named before "-" come first, as before. A
// pipe is read to its end before the other input is looked at, though:
// one that the command refuses (not XML, say) is refused once the pipe
// ends, not at once.
func sizeInputsReadingPipe(env *environment, limit int64, names ...string) int64 {
	n := inputSize(env.stdin, limit, names...)
	if !pipedAmong(env.stdin, limit, names) {
		return n
	}
	chunks, piped, err := readPipeAhead(env.stdin, limit)
	if err != nil {
		env.stdin = &pipedInput{err: err}
		return n
	}
	env.stdin = &pipedInput{chunks: chunks}
	return n + piped
}

// pipedAmong reports whether standard input is read ahead for names: one
// of them is "-", and stdin a pipe or a socket (cat new.xml | vigil diff
// old.xml -). Not a terminal, which would wait for typing before the
// command has looked at its other arguments, nor where another input is
// not a file of at most limit bytes: the command reports that one first,
// as it would without reading ahead.
func pipedAmong(stdin io.Reader, limit int64, names []string) bool {
	f, ok := stdin.(*os.File)
	if !ok || limit < 0 {
		return false
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return false
	}
	piped := false
	for _, name := range names {
		if name == "-" {
			piped = true
			continue
		}
		if fi, err := os.Stat(name); err != nil || !fi.Mode().IsRegular() || fi.Size() > limit {
			return false
		}
	}
	return piped
}

// pipeChunk is the size of the buffers readPipeAhead reads in, 1 MiB.
const pipeChunk = 1 << 20

// readPipeAhead reads r to its end, at most limit bytes, in buffers of
// pipeChunk bytes: a stream of unknown size read into a buffer that
// doubles leaves as much garbage as it holds, all of it touched in small
// pages before the reservation. It returns the buffers and their bytes in
// all.
func readPipeAhead(r io.Reader, limit int64) ([][]byte, int64, error) {
	var chunks [][]byte
	var n int64
	for {
		// One byte past the limit, to tell a stream at the limit from one
		// over it.
		size := int64(pipeChunk)
		if limit-n < size {
			size = limit - n + 1
		}
		b := make([]byte, size)
		k, err := io.ReadFull(r, b)
		n += int64(k)
		if n > limit {
			return nil, 0, readFailure("-", limit, true, nil)
		}
		chunks = append(chunks, b[:k])
		switch err {
		case nil:
		case io.EOF, io.ErrUnexpectedEOF:
			return chunks, n, nil
		default:
			return nil, 0, readFailure("-", limit, false, err)
		}
	}
}

// pipedInput is standard input read ahead (sizeInputsReadingPipe): its bytes, in
// the chunks they were read in, or the error of reading them.
type pipedInput struct {
	chunks [][]byte
	err    error
}

// Read reads the rest of the bytes read ahead, or returns the error of
// reading them.
func (p *pipedInput) Read(b []byte) (int, error) {
	if p.err != nil {
		return 0, p.err
	}
	for len(p.chunks) > 0 && len(p.chunks[0]) == 0 {
		p.chunks = p.chunks[1:]
	}
	if len(p.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(b, p.chunks[0])
	p.chunks[0] = p.chunks[0][n:]
	return n, nil
}

// take returns the rest of the bytes read ahead, joined in one buffer
// (allocated now, once the command has reserved its heap, in its huge
// pages), or the error of reading them, and lets the chunks go: the input
// is at its end.
func (p *pipedInput) take() ([]byte, error) {
	if p.err != nil {
		err := p.err
		p.err = nil
		return nil, err
	}
	b := bytes.Join(p.chunks, nil)
	p.chunks = nil
	if b == nil {
		b = []byte{} // read, and empty
	}
	return b, nil
}

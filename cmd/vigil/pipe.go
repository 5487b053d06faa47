package main

import (
	"bytes"
	"io"
	"os"
)

// reserveForInputs asks for the heap of a command that loads the named
// inputs to be backed by huge pages (reserveHugeHeapFactor: factor times
// their bytes). Files are counted by their size; standard input, when it
// is a pipe, whose size is known only once it is read, is read first
// (readPipeAhead), and the command's own read of "-" (readInput) takes the
// bytes read. Its error is that of reading standard input, as readInput
// words it.
func reserveForInputs(env *environment, limit, factor int64, names ...string) error {
	n := inputSize(env.stdin, limit, names...)
	if !pipedAmong(env.stdin, limit, names) {
		reserveHugeHeapFactor(n, factor)
		return nil
	}
	chunks, piped, err := readPipeAhead(env.stdin, limit)
	if err != nil {
		return err
	}
	reserveHugeHeapFactor(n+piped, factor)
	// One buffer of the input's size, in the pages just reserved.
	env.stdin = &pipedInput{b: bytes.Join(chunks, nil)}
	return nil
}

// pipedAmong reports whether standard input is read ahead for names: one
// of them is "-", and stdin a pipe or a socket (cat new.xml | vigil diff
// old.xml -). Not a terminal, which would wait for typing before the
// command has looked at its other arguments, nor where another input is
// not a file of at most limit bytes: the command reports that one first,
// as it would without reading ahead.
func pipedAmong(stdin io.Reader, limit int64, names []string) bool {
	f, ok := stdin.(*os.File)
	if !ok {
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

// pipeChunk is the size of the buffers readPipeAhead reads in.
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

// pipedInput is standard input read ahead (reserveForInputs); readInput
// takes its bytes without copying them.
type pipedInput struct{ b []byte }

// Read reads what is left of the input, as of the pipe it was read from.
func (p *pipedInput) Read(b []byte) (int, error) {
	if len(p.b) == 0 {
		return 0, io.EOF
	}
	n := copy(b, p.b)
	p.b = p.b[n:]
	return n, nil
}

// take returns what is left of the input and leaves it at its end.
func (p *pipedInput) take() []byte {
	b := p.b
	p.b = p.b[len(p.b):]
	return b
}

package markup

import (
	"fmt"
	"io"
	"os"
)

// readInput reads all of r, refusing more than max bytes. An *os.File is
// stat'ed and a reader with a Len method (bytes.Reader, strings.Reader) is
// asked its length first, so that an oversized input is refused without
// reading it; any other reader is read through an io.LimitReader of max+1
// bytes, so at most max+1 bytes are ever held.
func readInput(r io.Reader, max int64) ([]byte, error) {
	size := int64(-1)
	switch v := r.(type) {
	case *os.File:
		if fi, err := v.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
			if off, err := v.Seek(0, io.SeekCurrent); err == nil {
				size -= off
			}
		}
	case interface{ Len() int }:
		size = int64(v.Len())
	}
	if size > max {
		return nil, tooLarge(max)
	}
	initial := int64(64 << 10)
	if size >= 0 {
		initial = size + 1 // +1 so that the final Read sees EOF without growing
	}
	if initial > max+1 {
		initial = max + 1
	}
	buf := make([]byte, 0, initial)
	lr := io.LimitReader(r, max+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("markup: read input: %w", err)
		}
	}
	if int64(len(buf)) > max {
		return nil, tooLarge(max)
	}
	return buf, nil
}

// tooLarge returns the error for an input over the limit of max bytes.
func tooLarge(max int64) error {
	return &LimitError{Option: "MaxBytes", Max: max, Err: fmt.Errorf("markup: input larger than the limit of %d bytes: %w", max, ErrTooLarge)}
}

// checkSize refuses a byte slice larger than max.
func checkSize(b []byte, max int64) error {
	if int64(len(b)) > max {
		return tooLarge(max)
	}
	return nil
}

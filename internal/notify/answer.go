package notify

import (
	"fmt"
	"io"
)

// MaxAnswer is the most of a receiver's answer to a delivery that is read:
// 1 MiB. The chat libraries read a whole answer into memory, and the
// server is one a user named (ntfy://, gotify://, a generic webhook): an
// endless answer would otherwise fill the daemon's memory within the
// delivery's timeout. A receiver acknowledges a message in a few bytes.
const MaxAnswer = 1 << 20

// AnswerTooLargeError is the read error of an answer past MaxAnswer.
type AnswerTooLargeError struct {
	Limit int64
}

func (e *AnswerTooLargeError) Error() string {
	return fmt.Sprintf("the receiver's answer over %d bytes was not read", e.Limit)
}

// cappedAnswer reads an answer's body up to limit bytes and fails the
// read that would pass it.
type cappedAnswer struct {
	body  io.ReadCloser
	left  int64 // bytes that may still be read
	limit int64
}

func (c *cappedAnswer) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// One byte more tells an answer of exactly limit bytes, which
		// is whole, from a longer one.
		var one [1]byte
		n, err := c.body.Read(one[:])
		if n > 0 {
			return 0, &AnswerTooLargeError{Limit: c.limit}
		}
		return 0, err
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.body.Read(p)
	c.left -= int64(n)
	return n, err
}

func (c *cappedAnswer) Close() error { return c.body.Close() }

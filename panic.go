package vigil

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// PanicError is a panic recovered on a goroutine of the daemon and
// returned as an error on the path that reports that goroutine's errors
// (a failed fetch, a failed store write, a failed delivery), so that a
// bug in one part, or in a library it calls, fails that work alone
// rather than stopping the process, and every other user's monitoring
// with it. Its text is "panic: " and the panic's value, with the URLs in
// it redacted (RedactURLs: a chat service's URL holds its token); the
// stack of the goroutine that panicked is kept in Stack for whoever logs
// the error (cmd/vigil, the monitor), not in the text, which may be
// stored and shown.
type PanicError struct {
	// Value is the panic's value as text, its URLs redacted.
	Value string
	// Stack is the stack of the goroutine that panicked, as
	// runtime/debug.Stack writes it.
	Stack []byte
}

// Error implements error: "panic: " and the redacted value.
func (e *PanicError) Error() string { return "panic: " + e.Value }

// Recovered returns r, a value recover returned in a deferred function,
// as a *PanicError with the stack of the calling goroutine, or nil if r
// is nil (no panic).
func Recovered(r any) *PanicError {
	if r == nil {
		return nil
	}
	return &PanicError{Value: RedactURLs(fmt.Sprint(r)), Stack: debug.Stack()}
}

// PanicStack returns the stack of the first *PanicError in err's chain,
// nil if there is none.
func PanicStack(err error) []byte {
	var pe *PanicError
	if errors.As(err, &pe) {
		return pe.Stack
	}
	return nil
}

// ErrGoexit is the error of a goroutine whose function called
// runtime.Goexit (as testing.T.FailNow does) instead of returning.
var ErrGoexit = errors.New("goroutine exited without returning (runtime.Goexit)")

// Protect calls f and returns its error, or, if f panics, the panic as a
// *PanicError (Recovered). A runtime.Goexit in f cannot be stopped: it
// ends the calling goroutine once its deferred functions have run.
func Protect(f func() error) (err error) {
	defer func() {
		if pe := Recovered(recover()); pe != nil {
			err = pe
		}
	}()
	return f()
}

// Go calls f on a goroutine of its own and returns a channel that
// receives its error, once: what f returned, a panic of f as a
// *PanicError (Recovered), or ErrGoexit if f called runtime.Goexit, so
// that the caller waiting on the channel is not left waiting. The channel
// is buffered: a caller that gives up on it leaks nothing.
func Go(f func() error) <-chan error {
	done := make(chan error, 1)
	go func() {
		returned := false
		defer func() {
			if pe := Recovered(recover()); pe != nil {
				done <- pe
			} else if !returned {
				done <- ErrGoexit
			}
		}()
		err := f()
		returned = true
		done <- err
	}()
	return done
}

package delta

import (
	"errors"
	"fmt"
	"strings"
)

// ErrConflict is wrapped by the errors of Apply and Validate when a delta
// does not fit the document it is applied to (a parent, a position, a
// deleted subtree or an old value differs from the document's).
var ErrConflict = errors.New("delta does not fit the document")

// ErrMalformed is wrapped by the errors of Delta.Validate and the decoders
// when a delta is not well-formed on its own.
var ErrMalformed = errors.New("malformed delta")

// ErrNotComposable is wrapped by the errors of Compose when two deltas do not
// follow each other (the second does not fit the result of the first).
var ErrNotComposable = errors.New("deltas cannot be composed")

// ErrNeedsDocuments is wrapped by the errors of Compose when the composed
// delta needs what only the versions hold (a node neither delta holds, the
// namespace in scope where a declaration changed above a content):
// ComposeWith composes such deltas, and so does a diff of the first and
// last versions. It wraps ErrNotComposable.
var ErrNeedsDocuments = fmt.Errorf("%w: cannot compose without the documents", ErrNotComposable)

// OpError reports what is wrong with one operation of a delta. Index is
// the operation's 0-based index in Delta.Ops; the message shows it 1-based,
// after the place where the operation starts in the file it was decoded
// from (Line and Column, the column in characters; 0 for an operation made
// in memory):
//
//	line 12, column 5: operation 3 (d par=17 pos=2 xm=(12-13)): parent XID 17 not in document
//
// The place of an operation of Invert's result is that of the operation
// it undoes, and so is that of Rebase's; so is its number in the message,
// the operation's in the file, since Invert's and Canonicalize's order is
// not the file's.
type OpError struct {
	Index        int
	Op           string // the operation's header, without its content
	Line, Column int    // where the operation starts in its delta file, 0 if unknown
	Msg          string
	Err          error // ErrConflict or ErrMalformed
	// num is the operation's number in its delta file, from 1, or 0
	// when it is unknown (Index+1 is shown).
	num int
}

func (e *OpError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.unplaced())
	}
	return e.unplaced()
}

// at returns " at line L, column C", the operation's place, for a message
// that names the operation in its own words; "" where it is unknown.
func (e *OpError) at() string {
	if e.Line == 0 {
		return ""
	}
	return fmt.Sprintf(" at line %d, column %d", e.Line, e.Column)
}

// unplaced is the message without the place.
func (e *OpError) unplaced() string {
	return fmt.Sprintf("operation %d (%s): %s", e.number(), e.Op, e.Msg)
}

// number is the operation's number in the message: its number in its
// delta file when known, else Index+1.
func (e *OpError) number() int {
	if e.num > 0 {
		return e.num
	}
	return e.Index + 1
}

func (e *OpError) Unwrap() error { return e.Err }

// header returns op's description without its content, for error messages.
func (op *Op) header() string {
	switch op.Kind {
	case Delete, Insert:
		s := fmt.Sprintf("%s par=%d pos=%d xm=%s", op.Kind, op.Parent, op.Pos, shortMap(op.XIDs))
		if op.Move {
			s += " move"
		}
		if op.Update {
			s += " update"
		}
		return s
	}
	return op.String()
}

// shortMap writes an XID-map, cut after 64 characters: a message must stay
// short even for an operation on a large subtree.
func shortMap(m interface{ String() string }) string {
	s := m.String()
	if len(s) > 64 {
		s = s[:60] + "...)"
	}
	return s
}

func conflict(i int, op *Op, format string, args ...any) *OpError {
	return &OpError{Index: i, Op: op.header(), Msg: fmt.Sprintf(format, args...), Err: ErrConflict}
}

func malformed(i int, op *Op, format string, args ...any) *OpError {
	return &OpError{Index: i, Op: op.header(), Msg: fmt.Sprintf(format, args...), Err: ErrMalformed}
}

// StepError is the error of one delta of a chain (ApplyAll): Step is its
// number, from 1.
type StepError struct {
	Step int
	Err  error
}

func (e *StepError) Error() string { return fmt.Sprintf("delta %d: %v", e.Step, e.Err) }

func (e *StepError) Unwrap() error { return e.Err }

// DecodeError is an error in a delta document, with the position at which
// the decoder noticed it: line and column for XML, a field path for JSON.
// Step and Op are 1-based (0 when the error is not in one); the column
// counts characters (runes), as an editor shows them.
type DecodeError struct {
	Line, Column int
	Path         string
	Step, Op     int
	Msg          string
	Err          error
}

func (e *DecodeError) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Column)
	}
	if e.Path != "" {
		b.WriteString(e.Path + ": ")
	}
	if e.Step > 1 {
		fmt.Fprintf(&b, "delta %d: ", e.Step)
	}
	if e.Op > 0 {
		fmt.Fprintf(&b, "operation %d: ", e.Op)
	}
	b.WriteString(e.Msg)
	return b.String()
}

func (e *DecodeError) Unwrap() error { return e.Err }

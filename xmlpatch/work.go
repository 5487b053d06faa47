package xmlpatch

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// Apply's work is bounded: a selector's predicates may compare the string
// value of every element they pass ([.='x'] at each step of a deep path),
// and every operation may do so again, so that a small patch could cost
// the square of the document's size or worse. Apply counts its work
// across the whole patch (the nodes its selectors visit and compare, the
// texts their string values read, the namespace declarations their name
// tests look through, the subtrees its operations walk and the children
// their edits shift) and stops
// past a limit proportional to the size of its input.

// DefaultWorkFactor is the work Apply may do, by default, for each unit
// of its input: a node of the document, a node of the patch's content or
// a byte of its selectors. The work is counted in nodes visited (and 64
// bytes of text compared, and namespace declarations looked through); an
// exported patch costs about one unit a unit of input, a patch of
// [@id='x'] selectors on a wide list about the list's length an
// operation.
const DefaultWorkFactor = 64

// MinWork is the least work Apply may do by default, whatever the size
// of its input, so that small patches on small documents are never
// refused.
const MinWork = 1 << 20

// ErrWorkLimit is wrapped by a *WorkLimitError: errors.Is(err,
// xmlpatch.ErrWorkLimit) tells a patch that costs too much.
var ErrWorkLimit = errors.New("xml patch: work limit exceeded")

// WorkLimitError is a patch that costs Apply more work than its limit
// (Patch.WorkLimit): the operation it stopped at, by its 1-based index
// and selector. The patch is not applied.
type WorkLimitError struct {
	Op           int    // the operation, 1-based in the patch's order
	Kind         Kind   // its kind
	Sel          string // its selector
	Line, Column int    // where it starts in the patch document, 0 if unknown
	Limit        int64  // the work limit
}

// Error returns the message: the position, the operation and its
// selector, and the limit.
func (e *WorkLimitError) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Column)
	}
	fmt.Fprintf(&b, "operation %d (<%s sel=%q>): the patch costs more than the work limit of %d (Patch.WorkLimit): its selectors visit too many nodes", e.Op, e.Kind, clip(e.Sel, 120), e.Limit)
	return b.String()
}

// Unwrap returns ErrWorkLimit.
func (e *WorkLimitError) Unwrap() error { return ErrWorkLimit }

// work counts the work of one Apply against its limit, or the attributes
// an Export reads (without a limit, for the tests of its cost). Its
// methods do nothing on a nil *work.
type work struct {
	spent, limit int64
}

// add counts n units of work.
func (w *work) add(n int) {
	if w != nil {
		w.spent += int64(n)
	}
}

// over reports whether the work spent passed the limit.
func (w *work) over() bool { return w != nil && w.spent > w.limit }

// compared counts the comparison of a text of n bytes.
func (w *work) compared(n int) { w.add(1 + n/64) }

// workLimit returns the work Apply may do on doc with p.
func workLimit(doc *tree.Document, p *Patch) int64 {
	if p.WorkLimit > 0 {
		return p.WorkLimit
	}
	size := int64(len(doc.Prolog) + len(doc.Epilog) + doc.Root.Size())
	for i := range p.Ops {
		op := &p.Ops[i]
		size += int64(1 + len(op.Sel))
		for _, c := range op.Content {
			size += int64(c.Size())
		}
	}
	return max(DefaultWorkFactor*size, MinWork)
}

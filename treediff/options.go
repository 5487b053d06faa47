package treediff

// Algorithm selects how Diff matches the two versions.
type Algorithm string

// Matching algorithms.
const (
	// XyDiff is the seed's algorithm: its five phases and nothing more.
	XyDiff Algorithm = "xydiff"
	// Vigil is XyDiff followed by an exact recovery of what it left
	// unmatched (see recovery): deltas close to the minimum at XyDiff's
	// speed. It is the default.
	Vigil Algorithm = "vigil"
)

// Options configure Diff. The zero value (or a nil *Options) gives the
// defaults.
type Options struct {
	// Algorithm is the matching algorithm; empty means Vigil.
	Algorithm Algorithm
	// KeyAttrs names attributes that identify an element, as ID attributes
	// declared in a DTD do (for example "id" or "name"): two elements that
	// carry a key attribute are matched only if they have the same name and
	// the same key value, and are never matched otherwise.
	KeyAttrs []string
	// IgnoreDTD disables the ID attributes that the versions' DTDs
	// declare (tree.Document.IDAttrs); they are used by default.
	IgnoreDTD bool
}

func (o *Options) algorithm() Algorithm {
	if o == nil || o.Algorithm == "" {
		return Vigil
	}
	return o.Algorithm
}

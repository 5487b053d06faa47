package delta

import "fmt"

// Follows returns nil unless what d1 and d2 say of the version between
// them shows that d2 does not follow d1: the fingerprint of its root
// element (ToFingerprint of d1, FromFingerprint of d2, where both are
// known), and, where both change it, what stands outside the root element
// (Outside), which the fingerprint does not cover (across a delta written
// before deltas carried a comment <!--?xml ...?--> before the root, as
// Apply reads it: outsideFollows). Otherwise it returns
// an error wrapping ErrNotComposable that says what differs and, when
// what they say shows d2 leading to d1's source instead, that the two are
// in the wrong order.
//
// The fingerprint is of the root element alone, and stays so: deltas
// already written hold it, and a document is checked against it
// (CheckSource). Two versions that differ only outside the root (a
// licence comment above it, re-indented) have one fingerprint; what the
// deltas say of the outside tells them apart.
func Follows(d1, d2 *Delta) error {
	var msg string
	switch {
	case d1.ToFingerprint != 0 && d2.FromFingerprint != 0 && d1.ToFingerprint != d2.FromFingerprint:
		msg = fmt.Sprintf("its source is not the previous delta's target (fingerprint %s, not %s)", fingerprintString(d2.FromFingerprint), fingerprintString(d1.ToFingerprint))
	case d1.Outside != nil && d2.Outside != nil && !outsideFollows(d1.Outside.New, d2.Outside):
		msg = fmt.Sprintf("outside the root element, its source has %s, where the previous delta leaves them", d2.Outside.Old.describe(d1.Outside.New))
	default:
		return nil
	}
	if leadsTo(d2, d1) {
		msg += "; it leads to the previous delta's source instead: are the deltas in the wrong order?"
	}
	return &notFollowing{msg}
}

// leadsTo reports whether what a and b say shows a's target to be b's
// source: they say something of it (a fingerprint, or the outside where
// both change it), and all they say agrees.
func leadsTo(a, b *Delta) bool {
	said := false
	if a.ToFingerprint != 0 && b.FromFingerprint != 0 {
		if a.ToFingerprint != b.FromFingerprint {
			return false
		}
		said = true
	}
	if a.Outside != nil && b.Outside != nil {
		if !outsideFollows(a.Outside.New, b.Outside) {
			return false
		}
		said = true
	}
	return said
}

// notFollowing is the error of Follows: its message alone, the deltas'
// numbers left to the caller, and ErrNotComposable in its chain.
type notFollowing struct{ msg string }

func (e *notFollowing) Error() string { return e.msg }

func (e *notFollowing) Unwrap() error { return ErrNotComposable }

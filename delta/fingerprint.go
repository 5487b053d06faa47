package delta

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/vigil-web/vigil/tree"
)

// fingerprintString is the written form of a version's fingerprint:
// sixteen lower-case hexadecimal digits.
func fingerprintString(fp tree.Fingerprint) string {
	return fmt.Sprintf("%016x", uint64(fp))
}

// parseFingerprint reads fingerprintString's form.
func parseFingerprint(s string) (tree.Fingerprint, error) {
	v, err := strconv.ParseUint(s, 16, 64)
	if err != nil || len(s) != 16 || v == 0 {
		return 0, fmt.Errorf("fingerprint %q: want 16 hexadecimal digits, not all zero", s)
	}
	return tree.Fingerprint(v), nil
}

// ErrOtherSource is the error of CheckSource: the delta was computed from
// another document.
var ErrOtherSource = errors.New("the delta was computed from another document")

// CheckSource returns an error wrapping ErrOtherSource unless the tree
// whose fingerprint is fp is the delta's source, or the delta does not say
// (FromFingerprint 0). The node count and the content of what the delta
// deletes or updates are checked when it is applied; this catches the
// document that has those and differs elsewhere.
func CheckSource(d *Delta, fp tree.Fingerprint) error {
	if d.FromFingerprint != 0 && fp != d.FromFingerprint {
		return fmt.Errorf("%w: its source's fingerprint is %s, this document's %s", ErrOtherSource, fingerprintString(d.FromFingerprint), fingerprintString(fp))
	}
	return nil
}

// ErrOtherTarget is the error of CheckTarget: applying the delta did not
// give the version it was computed to.
var ErrOtherTarget = errors.New("the result is not the delta's target version")

// CheckTarget returns an error wrapping ErrOtherTarget unless the tree
// whose fingerprint is fp, the result of applying d, is d's target, or d
// does not say (ToFingerprint 0). What a delta inserts is checked by
// nothing else: an insert whose content was altered applies all the same.
func CheckTarget(d *Delta, fp tree.Fingerprint) error {
	if d.ToFingerprint != 0 && fp != d.ToFingerprint {
		return fmt.Errorf("%w: the target's fingerprint is %s, the result's %s", ErrOtherTarget, fingerprintString(d.ToFingerprint), fingerprintString(fp))
	}
	return nil
}

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

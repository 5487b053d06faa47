package delta

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestFingerprintCodecs writes the versions' fingerprints in both forms
// and reads them back; a malformed one is refused where it stands.
func TestFingerprintCodecs(t *testing.T) {
	d := one(Op{Kind: AttrInsert, Node: 1, Name: "a", NewValue: "1"})
	d.FromFingerprint, d.ToFingerprint = 0x919ccadcd09396ca, 0x0000000000000042
	var x, j bytes.Buffer
	if err := EncodeXML(&x, d); err != nil {
		t.Fatal(err)
	}
	if err := EncodeJSON(&j, d); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(x.String(), `fromFingerprint="919ccadcd09396ca" toFingerprint="0000000000000042"`) {
		t.Errorf("XML: %s", x.String())
	}
	xs, err := DecodeXML(&x)
	if err != nil {
		t.Fatal(err)
	}
	dj, err := DecodeJSON(&j)
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range []*Delta{xs[0], dj} {
		if got.FromFingerprint != d.FromFingerprint || got.ToFingerprint != d.ToFingerprint {
			t.Errorf("read back %016x %016x", uint64(got.FromFingerprint), uint64(got.ToFingerprint))
		}
	}
	for _, bad := range []string{
		`<unit_delta><t fromFingerprint="xyz"></t></unit_delta>`,
		`<unit_delta><t toFingerprint="0000000000000000"></t></unit_delta>`,
	} {
		if _, err := DecodeXML(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "Fingerprint") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	for _, bad := range []string{`{"fromFingerprint":"12","ops":[]}`, `{"fromFingerprint":"","ops":[]}`} {
		if _, err := DecodeJSON(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "fromFingerprint") {
			t.Errorf("JSON %s: %v", bad, err)
		}
	}
}

// TestFingerprintChecks: a document or a delta that is not the source of
// the next is refused; composing, inverting and checking carry the
// versions' fingerprints.
func TestFingerprintChecks(t *testing.T) {
	if err := CheckSource(&Delta{FromFingerprint: 5}, 6); !errors.Is(err, ErrOtherSource) {
		t.Errorf("another document: %v", err)
	}
	if err := CheckSource(&Delta{FromFingerprint: 5}, 5); err != nil {
		t.Errorf("its source: %v", err)
	}
	if err := CheckSource(&Delta{}, 6); err != nil {
		t.Errorf("a delta that does not say: %v", err)
	}
	d1, d2 := one(), one()
	d1.FromFingerprint, d1.ToFingerprint, d2.FromFingerprint, d2.ToFingerprint = 1, 2, 3, 4
	if _, err := Compose(d1, d2); !errors.Is(err, ErrNotComposable) {
		t.Errorf("compose of deltas that do not follow: %v", err)
	}
	if _, err := ComposeAll([]*Delta{d1, d2}); !errors.Is(err, ErrNotComposable) {
		t.Errorf("compose all of deltas that do not follow: %v", err)
	}
	if _, err := ApplyAll(seven(), []*Delta{d1, d2}); !errors.Is(err, ErrOtherSource) {
		t.Errorf("apply all of deltas that do not follow: %v", err)
	}
	d2.FromFingerprint = 2
	c, err := Compose(d1, d2)
	if err != nil {
		t.Fatal(err)
	}
	if c.FromFingerprint != 1 || c.ToFingerprint != 4 {
		t.Errorf("composed: %d -> %d, want 1 -> 4", c.FromFingerprint, c.ToFingerprint)
	}
	if inv := Invert(c); inv.FromFingerprint != 4 || inv.ToFingerprint != 1 {
		t.Errorf("inverted: %d -> %d, want 4 -> 1", inv.FromFingerprint, inv.ToFingerprint)
	}
}

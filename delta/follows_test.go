package delta

import (
	"errors"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestFollows: Follows tells a delta that does not follow the one before
// it by the fingerprints or, where both change it, by what stands outside
// the root element, which the fingerprint does not cover, and says that
// the two are in the wrong order when what they say shows the second
// leading to the first's source. Two versions that differ only in a
// comment above the root have one fingerprint: ComposeAll and Compose
// said only that the comment did not match.
func TestFollows(t *testing.T) {
	v1 := surrounded("r", []string{"licence\n\t\tv1"}, nil)
	v2 := surrounded("r", []string{"licence\n\tv2"}, nil)
	v3 := surrounded("r", []string{"licence\nv3"}, nil)
	// The root's fingerprint, the same in the three versions.
	const same = 0x1111
	withPrints := func(d *Delta, from, to uint64) *Delta {
		d.FromFingerprint, d.ToFingerprint = tree.Fingerprint(from), tree.Fingerprint(to)
		return d
	}
	d12 := withPrints(mustBuild(t, v1, v2), same, same)
	d23 := withPrints(mustBuild(t, v2, v3), same, same)
	// Root changes: A -> B -> C.
	ab, bc := withPrints(mustBuild(t, v1, v1), 0xa, 0xb), withPrints(mustBuild(t, v1, v1), 0xb, 0xc)
	other := withPrints(mustBuild(t, v1, v1), 0xd, 0xe)
	const wrongOrder = "; it leads to the previous delta's source instead: are the deltas in the wrong order?"
	for _, c := range []struct {
		name   string
		d1, d2 *Delta
		want   string // "" for none
	}{
		{"outside, in order", d12, d23, ""},
		{"outside, wrong order", d23, d12, `outside the root element, its source has comment "licence\n\t\tv1" as node 1 before the root, not comment "licence\nv3", where the previous delta leaves them` + wrongOrder},
		{"outside, twice", d12, d12, `outside the root element, its source has comment "licence\n\t\tv1" as node 1 before the root, not comment "licence\n\tv2", where the previous delta leaves them`},
		{"root, in order", ab, bc, ""},
		{"root, wrong order", bc, ab, "its source is not the previous delta's target (fingerprint 000000000000000a, not 000000000000000c)" + wrongOrder},
		{"root, another document", ab, other, "its source is not the previous delta's target (fingerprint 000000000000000d, not 000000000000000b)"},
		{"nothing said", &Delta{}, other, ""},
	} {
		err := Follows(c.d1, c.d2)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want nil", c.name, err)
		case c.want != "" && (err == nil || err.Error() != c.want || !errors.Is(err, ErrNotComposable)):
			t.Errorf("%s: %v\nwant %s, wrapping ErrNotComposable", c.name, err, c.want)
		}
	}
	if _, err := ComposeAll([]*Delta{d23, d12}); err == nil || !strings.HasPrefix(err.Error(), "delta 2 does not follow delta 1: outside the root element") || !strings.HasSuffix(err.Error(), wrongOrder) {
		t.Errorf("ComposeAll in the wrong order: %v", err)
	}
	if _, err := Compose(d23, d12); err == nil || !strings.HasPrefix(err.Error(), "compose: the second delta does not follow the first: outside the root element") || !strings.HasSuffix(err.Error(), wrongOrder) {
		t.Errorf("Compose in the wrong order: %v", err)
	}
}

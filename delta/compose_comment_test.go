package delta_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// TestComposeStoredDeltaBesideDeclarationShapedComment: a delta written
// when deltas left a comment <!--?xml ...?--> out of a prolog read as XML
// too (its prolog holds none), which Apply applies to the version it was
// made from, composes with a delta written since (whose prolog holds the
// comment), in either order: Compose accepts what Apply accepts in turn,
// and the composed delta applies to the first version to give the last,
// its inverse to the last to give the first.
func TestComposeStoredDeltaBesideDeclarationShapedComment(t *testing.T) {
	// stored leaves out of d's outside the comments shaped like an XML
	// declaration, as deltas did before they carried them.
	stored := func(d *delta.Delta) *delta.Delta {
		if d.Outside == nil {
			return d
		}
		c := *d
		o := *d.Outside
		for _, s := range []*delta.Surroundings{&o.Old, &o.New} {
			if s.Doctype != "" {
				for _, n := range s.Prolog[:s.DoctypeAfter] {
					if tree.IsXMLDeclarationComment(n) {
						s.DoctypeAfter--
					}
				}
			}
			s.Prolog = slices.DeleteFunc(slices.Clone(s.Prolog), tree.IsXMLDeclarationComment)
		}
		c.Outside = &o
		return &c
	}
	for _, tc := range []struct {
		name             string
		a, b, c          string
		stored1, stored2 bool // which delta was written before
		needsDocuments   bool // the first's source's comment could have stood elsewhere
	}{
		{"the second changes the comment",
			`<!--?xml n="a"?--><!--one--><r>1</r>`, `<!--?xml n="a"?--><!--two--><r>2</r>`, `<!--?xml n="b"?--><!--two--><r>3</r>`, true, false, false},
		{"the second keeps the comment",
			`<!--?xml n="a"?--><!--one--><r>1</r>`, `<!--?xml n="a"?--><!--two--><r>2</r>`, `<!--?xml n="a"?--><!--three--><r>3</r>`, true, false, false},
		{"the second removes the comment",
			`<?xml version="1.0"?><!--one--><!--?xml n="a"?--><r>1</r>`, `<?xml version="1.0"?><!--two--><!--?xml n="a"?--><r>2</r>`, `<?xml version="1.0"?><!--two--><r>3</r>`, true, false, false},
		{"the comment after a DOCTYPE",
			`<!DOCTYPE r><!--?xml n="a"?--><!--one--><r>1</r>`, `<!DOCTYPE r><!--?xml n="a"?--><!--two--><r>2</r>`, `<!DOCTYPE r><!--?xml n="b"?--><!--two--><r>3</r>`, true, false, false},
		{"the first written since, the second before",
			`<!--?xml n="a"?--><!--one--><r>1</r>`, `<!--?xml n="a"?--><!--two--><r>2</r>`, `<!--?xml n="a"?--><!--three--><r>3</r>`, false, true, false},
		{"both written before",
			`<!--?xml n="a"?--><!--one--><r>1</r>`, `<!--?xml n="a"?--><!--two--><r>2</r>`, `<!--?xml n="a"?--><!--three--><r>3</r>`, true, true, false},
		{"the comment among nodes the first rewrites",
			`<!--x--><!--?xml n="a"?--><!--y--><r>1</r>`, `<!--z--><!--?xml n="a"?--><r>2</r>`, `<!--z--><!--?xml n="b"?--><r>3</r>`, true, false, true},
	} {
		for _, codec := range deltaCodecs {
			t.Run(tc.name+"/"+codec.name, func(t *testing.T) {
				docs := make([]*tree.Document, 3)
				for i, s := range []string{tc.a, tc.b, tc.c} {
					d, err := markup.ParseXMLBytes([]byte(s), nil)
					if err != nil {
						t.Fatalf("parse %s: %v", s, err)
					}
					docs[i] = d
				}
				d1, err := treediff.Diff(docs[0], docs[1], nil)
				if err != nil {
					t.Fatal(err)
				}
				d2, err := treediff.Diff(docs[1], docs[2], nil)
				if err != nil {
					t.Fatal(err)
				}
				if tc.stored1 {
					d1 = stored(d1)
				}
				if tc.stored2 {
					d2 = stored(d2)
				}
				d1, d2 = throughCodec(t, codec, d1), throughCodec(t, codec, d2)
				want := writeXML(t, docs[2])
				mid, err := delta.Apply(docs[0], d1)
				if err != nil {
					t.Fatalf("Apply(a, d1): %v", err)
				}
				last, err := delta.Apply(mid, d2)
				if err != nil {
					t.Fatalf("Apply(Apply(a, d1), d2): %v", err)
				}
				if s := writeXML(t, last); s != want {
					t.Fatalf("Apply(Apply(a, d1), d2):\n got %q\nwant %q", s, want)
				}
				if err := delta.Follows(d1, d2); err != nil {
					t.Errorf("Follows: %v", err)
				}
				composed, err := delta.Compose(d1, d2)
				if tc.needsDocuments {
					if !errors.Is(err, delta.ErrNeedsDocuments) {
						t.Fatalf("Compose: %v, want ErrNeedsDocuments", err)
					}
					composed, err = delta.ComposeWith(docs[0], d1, d2)
					if err != nil {
						t.Fatalf("ComposeWith: %v", err)
					}
				} else if err != nil {
					t.Fatalf("Compose: %v", err)
				}
				if all, err := delta.ComposeAll([]*delta.Delta{d1, d2}); !tc.needsDocuments && (err != nil || !delta.Equal(all, composed)) {
					t.Errorf("ComposeAll: %v, and not Compose's delta", err)
				}
				composed = throughCodec(t, codec, composed)
				got, err := delta.Apply(docs[0], composed)
				if err != nil {
					t.Fatalf("Apply(a, Compose(d1, d2)): %v", err)
				}
				if s := writeXML(t, got); s != want {
					t.Errorf("Apply(a, Compose(d1, d2)):\n got %q\nwant %q", s, want)
				}
				back, err := delta.Apply(docs[2], throughCodec(t, codec, delta.Invert(composed)))
				if err != nil {
					t.Fatalf("Apply(c, Invert(Compose(d1, d2))): %v", err)
				}
				if s, w := writeXML(t, back), writeXML(t, docs[0]); s != w {
					t.Errorf("Apply(c, Invert(Compose(d1, d2))):\n got %q\nwant %q", s, w)
				}
			})
		}
	}
}

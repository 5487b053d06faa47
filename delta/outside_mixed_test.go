package delta_test

import (
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/treediff"
)

// TestOutsideDeclarationCommentMixedReadings: one version read as HTML,
// whose parser made <?xml ...?> the comment <!--?xml ...?-->, the other
// read as XML and holding that comment as written (the first as a
// browser or WriteXML serialises it): the comment is the declaration in
// both, no change, and the delta between them applies to the version it
// was computed from, and its inverse to the other, also where another
// comment before the root changed.
func TestOutsideDeclarationCommentMixedReadings(t *testing.T) {
	const page = `<html><head><title>t</title></head><body><p>x</p></body></html>`
	for _, tc := range []struct {
		name              string
		htmlText, xmlText string
		changed           bool
	}{
		{"declaration alone", `<?xml version="1.0"?>` + page, `<!--?xml version="1.0"?-->` + page, false},
		{"another comment changed", `<?xml version="1.0"?><!--a-->` + page, `<!--?xml version="1.0"?--><!--b-->` + page, true},
	} {
		h, err := markup.ParseHTMLBytes([]byte(tc.htmlText), nil)
		if err != nil {
			t.Fatal(err)
		}
		x, _, err := markup.ParseBytes([]byte(tc.xmlText), &markup.Options{Format: markup.XML})
		if err != nil {
			t.Fatal(err)
		}
		if x.HTML || !h.HTML {
			t.Fatalf("%s: HTML %v read as XML, %v read as HTML", tc.name, x.HTML, h.HTML)
		}
		for _, dir := range []string{"html to xml", "xml to html"} {
			a, b := h.Clone(), x.Clone()
			if dir == "xml to html" {
				a, b = x.Clone(), h.Clone()
			}
			if got := delta.OutsideChanged(a, b); got != tc.changed {
				t.Errorf("%s, %s: OutsideChanged = %v, want %v", tc.name, dir, got, tc.changed)
			}
			d, err := treediff.Diff(a, b, nil)
			if err != nil {
				t.Fatal(err)
			}
			if (d.Outside != nil) != tc.changed {
				t.Errorf("%s, %s: Outside %+v, want changed %v", tc.name, dir, d.Outside, tc.changed)
			}
			if _, err := delta.Apply(a.Clone(), d); err != nil {
				t.Errorf("%s, %s: Apply(a, Diff(a, b)): %v", tc.name, dir, err)
			}
			if _, err := delta.Apply(b.Clone(), delta.Invert(d)); err != nil {
				t.Errorf("%s, %s: Apply(b, Invert(Diff(a, b))): %v", tc.name, dir, err)
			}
		}
	}
}

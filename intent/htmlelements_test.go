package intent

import (
	"slices"
	"strings"
	"testing"
)

// TestAnnotationXMLSpaces: what an annotation-xml holds is read in the
// space the HTML parser puts it in, on a page parsed as on one read as
// its source text: an annotation-xml of HTML (encoding text/html or
// application/xhtml+xml, in any case) holds HTML, whose svg is SVG and
// whose math is MathML again; an svg an annotation-xml of another
// encoding holds is SVG, not MathML (its foreignObject holds HTML, its mi
// does not); an svg deeper in it is MathML. A base there is the page's or
// none accordingly, and a link written relative resolves against it.
func TestAnnotationXMLSpaces(t *testing.T) {
	const page = "https://shop.example/dir/page"
	for _, tc := range []struct {
		name, markup, base string
	}{
		{"HTML annotation-xml", `<math><annotation-xml encoding="text/html"><base href="https://cdn.example/ax/"></annotation-xml></math>`,
			"https://cdn.example/ax/"},
		{"HTML annotation-xml, encoding in capitals", `<math><annotation-xml encoding="TEXT/HTML"><base href="https://cdn.example/ax/"></annotation-xml></math>`,
			"https://cdn.example/ax/"},
		{"svg in an HTML annotation-xml", `<math><annotation-xml encoding="text/html"><svg><base href="https://cdn.example/s/"></svg></annotation-xml></math>`,
			page},
		{"foreignObject of an svg in an HTML annotation-xml", `<math><annotation-xml encoding="text/html"><svg><foreignObject><base href="https://cdn.example/fo/"></foreignObject></svg></annotation-xml></math>`,
			"https://cdn.example/fo/"},
		{"desc of an svg in an XHTML annotation-xml", `<math><annotation-xml encoding="application/xhtml+xml"><svg><desc><base href="https://cdn.example/d/"></desc></svg></annotation-xml></math>`,
			"https://cdn.example/d/"},
		{"mi of a math in an XHTML annotation-xml", `<math><annotation-xml encoding="application/xhtml+xml"><math><mi><base href="https://cdn.example/mi/"></mi></math></annotation-xml></math>`,
			"https://cdn.example/mi/"},
		{"foreignObject of an svg in an SVG annotation-xml", `<math><annotation-xml encoding="image/svg+xml"><svg><foreignObject><base href="https://cdn.example/fo/"></foreignObject></svg></annotation-xml></math>`,
			"https://cdn.example/fo/"},
		{"mi of an svg in an annotation-xml", `<math><annotation-xml><svg><mi><base href="https://cdn.example/mi/"></mi></svg></annotation-xml></math>`,
			page},
		{"foreignObject of an svg in an mrow of an annotation-xml", `<math><annotation-xml><mrow><svg><foreignObject><base href="https://cdn.example/fo/"></foreignObject></svg></mrow></annotation-xml></math>`,
			page},
		{"foreignObject of an svg after an annotation-xml's mrow", `<math><annotation-xml><mrow></mrow><svg><foreignObject><base href="https://cdn.example/fo/"></foreignObject></svg></annotation-xml></math>`,
			"https://cdn.example/fo/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := []string{"+ link added: " + strings.TrimSuffix(tc.base, "page") + "y"}
			for _, asText := range []bool{false, true} {
				var p *Pair
				if asText {
					p = NewPair(textPage(t, tc.markup+"\n<a href=\"x\">x</a>\n"), textPage(t, tc.markup+"\n<a href=\"x\">x</a>\n<a href=\"y\">y</a>\n"), nil, nil)
					p.OldReadAsText, p.NewReadAsText = true, true
				} else {
					p = NewPair(parseDoc(t, `<html><body>`+tc.markup+`<a href="x">x</a></body></html>`),
						parseDoc(t, `<html><body>`+tc.markup+`<a href="x">x</a><a href="y">y</a></body></html>`), nil, nil)
				}
				p.OldURL, p.NewURL = page, page
				r, err := p.Evaluate(monitor(t, "all links"))
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, c := range r.AllChanges() {
					got = append(got, c.Line())
				}
				if !slices.Equal(got, want) {
					t.Errorf("read as text %v: changes %q, want %q", asText, got, want)
				}
			}
		})
	}
}

// TestAnnotationXMLText: the HTML an annotation-xml of HTML holds, and
// the svg in it, are read as the page's text.
func TestAnnotationXMLText(t *testing.T) {
	page := func(encoding, price string) string {
		return `<html><body><p>Boots</p><math><mi>x</mi><annotation-xml encoding="` + encoding + `">` +
			`<p>Price <b>` + price + `</b> euros</p><svg><text>Sale</text><foreignObject><span>Club</span></foreignObject></svg>` +
			`</annotation-xml></math></body></html>`
	}
	for _, encoding := range []string{"text/html", "application/xhtml+xml"} {
		t.Run(encoding, func(t *testing.T) {
			r := evalClause(t, page(encoding, "12"), page(encoding, "15"), `all words`)
			var got []string
			for _, c := range r.AllChanges() {
				got = append(got, c.Line())
			}
			if len(got) != 1 || !strings.Contains(got[0], "12") || !strings.Contains(got[0], "15") {
				t.Errorf("changes %q, want the price changed from 12 to 15", got)
			}
			c := newContent(parseDoc(t, page(encoding, "12")), nil, nil, false, newSymtab())
			var words []string
			for _, w := range c.words {
				words = append(words, w.text)
			}
			if want := []string{"Boots", "x", "Price", "12", "euros", "Sale", "Club"}; !slices.Equal(words, want) {
				t.Errorf("words %q, want %q", words, want)
			}
		})
	}
}

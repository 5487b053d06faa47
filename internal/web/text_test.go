package web

import (
	"testing"

	"github.com/vigil-web/vigil/markup"
)

// TestDocumentText: a version's text joins the words of a line as the
// page shows them; it put a space between every two texts ("co rr ect").
func TestDocumentText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`<html><body><p>co<b>rr</b>ect word.</p></body></html>`, "correct word."},
		{`<html><body><p><a href="/">the docs</a>, price <b>x</b> <i>y</i></p></body></html>`, "the docs, price x y"},
		{`<html><body><p>a</p><p>b</p><table><tr><td>1</td><td>2</td></tr></table></body></html>`, "a\nb\n1 2"},
		{`<r><a>x</a><b>y</b></r>`, "x y"},
		{`<html><body><p>Price:&nbsp;<b>12</b>&nbsp;EUR</p></body></html>`, "Price: 12 EUR"},
	} {
		doc, _, err := markup.ParseBytes([]byte(tc.in), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := documentText(doc); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.in, got, tc.want)
		}
	}
}

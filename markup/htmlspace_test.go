package markup_test

import (
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// TestHTMLWordSpaces: under the Normalize policy, HTML text keeps one
// space where it meets inline content, and the blank between two inline
// elements is a space of its own, so that a page written back or shown
// keeps its words apart; white space at the edges of blocks, next to line
// breaks and between blocks is layout, and dropped. Every text node used to
// be trimmed: "Alpha <b>x</b> beta" came back "Alpha<b>x</b>beta".
func TestHTMLWordSpaces(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`<p>Alpha <b>x</b> beta</p>`, `<p>Alpha <b>x</b> beta</p>`},
		{`<p><b>x</b>   <i>y</i></p>`, `<p><b>x</b> <i>y</i></p>`},
		{"<p><span>Alpha\n</span>beta, <a href=\"/\">\n  link\n</a>.</p>", `<p><span>Alpha </span>beta, <a href="/">link </a>.</p>`},
		{"<div>\n  <p>\n    Hello\n  </p>\n  <p>b</p>\n</div>", `<div><p>Hello</p><p>b</p></div>`},
		{"<ul>\n<li><a href=\"/\">\n Login\n</a></li>\n</ul>", `<ul><li><a href="/">Login</a></li></ul>`},
		{`<p>a<br> b <img src="i.png"> c</p>`, `<p>a<br>b <img src="i.png"> c</p>`},
		{`<table><tr><td> 12 </td><td> 3 </td></tr></table>`, `<table><tbody><tr><td>12</td><td>3</td></tr></tbody></table>`},
		{"<pre> a  b\n</pre>", "<pre> a  b\n</pre>"},
		// In a pre, white space between elements is content too: the
		// spaces and line breaks of a highlighted listing.
		{"<pre><span>func</span> <span>main</span>()\n<span>return</span>\n</pre>", "<pre><span>func</span> <span>main</span>()\n<span>return</span>\n</pre>"},
		// Comments and scripts are looked through; svg and textarea are
		// inline.
		{`<p>Hello <!-- -->World</p>`, `<p>Hello <!-- -->World</p>`},
		{"<p>one\n<script>x()</script>\ntwo</p>", `<p>one <script>x()</script>two</p>`},
		{`<p>a <svg></svg> b <textarea>t</textarea> c</p>`, `<p>a <svg/> b <textarea>t</textarea> c</p>`},
		// One space between two words, where the first text keeps it.
		{`<p>a <b> x</b></p>`, `<p>a <b>x</b></p>`},
		{`<p><b>a </b> <i> x</i></p>`, `<p><b>a</b> <i>x</i></p>`},
		{`<p><textarea>t </textarea> y</p>`, `<p><textarea>t </textarea> y</p>`},
	} {
		doc, err := markup.ParseHTML(strings.NewReader("<html><body>"+tc.in+"</body></html>"), nil)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := markup.WriteHTML(&b, doc, nil); err != nil {
			t.Fatal(err)
		}
		got := b.String()
		got = got[strings.Index(got, "<body>")+len("<body>") : strings.Index(got, "</body>")]
		if got != tc.want {
			t.Errorf("%q\nwritten %q\n   want %q", tc.in, got, tc.want)
		}
		// Written and read again, the page is the same tree.
		again, err := markup.ParseHTML(strings.NewReader("<html><body>"+got+"</body></html>"), nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := tree.Diff(doc.Root, again.Root, tree.Content); d != "" {
			t.Errorf("%q read again: %s", tc.in, d)
		}
	}
}

package markup

import (
	"slices"
	"testing"
)

// TestHTMLLinks: the hrefs of a and area elements and xlink:href of any
// element, in document order and decoded, and the base hrefs apart; none
// from scripts, comments, other attributes or elements.
func TestHTMLLinks(t *testing.T) {
	tests := []struct {
		name, body  string
		hrefs, base []string
	}{
		{"anchors and areas", `<p><a href="a.html">a</a> <area href="/b.html"> <a name="x">no href</a></p>`, []string{"a.html", "/b.html"}, nil},
		{"character references decoded", `<a href="q?x=1&amp;y=2">q</a><a href=' spaced '>s</a>`, []string{"q?x=1&y=2", " spaced "}, nil},
		{"case of tags and attributes", `<A HREF="Up.html">u</A><AREA Href=x>`, []string{"Up.html", "x"}, nil},
		{"bases in order", `<head><base href="/one/"><base target="_top"><base href="two/"></head><a href="a">a</a>`, []string{"a"}, []string{"/one/", "two/"}},
		{"xlink on any element, href first on an anchor", `<svg><a xlink:href="s.html">s</a><use xlink:href="#i"/><a href="h" xlink:href="x">both</a></svg>`, []string{"s.html", "#i", "h"}, nil},
		{"not links", `<script>document.write('<a href="no1">')</script><!-- <a href="no2"> --><link href="style.css"><img src="i.png"><style>a[href="no3"]{}</style><textarea><a href="no4"></textarea>`, nil, nil},
		{"a body cut short", `<a href="a.html">a</a><a href="b.ht`, []string{"a.html"}, nil},
		{"nothing", ``, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hrefs, base := HTMLLinks([]byte(tt.body))
			if !slices.Equal(hrefs, tt.hrefs) || !slices.Equal(base, tt.base) {
				t.Errorf("HTMLLinks = %q, bases %q; want %q, bases %q", hrefs, base, tt.hrefs, tt.base)
			}
		})
	}
}

package intent

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/spec"
)

// benchSizes are the sizes of the scaling benchmarks: with linear costs,
// the larger takes about ten times as long as the smaller.
var benchSizes = []int{2000, 20000}

// siblingList returns <r><ul><x/><li>1</li>...<li>n</li></ul></r>: an x
// then n li siblings.
func siblingList(n int) string {
	var b strings.Builder
	b.WriteString("<r><ul><x/>")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "<li>%d</li>", i)
	}
	b.WriteString("</ul></r>")
	return b.String()
}

// scopeChain returns an XML chain n elements deep with a leaf <x> at each
// level: <c><x>0</x><c><x>1</x>...</c></c>.
func scopeChain(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "<c><x>%d</x>", i)
	}
	b.WriteString(strings.Repeat("</c>", n))
	return b.String()
}

// paragraphs returns an HTML page whose body holds n paragraphs.
func paragraphs(n int) string {
	var b strings.Builder
	b.WriteString("<html><body>")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "<p>costs $%d.00, paragraph %d</p>", i, i)
	}
	b.WriteString("</body></html>")
	return b.String()
}

// BenchmarkSelectorSiblings selects among n siblings with the sibling
// combinators, the structural pseudo-classes and XPath's sibling axes.
func BenchmarkSelectorSiblings(b *testing.B) {
	for _, bc := range []struct{ name, lang, expr string }{
		{"css-sibling", "css", "x ~ li"},
		{"css-adjacent", "css", "li + li"},
		{"css-first-child", "css", "li:first-child"},
		{"css-nth-child", "css", "li:nth-child(2n)"},
		{"css-last-child", "css", "li:last-child"},
		{"css-nth-last-child", "css", "li:nth-last-child(3)"},
		{"xpath-following", "xpath", "//li/following-sibling::li[1]"},
		{"xpath-preceding", "xpath", "//li/preceding-sibling::li[1]"},
	} {
		var sel Selector
		var err error
		if bc.lang == "css" {
			sel, err = CompileCSS(bc.expr)
		} else {
			sel, err = CompileXPath(bc.expr)
		}
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range benchSizes {
			b.Run(fmt.Sprintf("%s/n=%d", bc.name, n), func(b *testing.B) {
				d := parseDoc(b, siblingList(n))
				for i := 0; i < b.N; i++ {
					sel.Select(d.Root)
				}
			})
		}
	}
}

// BenchmarkScopedContent extracts the content of a scope with many roots:
// n paragraphs of an HTML body (css "p", also through a value change
// type), and a chain n deep with a leaf x at each level (css "x").
func BenchmarkScopedContent(b *testing.B) {
	p, err := CompileCSS("p")
	if err != nil {
		b.Fatal(err)
	}
	x, err := CompileCSS("x")
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("paragraphs/n=%d", n), func(b *testing.B) {
			d, err := markup.ParseHTMLBytes([]byte(paragraphs(n)), nil)
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				newContent(d, p, nil, false, newSymtab())
			}
		})
	}
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("value/n=%d", n), func(b *testing.B) {
			d1, err := markup.ParseHTMLBytes([]byte(paragraphs(n)), nil)
			if err != nil {
				b.Fatal(err)
			}
			d2, err := markup.ParseHTMLBytes([]byte(strings.Replace(paragraphs(n), "$0.00", "$1.00", 1)), nil)
			if err != nil {
				b.Fatal(err)
			}
			s, err := spec.ParseSentinel("bench", []byte(`Create Sentinel s Using http://example.com/ Monitor value In css "p" changes`))
			if err != nil {
				b.Fatal(err)
			}
			x := s.Monitor.X
			for i := 0; i < b.N; i++ {
				r, err := NewPair(d1, d2, nil, nil).Evaluate(x)
				if err != nil || !r.Matched {
					b.Fatal(r, err)
				}
			}
		})
	}
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("chain/n=%d", n), func(b *testing.B) {
			d := parseDoc(b, scopeChain(n))
			for i := 0; i < b.N; i++ {
				newContent(d, x, nil, false, newSymtab())
			}
		})
	}
}

// BenchmarkListsPaired pairs n empty lists of the old version with n lists
// of one item in the new one: pairing by contents must stay bounded when
// the old lists hold nothing to count.
func BenchmarkListsPaired(b *testing.B) {
	page := func(n int, item string) string {
		var s strings.Builder
		s.WriteString("<html><body>")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&s, "<ul>%s</ul>", strings.ReplaceAll(item, "N", fmt.Sprint(i)))
		}
		s.WriteString("</body></html>")
		return s.String()
	}
	list := &spec.ChangeType{Kind: spec.List}
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			d1, err := markup.ParseHTMLBytes([]byte(page(n, "")), nil)
			if err != nil {
				b.Fatal(err)
			}
			d2, err := markup.ParseHTMLBytes([]byte(page(n, "<li>item N</li>")), nil)
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				if r, err := NewPair(d1, d2, nil, nil).Evaluate(list); err != nil || !r.Matched {
					b.Fatal(r, err)
				}
			}
		})
	}
}

package intent

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

const selDoc = `<html><head><title>T</title></head><body>
<div id="main" class="content wide" lang="en-US">
  <h1>Title</h1>
  <p class="lead">First <a href="https://example.com/a.pdf" rel="nofollow external">A</a></p>
  <p>Second <a href="/b.html">B</a></p>
  <ul><li>one</li><li class="x">two</li><li>three</li><li>four</li><li>five</li></ul>
  <table><tr><td>1</td><td data-v="7">2</td></tr></table>
</div>
<footer><p>foot</p></footer>
</body></html>`

// describe writes nodes as name#text-prefix for comparison.
func describe(ns []*tree.Node) []string {
	var out []string
	for _, n := range ns {
		if n.Kind == tree.Text {
			out = append(out, "text:"+normalizeSpace(n.Value))
			continue
		}
		s := n.Name
		if t := textValue(n); t != "" {
			if len(t) > 12 {
				t = strings.TrimSpace(t[:12])
			}
			s += ":" + t
		}
		out = append(out, s)
	}
	return out
}

func TestCSS(t *testing.T) {
	d := parseDoc(t, selDoc)
	tests := []struct {
		sel  string
		want []string
	}{
		{"h1", []string{"h1:Title"}},
		{"H1", []string{"h1:Title"}},
		{"#main > h1", []string{"h1:Title"}},
		{"div#main.content.wide", []string{"div:Title First"}},
		{".lead a", []string{"a:A"}},
		{"p > a[href]", []string{"a:A", "a:B"}},
		{`a[href="/b.html"]`, []string{"a:B"}},
		{"a[rel~=external]", []string{"a:A"}},
		{"a[href^=https]", []string{"a:A"}},
		{"a[href$='.pdf']", []string{"a:A"}},
		{"a[href*=b\\.html]", []string{"a:B"}},
		{"div[lang|=en]", []string{"div:Title First"}},
		{"h1 + p", []string{"p:First A"}},
		{"h1 ~ p", []string{"p:First A", "p:Second B"}},
		{"li:first-child", []string{"li:one"}},
		{"li:last-child", []string{"li:five"}},
		{"li:nth-child(2)", []string{"li:two"}},
		{"li:nth-child(odd)", []string{"li:one", "li:three", "li:five"}},
		{"li:nth-child(2n+2)", []string{"li:two", "li:four"}},
		{"li:nth-child(-n+2)", []string{"li:one", "li:two"}},
		{"li:nth-last-child(1)", []string{"li:five"}},
		{"li:not(.x):nth-child(-n+3)", []string{"li:one", "li:three"}},
		{"td:only-child", nil},
		{"td[data-v]", []string{"td:2"}},
		{"footer p, h1", []string{"h1:Title", "p:foot"}},
		{"body > p", nil},
		{"*#main", []string{"div:Title First"}},
	}
	for _, tc := range tests {
		s, err := CompileCSS(tc.sel)
		if err != nil {
			t.Errorf("%s: %v", tc.sel, err)
			continue
		}
		if got := describe(s.Select(d.Root)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.sel, got, tc.want)
		}
	}
}

func TestXPath(t *testing.T) {
	d := parseDoc(t, selDoc)
	tests := []struct {
		sel  string
		want []string
	}{
		{"/html/body/footer/p", []string{"p:foot"}},
		{"//h1", []string{"h1:Title"}},
		{"//div[@id='main']/h1", []string{"h1:Title"}},
		{`//p[@class="lead"]`, []string{"p:First A"}},
		{"//li[2]", []string{"li:two"}},
		{"//li[last()]", []string{"li:five"}},
		{"//li[position() > 3]", []string{"li:four", "li:five"}},
		{"//ul/li[@class]", []string{"li:two"}},
		{"//p[a]", []string{"p:First A", "p:Second B"}},
		{"//a[contains(@href,'pdf')]", []string{"a:A"}},
		{"//a[starts-with(@href,'/')]", []string{"a:B"}},
		{"//li[.='three']", []string{"li:three"}},
		{"//li[text()='four']", []string{"li:four"}},
		{"//li[not(@class) and position()=1]", []string{"li:one"}},
		{"//li[@class or .='one']", []string{"li:one", "li:two"}},
		{"//h1/text()", []string{"text:Title"}},
		{"//a/..", []string{"p:First A", "p:Second B"}},
		{"//td[@data-v]/.", []string{"td:2"}},
		{"//footer//node()", []string{"p:foot", "text:foot"}},
		{"//div/*[1]", []string{"h1:Title"}},
		{"//table//td[2]", []string{"td:2"}},
		{"//h1 | //footer/p", []string{"h1:Title", "p:foot"}},
		{"descendant::h1", []string{"h1:Title"}},
		{"body/footer", []string{"footer:foot"}},
		{"//li[count(../li) = 5][1]", []string{"li:one"}},
		{"//p/following-sibling::ul/li[1]", []string{"li:one"}},
		{"//li[normalize-space()='two']/preceding-sibling::li", []string{"li:one"}},
		{"//li/ancestor::div", []string{"div:Title First"}},
	}
	for _, tc := range tests {
		s, err := CompileXPath(tc.sel)
		if err != nil {
			t.Errorf("%s: %v", tc.sel, err)
			continue
		}
		if got := describe(s.Select(d.Root)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.sel, got, tc.want)
		}
	}
	s, err := CompileXPath("//td/@data-v")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Values(d.Root); !slices.Equal(got, []string{"7"}) {
		t.Errorf("attribute values %v", got)
	}
	if got := describe(s.Select(d.Root)); !slices.Equal(got, []string{"td:2"}) {
		t.Errorf("attribute owners %v", got)
	}
}

// TestSelectorErrors keeps each expectation next to the offending column,
// marked by "^".
func TestSelectorErrors(t *testing.T) {
	tests := []struct {
		lang, src, caret, msg string
	}{
		{"css", "div >", "     ^", "selector expected"},
		{"css", "a[href", " ^", "unclosed ["},
		{"css", "a[=x]", "  ^", "attribute name expected"},
		{"css", "p:hover", " ^", "unsupported pseudo-class"},
		{"css", "li:nth-child(x)", "             ^", "invalid an+b"},
		{"css", "div..x", "    ^", "class name expected"},
		{"css", "a[href='x]", "       ^", "unterminated string"},
		{"css", "", "^", "selector expected"},
		{"css", "a,", "  ^", "selector expected"},
		{"css", "a $b", "  ^", "selector expected"},
		{"xpath", "//a[", "    ^", "expression expected"},
		{"xpath", "//a[@href='x'", "   ^", "unclosed"},
		{"xpath", "//", "  ^", "location step expected"},
		{"xpath", "//a[foo(1)]", "    ^", "unsupported function"},
		{"xpath", "//a[@x='y]", "       ^", "unterminated string"},
		{"xpath", "/html/$", "      ^", "unexpected"},
		{"xpath", "following::a", "^", "unsupported axis"},
		{"xpath", "//a]", "   ^", "unexpected"},
		{"xpath", "//a[contains(@x)]", "    ^", "takes 2 argument"},
	}
	for _, tc := range tests {
		var err error
		if tc.lang == "css" {
			_, err = CompileCSS(tc.src)
		} else {
			_, err = CompileXPath(tc.src)
		}
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s %q: error %v, want a *SyntaxError", tc.lang, tc.src, err)
			continue
		}
		if col := strings.Index(tc.caret, "^") + 1; se.Column != col || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("%s %q: got column %d %q, want column %d %q", tc.lang, tc.src, se.Column, se.Msg, col, tc.msg)
		}
	}
}

func FuzzCSS(f *testing.F) {
	for _, s := range []string{"div#main > p.lead a[href^=http]", "li:nth-child(2n+1):not(.x)", "a, b ~ c + d", "[x|='y' i]", "a[", ":not(", "\\31 x"} {
		f.Add(s)
	}
	d := parseDoc(f, selDoc)
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := CompileCSS(s)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Column < 1 || se.Column > len([]rune(s))+1 {
				t.Fatalf("%q: bad error %v", s, err)
			}
			return
		}
		sel.Select(d.Root)
	})
}

func FuzzXPath(f *testing.F) {
	for _, s := range []string{"//div[@id='main']/p[2]", "/html/body//a[contains(@href,'x') and not(@rel)]", "//li[last()]/..", "a | b/@c", "//*[", "//a[1][", "..//text()"} {
		f.Add(s)
	}
	d := parseDoc(f, selDoc)
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := CompileXPath(s)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Column < 1 || se.Column > len([]rune(s))+1 {
				t.Fatalf("%q: bad error %v", s, err)
			}
			return
		}
		sel.Select(d.Root)
		sel.Values(d.Root)
	})
}

// TestCSSDeep checks that descendant combinators do not backtrack
// exponentially: twelve compounds on 400 nested elements.
func TestCSSDeep(t *testing.T) {
	src := strings.Repeat("<a>", 400) + "x" + strings.Repeat("</a>", 400)
	d := parseDoc(t, "<r>"+src+"</r>")
	s, err := CompileCSS(strings.TrimSpace(strings.Repeat("a ", 12)) + " b")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Select(d.Root); len(got) != 0 {
		t.Errorf("matched %d", len(got))
	}
	s, _ = CompileCSS(strings.TrimSpace(strings.Repeat("a ", 12)))
	if got := s.Select(d.Root); len(got) != 400-11 {
		t.Errorf("matched %d, want %d", len(got), 400-11)
	}
}

// TestXPathDeep checks that // steps walk each node once on deep pages.
func TestXPathDeep(t *testing.T) {
	src := strings.Repeat("<a>", 3000) + "x" + strings.Repeat("</a>", 3000)
	d := parseDoc(t, "<r>"+src+"</r>")
	s, err := CompileXPath("//a//a//a//a//a//text()")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Select(d.Root); len(got) != 1 {
		t.Errorf("matched %d", len(got))
	}
	s, _ = CompileXPath("//a//a")
	if got := s.Select(d.Root); len(got) != 2999 {
		t.Errorf("matched %d, want 2999", len(got))
	}
}

func TestCheckSelector(t *testing.T) {
	for _, tt := range []struct {
		lang   spec.SelectorLang
		expr   string
		column int // 0: accepted
	}{
		{spec.CSS, "table#prices td:nth-child(2)", 0},
		{spec.CSS, "div > > p", 7},
		{spec.XPath, "//div[@id='main']//p", 0},
		{spec.XPath, "//div[", 7},
	} {
		col, err := CheckSelector(tt.lang, tt.expr)
		if (err == nil) != (tt.column == 0) || col != tt.column {
			t.Errorf("CheckSelector(%v, %q) = %d, %v; want column %d", tt.lang, tt.expr, col, err, tt.column)
		}
	}
}

// TestTextValueScripts: in HTML a script's or a style's text is no text of
// the selection; in XML an element called style is data like any other.
func TestTextValueScripts(t *testing.T) {
	h, err := markup.ParseHTMLBytes([]byte(`<div id="p"><script>var v = 3</script><style>p{}</style>$20</div>`), nil)
	if err != nil {
		t.Fatal(err)
	}
	var div *tree.Node
	tree.Walk(h.Root, func(n *tree.Node) bool {
		if v, _ := n.Attr("id"); v == "p" {
			div = n
		}
		return div == nil
	})
	if got := textValue(div); got != "$20" {
		t.Errorf("HTML: %q, want $20", got)
	}
	x, err := markup.ParseXMLBytes([]byte(`<r><price><style>12</style> EUR</price></r>`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := textValue(x.Root.Children[0]); got != "12 EUR" {
		t.Errorf("XML: %q, want 12 EUR", got)
	}
}

package markup_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// prefixes returns n namespace declarations xmlns:p0 ... xmlns:p(n-1).
func prefixes(n int) string {
	var b strings.Builder
	for k := range n {
		fmt.Fprintf(&b, ` xmlns:p%d="urn:%d"`, k, k)
	}
	return b.String()
}

// TestManyPrefixes checks the scope of namespace prefixes when so many are
// declared that they are looked up by map rather than by a scan: inner
// declarations hide outer ones until their element closes, an
// undeclaration hides a prefix, and a prefix declared inside an element is
// unknown after it.
func TestManyPrefixes(t *testing.T) {
	root := "<r" + prefixes(20) + ">"
	tests := []struct {
		name, body string
		err        string // "" for none
	}{
		{"outer prefixes", "<p0:a/><p19:b p7:x='1'/>", ""},
		{"redeclared inside", `<a xmlns:p3="urn:other"><p3:b/></a><p3:c/>`, ""},
		{"undeclared inside", `<a xmlns:p3=""><p3:b/></a>`, "undeclared namespace prefix p3 in the element <p3:b>"},
		{"back in scope after the undeclaring element", `<a xmlns:p3=""/><p3:b/>`, ""},
		{"declared inside, used after", `<a` + strings.ReplaceAll(prefixes(12), "xmlns:p", "xmlns:q") + `><q11:b/></a><q11:c/>`, "undeclared namespace prefix q11 in the element <q11:c>"},
		{"never declared", `<p20:a/>`, "undeclared namespace prefix p20"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := markup.ParseXMLBytes([]byte(root+tt.body+"</r>"), nil)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("error %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want one containing %q", err, tt.err)
			}
		})
	}
}

// TestHTMLManyDuplicateAttributes checks that a tag with many attributes
// keeps the first of each name, as one with few does.
func TestHTMLManyDuplicateAttributes(t *testing.T) {
	var b strings.Builder
	b.WriteString("<div")
	for k := range 40 {
		fmt.Fprintf(&b, ` a%d="first"`, k)
	}
	b.WriteString(` a3="second" a39="second" b="only"></div>`)
	d, err := markup.ParseHTML(strings.NewReader(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	var div *tree.Node
	tree.Walk(d.Root, func(n *tree.Node) bool {
		if n.Name == "div" {
			div = n
		}
		return div == nil
	})
	if div == nil {
		t.Fatal("no div")
	}
	if len(div.Attrs) != 41 {
		t.Fatalf("%d attributes, want 41", len(div.Attrs))
	}
	for _, name := range []string{"a3", "a39"} {
		if v, _ := div.Attr(name); v != "first" {
			t.Errorf("%s = %q, want the first value", name, v)
		}
	}
	if v, _ := div.Attr("b"); v != "only" {
		t.Errorf("b = %q", v)
	}
}

// prefixedAttrs returns a tag r with n attributes p:a0 ... p:a(n-1), then
// the attributes more; p and s are bound to urn:x, q to urn:y.
func prefixedAttrs(n int, more string) string {
	var b strings.Builder
	b.WriteString(`<r xmlns:p="urn:x" xmlns:q="urn:y" xmlns:s="urn:x"`)
	for k := range n {
		fmt.Fprintf(&b, ` p:a%d=""`, k)
	}
	b.WriteString(more + "/>")
	return b.String()
}

// TestManyPrefixedAttributes checks that two attributes of one expanded
// name are found among many prefixed ones, as among few. Their time is
// linear in their number (BenchmarkScale): 40 000 took 7 s when each was
// compared with every other.
func TestManyPrefixedAttributes(t *testing.T) {
	for _, n := range []int{3, 40} {
		if _, err := markup.ParseXMLBytes([]byte(prefixedAttrs(n, ` q:a1="" s:b=""`)), nil); err != nil {
			t.Errorf("%d attributes, none of one name: %v", n, err)
		}
		_, err := markup.ParseXMLBytes([]byte(prefixedAttrs(n, ` q:a1="" s:a1=""`)), nil)
		if want := `attributes p:a1 and s:a1 of <r> have one name: a1 in the namespace "urn:x"`; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%d attributes, two of one name: error %v, want %q", n, err, want)
		}
	}
	// Past the count where the set takes over, and far past it (its
	// time is BenchmarkScale's prefixed-attributes).
	for _, n := range []int{200, 4000} {
		_, err := markup.ParseXMLBytes([]byte(prefixedAttrs(n, ` s:a`+fmt.Sprint(n-1)+`=""`)), nil)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("have one name: a%d", n-1)) {
			t.Errorf("%d attributes, the last two of one name: error %v", n, err)
		}
	}
}

// BenchmarkScale parses documents whose size grows in one dimension that
// once cost a scan per item: prefixes in scope (checked for every prefixed
// name), an HTML tag's attributes (checked for duplicates) and an XML tag's
// prefixed attributes (checked for two of one expanded name). All are
// linear: 20 000 prefixes took 0.6 s in a diff, 200 000 took 49 s.
func BenchmarkScale(b *testing.B) {
	for _, n := range []int{2000, 20000} {
		var x strings.Builder
		x.WriteString("<r" + prefixes(n) + ">")
		for k := range n {
			fmt.Fprintf(&x, "<p%d:a/>", k%7)
		}
		x.WriteString("</r>")
		doc := []byte(x.String())
		b.Run(fmt.Sprintf("prefixes/%d", n), func(b *testing.B) {
			for range b.N {
				if _, err := markup.ParseXMLBytes(doc, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		var h strings.Builder
		h.WriteString("<div")
		for k := range n {
			fmt.Fprintf(&h, ` a%d="v"`, k)
		}
		h.WriteString("></div>")
		page := h.String()
		b.Run(fmt.Sprintf("html-attributes/%d", n), func(b *testing.B) {
			for range b.N {
				if _, err := markup.ParseHTML(strings.NewReader(page), nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		tag := []byte(prefixedAttrs(n, ""))
		b.Run(fmt.Sprintf("prefixed-attributes/%d", n), func(b *testing.B) {
			for range b.N {
				if _, err := markup.ParseXMLBytes(tag, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

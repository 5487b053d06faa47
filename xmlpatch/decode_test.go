package xmlpatch

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestDecodeErrors keeps each expectation next to the offending input.
func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		in   string
		cond Condition
		err  string
	}{
		{"", InvalidDiffFormat, "line 1, column 1: unexpected end of the document"},
		{"hello", InvalidDiffFormat, "line 1, column 1: text outside the document element"},
		{"<diff>\n<add sel='a'><b></c></add></diff>", InvalidDiffFormat, "line 2, column 17: </c> closes <b>"},
		{"<diff>\n<add sel='é'><b></c></add></diff>", InvalidDiffFormat, "line 2, column 17: </c> closes <b>"}, // columns count characters
		{"<diff>\n  <move sel='a'/></diff>", InvalidDiffFormat, "line 2, column 3: <move> is not an operation (add, replace or remove)"},
		{"<diff><add pos='before'/></diff>", InvalidDiffFormat, "line 1, column 7: <add> needs attribute sel"},
		{"<diff><remove sel='a' pos='before'/></diff>", InvalidDiffFormat, "<remove> has no attribute pos"},
		{"<diff><remove sel='a'>x</remove></diff>", InvalidDiffFormat, "<remove> has content"},
		{"<diff><add sel='a' sel='b'/></diff>", InvalidDiffFormat, "<add> has attribute sel twice"},
		{"<diff><add sel='a'><x:b/></add></diff>", InvalidNamespacePrefix, "line 1, column 20: prefix x of x:b is not declared"},
		{"<diff><add sel='a'>&bogus;</add></diff>", InvalidEntityDeclaration, "invalid character entity &bogus;"},
		{"<!DOCTYPE diff [<!ENTITY e 'x'>]><diff/>", InvalidEntityDeclaration, "a DTD with declarations is not read"},
		{"<diff>text</diff>", InvalidDiffFormat, "text in <diff>: only operations belong there"},
		{"<diff></diff><x/>", InvalidDiffFormat, "content after the document element"},
		{"<diff><add sel='a'>\x01</add></diff>", InvalidDiffFormat, "illegal character code U+0001"},
		{"<diff xmlns:p=''/>", InvalidNamespaceURI, `namespace declaration xmlns:p="" is not allowed`},
		{"<diff><add sel='a'><x xmlns:xml='urn:x'/></add></diff>", InvalidNamespaceURI, `namespace declaration xmlns:xml="urn:x" is not allowed`},
		{"<diff xmlns:p='http://www.w3.org/2000/xmlns/'/>", InvalidNamespaceURI, `namespace declaration xmlns:p="http://www.w3.org/2000/xmlns/" is not allowed`},
		{"<diff><add sel='a' xmlns='http://www.w3.org/XML/1998/namespace'/></diff>", InvalidNamespaceURI, `is not allowed`},
		{"<?xml version='1.0' encoding='latin1'?><diff/>", InvalidCharacterSet, "encoding"},
	}
	for _, c := range cases {
		_, err := Decode(strings.NewReader(c.in))
		var se *SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, c.cond) || !strings.Contains(err.Error(), c.err) {
			t.Errorf("Decode(%q) = %v, want a %s error with %q", c.in, err, c.cond, c.err)
		}
	}
}

// TestDecodeContent checks that content is read byte for byte: white
// space, character references, CDATA, and the boundaries of text nodes.
func TestDecodeContent(t *testing.T) {
	in := "<p:diff xmlns:p='urn:p'>\n  <p:add sel='a' pos='prepend' xmlns:q='urn:q'> a&#xD;b<![CDATA[<c>]]><![CDATA[]]>d<q:e k='1&#9;2'/><![CDATA[]]><!--c--><?pi  data?></p:add>\n</p:diff>"
	p, err := Decode(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if p.Root != "p:diff" || p.Namespaces["p"] != "urn:p" || len(p.Ops) != 1 {
		t.Fatalf("patch %+v", p)
	}
	op := p.Ops[0]
	if op.Kind != Add || op.Sel != "a" || op.Pos != "prepend" || op.Namespaces["q"] != "urn:q" || op.Line != 2 || op.Column != 3 {
		t.Fatalf("operation %+v", op)
	}
	var got []string
	for _, n := range op.Content {
		got = append(got, n.Kind.String()+":"+n.Name+":"+n.Value)
	}
	want := []string{"text:: a\rb<c>", "text::d", "element:q:e:", "text::", "comment::c", "processing-instruction:pi:data"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("content\n%q\nwant\n%q", got, want)
	}
	if v, _ := op.Content[2].Attr("k"); v != "1\t2" {
		t.Errorf("attribute k = %q", v)
	}
	// Written back, it reads the same.
	var b strings.Builder
	if err := Encode(&b, p); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range back.Ops[0].Content {
		if d := tree.Diff(n, op.Content[i], tree.Content); d != "" {
			t.Errorf("node %d written and read back: %s\n%s", i, d, b.String())
		}
	}
}

// TestEncodeInexpressible checks that what XML cannot hold is refused,
// not written wrong. A carriage return in a comment or a processing
// instruction cannot be written as a reference there, and a conforming
// parser reads a raw one as a line feed (encoding/xml, which Decode uses,
// does not: the patch would read back as written by Vigil, and differently
// by any other tool).
func TestEncodeInexpressible(t *testing.T) {
	for _, n := range []*tree.Node{
		{Kind: tree.Element, Name: "a<b"},
		{Kind: tree.Element, Name: "a", Attrs: []tree.Attr{{Name: "@click", Value: "x"}}},
		{Kind: tree.Comment, Value: "a -- b"},
		{Kind: tree.ProcInst, Name: "t", Value: "a ?> b"},
		{Kind: tree.Text, Value: "bell \x07"},
		{Kind: tree.Text, Value: "not UTF-8 \xff"},
		{Kind: tree.Comment, Value: "a\rb"},
		{Kind: tree.ProcInst, Name: "t", Value: "a\r\nb"},
	} {
		p := &Patch{Ops: []Op{{Kind: Add, Sel: "/r", Content: []*tree.Node{n}}}}
		if err := Encode(&strings.Builder{}, p); !errors.Is(err, ErrInexpressible) {
			t.Errorf("Encode(%+v) = %v, want ErrInexpressible", n, err)
		}
	}
}

// TestDecodeLarge checks that Decode's work grows with its input, not
// with its square: an element of 50,000 attributes (half a megabyte) and
// 20,000 declarations read by as many elements took seconds each.
// No time is asserted (timing belongs in benchmarks): a quadratic
// regression takes minutes, past go test's -timeout.
func TestDecodeLarge(t *testing.T) {
	var attrs, decls strings.Builder
	attrs.WriteString("<diff><add sel='r'><x")
	for i := range 50000 {
		fmt.Fprintf(&attrs, ` a%d="1"`, i)
	}
	attrs.WriteString("/></add></diff>")
	decls.WriteString("<diff")
	for i := range 20000 {
		fmt.Fprintf(&decls, ` xmlns:p%d="urn:%d"`, i, i)
	}
	decls.WriteString("><add sel='r'>" + strings.Repeat("<p0:x/>", 20000) + "</add></diff>")
	for name, in := range map[string]string{"attributes": attrs.String(), "declarations": decls.String()} {
		if _, err := Decode(strings.NewReader(in)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	// A repeated attribute is still refused among many.
	if _, err := Decode(strings.NewReader(strings.Replace(attrs.String(), "a49999=", "a7=", 1))); err == nil || !strings.Contains(err.Error(), "<x> has attribute a7 twice") {
		t.Errorf("a repeated attribute: %v", err)
	}
}

package delta

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// txtar is the minimal part of the txtar format the golden files need: a
// comment, then files introduced by "-- name --" lines.
type txtar struct {
	comment string
	files   map[string]string
	order   []string
}

func parseTxtar(data string) *txtar {
	a := &txtar{files: map[string]string{}}
	name := ""
	var b strings.Builder
	flush := func() {
		if name == "" {
			a.comment = b.String()
		} else {
			a.files[name] = b.String()
			a.order = append(a.order, name)
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		if strings.HasPrefix(line, "-- ") && strings.HasSuffix(strings.TrimRight(line, "\n"), " --") {
			flush()
			name = strings.TrimSuffix(strings.TrimPrefix(strings.TrimRight(line, "\n"), "-- "), " --")
			continue
		}
		b.WriteString(line)
	}
	flush()
	return a
}

func (a *txtar) format() string {
	var b strings.Builder
	b.WriteString(a.comment)
	for _, n := range a.order {
		b.WriteString("-- " + n + " --\n")
		b.WriteString(a.files[n])
	}
	return b.String()
}

func encodeXML(t testing.TB, ds ...*Delta) string {
	t.Helper()
	var b bytes.Buffer
	if err := EncodeXML(&b, ds...); err != nil {
		t.Fatalf("EncodeXML: %v", err)
	}
	return b.String()
}

func encodeJSON(t testing.TB, d *Delta) string {
	t.Helper()
	var b bytes.Buffer
	if err := EncodeJSON(&b, d); err != nil {
		t.Fatalf("EncodeJSON: %v", err)
	}
	return b.String()
}

// golden compares got with file name of the txtar archive testdata/arch,
// or rewrites it with -update.
func golden(t *testing.T, arch, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", arch)
	data, err := os.ReadFile(path)
	if err != nil && !*update {
		t.Fatalf("%v (run go test ./delta -update to create it)", err)
	}
	a := parseTxtar(string(data))
	if *update {
		if _, ok := a.files[name]; !ok {
			a.order = append(a.order, name)
		}
		a.files[name] = got
		if err := os.WriteFile(path, []byte(a.format()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, ok := a.files[name]
	if !ok {
		t.Fatalf("%s has no file %s (run with -update)", path, name)
	}
	if got != want {
		t.Errorf("%s/%s:\ngot:\n%s\nwant:\n%s", arch, name, got, want)
	}
}

func TestCodecRoundTrip(t *testing.T) {
	seeds := 300
	if testing.Short() {
		seeds = 40
	}
	for seed := 0; seed < seeds; seed++ {
		vs := versions(uint64(seed)+1000, 5+seed%50, 1+seed%10, 3)
		d1 := mustBuild(t, vs[0], vs[1])
		d2 := mustBuild(t, vs[1], vs[2])
		d1.From, d1.To, d2.From, d2.To = "v0.xml", "v1 & \"1\".xml", "v1 & \"1\".xml", ""
		x := encodeXML(t, d1, d2)
		ds, err := DecodeXML(strings.NewReader(x))
		if err != nil {
			t.Fatalf("seed %d: DecodeXML: %v\n%s", seed, err, x)
		}
		if len(ds) != 2 || !Equal(ds[0], d1) || !Equal(ds[1], d2) {
			t.Fatalf("seed %d: XML round trip differs:\n%s\ngot\n%s", seed, x, opStrings(ds[0]))
		}
		j := encodeJSON(t, d1)
		dj, err := DecodeJSON(strings.NewReader(j))
		if err != nil {
			t.Fatalf("seed %d: DecodeJSON: %v\n%s", seed, err, j)
		}
		if !Equal(dj, d1) {
			t.Fatalf("seed %d: JSON round trip differs:\n%s", seed, j)
		}
	}
}

// TestGoldenSeedExamples checks the seed's worked examples (notes 001a §8)
// against golden XyDelta files in testdata/seed.txtar.
func TestGoldenSeedExamples(t *testing.T) {
	cases := []struct {
		name   string
		v1, v2 *tree.Document
		ops    string
	}{
		{"camera-E1",
			doc(el("Category", 15,
				el("Title", 2, tx("Digital Cameras", 1)),
				el("Discount", 8, el("Product", 7, el("Name", 4, tx("tx123", 3)), el("Price", 6, tx("$499", 5)))),
				el("NewProducts", 14, el("Product", 13, el("Name", 10, tx("zy456", 9)), el("Price", 12, tx("$799", 11)))),
			), 16),
			doc(el("Category", 15,
				el("Title", 2, tx("Digital Cameras", 1)),
				el("Discount", 8, el("Product", 13, el("Name", 10, tx("zy456", 9)), el("Price", 12, tx("$699", 11)))),
				el("NewProducts", 14, el("Product", 20, el("Name", 17, tx("abc", 16)), el("Price", 19, tx("$899", 18)))),
			), 21), ""},
		{"catalog-E2", catalog(), catalog2(),
			"d par=14 pos=3 xm=(12-13) <status>\ni par=14 pos=3 xm=(16-17) <price>\n"},
		{"reorder-E3",
			doc(el("r", 7, el("A", 1), el("B", 2), el("C", 3), el("D", 4), el("E", 5), el("F", 6)), 8),
			doc(el("r", 7, el("B", 2), el("C", 3), el("A", 1), el("D", 4), el("E", 5), el("F", 6)), 8),
			"d par=7 pos=1 xm=(1) move\ni par=7 pos=3 xm=(1) move\n"},
		// E3 variant: v1 <r><v><A>a</A><X>x</X><B>b</B><C>c</C><Y>y</Y><D>d</D><E>e</E><F>f</F></v><w/></r>
		{"reorder-E3-variant",
			doc(el("r", 19,
				el("v", 17, el("A", 2, tx("a", 1)), el("X", 4, tx("x", 3)), el("B", 6, tx("b", 5)), el("C", 8, tx("c", 7)),
					el("Y", 10, tx("y", 9)), el("D", 12, tx("d", 11)), el("E", 14, tx("e", 13)), el("F", 16, tx("f", 15))),
				el("w", 18)), 20),
			doc(el("r", 19,
				el("v", 17, el("B", 6, tx("b", 5)), el("Z", 21, tx("z1", 20)), el("C", 8, tx("c", 7)), el("A", 2, tx("a", 1)),
					el("D", 12, tx("d", 11)), el("Z", 23, tx("z2", 22)), el("E", 14, tx("e", 13)), el("F", 16, tx("f", 15))),
				el("w", 18, el("X", 4, tx("x", 3)))), 24),
			"d par=17 pos=5 xm=(9-10) <Y>\nd par=17 pos=2 xm=(4) move\nd par=17 pos=1 xm=(2) move\n" +
				"i par=17 pos=2 xm=(20-21) <Z>\ni par=17 pos=4 xm=(2) move\ni par=17 pos=6 xm=(22-23) <Z>\ni par=18 pos=1 xm=(4) move\n"},
		// E9: v1 <root><p a="1" b="2">hello</p><q><x/>old text<y/></q></root>
		{"attributes-E9",
			doc(el("root", 7,
				node{name: "p", xid: 2, attrs: []tree.Attr{{Name: "a", Value: "1"}, {Name: "b", Value: "2"}}, kids: []node{tx("hello", 1)}},
				el("q", 6, el("x", 3), tx("old text", 4), el("y", 5))), 8),
			doc(el("root", 7,
				node{name: "p", xid: 2, attrs: []tree.Attr{{Name: "a", Value: "1"}, {Name: "b", Value: "3"}, {Name: "c", Value: "4"}}, kids: []node{tx("hello", 1)}},
				el("q", 6, el("x", 3), tx("new text", 4), el("y", 5))), 8),
			"au xid=2 a=b ov=\"2\" nv=\"3\"\nai xid=2 a=c v=\"4\"\nd par=6 pos=2 xm=(4) update \"old text\"\ni par=6 pos=2 xm=(4) update \"new text\"\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := mustBuild(t, c.v1, c.v2)
			if c.ops != "" {
				if got := opStrings(d); got != c.ops {
					t.Errorf("ops:\n%s\nwant:\n%s", got, c.ops)
				}
			}
			x := encodeXML(t, d)
			golden(t, "seed.txtar", c.name+".xml", x)
			golden(t, "seed.txtar", c.name+".json", encodeJSON(t, d))
			ds, err := DecodeXML(strings.NewReader(x))
			if err != nil || len(ds) != 1 || !Equal(ds[0], d) {
				t.Fatalf("decode: %v", err)
			}
			got, err := Apply(c.v1, ds[0])
			if err != nil || sameDoc(got, c.v2) != "" {
				t.Fatalf("apply decoded: %v", err)
			}
		})
	}
}

// TestDecodeXyDiffForm reads what the XyDiff fork writes: the xy: prefix,
// indentation, and attributes in another order.
func TestDecodeXyDiffForm(t *testing.T) {
	in := `<?xml version="1.0" encoding="UTF-8"?>
<xy:unit_delta xmlns:xy="urn:schemas-xydiff:xydelta">
  <xy:t fromXidMap="(1-15|16)">
    <xy:d move="yes" par="14" pos="1" xm="(13)"/>
    <xy:d par="8" pos="1" xm="(3-7)">
      <Product><Name>tx123</Name><Price>$499</Price></Product>
    </xy:d>
    <xy:i move="yes" par="8" pos="1" xm="(13)"/>
    <xy:i par="14" pos="1" xm="(17-21)"><Product><Name>abc</Name><Price>$899</Price></Product></xy:i>
  </xy:t>
</xy:unit_delta>`
	ds, err := DecodeXML(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := "d par=14 pos=1 xm=(13) move\nd par=8 pos=1 xm=(3-7) <Product>\ni par=8 pos=1 xm=(13) move\ni par=14 pos=1 xm=(17-21) <Product>\n"
	if got := opStrings(ds[0]); got != want {
		t.Errorf("ops:\n%s\nwant:\n%s", got, want)
	}
}

// TestDecodeErrors keeps each expectation next to the offending input.
func TestDecodeErrors(t *testing.T) {
	xmlCases := []struct{ in, err string }{
		{"", "unexpected EOF"},
		{"<delta/>", "line 1, column 9: root element is <delta>, not <unit_delta>"},
		{"<unit_delta>\x03</unit_delta>", "line 1, column 13: illegal character code U+0003"},
		// Columns count characters: 日本 is two.
		{"<unit_delta>日本\x03</unit_delta>", "line 1, column 15: illegal character code U+0003"},
		{"<!--日本語--><delta/>", "line 1, column 19: root element is <delta>, not <unit_delta>"},
		{"<unit_delta><t>\n<d par='1' pos='1' xm='(2)'>日本</d>\n<d par='1' pos='0' xm='(3)'>a</d></t></unit_delta>", "line 3, column 29: operation 2: <d> attribute pos: not a position"},
		{"<unit_delta>\n  <t>\uFFFE</t></unit_delta>", "line 2, column 6: illegal character code U+FFFE"},
		{"<unit_delta><t><x/></t></unit_delta>", "line 1, column 20: operation 1: unknown operation <x>"},
		{"<unit_delta><t>\n<d par='1' pos='1' xm='(2)'>a</d>\n<d par='1' pos='0' xm='(3)'>a</d></t></unit_delta>", "line 3, column 29: operation 2: <d> attribute pos: not a position"},
		{"<unit_delta><t><d par='1' pos='1' xm='(2-1)'>a</d></t></unit_delta>", "operation 1: <d> attribute xm: XID-map \"(2-1)\", column 5: range 2-1 is descending"},
		{"<unit_delta><t><d par='1' pos='1'>a</d></t></unit_delta>", "operation 1: <d> needs attribute xm"},
		{"<unit_delta><t><d par='1' pos='1' xm='(2)'><a>x</a></d></t></unit_delta>", "operation 1: xm (2): XID-map has 1 XIDs for a subtree of 2 nodes"},
		{"<unit_delta><t><d par='1' pos='1' xm='(2)' move='yes'>x</d></t></unit_delta>", "operation 1: a move carries no content"},
		{"<unit_delta><t><d par='1' pos='1' xm='(2)' move='yes'/></t></unit_delta>", "line 1, column 16: operation 1 (d par=1 pos=1 xm=(2) move): move of XID 2 has no matching insert with move=yes"},
		{"<unit_delta><t><d par='1' pos='1' xm='(2)' move='yes' addedXmlns='yes'/></t></unit_delta>", "line 1, column 73: operation 1: <d> attribute addedXmlns: a move carries no content to declare a default namespace on"},
		{"<unit_delta><t><i par='1' pos='1' xm='(2)' addedXmlns='yes' move='yes'/></t></unit_delta>", "line 1, column 73: operation 1: <i> attribute addedXmlns: a move carries no content to declare a default namespace on"},
		{"<unit_delta><t><d par='1' pos='1' xm='(2)'><a></b></d></t></unit_delta>", "operation 1: </b> closes <a>"},
		{"<unit_delta><t><d par='1' pos='1' xm='(2)'>&bogus;</d></t></unit_delta>", "line 1, column 51: operation 1: undefined entity &bogus;"},
		{"<unit_delta><t><au xid='1' a='x' ov='1'/></t></unit_delta>", "<au> needs attribute nv"},
		{"<unit_delta><t></t></unit_delta><x/>", "content after </unit_delta>"},
		// Text after </unit_delta> on its line is at its first character,
		// not at the start of </unit_delta>.
		{"<unit_delta><t></t></unit_delta> x", "line 1, column 34: text after </unit_delta>"},
		{"<unit_delta><t/></unit_delta><unit_delta><t/></unit_delta>garbage", "line 1, column 59: delta 2: text after </unit_delta>"},
		{"<unit_delta><t></t><t><u par='1' pos='1'/></t></unit_delta>", "delta 2: operation 1: <u> (the XyDiff fork's character-level update) is not supported"},
		{"<unit_delta><t>\n<i par='1' pos='1' xm='(2-3)'><a x='1'><b x='1' y='2' x='3'/></a></i></t></unit_delta>", "line 2, column 62: operation 1: <b> has attribute x twice"},
		{"<unit_delta><t><au xid='14' xid='15' a='a' ov='' nv='1'/></t></unit_delta>", "line 1, column 58: operation 1: <au> has attribute xid twice"},
		{"<unit_delta><t from='a' from='b'></t></unit_delta>", "line 1, column 34: <t> has attribute from twice"},
		{"<unit_delta><t fromXidMap='(1-3;2|9)'></t></unit_delta>", "line 1, column 39: fromXidMap: XID-map repeats XID 2"},
		{"<unit_delta><t toXidMap='(1;100000000;1|9)'></t></unit_delta>", "line 1, column 45: toXidMap: XID-map repeats XID 1"},
		// After an operation, an error is not in it: no "operation 1:".
		{"<unit_delta><t><rn xid='1' ov='a' nv='b'/>", "line 1, column 43: unexpected EOF"},
		{"<unit_delta><t><rn xid='1' ov='a' nv='b'/>text</t></unit_delta>", "line 1, column 43: text in <t>"},
		{"hello\n", "line 1, column 1: text before the root element"},
		{"<?xml version='1.0'?>\n\n  hello <unit_delta/>", "line 3, column 3: text before the root element"},
		{"<unit_delta>\n <t></t>\r\n\t x</unit_delta>", "line 3, column 3: text in <unit_delta>"},
		{"<unit_delta><t><rn xid='1' ov='a' nv='b'/><outside><old/></outside></t></unit_delta>", "line 1, column 68: <outside> without <old> and <new>"},
		{"<unit_delta><t><rn xid='1' ov='a' nv='b'/></x></unit_delta>", "line 1, column 47: unexpected </x>"},
		// An entity a DOCTYPE would declare: named as undefined, not as
		// an "invalid character entity".
		{"<!DOCTYPE unit_delta [<!ENTITY x 'hello'>]>\n<unit_delta><t><i par='3' pos='2' xm='(7)'>&x;</i></t></unit_delta>", "operation 1: undefined entity &x;: a delta reads XML's five (&amp; &lt; &gt; &quot; &apos;) and character references, and declares none"},
		{"<unit_delta><t><i par='3' pos='2' xm='(7)'>&#xZZ;</i></t></unit_delta>", "operation 1: invalid character entity &#x"},
	}
	for _, c := range xmlCases {
		_, err := DecodeXML(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("DecodeXML(%q)\n = %v\nwant containing %q", c.in, err, c.err)
			continue
		}
		var de *DecodeError
		if !errors.As(err, &de) || de.Line == 0 {
			t.Errorf("DecodeXML(%q): %v has no line", c.in, err)
		}
	}
	jsonCases := []struct{ in, err string }{
		{`{"ops":[`, "line 1, column 9: unexpected end of JSON input"},
		{`{"ops":[{"op":"x"}]}`, `ops[0].op: unknown operation "x"`},
		{`{"ops":[{"op":"au","xid":1,"a":"x","ov":"1"}]}`, "ops[0].nv: missing"},
		{`{"ops":[{"op":"d","par":1,"pos":1,"xm":"(2"}]}`, "ops[0].xm: XID-map"},
		{`{"ops":[{"op":"d","par":"1","pos":1,"xm":"(2)"}]}`, "ops[0].par: a JSON string where a whole number from 0 to 18446744073709551615 is wanted"},
		{`{"ops":[{"op":"d","par":1,"pos":1,"xm":"(2)","content":{"kind":"element","name":"a","children":[{"kind":"bogus"}]}}]}`, "ops[0].content.children[0].kind: unknown kind"},
		{`{"ops":[{"op":"d","par":1,"pos":1,"xm":"(2)","move":true}]}`, "ops[0]: operation 1 (d par=1 pos=1 xm=(2) move): move of XID 2 has no matching insert"},
		{`{"ops":[],"extra":1}`, `"extra": unknown field`},
		{`{"ops":[]} {}`, "unexpected data after the JSON value"},
		{`{"ops":[{"op":"rn","xid":1,"ov":"a","nv":"b"},]}`, "line 1, column 47: unexpected ']', want a value"},
		{`{"ops":[{"op":"d" "par":1}]}`, "line 1, column 19: unexpected string, want ',' or '}'"},
		{`{"ops":[{"op":"日本" "par":1}]}`, "line 1, column 20: unexpected string, want ',' or '}'"},
		{`{"ops":[{"op":"d","par":1,"pos":1.5,"xm":"(2)"}]}`, "ops[0].pos: a JSON number 1.5 where a whole number is wanted"},
		{`{"ops":[{"op":"d","par":-1,"pos":1,"xm":"(2)"}]}`, "ops[0].par: a JSON number -1 where a whole number from 0 to 18446744073709551615 is wanted"},
		{`{"ops":[{"op":"i","par":1,"pos":1,"xm":"(2)","content":{"kind":"element","name":"a","attrs":[["x"]]}}]}`, "ops[0].content.attrs[0]: an attribute is a [name, value] pair"},
		{`{"ops":[{"op":"i","par":1,"pos":1,"xm":"(2)","content":{"kind":"element","name":"a","children":[null]}}]}`, "ops[0].content.children[0]: null node"},
		{`{"ops":[{"op":"i","par":1,"pos":1,"xm":"(2-3)","content":{"kind":"element","name":"a","children":[{"kind":"text","value":"v","colour":1}]}}]}`, `ops[0].content.children[0]."colour": unknown field`},
		{`{"ops":[{"op":"i","par":1,"pos":1,"xm":"(2-4)","content":{"kind":"element","name":"a","children":[{"kind":"element","name":"b","children":[{"kind":"text"},{"kind":"text","name":3}]}]}}]}`, "ops[0].content.children[0].children[1].name: a JSON number 3 where a string is wanted"},
		{"{\"ops\":[\n{\"op\":\"rn\",\"xid\":1,\"ov\":\"a\",\"nv\":\"b\"},\n{\"op\":\"rn\",\"xid\":1,\"ov\":\"b\",\"nv\":\"c\"}]}", "line 3, column 1: ops[1]: operation 2"},
		{`[]`, "a JSON array where an object is wanted"},
		// An operation without "op" lacks it; null is no operation.
		{`{"ops":[{}]}`, "line 1, column 9: ops[0].op: missing"},
		{`{"ops":[{"xid":1,"ov":"a","nv":"b"}]}`, "line 1, column 9: ops[0].op: missing"},
		{`{"ops":[null]}`, "line 1, column 9: ops[0]: a JSON null where an object is wanted"},
		{`{"fromXidMap":"(1;1|5)","ops":[]}`, "fromXidMap: XID-map repeats XID 1"},
		{`{"ops":[{"op":"d","par":1,"pos":1,"pos":2,"xm":"(2)","content":{"kind":"text","value":"a"}}]}`, "line 1, column 35: ops[0].pos: given twice"},
		{`{"ops":[],"to":"a","to":"b"}`, "line 1, column 20: to: given twice"},
		{`{"ops":[],"namespaces":{"a":"u","b":"u","c":"u","d":"u","e":"u","f":"u","g":"u","h":"u","i":"u","a":"v"}}`, "namespaces.a: given twice"},
		{`{"ops":[{"op":"i","par":1,"pos":1,"xm":"(2)","content":{"kind":"element","name":"a","attrs":[["x","1"],["x","2"]]}}]}`, "ops[0]: operation 1 (i par=1 pos=1 xm=(2)): element <a> XID 2 in the content has attribute x twice"},
		{`{"ops":[{"op":"i","par":1,"pos":1,"xm":"(2)","content":{"kind":"element","name":"a","attrs":[["","1"]]}}]}`, "ops[0]: operation 1 (i par=1 pos=1 xm=(2)): element <a> XID 2 in the content has an attribute without a name"},
	}
	for _, c := range jsonCases {
		_, err := DecodeJSON(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("DecodeJSON(%s)\n = %v\nwant containing %q", c.in, err, c.err)
		}
	}
}

// TestEncodeXMLText checks that texts keep their bytes: white space,
// carriage returns, markup characters, and adjacent text nodes.
func TestEncodeXMLText(t *testing.T) {
	c := content(el("p", 5, tx(" a\r\nb\t<&>]]> ", 1), tx("", 2), tx("second", 3), el("q", 4)))
	d := &Delta{Ops: []Op{{Kind: Delete, Parent: 9, Pos: 1, XIDs: xm(1, 2, 3, 4, 5), Content: c}}}
	x := encodeXML(t, d)
	if !strings.Contains(x, `<p> a&#xD;
b	&lt;&amp;&gt;]]&gt; <![CDATA[]]><![CDATA[]]>second<q/></p>`) {
		t.Errorf("encoded:\n%s", x)
	}
	ds, err := DecodeXML(strings.NewReader(x))
	if err != nil {
		t.Fatal(err)
	}
	if diff := tree.Diff(ds[0].Ops[0].Content, c, tree.ContentAndXIDs); diff != "" {
		t.Error(diff)
	}
	bad := &Delta{Ops: []Op{{Kind: Delete, Parent: 9, Pos: 1, XIDs: xm(1), Content: content(tx("\x00", 1))}}}
	if err := EncodeXML(&bytes.Buffer{}, bad); err == nil || !strings.Contains(err.Error(), "not allowed in XML") {
		t.Errorf("err = %v", err)
	}
}

// TestEncodeXMLEscapes: names and texts that XML cannot hold as such (an
// HTML parser keeps them) are written in the xy: escape forms and read back.
func TestEncodeXMLEscapes(t *testing.T) {
	c := content(node{name: "div", xid: 9, attrs: []tree.Attr{{Name: "<", Value: "x"}, {Name: "@click", Value: "go()"}, {Name: "ok", Value: "1"}}, kids: []node{
		el("a<b", 2, tx("t", 1)),
		el("xy:comment", 3),
		el("xy:q", 4),
	}})
	com := &tree.Node{Kind: tree.Comment, Value: "- a -- b\r-", XID: 5}
	pi := &tree.Node{Kind: tree.ProcInst, Name: "t", Value: " lead ?> x", XID: 6}
	xmlPI := &tree.Node{Kind: tree.ProcInst, Name: "xml", Value: "version='2'", XID: 7}
	c.AppendChild(com)
	c.AppendChild(pi)
	c.AppendChild(xmlPI)
	ids := tree.SubtreeXIDMap(c)
	d := &Delta{Ops: []Op{{Kind: Insert, Parent: 100, Pos: 1, XIDs: ids, Content: c}}}
	x := encodeXML(t, d)
	for _, want := range []string{`<div ok="1"><xy:attr NS name="&lt;">x</xy:attr><xy:attr NS name="@click">go()</xy:attr>`,
		`<xy:element NS name="a&lt;b">t</xy:element>`, `<xy:element NS name="xy:comment"/>`, `<xy:q/>`,
		`<xy:comment NS>- a -- b&#xD;-</xy:comment>`, `<xy:pi NS target="t"> lead ?&gt; x</xy:pi>`, `<xy:pi NS target="xml">`,
		// The document's own xy prefix, which it did not declare.
		`<t xmlns:xy="urn:vigil:undeclared:xy">`} {
		want = strings.ReplaceAll(want, " NS", ` xmlns:xy="urn:vigil:xydelta"`)
		if !strings.Contains(x, want) {
			t.Errorf("encoded form lacks %s:\n%s", want, x)
		}
	}
	ds, err := DecodeXML(strings.NewReader(x))
	if err != nil {
		t.Fatal(err)
	}
	if diff := tree.Diff(ds[0].Ops[0].Content, c, tree.ContentAndXIDs); diff != "" {
		t.Error(diff)
	}
}

// TestDecodeXyDiffUpdate reads a delta in the XyDiff tool's own style
// (notes E10): attributes in another order, a white-space text deleted, and
// an update whose new text gets a new XID.
func TestDecodeXyDiffUpdate(t *testing.T) {
	person := node{name: "person", xid: 4, attrs: []tree.Attr{{Name: "delete", Value: "no"}}, kids: []node{
		el("email", 2, tx("cobena@email.enst.fr", 1)), tx("\n\n", 3)}}
	a := doc(el("root", 6, person, el("name", 5)), 7)
	in := `<?xml version="1.0"?>
<unit_delta><t to="b.xml" from="a.xml"><ad a="delete" v="no" xid="4"/><ai a="pos" v="these" xid="5"/>` +
		`<d xm="(3)" par="4" pos="2">

</d><d xm="(1)" par="2" pos="1" update="yes">cobena@email.enst.fr</d>` +
		`<i xm="(7)" par="2" pos="1" update="yes">Gregory.Cobena@inria.fr</i><i xm="(8-9)" par="6" pos="3"><place>U. Columbia</place></i></t></unit_delta>
`
	ds, err := DecodeXML(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	d := ds[0]
	if d.From != "a.xml" || d.To != "b.xml" {
		t.Errorf("labels %q %q", d.From, d.To)
	}
	got, err := Apply(a, d)
	if err != nil {
		t.Fatal(err)
	}
	want := doc(el("root", 6,
		el("person", 4, el("email", 2, tx("Gregory.Cobena@inria.fr", 7))),
		node{name: "name", xid: 5, attrs: []tree.Attr{{Name: "pos", Value: "these"}}},
		el("place", 9, tx("U. Columbia", 8))), 10)
	if diff := sameDoc(got, want); diff != "" {
		t.Fatal(diff)
	}
	back, err := Apply(got, Invert(d))
	if err != nil || sameDoc(back, a) != "" {
		t.Fatalf("invert: %v", err)
	}
	if c, err := Compose(d, Invert(d)); err != nil || !c.Empty() {
		t.Fatalf("Compose(d, Invert(d)) = %v, %v", c, err)
	}
}

// TestDecodeRenameRoot reads the reference tool's renameRoot as a rename of
// the root, whose XID is the last of the XID-map.
func TestDecodeRenameRoot(t *testing.T) {
	ds, err := DecodeXML(strings.NewReader(`<unit_delta><t fromXidMap="(1-15|16)"><renameRoot from="catalog" to="list"/></t></unit_delta>`))
	if err != nil {
		t.Fatal(err)
	}
	if got := opStrings(ds[0]); got != "rn xid=15 ov=\"catalog\" nv=\"list\"\n" {
		t.Errorf("ops: %s", got)
	}
	got, err := Apply(catalog(), ds[0])
	if err != nil || got.Root.Name != "list" {
		t.Fatalf("Apply: %v", err)
	}
	if _, err := DecodeXML(strings.NewReader(`<unit_delta><t><renameRoot from="a" to="b"/></t></unit_delta>`)); err == nil || !strings.Contains(err.Error(), "needs the XID-map") {
		t.Errorf("err = %v", err)
	}
}

// TestDecodeJSONFieldErrorsPlaced: an operation's field that is missing
// or wrong, and a delta's XID-map or fingerprint that does not parse, are
// said with their line and column, as every other JSON error and as the
// XyDelta decoder says them: in a file of many operations or deltas, the
// path alone (ops[1].xm, fromFingerprint) did not tell which.
func TestDecodeJSONFieldErrorsPlaced(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// A field missing: the operation.
		{"{\"ops\":[\n{\"op\":\"d\",\"par\":3,\"pos\":1,\"xm\":\"(2)\",\"content\":{\"kind\":\"text\",\"value\":\"x\"}},\n{\"op\":\"i\",\"par\":3,\"pos\":1}]}",
			"line 3, column 1: ops[1].xm: missing"},
		// A field wrong: its key.
		{"{\"ops\":[\n{\"op\":\"x\"}]}", `line 2, column 2: ops[0].op: unknown operation "x"`},
		{"{\"ops\":[\n{\"op\":\"au\",\"xid\":0,\"a\":\"x\",\"ov\":\"1\",\"nv\":\"2\"}]}", "line 2, column 12: ops[0].xid: XID 0"},
		{"{\"ops\":[\n{\"op\":\"d\",\"par\":1,\"pos\":1,\n \"xm\":\"(2\"}]}", "line 3, column 2: ops[0].xm: XID-map"},
		{"{\"ops\":[],\n \"toXidMap\":\"(1-x)\"}", "line 2, column 2: toXidMap: XID-map"},
		{"{}\n{\"fromFingerprint\":\"zz\",\"ops\":[]}", "line 2, column 2: fromFingerprint: fingerprint"},
		// null is no delta, where it was read as an empty one.
		{"null", "line 1, column 1: a JSON null where an object is wanted"},
		{" \n null ", "line 2, column 2: a JSON null where an object is wanted"},
	} {
		_, err := DecodeJSONAll(strings.NewReader(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("DecodeJSONAll(%q)\n = %v\nwant beginning %q", c.in, err, c.want)
		}
	}
}

// TestDecodeJSONAll reads deltas written one after the other, as the
// output of several diffs put end to end; anything else after an object
// is refused with its place, and DecodeJSON still wants exactly one.
func TestDecodeJSONAll(t *testing.T) {
	want, buf := endToEnd(t, 3, func(w io.Writer, d *Delta) error { return EncodeJSON(w, d) })
	got, err := DecodeJSONAll(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	sameChain(t, got, want)
	if _, err := DecodeJSON(bytes.NewReader(buf.Bytes())); err == nil || !strings.Contains(err.Error(), "unexpected data after the JSON value") {
		t.Errorf("DecodeJSON of several deltas: %v", err)
	}
	for _, tail := range []string{"[]", "x", "{", "1"} {
		in := append(bytes.Clone(buf.Bytes()), tail...)
		if _, err := DecodeJSONAll(bytes.NewReader(in)); err == nil {
			t.Errorf("DecodeJSONAll with %q after the deltas: no error", tail)
		} else if de := (*DecodeError)(nil); !errors.As(err, &de) || de.Line == 0 {
			t.Errorf("DecodeJSONAll with %q after the deltas: %v, want a line and column", tail, err)
		}
	}
}

// TestDecodeXMLConcatenated reads XyDelta documents put end to end as one
// chain, and numbers a faulty delta across them.
func TestDecodeXMLConcatenated(t *testing.T) {
	want, buf := endToEnd(t, 5, func(w io.Writer, d *Delta) error { return EncodeXML(w, d) })
	got, err := DecodeXML(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	sameChain(t, got, want)
	bad := append(bytes.Clone(buf.Bytes()), "<unit_delta><t><d/></t></unit_delta>"...)
	var de *DecodeError
	if _, err := DecodeXML(bytes.NewReader(bad)); !errors.As(err, &de) || de.Step != len(want)+1 {
		t.Errorf("a faulty delta after %d: %v, want it numbered %d", len(want), err, len(want)+1)
	}
	if _, err := DecodeXML(strings.NewReader("<unit_delta/><other/>")); err == nil {
		t.Error("another element after </unit_delta>: no error")
	}
}

// endToEnd returns a chain of three random deltas, and their encodings one
// after the other, as the outputs of three diffs put end to end.
func endToEnd(t *testing.T, seed uint64, encode func(io.Writer, *Delta) error) ([]*Delta, *bytes.Buffer) {
	t.Helper()
	vs := versions(seed, 30, 4, 4)
	var buf bytes.Buffer
	var ds []*Delta
	for i := 1; i < len(vs); i++ {
		d := mustBuild(t, vs[i-1], vs[i])
		ds = append(ds, d)
		if err := encode(&buf, d); err != nil {
			t.Fatal(err)
		}
	}
	return ds, &buf
}

// sameChain checks that a chain was read back whole.
func sameChain(t *testing.T, got, want []*Delta) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d deltas read, want %d", len(got), len(want))
	}
	for i := range got {
		if !Equal(got[i], want[i]) {
			t.Errorf("delta %d read back differs", i+1)
		}
	}
}

// TestXMLElementNamedOddWithNameAttribute writes an element whose name XML
// cannot hold (an HTML typo such as "td<a") and which has an attribute
// called name: the attribute must not be taken for the element's name.
func TestXMLElementNamedOddWithNameAttribute(t *testing.T) {
	content := &tree.Node{Kind: tree.Element, Name: "td<a", XID: 2, Attrs: []tree.Attr{{Name: "name", Value: "top"}, {Name: "id", Value: "x"}}}
	content.AppendChild(&tree.Node{Kind: tree.Text, Value: "Back", XID: 1})
	d := &Delta{Ops: []Op{{Kind: Insert, Parent: 9, Pos: 1, XIDs: tree.XIDMap{XIDs: []tree.XID{1, 2}}, Content: content}}}
	var b bytes.Buffer
	if err := EncodeXML(&b, d); err != nil {
		t.Fatal(err)
	}
	ds, err := DecodeXML(&b)
	if err != nil {
		t.Fatal(err)
	}
	got := ds[0].Ops[0].Content
	if got.Name != "td<a" || len(got.Attrs) != 2 {
		t.Fatalf("read back as <%s> with %v:\n%s", got.Name, got.Attrs, b.String())
	}
	if v, _ := got.Attr("name"); v != "top" {
		t.Errorf("attribute name = %q, want top", v)
	}
}

// TestXMLElementNamedXYElement writes an element of a document that is
// itself named xy:element (a page holding a Vigil delta): it is escaped as
// <xy:element name="xy:element"> and must read back.
func TestXMLElementNamedXYElement(t *testing.T) {
	content := &tree.Node{Kind: tree.Element, Name: "xy:element", XID: 2}
	content.AppendChild(&tree.Node{Kind: tree.Text, Value: "x", XID: 1})
	d := &Delta{Ops: []Op{{Kind: Insert, Parent: 9, Pos: 1, XIDs: tree.XIDMap{XIDs: []tree.XID{1, 2}}, Content: content}}}
	x := encodeXML(t, d)
	ds, err := DecodeXML(strings.NewReader(x))
	if err != nil {
		t.Fatalf("%v\n%s", err, x)
	}
	if !Equal(ds[0], d) {
		t.Fatalf("read back differs:\n%s", x)
	}
	for _, in := range []string{
		`<unit_delta><t><i par="9" pos="1" xm="(2)"><xy:element xmlns:xy="urn:vigil:xydelta"/></i></t></unit_delta>`,
		`<unit_delta><t><i par="9" pos="1" xm="(2)"><xy:element xmlns:xy="urn:vigil:xydelta" name=""/></i></t></unit_delta>`,
	} {
		if _, err := DecodeXML(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), "needs a name") {
			t.Errorf("%s: error %v, want one saying <xy:element> needs a name", in, err)
		}
	}
}

// TestEncodeRefusesCharacters: a value holding invalid UTF-8 or a
// character XML forbids is refused by both encoders (JSON wrote invalid
// UTF-8 as U+FFFD, and the others as escapes DecodeJSON refuses).
func TestEncodeRefusesCharacters(t *testing.T) {
	au := func(nv string) *Delta {
		return &Delta{Ops: []Op{{Kind: AttrUpdate, Node: 2, Name: "a", OldValue: "1", NewValue: nv}}}
	}
	ins := func(c *tree.Node) *Delta {
		return &Delta{Ops: []Op{{Kind: Insert, Parent: 9, Pos: 1, XIDs: tree.SubtreeXIDMap(c), Content: c}}}
	}
	cases := []struct {
		name string
		d    *Delta
		err  string
	}{
		{"invalid UTF-8", au("a\xffb"), `operation 1 (au xid=2 a=a ov="1" nv="a\xffb"): invalid UTF-8 at byte 1`},
		{"surrogate", au("\xed\xa0\x80"), "invalid UTF-8 at byte 0"},
		{"control", au("a\x01"), "character U+0001 at byte 1"},
		{"U+FFFE", au("\uFFFE"), "character U+FFFE at byte 0"},
		{"content text", ins(&tree.Node{Kind: tree.Text, Value: "\x00", XID: 3}), "operation 1 (i par=9 pos=1 xm=(3)): character U+0000"},
		{"content attribute", ins(&tree.Node{Kind: tree.Element, Name: "p", XID: 3, Attrs: []tree.Attr{{Name: "a", Value: "\x1b"}}}), "character U+001B"},
		{"label", &Delta{From: "v\x02.xml"}, "character U+0002"},
		{"outside", &Delta{Outside: &Outside{New: Surroundings{Doctype: "\x7f\x03"}}}, "DOCTYPE: character U+0003"},
	}
	for _, c := range cases {
		var b bytes.Buffer
		err := EncodeJSON(&b, c.d)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: EncodeJSON: %v, want containing %q\n%s", c.name, err, c.err, b.String())
		}
		if err := EncodeXML(&b, c.d); err == nil {
			t.Errorf("%s: EncodeXML wrote it", c.name)
		}
	}
}

// TestEncodeXMLLabelErrorNamesNoOperation: a label (from, to) that XML
// cannot hold is said to be the <t>'s, where the error named the first
// operation, which holds nothing wrong.
func TestEncodeXMLLabelErrorNamesNoOperation(t *testing.T) {
	d := &Delta{From: "v\x02.xml", Ops: []Op{{Kind: Rename, Node: 2, OldValue: "a", NewValue: "b"}}}
	var b bytes.Buffer
	err := EncodeXML(&b, d)
	if want := `encode delta 1, its <t>: character U+0002 at byte 1 of "v\x02.xml" is not allowed in XML`; err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// TestDecodeJSONAllByteOrderMarks: JSON deltas put end to end whose files
// began with a byte-order mark (cat a.json b.json, written by an editor
// that puts one) read as a chain, as XyDelta documents do; a byte-order
// mark inside a delta is still an error. The second delta was refused:
// "unexpected data after the JSON value", at a character no editor shows.
func TestDecodeJSONAllByteOrderMarks(t *testing.T) {
	want, buf := endToEnd(t, 3, func(w io.Writer, d *Delta) error {
		if _, err := io.WriteString(w, "\uFEFF"); err != nil {
			return err
		}
		return EncodeJSON(w, d)
	})
	in := bytes.TrimPrefix(buf.Bytes(), []byte("\uFEFF")) // the caller takes off the first
	got, err := DecodeJSONAll(bytes.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	sameChain(t, got, want)
	if _, err := DecodeJSONAll(strings.NewReader("{\"ops\":\uFEFF[]}")); err == nil {
		t.Error("a byte-order mark inside a delta: no error")
	}
	if _, err := DecodeJSON(bytes.NewReader(in)); err == nil || !strings.Contains(err.Error(), "unexpected data after the JSON value") {
		t.Errorf("DecodeJSON of several deltas: %v", err)
	}
}

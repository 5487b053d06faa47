package xmlpatch

import (
	"errors"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// fuzzPatches seed the fuzz tests; they run as plain tests too.
var fuzzPatches = []string{
	`<diff><add sel="doc"><foo id="ert4773">This is a new child</foo></add></diff>`,
	`<diff><add sel="doc/foo[@id='ert4773']" type="@user">Bob</add></diff>`,
	`<diff><add sel="doc" type="namespace::pref">urn:ns:xxx</add></diff>`,
	`<diff><replace sel="doc/note/text()[1]">x&#xD;y</replace><remove sel="doc/note" ws="both"/></diff>`,
	`<diff xmlns:x="urn:x"><add sel="/doc" pos="prepend"><x:a x:b="1"><![CDATA[]]>t<![CDATA[]]><![CDATA[]]></x:a></add></diff>`,
	`<p:diff xmlns="urn:d" xmlns:p="urn:p"><p:replace sel="doc"><doc/></p:replace></p:diff>`,
	`<diff><add sel="id('n')" pos="after"><!--c--><?pi d?></add><remove sel="/comment()[1]"/></diff>`,
	`<diff><replace sel='doc/processing-instruction("t")[1]'><?t u?></replace><remove sel="doc/@a"/></diff>`,
	`<diff><add sel="*/*[2][.='x'][@a=&quot;1&quot;]" pos="before">t</add></diff>`,
	`<diff><replace sel="doc/*[1]/namespace::pref">urn:q</replace><remove sel="/doc/namespace::pref"/></diff>`,
	`<diff><remove sel="*[.='xy']/*[b='x'][.='x']/text()"/><add sel="doc[note='y']" type="@z">1</add></diff>`,
	`<diff><add sel="/comment()[1]" pos="after"><?p v?></add><replace sel="/comment()[2]"><!--c--></replace><add sel="/comment()[2]" pos="before"><!--d--></add><remove sel="/comment()[1]"/></diff>`,
}

var fuzzDocs = []string{
	"<doc>\n  <note>This is a sample document</note>\n</doc>",
	`<!--c--><doc a="1" xmlns:pref="urn:p"><foo id="ert4773">x</foo><?t d?><note xml:id="n">y</note></doc>`,
	`<doc xmlns="urn:d"><a>x</a><b a="1">x</b></doc>`,
	`<?xml version="1.0"?><!--a--><!DOCTYPE doc><!--b--><doc><note>y</note></doc><!--e-->`,
}

// FuzzDecode checks that Decode never panics, and that what it reads is
// written back as a patch that reads the same.
func FuzzDecode(f *testing.F) {
	for _, p := range fuzzPatches {
		f.Add(p)
	}
	f.Add("<diff><add sel='a'><b></c></add></diff>")
	f.Fuzz(func(t *testing.T, in string) {
		p, err := Decode(strings.NewReader(in))
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			return
		}
		var b strings.Builder
		if err := Encode(&b, p); err != nil {
			if errors.Is(err, ErrInexpressible) {
				return // a PI whose data starts with white space, say
			}
			t.Fatalf("encode: %v", err)
		}
		back, err := Decode(strings.NewReader(b.String()))
		if err != nil {
			t.Fatalf("decode of the encoded patch: %v\n%s", err, b.String())
		}
		var b2 strings.Builder
		if err := Encode(&b2, back); err != nil || b2.String() != b.String() {
			t.Fatalf("encoded twice differs (%v):\n%s\n%s", err, b.String(), b2.String())
		}
	})
}

// FuzzApply checks that Apply never panics, that it fails with an *Error
// or a *WorkLimitError, and that a patch that fails leaves the document
// as it was.
func FuzzApply(f *testing.F) {
	for _, d := range fuzzDocs {
		for _, p := range fuzzPatches {
			f.Add(d, p)
		}
	}
	f.Fuzz(func(t *testing.T, doc, patch string) {
		d, err := markup.ParseXMLBytes([]byte(doc), &markup.Options{Whitespace: markup.Keep})
		if err != nil {
			return
		}
		p, err := Decode(strings.NewReader(patch))
		if err != nil {
			return
		}
		before := d.Clone()
		if err := Apply(d, p); err != nil {
			var e *Error
			var we *WorkLimitError
			if !errors.As(err, &e) && !errors.As(err, &we) {
				t.Fatalf("error %v is not an *Error or a *WorkLimitError", err)
			}
			if diff := tree.Diff(d.Root, before.Root, tree.ContentAndXIDs); diff != "" || len(d.Prolog) != len(before.Prolog) || len(d.Epilog) != len(before.Epilog) {
				t.Fatalf("a failed patch changed the document: %s", diff)
			}
			return
		}
		// XPath's data model: no text beside another, no empty one.
		tree.Walk(d.Root, func(n *tree.Node) bool {
			for i, c := range n.Children {
				if c.Kind == tree.Text && (c.Value == "" || i > 0 && n.Children[i-1].Kind == tree.Text) {
					t.Fatalf("%s: an empty text or two side by side", tree.Path(c))
				}
			}
			return true
		})
	})
}

// FuzzExport checks the round trip Apply(old, Export(old, Diff(old, new)))
// = new, through the patch written and read back, and that Apply agrees
// with delta.Apply on the delta, on documents the fuzzer makes.
func FuzzExport(f *testing.F) {
	for _, a := range fuzzDocs {
		for _, b := range fuzzDocs {
			f.Add(a, b)
		}
	}
	f.Add(`<p>a<b/>c</p>`, `<p>a<i/>c</p>`)
	f.Add("<r>\n <a x='1'>t</a>\n <b/>\n</r>", "<r>\n <b/>\n <a x='2'>t</a>\n</r>")
	for _, c := range prologCases {
		f.Add(c.old, c.new)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		opt := &markup.Options{Whitespace: markup.Keep}
		old, err := markup.ParseXMLBytes([]byte(a), opt)
		if err != nil {
			return
		}
		new, err := markup.ParseXMLBytes([]byte(b), opt)
		if err != nil {
			return
		}
		// The same trees as an HTML parser's (tree.Document.HTML), whose
		// comments <!--?xml ...?--> before the root a delta leaves out.
		oldHTML, newHTML := old.Clone(), new.Clone()
		oldHTML.HTML, newHTML.HTML = true, true
		for _, alg := range []treediff.Algorithm{treediff.Vigil, treediff.XyDiff} {
			if _, err := tryRoundTrip(t, old, new, &treediff.Options{Algorithm: alg}); err != nil && !errors.Is(err, ErrInexpressible) {
				t.Fatalf("%s: export: %v", alg, err)
			}
			if _, err := tryRoundTrip(t, oldHTML, newHTML, &treediff.Options{Algorithm: alg}); err != nil && !errors.Is(err, ErrInexpressible) {
				t.Fatalf("%s: export, read as HTML: %v", alg, err)
			}
			// Apply agrees with delta.Apply on the delta itself.
			x := old.Clone()
			d, err := treediff.Diff(x, new.Clone(), &treediff.Options{Algorithm: alg})
			if err != nil {
				t.Fatalf("%s: diff: %v", alg, err)
			}
			if err := agree(t, x, d); err != nil && !errors.Is(err, ErrInexpressible) {
				t.Fatalf("%s: export: %v", alg, err)
			}
		}
	})
}

// FuzzExportDelta checks Export on deltas the fuzzer writes, not only on
// those a diff computes: never a panic; a delta that does not fit the
// document is refused; one that fits gives a patch that Apply agrees with
// delta.Apply on, or ErrInexpressible.
func FuzzExportDelta(f *testing.F) {
	// The document's XIDs, in post-order: x 1, a 2, b 3, doc 4.
	const doc = `<doc><a>x</a><b/></doc>`
	for _, d := range []string{
		`<unit_delta><t><d par="2" pos="1" xm="(1)" update="yes">x</d><i par="2" pos="1" xm="(1)" update="yes">y</i></t></unit_delta>`,
		`<unit_delta><t><d par="4" pos="1" xm="(1-2)"><a>x</a></d><i par="3" pos="1" xm="(5-6)"><c>z</c></i></t></unit_delta>`,
		`<unit_delta><t><d par="4" pos="2" xm="(3)" move="yes"/><i par="2" pos="1" xm="(3)" move="yes"/></t></unit_delta>`,
		`<unit_delta><t><ai xid="3" a="k" v="1"/><rn xid="2" ov="a" nv="e"/></t></unit_delta>`,
		`<unit_delta><t><d par="2" pos="1" xm="(1)">x</d><i par="4" pos="3" xm="(5)">t</i><i par="4" pos="1" xm="(6)"><!--c--></i></t></unit_delta>`,
	} {
		f.Add(doc, d)
	}
	// What stands around the root: the DOCTYPE moved before the comment
	// that precedes it; comments rewritten and added on both sides of it;
	// where nothing precedes it, moved past a comment (inexpressible); and
	// comments changed beside a declaration read as a comment.
	for _, c := range []struct{ doc, delta string }{
		{`<!--a--><!DOCTYPE doc><!--b--><doc><a>x</a><b/></doc>`,
			`<unit_delta><t><outside><old doctype="doc" doctype-after="1"><prolog><!--a--></prolog><prolog><!--b--></prolog></old><new doctype="doc"><prolog><!--a--></prolog><prolog><!--b--></prolog></new></outside></t></unit_delta>`},
		{`<!--a--><!DOCTYPE doc><!--b--><doc><a>x</a><b/></doc>`,
			`<unit_delta><t><outside><old doctype="doc" doctype-after="1"><prolog><!--a--></prolog><prolog><!--b--></prolog></old><new doctype="doc" doctype-after="2"><prolog><!--c--></prolog><prolog><!--b--></prolog><prolog><?p v?></prolog></new></outside></t></unit_delta>`},
		{`<!DOCTYPE doc><!--b--><doc><a>x</a><b/></doc>`,
			`<unit_delta><t><outside><old doctype="doc"><prolog><!--b--></prolog></old><new doctype="doc" doctype-after="1"><prolog><!--b--></prolog></new></outside></t></unit_delta>`},
		// A declaration read as a comment, which the delta leaves out,
		// after the comment it changes and after the DOCTYPE.
		{`<!--a--><!--?xml version="1.0"?--><!DOCTYPE doc><doc><a>x</a><b/></doc>`,
			`<unit_delta><t><outside><old doctype="doc" doctype-after="1"><prolog><!--a--></prolog></old><new doctype="doc" doctype-after="1"><prolog><!--c--></prolog></new></outside></t></unit_delta>`},
		{`<!DOCTYPE doc><!--?xml version="1.0"?--><!--a--><doc><a>x</a><b/></doc>`,
			`<unit_delta><t><outside><old doctype="doc"><prolog><!--a--></prolog></old><new doctype="doc"><prolog><!--a--></prolog><prolog><!--n--></prolog></new></outside></t></unit_delta>`},
	} {
		f.Add(c.doc, c.delta)
	}
	f.Fuzz(func(t *testing.T, doc, deltaXML string) {
		old, err := markup.ParseXMLBytes([]byte(doc), &markup.Options{Whitespace: markup.Keep})
		if err != nil {
			return
		}
		old.AssignXIDs()
		ds, err := delta.DecodeXML(strings.NewReader(deltaXML))
		if err != nil {
			return
		}
		for _, d := range ds {
			if _, applyErr := delta.Apply(old, d); applyErr != nil {
				if _, err := Export(old, d); err == nil {
					t.Fatalf("Export of a delta delta.Apply refuses (%v) succeeds", applyErr)
				}
				continue
			}
			if err := agree(t, old, d); err != nil && !errors.Is(err, ErrInexpressible) {
				t.Fatalf("export: %v", err)
			}
		}
	})
}

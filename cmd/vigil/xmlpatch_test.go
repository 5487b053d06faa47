package main

import (
	"os"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/xmlpatch"
)

// TestDiffXMLPatch: diff --format xmlpatch writes an RFC 5261 patch, with
// the exit codes of the other formats, and patch applies it back.
func TestDiffXMLPatch(t *testing.T) {
	dir := t.TempDir()
	v1, v2 := example+"v1.xml", example+"v2.xml"
	code, out, errOut := runCLI(t, "", "diff", "--format", "xmlpatch", v1, v2)
	if code != exitChanged || !strings.HasPrefix(out, "<diff") || !strings.Contains(out, `<remove sel="/Category/NewProducts/Product" ws="after"/>`) {
		t.Fatalf("diff --format xmlpatch: exit %d, stderr %q, output\n%s", code, errOut, out)
	}
	if code, out, _ := runCLI(t, "", "diff", "--format", "xmlpatch", v1, v1); code != exitOK || out != "<diff>\n</diff>\n" {
		t.Errorf("no change: exit %d, output %q", code, out)
	}
	if code, _, errOut := runCLI(t, "", "diff", "--format", "xmlpatch", v1, "no-such-file.xml"); code != exitError || !strings.Contains(errOut, "no-such-file.xml") {
		t.Errorf("missing file: exit %d, stderr %q", code, errOut)
	}
	p := writeFile(t, dir, "p.xml", out)
	code, got, errOut := runCLI(t, "", "patch", v1, p)
	if code != exitOK {
		t.Fatalf("patch v1 p.xml: exit %d, stderr %q", code, errOut)
	}
	a, err := markup.ParseXMLBytes([]byte(got), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(v2)
	if err != nil {
		t.Fatal(err)
	}
	want, err := markup.ParseXMLBytes(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := tree.Diff(a.Root, want.Root, tree.Content); d != "" {
		t.Errorf("patch v1 (diff v1 v2) != v2: %s", d)
	}
	// Standard input, and flags after the arguments.
	if code, again, errOut := runCLI(t, out, "patch", v1, "-", "--whitespace", "keep"); code != exitOK || again != got {
		t.Errorf("patch v1 - <p.xml: exit %d, stderr %q", code, errOut)
	}
}

// TestPatchXMLPatch: patch tells an RFC 5261 patch from a delta by its
// document element, and reports a failed operation with its number,
// selector and position; --reverse cannot undo one.
func TestPatchXMLPatch(t *testing.T) {
	dir := t.TempDir()
	doc := writeFile(t, dir, "doc.xml", "<doc>\n  <note>This is a sample document</note>\n</doc>\n")
	cases := []struct {
		name, patch string
		args        []string
		code        int
		out, err    string
	}{
		{"rfc example A.1", `<?xml version="1.0" encoding="UTF-8"?>
<diff>
  <add sel="doc"><foo id="ert4773">This is a new child</foo></add>
</diff>`, nil, exitOK, `<foo id="ert4773">This is a new child</foo></doc>`, ""},
		{"any root and prefix", `<p:patch xmlns:p="urn:ietf:rfc:7351"><p:replace sel="/doc/note/text()[1]">Patched</p:replace></p:patch>`,
			nil, exitOK, "<note>Patched</note>", ""},
		{"unlocated", "<diff>\n<remove sel=\"doc/nope\"/>\n</diff>", nil, exitError, "",
			`p.xml: line 2, column 1: operation 1 (<remove sel="doc/nope">): unlocated-node: no element matches step 2 (nope)`},
		{"malformed", "<diff>\n<add sel='doc'><a></b></add></diff>", nil, exitError, "", "p.xml: xml patch: line 2, column 19: </b> closes <a>"},
		{"reverse", `<diff><remove sel="doc/note"/></diff>`, []string{"--reverse"}, exitError, "", "cannot be undone"},
		// A summary of vigil diff is no patch, though it quotes an
		// element: it was read as one, "xml patch: text outside the
		// document element".
		{"summary", "doc.xml -> new.xml: 1 inserted (1 node)\ninsert  /doc[1]/b[1]: \"<b>\"\n", nil, exitError, "", "p.xml: line 1, column 1: text before the root element"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeFile(t, dir, "p.xml", c.patch)
			code, out, errOut := runCLI(t, "", append([]string{"patch", doc, p}, c.args...)...)
			if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errOut, c.err) {
				t.Errorf("exit %d, output %q, stderr %q; want exit %d, %q, %q", code, out, errOut, c.code, c.out, c.err)
			}
		})
	}
	// A XyDelta still reads as one (its root is unit_delta).
	_, x, _ := runCLI(t, "", "diff", example+"v1.xml", example+"v2.xml")
	if code, _, errOut := runCLI(t, "", "patch", example+"v1.xml", writeFile(t, dir, "d.xml", x)); code != exitOK {
		t.Errorf("patch with a XyDelta: exit %d, stderr %q", code, errOut)
	}
	if !isXMLPatch([]byte("\ufeff <?xml version='1.0'?><!-- c --><diff/>")) || isXMLPatch([]byte(`<xy:unit_delta xmlns:xy="u"/>`)) || isXMLPatch([]byte(`{"ops":[]}`)) ||
		// Text before any element: not XML, though it quotes some
		// (vigil diff --format summary).
		isXMLPatch([]byte("a.xml -> b.xml: 1 inserted\ninsert  /r[1]/row[1]: \"<row>\"\n")) {
		t.Error("isXMLPatch misreads a file")
	}
}

// TestXMLPatchWhitespace: an RFC 5261 patch addresses a document as any
// XML tool reads it, white space included (text()[k] counts it, ws=
// removes it), so diff --format xmlpatch and patch with an XML patch keep
// white space unless --whitespace says otherwise.
func TestXMLPatchWhitespace(t *testing.T) {
	dir := t.TempDir()
	keep := &markup.Options{Whitespace: markup.Keep}
	v1 := writeFile(t, dir, "v1.xml", "<doc>\n  <p>x</p>\n  text\n</doc>\n")
	v2 := writeFile(t, dir, "v2.xml", "<doc>\n  <p>x</p>\n  other\n</doc>\n")
	code, out, errOut := runCLI(t, "", "diff", "--format", "xmlpatch", v1, v2)
	if code != exitChanged {
		t.Fatalf("diff: exit %d, stderr %q", code, errOut)
	}
	// Applied to v1 as it is, as another tool would.
	p, err := xmlpatch.Decode(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := markup.ParseXMLBytes([]byte("<doc>\n  <p>x</p>\n  text\n</doc>\n"), keep)
	want, _ := markup.ParseXMLBytes([]byte("<doc>\n  <p>x</p>\n  other\n</doc>\n"), keep)
	if err := xmlpatch.Apply(doc, p); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if d := tree.Diff(doc.Root, want.Root, tree.Content); d != "" {
		t.Errorf("the patch applied to v1 as it is does not give v2: %s\n%s", d, out)
	}
	// RFC 5261, appendix A.12: ws="after" needs the white space kept.
	sample := writeFile(t, dir, "doc.xml", "<doc>\n  <foo a=\"1\">This is a new child</foo>\n</doc>\n")
	a12 := writeFile(t, dir, "a12.xml", `<diff><remove sel="doc/foo[@a='1']" ws="after"/></diff>`)
	if code, out, errOut := runCLI(t, "", "patch", sample, a12); code != exitOK || out != "<doc>\n  </doc>\n" {
		t.Errorf("patch (A.12): exit %d, output %q, stderr %q", code, out, errOut)
	}
	// The document keeps its layout.
	a1 := writeFile(t, dir, "a1.xml", `<diff><add sel="doc"><bar/></add></diff>`)
	if code, out, errOut := runCLI(t, "", "patch", sample, a1); code != exitOK || out != "<doc>\n  <foo a=\"1\">This is a new child</foo>\n<bar/></doc>\n" {
		t.Errorf("patch (A.1): exit %d, output %q, stderr %q", code, out, errOut)
	}
	// --whitespace normalize still reads both as before.
	if code, out, _ := runCLI(t, "", "diff", "--whitespace", "normalize", "--format", "xmlpatch", v1, v2); code != exitChanged || !strings.Contains(out, `<replace sel="/doc/text()[1]"> other</replace>`) {
		t.Errorf("diff --whitespace normalize: exit %d, output %s", code, out)
	}
	if code, out, _ := runCLI(t, "", "patch", "--whitespace", "normalize", sample, a1); code != exitOK || out != "<doc><foo a=\"1\">This is a new child</foo><bar/></doc>\n" {
		t.Errorf("patch --whitespace normalize: exit %d, output %q", code, out)
	}
}

// TestXMLPatchNormalizedSaysSo: a patch that diff --whitespace normalize
// writes counts the texts of the normalised reading (text()[1] is the
// first text left, not the first line break), and says so before <diff>;
// patch reads the document so without being told, and refuses
// --whitespace keep, which would apply it to other nodes. Without the
// mark, patch kept the white space, as for any XML patch, and replaced the
// first line break with the new text: another document, and exit 0.
func TestXMLPatchNormalizedSaysSo(t *testing.T) {
	dir := t.TempDir()
	v1 := writeFile(t, dir, "v1.xml", "<r>\n  <a>1</a>\n  mixed\n  <c>3</c>\n</r>\n")
	v2 := writeFile(t, dir, "v2.xml", "<r>\n  <a>1</a>\n  mixed2\n  <c>3</c>\n</r>\n")
	code, p, errOut := runCLI(t, "", "diff", "--whitespace", "normalize", "--format", "xmlpatch", v1, v2)
	if code != exitChanged || !strings.HasPrefix(p, "<?vigil-whitespace normalize?>\n<diff>") || !strings.Contains(errOut, "note: the patch addresses the documents with white space normalised") {
		t.Fatalf("diff --whitespace normalize --format xmlpatch: exit %d, stderr %q, output %s", code, errOut, p)
	}
	pfile := writeFile(t, dir, "p.xml", p)
	code, out, errOut := runCLI(t, "", "patch", v1, pfile)
	if code != exitOK || out != "<r><a>1</a> mixed2 <c>3</c></r>\n" {
		t.Errorf("patch: exit %d, stderr %q, output %q", code, errOut, out)
	}
	if code, _, errOut := runCLI(t, "", "diff", writeFile(t, dir, "out.xml", out), v2); code != exitOK {
		t.Errorf("the patched document differs from v2: exit %d, stderr %q", code, errOut)
	}
	code, out, errOut = runCLI(t, "", "patch", "--whitespace", "keep", v1, pfile)
	if code != exitError || out != "" || !strings.Contains(errOut, "--whitespace keep would apply it to other nodes") {
		t.Errorf("patch --whitespace keep: exit %d, stderr %q, output %q", code, errOut, out)
	}
	// A patch of the files as they are has no mark, and no note.
	if code, p, errOut := runCLI(t, "", "diff", "--format", "xmlpatch", v1, v2); code != exitChanged || strings.Contains(p, "vigil-whitespace") || errOut != "" {
		t.Errorf("diff --format xmlpatch: exit %d, stderr %q, output %s", code, errOut, p)
	}
}

// TestPatchSwappedHint: a patch that does not decode gets the hint that the
// arguments are swapped only when DOC is a patch with operations: any root
// element reads as a patch, so a document <r/> would read as an empty one.
func TestPatchSwappedHint(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.xml", "<diff>\n<add sel='doc'><a></b></add></diff>")
	const hint = "is an XML patch: the arguments are DOC PATCH, in that order"
	for _, c := range []struct {
		name, doc string
		hinted    bool
	}{
		{"a patch as DOC", `<diff><add sel="/doc"><a/></add></diff>`, true},
		{"a document with no child element", `<r/>`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := writeFile(t, dir, "doc.xml", c.doc)
			code, _, errOut := runCLI(t, "", "patch", doc, bad)
			if code != exitError || !strings.Contains(errOut, "bad.xml: xml patch: line 2") {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			if got := strings.Contains(errOut, hint); got != c.hinted {
				t.Errorf("hint given: %v, want %v; stderr %q", got, c.hinted, errOut)
			}
		})
	}
}

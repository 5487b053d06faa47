package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// runCLI runs vigil in-process and returns its exit code and outputs.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env := &environment{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	code := run(context.Background(), env, args)
	return code, out.String(), errOut.String()
}

const example = "../../testdata/example/"

func TestDiffExitCodes(t *testing.T) {
	code, out, errOut := runCLI(t, "", "diff", example+"v1.xml", example+"v2.xml")
	if code != exitChanged {
		t.Fatalf("diff v1 v2: exit %d, want 1; stderr %s", code, errOut)
	}
	if !strings.Contains(out, "<unit_delta>") || !strings.Contains(out, `move="yes"`) {
		t.Errorf("output is not a delta with a move:\n%s", out)
	}
	if code, out, _ := runCLI(t, "", "diff", example+"v1.xml", example+"v1.xml"); code != exitOK || strings.Contains(out, "<d ") {
		t.Errorf("diff v1 v1: exit %d, output %s", code, out)
	}
	if code, _, errOut := runCLI(t, "", "diff", example+"v1.xml", "no-such-file.xml"); code != exitError || !strings.Contains(errOut, "no-such-file.xml") {
		t.Errorf("missing file: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := runCLI(t, "<?xml version=\"1.0\"?>\n<a><b></a>", "diff", "-", example+"v1.xml"); code != exitError || !strings.Contains(errOut, "line 2, column") {
		t.Errorf("malformed stdin: exit %d, stderr %q", code, errOut)
	}
	if code, _, _ := runCLI(t, "", "diff", "--format", "yaml", example+"v1.xml", example+"v2.xml"); code != exitError {
		t.Errorf("bad format: exit %d", code)
	}
	if code, _, errOut := runCLI(t, "", "diff", example+"v1.xml"); code != exitError || !strings.Contains(errOut, "vigil diff: want 2 arguments, got 1") {
		t.Errorf("one argument: exit %d, stderr %q", code, errOut)
	}
}

// TestFlagsAfterArguments writes flags where the issue and diff(1) users
// put them: after the files ("vigil patch DOC DELTA --reverse"), or
// between them; "--" ends the flags.
func TestFlagsAfterArguments(t *testing.T) {
	_, want, _ := runCLI(t, "", "diff", "--format", "summary", example+"v1.xml", example+"v2.xml")
	for _, args := range [][]string{
		{"diff", example + "v1.xml", example + "v2.xml", "--format", "summary"},
		{"diff", example + "v1.xml", "--format=summary", example + "v2.xml"},
		{"diff", "--format", "summary", "--", example + "v1.xml", example + "v2.xml"},
	} {
		code, out, errOut := runCLI(t, "", args...)
		if code != exitChanged || out != want {
			t.Errorf("%q: exit %d, stderr %q, output\n%s\nwant\n%s", args, code, errOut, out, want)
		}
	}
	_, delta, _ := runCLI(t, "", "diff", example+"v1.xml", example+"v2.xml")
	_, forward, _ := runCLI(t, delta, "patch", example+"v1.xml", "-")
	code, back, errOut := runCLI(t, delta, "patch", example+"v2.xml", "-", "--reverse")
	if code != exitOK || back == forward {
		t.Errorf("patch DOC - --reverse: exit %d, stderr %q: the flag was not read", code, errOut)
	}
	if code, _, errOut := runCLI(t, "", "diff", "--", "--format", example+"v1.xml"); code != exitError || !strings.Contains(errOut, "--format") {
		t.Errorf("after --, --format is a file name: exit %d, stderr %q", code, errOut)
	}
}

func TestDiffSummary(t *testing.T) {
	_, out, _ := runCLI(t, "", "diff", "--format", "summary", example+"v1.xml", example+"v2.xml")
	// In reading order: from the top of the document down.
	at := 0
	for _, want := range []string{"1 inserted (5 nodes), 1 deleted (5 nodes), 1 moved, 1 text update, 0 attribute changes, 0 renames",
		`outside before the root: "...s 3.2-3.5), version 1. -->" -> "...s 3.2-3.5), version 2. -->"`,
		`delete  /Category[1]/Discount[1]/Product[1]: "tx123 $499"`,
		`move    /Category[1]/NewProducts[1]/Product[1] -> /Category[1]/Discount[1]/Product[1]`,
		`update  /Category[1]/NewProducts[1]/Product[1]/Price[1]/text()[1] (now /Category[1]/Discount[1]/Product[1]/Price[1]/text()[1]): "$799" -> "$699"`,
		`insert  /Category[1]/NewProducts[1]/Product[1]: "abc $899"`} {
		k := strings.Index(out[at:], want)
		if k < 0 {
			t.Fatalf("summary lacks %q after byte %d:\n%s", want, at, out)
		}
		at += k + len(want)
	}
}

// TestSummaryCounts: the counts line says "1 node" and "1 text update",
// not "1 nodes" and "1 text updates".
func TestSummaryCounts(t *testing.T) {
	dir := t.TempDir()
	old := writeFile(t, dir, "old.xml", `<r><a x="1">one</a><b>two</b></r>`)
	new := writeFile(t, dir, "new.xml", `<r><a x="2">uno</a><c>two</c><d/></r>`)
	_, out, _ := runCLI(t, "", "diff", "--format", "summary", old, new)
	want := ": 1 inserted (1 node), 0 deleted (0 nodes), 0 moved, 1 text update, 1 attribute change, 1 rename\n"
	if first, _, _ := strings.Cut(out, "\n"); !strings.HasSuffix(first+"\n", want) {
		t.Errorf("counts line %q, want it to end in %q", first, want)
	}
}

// TestSummaryRename names a renamed element by its new path too where
// that is not its old one with the new name: inside a moved subtree, the
// old path names another node of the new version.
func TestSummaryRename(t *testing.T) {
	for _, tc := range []struct {
		old, new string
		want     string
	}{
		{`<r><a>one</a><b>two</b></r>`, `<r><a>one</a><c>two</c></r>`, "rename  /r[1]/b[1]: b -> c\n"},
		{`<r><x/><x/><a/></r>`, `<r><x/><y/><a/></r>`, "rename  /r[1]/x[2] (now /r[1]/y[1]): x -> y\n"},
		{`<lib><s><book><t>Go</t><note>old</note></book><book><t>Rust</t></book></s><s/></lib>`,
			`<lib><s><book><t>Rust</t></book></s><s><book><t>Go</t><isbn>old</isbn></book></s></lib>`,
			"rename  /lib[1]/s[1]/book[1]/note[1] (now /lib[1]/s[2]/book[1]/isbn[1]): note -> isbn\n"},
	} {
		dir := t.TempDir()
		a, b := writeFile(t, dir, "a.xml", tc.old), writeFile(t, dir, "b.xml", tc.new)
		_, out, errOut := runCLI(t, "", "diff", "--format", "summary", a, b)
		if !strings.Contains(out, tc.want) {
			t.Errorf("%s -> %s: summary\n%s%swant the line %q", tc.old, tc.new, out, errOut, tc.want)
		}
	}
}

// TestSummaryReorder names the positions of a node reordered among
// siblings of other names, whose path is the same in both versions, and
// tells a move to another parent whose path is the same from one that
// stays: neither reads "child 1 -> child 1".
func TestSummaryReorder(t *testing.T) {
	for _, tc := range []struct {
		old, new string
		args     []string
		want     []string // any of them
	}{
		{`<cat><b>x</b><c>y</c></cat>`, `<cat><c>y</c><b>x</b></cat>`, nil,
			[]string{"move    /cat[1]/c[1]: child 2 -> child 1\n", "move    /cat[1]/b[1]: child 1 -> child 2\n"}},
		// The key attribute moved from one p to the other: the texts
		// changed parents, at the same paths.
		{`<r><p pid="a">one</p><p pid="b">two</p></r>`, `<r><p pid="b">one</p><p pid="a">two</p></r>`, []string{"--key-attrs", "pid"},
			[]string{"move    /r[1]/p[1]/text()[1] -> /r[1]/p[1]/text()[1]: to another parent (the old one is now /r[1]/p[2])\n"}},
		{`<r><p id="a">same long text here</p><p id="b">other</p></r>`, `<r><p id="c">same long text here</p><p id="b">other</p></r>`, []string{"--key-attrs", "id"},
			[]string{"move    /r[1]/p[1]/text()[1] -> /r[1]/p[1]/text()[1]: to another parent (the old one was deleted)\n"}},
		// Its siblings moved around b.
		{`<r><a>alpha</a><b>x</b><a>beta</a><a>gamma</a></r>`, `<r><a>gamma</a><b>x</b><a>alpha</a><a>beta</a></r>`, []string{"--algorithm", "xydiff"},
			[]string{"move    /r[1]/b[1]: its siblings were reordered around it; still child 2\n"}},
	} {
		dir := t.TempDir()
		a, b := filepath.Join(dir, "a.xml"), filepath.Join(dir, "b.xml")
		if err := os.WriteFile(a, []byte(tc.old), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(b, []byte(tc.new), 0o644); err != nil {
			t.Fatal(err)
		}
		_, out, errOut := runCLI(t, "", append([]string{"diff", a, b, "--format", "summary"}, tc.args...)...)
		found := false
		for _, w := range tc.want {
			found = found || strings.Contains(out, w)
		}
		if !found || strings.Contains(out, "child 1 -> child 1") {
			t.Errorf("%s -> %s: summary\n%s%s", tc.old, tc.new, out, errOut)
		}
	}
}

// TestPatchOtherDocument: a delta applied to a document it was not
// computed from is refused, even one of the same size that holds what the
// delta deletes and updates (the version before its source).
func TestPatchOtherDocument(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	v1 := write("v1.xml", `<r><p>Price: 10</p><p>Stock: 5</p></r>`)
	v2 := write("v2.xml", `<r><p>Price: 12</p><p>Stock: 5</p></r>`)
	v3 := write("v3.xml", `<r><p>Price: 12</p><p>Stock: 5</p><p>New!</p></r>`)
	_, d23, _ := runCLI(t, "", "diff", v2, v3)
	p23 := write("d23.xml", d23)
	if code, out, errOut := runCLI(t, "", "patch", v1, p23); code != exitError || out != "" || !strings.Contains(errOut, "computed from another document") {
		t.Errorf("patch v1 with the delta v2 -> v3: exit %d, output %q, stderr %q", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, "", "patch", v2, p23); code != exitOK || out != "<r><p>Price: 12</p><p>Stock: 5</p><p>New!</p></r>\n" {
		t.Errorf("patch v2 with the delta v2 -> v3: exit %d, output %q, stderr %q", code, out, errOut)
	}
	// Not consecutive, of the same size: v1 -> v2 twice.
	_, d12, _ := runCLI(t, "", "diff", v1, v2)
	p12 := write("d12.xml", d12)
	if code, _, errOut := runCLI(t, "", "compose", p12, p12); code != exitError || !strings.Contains(errOut, "fingerprint") {
		t.Errorf("compose v1 -> v2 with itself: exit %d, stderr %q", code, errOut)
	}
}

// TestPatchChecksTarget: a delta whose inserted content was altered
// applies, and patch then refuses the result, which is not the version the
// delta was computed to; forward and back.
func TestPatchChecksTarget(t *testing.T) {
	dir := t.TempDir()
	v1 := writeFile(t, dir, "v1.xml", `<r><a>x</a></r>`)
	v2 := writeFile(t, dir, "v2.xml", `<r><a>x</a><b>y</b></r>`)
	for _, format := range []string{"xydelta", "json"} {
		_, d, _ := runCLI(t, "", "diff", "--format", format, v1, v2)
		tampered := strings.NewReplacer(">y<", ">TAMPERED<", `"y"`, `"TAMPERED"`).Replace(d)
		if tampered == d {
			t.Fatalf("no inserted text in the delta:\n%s", d)
		}
		p := writeFile(t, dir, "d."+format, tampered)
		if code, out, errOut := runCLI(t, "", "patch", v1, p); code != exitError || out != "" || !strings.Contains(errOut, "not the delta's target") {
			t.Errorf("%s: patch with an altered insert: exit %d, output %q, stderr %q", format, code, out, errOut)
		}
		if code, out, errOut := runCLI(t, "", "patch", v1, writeFile(t, dir, "ok."+format, d)); code != exitOK || out != "<r><a>x</a><b>y</b></r>\n" {
			t.Errorf("%s: patch: exit %d, output %q, stderr %q", format, code, out, errOut)
		}
	}
}

// TestPatchReverseNeedsTargetMap: a hand-made delta without a target
// XID-map cannot be undone, and patch --reverse says so rather than
// failing on a node the delta did not mean ("parent XID 7 is a text").
func TestPatchReverseNeedsTargetMap(t *testing.T) {
	dir := t.TempDir()
	v1 := writeFile(t, dir, "v1.xml", `<r><a>x</a></r>`)
	v2 := writeFile(t, dir, "v2.xml", `<r><a>y</a><b>z</b></r>`)
	_, d, _ := runCLI(t, "", "diff", "--format", "json", v1, v2)
	stripped := regexp.MustCompile(`"toXidMap":"[^"]*",`).ReplaceAllString(d, "")
	if stripped == d {
		t.Fatalf("no toXidMap in the delta:\n%s", d)
	}
	p := writeFile(t, dir, "d.json", stripped)
	if code, out, errOut := runCLI(t, "", "patch", "--reverse", v2, p); code != exitError || out != "" || !strings.Contains(errOut, "no target XID-map") {
		t.Errorf("patch --reverse without toXidMap: exit %d, output %q, stderr %q", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, "", "patch", "--reverse", v2, writeFile(t, dir, "ok.json", d)); code != exitOK || out != "<r><a>x</a></r>\n" {
		t.Errorf("patch --reverse: exit %d, output %q, stderr %q", code, out, errOut)
	}
}

// TestPatchWarnsUnwritableHTML: a version whose tree HTML cannot write
// (misnested markup builds a p inside a p) is patched to the nearest HTML,
// with a warning that it reads back otherwise; a tree HTML can write has
// none.
func TestPatchWarnsUnwritableHTML(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.html", "<html><body><p>Intro text\n<table><tr><td>cell</td></tr><p>stray</table></body></html>")
	b := writeFile(t, dir, "b.html", "<html><body><p>Intro text changed\n<table><tr><td>cell</td></tr><p>stray</table></body></html>")
	_, d, _ := runCLI(t, "", "diff", a, b)
	code, out, errOut := runCLI(t, "", "patch", a, writeFile(t, dir, "d.xml", d))
	if code != exitOK || !strings.Contains(out, "Intro text changed") || !strings.Contains(errOut, "warning: HTML cannot write this tree") {
		t.Errorf("patch to a p inside a p: exit %d, stderr %q, output %s", code, errOut, out)
	}
	c := writeFile(t, dir, "c.html", "<html><body><p>Intro</p><p>text</p></body></html>")
	_, d, _ = runCLI(t, "", "diff", c, a)
	if code, _, errOut := runCLI(t, "", "patch", a, writeFile(t, dir, "d2.xml", d), "--reverse"); code != exitOK || errOut != "" {
		t.Errorf("patch back to a writable tree: exit %d, stderr %q", code, errOut)
	}
}

// TestPatchReverseWarnsOfOldVersion: undone with --reverse, a delta leads
// back to the version it was computed from, and the warning that HTML
// cannot write that version names it so; it blamed "the version the delta
// leads to", the document given, which is well-formed.
func TestPatchReverseWarnsOfOldVersion(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.html", "<html><body><p>Intro text\n<table><tr><td>cell</td></tr><p>stray</table></body></html>")
	c := writeFile(t, dir, "c.html", "<html><body><p>Intro</p><p>text</p></body></html>")
	_, d, _ := runCLI(t, "", "diff", a, c)
	code, out, errOut := runCLI(t, "", "patch", "--reverse", c, writeFile(t, dir, "d.xml", d))
	if code != exitOK || !strings.Contains(out, "stray") || !strings.Contains(errOut, "warning: HTML cannot write this tree as it is (misnested markup in the version the delta was computed from,") {
		t.Errorf("patch --reverse to a p inside a p: exit %d, stderr %q, output %s", code, errOut, out)
	}
	if code, _, errOut := runCLI(t, "", "patch", c, writeFile(t, dir, "d2.xml", runOut(t, "diff", c, a))); code != exitOK || !strings.Contains(errOut, "(misnested markup in the version the delta leads to,") {
		t.Errorf("patch to a p inside a p: exit %d, stderr %q", code, errOut)
	}
}

// TestPatchReverseAcrossFormats: undone with --reverse, a delta from a
// version read as XML (an html root without a head, under an XML
// declaration) to one read as HTML gives back the XML version, written as
// XML with a declaration, with a note: written as HTML, it read back with
// a head the HTML parser adds. So does a delta the other way, applied. A misnested HTML result, which HTML cannot
// write either, stays HTML with its warning
// (TestPatchReverseWarnsOfOldVersion).
func TestPatchReverseAcrossFormats(t *testing.T) {
	dir := t.TempDir()
	x := writeFile(t, dir, "x.xml", `<?xml version="1.0"?><html><body><p>x</p></body></html>`)
	h := writeFile(t, dir, "h.html", `<html><body><p>y</p></body></html>`)
	d := writeFile(t, dir, "d.xml", runOut(t, "diff", x, h))
	code, out, errOut := runCLI(t, "", "patch", "--reverse", h, d)
	if code != exitOK || !strings.HasPrefix(out, "<?xml") || !strings.Contains(errOut, "note: the result is written as XML") || strings.Contains(errOut, "warning") {
		t.Fatalf("patch --reverse to a version read as XML: exit %d, stderr %q, output %s", code, errOut, out)
	}
	if code, diff, errOut := runCLI(t, "", "diff", "--format", "summary", x, writeFile(t, dir, "back.xml", out)); code != exitOK {
		t.Errorf("the document patched back differs from %s: exit %d\n%s%s", x, code, diff, errOut)
	}
	// Forward, a delta from the version read as HTML to the one read as
	// XML does the same.
	d2 := writeFile(t, dir, "d2.xml", runOut(t, "diff", h, x))
	code, out, errOut = runCLI(t, "", "patch", h, d2)
	if code != exitOK || !strings.HasPrefix(out, "<?xml") || !strings.Contains(errOut, "note: the result is written as XML") || strings.Contains(errOut, "warning") {
		t.Fatalf("patch to a version read as XML: exit %d, stderr %q, output %s", code, errOut, out)
	}
	if code, diff, errOut := runCLI(t, "", "diff", "--format", "summary", x, writeFile(t, dir, "forward.xml", out)); code != exitOK {
		t.Errorf("the patched document differs from %s: exit %d\n%s%s", x, code, diff, errOut)
	}
}

// TestPatchAcrossFormats: a delta from a version read as XML (well-formed
// XHTML) to one read as HTML patches the first into HTML, with a note:
// written as XML, the result read back as another tree (XML has no comment
// holding "--", which HTML keeps), and the patch only warned. With --parse xml, which
// asks for XML, the warning says so and how to read both alike; a patch
// within XML has neither.
func TestPatchAcrossFormats(t *testing.T) {
	dir := t.TempDir()
	const page = "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>t</title></head><body><pre>\n  indented()\n</pre><p>%s</p></body></html>\n"
	x := writeFile(t, dir, "x.html", `<?xml version="1.0"?>`+"\n"+fmt.Sprintf(page, "one<br/>"))
	h := writeFile(t, dir, "h.html", fmt.Sprintf(page, "two<br><!-- a -- b -->"))
	_, d, _ := runCLI(t, "", "diff", x, h)
	dfile := writeFile(t, dir, "d.xml", d)
	code, out, errOut := runCLI(t, "", "patch", x, dfile)
	if code != exitOK || !strings.Contains(out, "<p>two<br><!-- a -- b --></p>") || !strings.Contains(errOut, "note: the result is written as HTML") || strings.Contains(errOut, "warning") {
		t.Errorf("patch from XML to a version read as HTML: exit %d, stderr %q, output %s", code, errOut, out)
	}
	if code, same, errOut := runCLI(t, "", "diff", "--format", "summary", h, writeFile(t, dir, "patched.html", out)); code != exitOK {
		t.Errorf("the patched document differs from %s: exit %d\n%s%s", h, code, same, errOut)
	}
	code, out, errOut = runCLI(t, "", "patch", "--parse", "xml", x, dfile)
	if code != exitOK || !strings.Contains(out, "two") || !strings.Contains(errOut, "warning: XML cannot write this tree") || !strings.Contains(errOut, "--parse html") {
		t.Errorf("patch --parse xml to a version read as HTML: exit %d, stderr %q, output %s", code, errOut, out)
	}
	if code, out, errOut := runCLI(t, "", "patch", "--parse", "html", x, writeFile(t, dir, "d2.xml", runOut(t, "diff", "--parse", "html", x, h))); code != exitOK || errOut != "" || !strings.Contains(out, "two") {
		t.Errorf("patch with --parse html: exit %d, stderr %q", code, errOut)
	}
	_, d, _ = runCLI(t, "", "diff", example+"v1.xml", example+"v2.xml")
	if code, _, errOut := runCLI(t, "", "patch", example+"v1.xml", writeFile(t, dir, "d3.xml", d)); code != exitOK || errOut != "" {
		t.Errorf("patch within XML: exit %d, stderr %q", code, errOut)
	}
}

// runOut runs vigil in-process and returns its standard output.
func runOut(t *testing.T, args ...string) string {
	t.Helper()
	_, out, _ := runCLI(t, "", args...)
	return out
}

// TestDiffPatchRoundTrip runs the README's pipeline: diff, then patch
// forward and back, and compose, through files, in both formats.
func TestDiffPatchRoundTrip(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	parse := func(path string) *tree.Document {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d, _, err := markup.ParseBytes(b, nil)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	same := func(what, got string, wantPath string) {
		t.Helper()
		g, _, err := markup.ParseBytes([]byte(got), nil)
		if err != nil {
			t.Fatalf("%s: output does not parse: %v\n%s", what, err, got)
		}
		if d := tree.Diff(g.Root, parse(wantPath).Root, tree.Content); d != "" {
			t.Errorf("%s: %s", what, d)
		}
	}
	for _, format := range []string{"xydelta", "json"} {
		_, d12, _ := runCLI(t, "", "diff", "--format", format, example+"v1.xml", example+"v2.xml")
		_, d23, _ := runCLI(t, "", "diff", "--format", format, example+"v2.xml", example+"v3.xml")
		p12, p23 := write(format+"12", d12), write(format+"23", d23)

		code, out, errOut := runCLI(t, "", "patch", example+"v1.xml", p12)
		if code != exitOK {
			t.Fatalf("%s patch: exit %d: %s", format, code, errOut)
		}
		same(format+" patch v1", out, example+"v2.xml")

		code, out, errOut = runCLI(t, "", "patch", "--reverse", example+"v2.xml", p12)
		if code != exitOK {
			t.Fatalf("%s patch --reverse: exit %d: %s", format, code, errOut)
		}
		same(format+" patch --reverse v2", out, example+"v1.xml")

		code, d13, errOut := runCLI(t, "", "compose", p12, p23)
		if code != exitOK {
			t.Fatalf("%s compose: exit %d: %s", format, code, errOut)
		}
		code, out, errOut = runCLI(t, "", "patch", example+"v1.xml", write(format+"13", d13))
		if code != exitOK {
			t.Fatalf("%s patch composed: exit %d: %s", format, code, errOut)
		}
		same(format+" patch v1 with the composed delta", out, example+"v3.xml")
		// The first delta on standard input: the output keeps its format.
		raw12, err := os.ReadFile(p12)
		if err != nil {
			t.Fatal(err)
		}
		if code, piped, errOut := runCLI(t, string(raw12), "compose", "-", p23); code != exitOK || piped != d13 {
			t.Errorf("%s compose - DELTA2: exit %d, %s, output differs from compose DELTA1 DELTA2:\n%s", format, code, errOut, piped)
		}

		// Out of order: refused, naming the delta that does not follow, and
		// why (the numbering of versions of other sizes used to be the
		// reason given).
		if code, _, errOut := runCLI(t, "", "compose", p23, p12); code != exitError || !strings.Contains(errOut, "delta 2 does not follow delta 1") ||
			!strings.Contains(errOut, "its source is not the previous delta's target") {
			t.Errorf("%s compose out of order: exit %d, stderr %q, want exit 2 naming delta 2 and its source", format, code, errOut)
		}
		// The deltas are numbered across the files: the error says which
		// file holds each, so that a long list of files can be mended.
		both := write(format+"both", d12+d23)
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{p23, p12}, "(delta 1: " + p23 + "; delta 2: " + p12 + ")"},
			{[]string{p23, both}, "(delta 1: " + p23 + "; deltas 2 to 3: " + both + ")"},
		} {
			if code, _, errOut := runCLI(t, "", append([]string{"compose"}, c.args...)...); code != exitError || !strings.Contains(errOut, c.want) {
				t.Errorf("%s compose %q: exit %d, stderr %q, want exit 2 and %q", format, c.args, code, errOut, c.want)
			}
		}
		// An unknown --format is refused before the deltas are read or
		// composed: not after the work, nor as a fault of the deltas.
		for _, args := range [][]string{{p12, p23}, {p23, p12}, {p12, "no-such-delta"}} {
			code, out, errOut := runCLI(t, "", append([]string{"compose", "--format", "summary"}, args...)...)
			if code != exitError || out != "" || !strings.HasPrefix(errOut, `vigil compose: --format "summary": want xydelta or json`) {
				t.Errorf("%s compose --format summary %q: exit %d, stdout %q, stderr %q", format, args, code, out, errOut)
			}
		}

		// The delta of v1 -> v2 does not fit v3: refused, exit 2.
		if code, _, errOut := runCLI(t, "", "patch", example+"v3.xml", p12); code != exitError || errOut == "" {
			t.Errorf("%s: misfit delta: exit %d, stderr %q", format, code, errOut)
		}
	}
}

// TestDeepDeltaRoundTrip diffs a document against one with a chain 20 000
// elements deep inserted, in both delta formats, and patches both ways:
// JSON nests two levels per level of content, past encoding/json's limit.
func TestDeepDeltaRoundTrip(t *testing.T) {
	const depth = 20000
	dir := t.TempDir()
	oldDoc := "<r><x/></r>"
	newDoc := "<r><x/>" + strings.Repeat("<a>", depth) + "y" + strings.Repeat("</a>", depth) + "</r>"
	oldPath, newPath := filepath.Join(dir, "old.xml"), filepath.Join(dir, "new.xml")
	for p, s := range map[string]string{oldPath: oldDoc, newPath: newDoc} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, format := range []string{"xydelta", "json"} {
		code, d, errOut := runCLI(t, "", "diff", "--format", format, oldPath, newPath)
		if code != exitChanged {
			t.Fatalf("%s diff: exit %d: %s", format, code, errOut)
		}
		deltaPath := filepath.Join(dir, "delta."+format)
		if err := os.WriteFile(deltaPath, []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out, errOut := runCLI(t, "", "patch", oldPath, deltaPath); code != exitOK || strings.TrimSpace(out) != newDoc {
			t.Errorf("%s patch: exit %d: %s (output %d bytes, want %d)", format, code, errOut, len(out), len(newDoc))
		}
		if code, out, errOut := runCLI(t, "", "patch", "--reverse", newPath, deltaPath); code != exitOK || strings.TrimSpace(out) != oldDoc {
			t.Errorf("%s patch --reverse: exit %d: %s (output %q)", format, code, errOut, out)
		}
	}
}

func TestPatchRefusesGarbage(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.xml")
	os.WriteFile(bad, []byte("<unit_delta><t><d par=\"99\" pos=\"1\" xm=\"(1)\">x</d></t></unit_delta>"), 0o644)
	code, _, errOut := runCLI(t, "", "patch", example+"v1.xml", bad)
	if code != exitError || !strings.Contains(errOut, "operation 1") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	bin := filepath.Join(dir, "bin")
	os.WriteFile(bin, []byte{0x89, 'P', 'N', 'G', 0, 0, 1, 2, 3}, 0o644)
	if code, _, errOut := runCLI(t, "", "diff", bin, example+"v1.xml"); code != exitError || errOut == "" {
		t.Errorf("binary input: exit %d, stderr %q", code, errOut)
	}
}

// TestSnippet checks the text the summary shows for a subtree: its words,
// the texts of different elements apart and a word split by inline HTML
// markup whole (markup.JoinTexts), an element's name when it has none, a
// comment or processing instruction as written, cut at 60 characters
// without splitting one.
func TestSnippet(t *testing.T) {
	d := &tree.Document{}
	p := d.NewElement("p")
	p.AppendChild(d.NewText("  hello   world "))
	long := d.NewText(strings.Repeat("é", 70))
	entry := d.NewElement("entry")
	for _, kv := range [][2]string{{"title", "Post two"}, {"id", "urn:2"}, {"updated", "2026-11-02T00:00:00Z"}} {
		e := d.NewElement(kv[0])
		e.AppendChild(d.NewText(kv[1]))
		entry.AppendChild(e)
	}
	price := d.NewElement("p")
	price.AppendChild(d.NewText("The pri"))
	b := d.NewElement("b")
	b.AppendChild(d.NewText("ce"))
	price.AppendChild(b)
	many := d.NewElement("ul") // short words in many elements, cut where the line is
	for i := range 40 {
		li := d.NewElement("li")
		li.AppendChild(d.NewText(string(rune('a' + i%26))))
		many.AppendChild(li)
	}
	for _, tt := range []struct {
		n    *tree.Node
		html bool
		want string
	}{
		{p, false, "hello world"},
		{d.NewElement("br"), false, "<br>"},
		{d.NewNode(tree.Comment, "", " Windows:  services "), false, "<!-- Windows: services -->"},
		{d.NewNode(tree.ProcInst, "xml-stylesheet", `href="a.xsl"`), false, `<?xml-stylesheet href="a.xsl"?>`},
		{long, false, strings.Repeat("é", 57) + "..."},
		{nil, false, ""},
		{entry, false, "Post two urn:2 2026-11-02T00:00:00Z"},
		{price, true, "The price"},
		{price, false, "The pri ce"},
		{many, true, "a b c d e f g h i j k l m n o p q r s t u v w x y z a b c..."},
	} {
		if got := snippet(tt.n, tt.html); got != tt.want {
			t.Errorf("snippet = %q, want %q", got, tt.want)
		}
	}
}

// TestInterruptEndsComputation stops vigil diff while it waits for its
// input (standard input, held open) and expects the process to end at once
// with 130 for SIGINT and 143 for SIGTERM, rather than when the command is
// done. A signal that comes before the process has set its handler kills it
// by default; the test then tries again, later.
func TestInterruptEndsComputation(t *testing.T) {
	newFile := filepath.Join(t.TempDir(), "new.xml")
	if err := os.WriteFile(newFile, []byte("<a/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		sig  os.Signal
		code int
	}{{os.Interrupt, exitInterrupted}, {syscall.SIGTERM, exitTerminated}} {
		for wait := 200 * time.Millisecond; ; wait *= 2 {
			cmd := exec.Command(vigilBinary(t), "diff", "-", newFile)
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			time.Sleep(wait)
			if err := cmd.Process.Signal(tt.sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("%v: still running 30 s after the signal", tt.sig)
			}
			stdin.Close()
			if code := cmd.ProcessState.ExitCode(); code == -1 && wait < 5*time.Second {
				continue // killed before the handler was set
			} else if code != tt.code || !strings.Contains(stderr.String(), "vigil: ") {
				t.Fatalf("%v: exit code %d, stderr %q; want %d and a word on the signal", tt.sig, code, stderr.String(), tt.code)
			}
			break
		}
	}
}

// TestSummaryWhiteSpace: the space an HTML page keeps between two inline
// elements is shown when it comes or goes; it read "".
func TestSummaryWhiteSpace(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.html", `<html><body><p><b>x</b><i>y</i></p></body></html>`)
	b := writeFile(t, dir, "b.html", `<html><body><p><b>x</b> <i>y</i></p></body></html>`)
	code, out, errOut := runCLI(t, "", "diff", "--format", "summary", a, b)
	if code != exitChanged || !strings.Contains(out, `insert  /html[1]/body[1]/p[1]/text()[1]: " "`) {
		t.Errorf("exit %d %s:\n%s", code, errOut, out)
	}
}

// TestSummaryComment quotes comments and processing instructions as
// written, on one line: "<!-- a -->" is not shown as "<!--a-->", and a
// change of their spaces alone shows.
func TestSummaryComment(t *testing.T) {
	for _, tc := range []struct{ old, new, want string }{
		{`<d><!-- a --></d>`, `<d><!-- b --></d>`, `update  /d[1]/comment()[1]: "<!-- a -->" -> "<!-- b -->"`},
		{`<d><!-- a --></d>`, `<d><!--a--></d>`, `update  /d[1]/comment()[1]: "<!-- a -->" -> "<!--a-->"`},
		{`<d/>`, "<d><?pi  x\n  y ?></d>", `insert  /d[1]/processing-instruction(pi)[1]: "<?pi x y ?>"`},
	} {
		dir := t.TempDir()
		a, b := writeFile(t, dir, "a.xml", tc.old), writeFile(t, dir, "b.xml", tc.new)
		_, out, errOut := runCLI(t, "", "diff", "--format", "summary", a, b)
		if !strings.Contains(out, tc.want+"\n") {
			t.Errorf("%s -> %s: summary\n%s%swant the line %q", tc.old, tc.new, out, errOut, tc.want)
		}
	}
}

// TestDiffHTMLFragment diffs HTML fragments that are not well-formed XML
// (a first element not among the common HTML ones): they are read as HTML,
// not refused as malformed XML; malformed XML is refused still.
func TestDiffHTMLFragment(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("bq-a.html", "<blockquote>Quote one.<br>Quote one.</blockquote>\n")
	b := write("bq-b.html", "<blockquote>Quote one.<br>Quote two.</blockquote>\n")
	if code, out, errOut := runCLI(t, "", "diff", a, b); code != exitChanged || !strings.Contains(out, "Quote two.") {
		t.Errorf("diff of two blockquotes: exit %d, stderr %q\n%s", code, errOut, out)
	}
	pre := write("pre.html", "<pre>unclosed\n")
	if code, _, errOut := runCLI(t, "", "diff", pre, pre); code != exitOK {
		t.Errorf("diff of an unclosed pre with itself: exit %d, stderr %q", code, errOut)
	}
	bad := write("c.xml", "<catalog><item></catalog>")
	if code, _, errOut := runCLI(t, "", "diff", bad, bad); code != exitError || !strings.Contains(errOut, "line 1, column 16") {
		t.Errorf("malformed XML: exit %d, stderr %q", code, errOut)
	}
}

// TestPatchSwappedArguments: a delta given first and a document second
// (XML and JSON) is named as such, not only as a document that is no delta.
func TestPatchSwappedArguments(t *testing.T) {
	dir := t.TempDir()
	v1, v2 := example+"v1.xml", example+"v2.xml"
	_, x, _ := runCLI(t, "", "diff", v1, v2)
	_, j, _ := runCLI(t, "", "diff", "--format", "json", v1, v2)
	for name, d := range map[string]string{"d.xml": x, "d.json": j} {
		p := writeFile(t, dir, name, d)
		if code, _, errOut := runCLI(t, "", "patch", p, v1); code != exitError || !strings.Contains(errOut, p+" is a delta: the arguments are DOC DELTA") {
			t.Errorf("patch %s v1.xml: exit %d, stderr %q", name, code, errOut)
		}
	}
	// Neither is a delta: the delta's error alone.
	if code, _, errOut := runCLI(t, "", "patch", v2, v1); code != exitError || strings.Contains(errOut, "is a delta") {
		t.Errorf("patch v2.xml v1.xml: exit %d, stderr %q", code, errOut)
	}
}

// TestPatchWrongVersion: a document patched twice, or undone with
// --reverse while it is still the delta's source, is named as the version
// it is, not only as another document.
func TestPatchWrongVersion(t *testing.T) {
	dir := t.TempDir()
	v1, v2 := example+"v1.xml", example+"v2.xml"
	_, x, _ := runCLI(t, "", "diff", v1, v2)
	_, j, _ := runCLI(t, "", "diff", "--format", "json", v1, v2)
	for name, d := range map[string]string{"d.xml": x, "d.json": j} {
		p := writeFile(t, dir, name, d)
		if code, _, errOut := runCLI(t, "", "patch", v2, p); code != exitError || !strings.Contains(errOut, "v2.xml is the version the delta leads to: patched already? --reverse undoes the delta") {
			t.Errorf("patch v2.xml %s: exit %d, stderr %q", name, code, errOut)
		}
		if code, _, errOut := runCLI(t, "", "patch", "--reverse", v1, p); code != exitError || !strings.Contains(errOut, "v1.xml is the version the delta starts from: without --reverse, patch applies the delta to it") {
			t.Errorf("patch --reverse v1.xml %s: exit %d, stderr %q", name, code, errOut)
		}
	}
}

// TestComposeMany composes the deltas of any number of files, as a history
// of many versions gives them (vigil compose d*.xml); one file of several
// consecutive deltas composes too.
func TestComposeMany(t *testing.T) {
	dir := t.TempDir()
	v1, v2, v3 := example+"v1.xml", example+"v2.xml", example+"v3.xml"
	_, d12, _ := runCLI(t, "", "diff", v1, v2)
	_, d23, _ := runCLI(t, "", "diff", v2, v3)
	_, d32, _ := runCLI(t, "", "diff", v3, v2)
	p12, p23, p32 := writeFile(t, dir, "d12", d12), writeFile(t, dir, "d23", d23), writeFile(t, dir, "d32", d32)
	for _, args := range [][]string{{p12, p23, p32}, {writeFile(t, dir, "d12-23-32", d12+d23+d32)}} {
		code, d, errOut := runCLI(t, "", append([]string{"compose"}, args...)...)
		if code != exitOK {
			t.Fatalf("compose %q: exit %d: %s", args, code, errOut)
		}
		code, out, errOut := runCLI(t, "", "patch", v1, writeFile(t, dir, "composed", d))
		if code != exitOK {
			t.Fatalf("patch with compose %q: exit %d: %s", args, code, errOut)
		}
		if code, _, _ := runCLI(t, out, "diff", "-", v2); code != exitOK {
			t.Errorf("compose %q: v1 patched is not v2", args)
		}
	}
	if code, _, errOut := runCLI(t, "", "compose", p12, "-", "-"); code != exitError || !strings.Contains(errOut, "only one delta file can be standard input") {
		t.Errorf("compose with - twice: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "", "compose"); code != exitError || !strings.Contains(errOut, "want a delta file or more") {
		t.Errorf("compose without arguments: exit %d: %s", code, errOut)
	}
}

// TestDiffUnknownAlgorithm: an unknown --algorithm is refused by the
// flag's name and its choices, before the documents are read (as --format
// is), not by the library after the parse.
func TestDiffUnknownAlgorithm(t *testing.T) {
	for _, second := range []string{example + "v2.xml", "no-such-file.xml"} {
		code, out, errOut := runCLI(t, "", "diff", "--algorithm", "XyDiff2", example+"v1.xml", second)
		if code != exitError || out != "" || errOut != "vigil diff: --algorithm \"XyDiff2\": want vigil or xydiff\n" {
			t.Errorf("diff --algorithm XyDiff2 v1.xml %s: exit %d, stdout %q, stderr %q", second, code, out, errOut)
		}
	}
}

// TestWantArgsGrammar: a command of one argument or none says so in
// words, not "want 1 arguments".
func TestWantArgsGrammar(t *testing.T) {
	if code, _, errOut := runCLI(t, "", "bench", "simulate"); code != exitError || !strings.Contains(errOut, "want 1 argument, got 0") {
		t.Errorf("bench simulate without DIR: exit %d, %q", code, errOut)
	}
}

// TestDocumentCommandsHelp: diff, patch and compose -h say what the
// command does and its exit status, as the other commands' -h do; they
// printed the usage line and the flags only, and diff's 0, 1 and 2 were
// in README.md alone.
func TestDocumentCommandsHelp(t *testing.T) {
	for _, tt := range []struct {
		command string
		want    []string
	}{
		{"diff", []string{"Diff compares two versions of an XML or HTML document", "the exit status is 0\nwhen the versions are the same, 1 when they differ and 2 on trouble"}},
		{"patch", []string{"Patch applies DELTA to DOC and prints the result", "With --reverse it undoes a delta", "The exit status is 0 when the result is written, 2 on\ntrouble."}},
		{"compose", []string{"Compose joins consecutive deltas", "The exit status is 0 when the delta is\nwritten, 2 on trouble."}},
	} {
		code, out, errOut := runCLI(t, "", tt.command, "-h")
		if code != exitOK || errOut != "" {
			t.Errorf("%s -h: exit %d, stderr %q", tt.command, code, errOut)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s -h: no %q in:\n%s", tt.command, w, out)
			}
		}
		if !strings.Contains(out, "\n\nFlags:\n  -") {
			t.Errorf("%s -h: the flags do not follow the description:\n%s", tt.command, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if len(line) > 76 && !strings.HasPrefix(line, "Usage:") && !strings.HasPrefix(line, "    \t") {
				t.Errorf("%s -h: a line of the description longer than 76 characters: %q", tt.command, line)
			}
		}
	}
}

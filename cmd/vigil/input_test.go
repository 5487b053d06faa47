package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
)

// TestPatchChainsFromSeparateDiffs patches with the deltas of separate
// diffs put end to end, in both formats (each renumbered onto the XIDs the
// one before gave), and with a delta file that starts with a byte order
// mark; the size limit applies to delta files too.
func TestPatchChainsFromSeparateDiffs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string { return writeFile(t, dir, name, content) }
	_, j12, _ := runCLI(t, "", "diff", "--format", "json", example+"v1.xml", example+"v2.xml")
	_, j23, _ := runCLI(t, "", "diff", "--format", "json", example+"v2.xml", example+"v3.xml")
	_, x12, _ := runCLI(t, "", "diff", example+"v1.xml", example+"v2.xml")
	_, x23, _ := runCLI(t, "", "diff", example+"v2.xml", example+"v3.xml")
	body := func(x string) string {
		x = strings.TrimSpace(x)
		return strings.TrimSuffix(strings.TrimPrefix(x, "<unit_delta>"), "</unit_delta>")
	}
	chains := map[string]string{
		"json":            write("j13", j12+j23),
		"xml":             write("x13", "<unit_delta>"+body(x12)+body(x23)+"</unit_delta>\n"),
		"xml, end to end": write("x13cat", x12+x23),
	}
	for name, path := range chains {
		code, out, errOut := runCLI(t, "", "patch", example+"v1.xml", path)
		if code != exitOK {
			t.Fatalf("%s chain: patch exit %d: %s", name, code, errOut)
		}
		if code, _, errOut := runCLI(t, out, "diff", "-", example+"v3.xml"); code != exitOK {
			t.Errorf("%s chain: the patched v1 is not v3 (diff exit %d: %s)", name, code, errOut)
		}
	}
	bom := write("bom12", "\xef\xbb\xbf"+x12)
	if code, _, errOut := runCLI(t, "", "patch", example+"v1.xml", bom); code != exitOK {
		t.Errorf("delta with a byte order mark: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "", "patch", "--max-bytes", "100", example+"v1.xml", chains["xml"]); code != exitError || !strings.Contains(errOut, "--max-bytes") {
		t.Errorf("patch with a delta over --max-bytes: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "", "compose", "--max-bytes", "100", chains["json"], chains["json"]); code != exitError || !strings.Contains(errOut, "--max-bytes") {
		t.Errorf("compose with a delta over --max-bytes: exit %d: %s", code, errOut)
	}
}

// TestDiffRefusesEmptyInput refuses an empty or blank document, rather than
// reading it as an empty HTML page, and a limit that is not positive.
func TestDiffRefusesEmptyInput(t *testing.T) {
	for _, in := range []string{"", "  \n\t", "\xef\xbb\xbf\n"} {
		code, _, errOut := runCLI(t, in, "diff", "-", example+"v1.xml")
		if code != exitError || !strings.Contains(errOut, "empty document") {
			t.Errorf("diff of %q: exit %d: %s", in, code, errOut)
		}
	}
	if code, _, errOut := runCLI(t, "", "diff", "--max-bytes", "0", example+"v1.xml", example+"v2.xml"); code != exitError || !strings.Contains(errOut, "--max-bytes 0") {
		t.Errorf("--max-bytes 0: exit %d: %s", code, errOut)
	}
}

// TestDiffKeyAttrs matches elements by their key attributes, the list read
// with or without spaces after its commas.
func TestDiffKeyAttrs(t *testing.T) {
	dir := t.TempDir()
	oldPath := writeFile(t, dir, "old.xml", `<r><p id="a">x</p><p id="b">y</p></r>`)
	newPath := writeFile(t, dir, "new.xml", `<r><p id="b">x</p><p id="a">y</p></r>`)
	diff := func(args ...string) string {
		t.Helper()
		code, out, errOut := runCLI(t, "", append(append([]string{"diff", "--format", "summary"}, args...), oldPath, newPath)...)
		if code != exitChanged {
			t.Fatalf("diff %v: exit %d: %s", args, code, errOut)
		}
		return out
	}
	plain, keyed, spaced := diff(), diff("--key-attrs", "id,name"), diff("--key-attrs", "name, id")
	if keyed == plain {
		t.Errorf("--key-attrs id changes nothing:\n%s", keyed)
	}
	if spaced != keyed {
		t.Errorf("--key-attrs 'name, id':\n%s\nwant as with id,name:\n%s", spaced, keyed)
	}
}

// TestDiffInputKinds: a binary file is refused; --parse reads an XML file
// whose root has an HTML name as XML, which content alone reads as HTML; HTML with
// control characters gives a delta XML can hold; HTML nested past the HTML
// parser's limit is refused with a hint, and parses with --parse xml when
// well-formed.
func TestDiffInputKinds(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string { return writeFile(t, dir, name, content) }
	binary := write("bin", "\x7fELF\x02\x01\x01\x00\x00\x00"+strings.Repeat("\x00\x01\x02", 100))
	if code, _, errOut := runCLI(t, "", "diff", binary, example+"v1.xml"); code != exitError || !strings.Contains(errOut, "binary input") {
		t.Errorf("binary file: exit %d: %s", code, errOut)
	}
	t1 := write("t1.xml", `<table><Row Name="a"/><Row Name="b"/></table>`)
	t2 := write("t2.xml", `<table><Row Name="a"/><Row Name="c"/></table>`)
	// By content, a first element named table means HTML; --parse xml
	// says otherwise.
	code, d, errOut := runCLI(t, "", "diff", "--parse", "xml", t1, t2)
	if code != exitChanged || !strings.Contains(d, `a="Name"`) {
		t.Errorf("--parse xml: exit %d: %s%s", code, d, errOut)
	}
	if code, out, _ := runCLI(t, "", "patch", "--parse", "xml", t1, write("t.delta", d)); code != exitOK || strings.TrimSpace(out) != `<table><Row Name="a"/><Row Name="c"/></table>` {
		t.Errorf("patch --parse xml: exit %d: %s", code, out)
	}
	if code, d, _ := runCLI(t, "", "diff", t1, t2); code != exitChanged || !strings.Contains(d, `a="name"`) {
		t.Errorf("by content (HTML): exit %d: %s", code, d)
	}
	c1, c2 := write("c1.html", "<p>a\x01b</p>"), write("c2.html", "<p>a\x01c\fd</p>")
	if code, d, errOut := runCLI(t, "", "diff", c1, c2); code != exitChanged || !strings.Contains(d, "a\uFFFDc d") {
		t.Errorf("HTML with control characters: exit %d: %s%s", code, d, errOut)
	}
	deep := strings.Repeat("<div>", 2000) + "x" + strings.Repeat("</div>", 2000)
	h1, h2 := write("deep1.html", deep), write("deep2.html", strings.Replace(deep, "x", "y", 1))
	if code, _, errOut := runCLI(t, "", "diff", h1, h2); code != exitError || !strings.Contains(errOut, "--parse xml") {
		t.Errorf("HTML 2 000 deep: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "", "diff", "--parse", "xml", h1, h2); code != exitChanged {
		t.Errorf("HTML 2 000 deep, --parse xml: exit %d: %s", code, errOut)
	}
}

// TestDiffOutsideRoot reports a change that lies only outside the root
// element (a licence comment, the DOCTYPE), and patch carries it both ways.
func TestDiffOutsideRoot(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string { return writeFile(t, dir, name, content) }
	licence := "Licence: you may share, adapt, teach or deploy this configuration for any purpose, with attribution"
	v1 := write("v1.xml", `<?xml version="1.0"?>`+"\n<!-- "+licence+" -->\n<config><rule>a</rule></config>\n")
	v2 := write("v2.xml", `<?xml version="1.0"?>`+"\n<!-- "+strings.Replace(licence, "teach", "teach, publish", 1)+" -->\n<!DOCTYPE config>\n<config><rule>a</rule></config>\n<?done yes?>\n")
	code, summary, errOut := runCLI(t, "", "diff", "--format", "summary", v1, v2)
	if code != exitChanged || !strings.Contains(summary, "changes outside the root element") ||
		!strings.Contains(summary, `outside DOCTYPE: "" -> "config"`) || !strings.Contains(summary, "teach, publish") {
		t.Fatalf("summary: exit %d:\n%s%s", code, summary, errOut)
	}
	for _, format := range []string{"xydelta", "json"} {
		_, d, _ := runCLI(t, "", "diff", "--format", format, v1, v2)
		p := write("d."+format, d)
		code, out, errOut := runCLI(t, "", "patch", v1, p)
		if code != exitOK {
			t.Fatalf("%s patch: exit %d: %s", format, code, errOut)
		}
		if code, _, _ := runCLI(t, out, "diff", "-", v2); code != exitOK {
			t.Errorf("%s: the patched v1 differs from v2:\n%s", format, out)
		}
		code, out, errOut = runCLI(t, "", "patch", "--reverse", v2, p)
		if code != exitOK {
			t.Fatalf("%s patch --reverse: exit %d: %s", format, code, errOut)
		}
		if code, _, _ := runCLI(t, out, "diff", "-", v1); code != exitOK {
			t.Errorf("%s: the unpatched v2 differs from v1:\n%s", format, out)
		}
	}
}

// TestUnknownCommand names the unknown command as typed: one word, or two
// where the first starts commands of two words.
func TestUnknownCommand(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"DIFF", "a", "b"}, `"DIFF"`},
		{[]string{"bench", "nonsense", "x"}, `"bench nonsense"`},
	} {
		code, _, errOut := runCLI(t, "", tt.args...)
		if code != exitError || !strings.Contains(errOut, "unknown command "+tt.want) {
			t.Errorf("%v: exit %d: %s", tt.args, code, errOut)
		}
	}
}

// TestGroupHelp: a group of commands answers -h, and a group alone, with
// its commands.
func TestGroupHelp(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
	}{
		{[]string{"sentinel", "-h"}, exitOK},
		{[]string{"sentinel", "--help"}, exitOK},
		{[]string{"sentinel"}, exitError},
	} {
		code, out, errOut := runCLI(t, "", tt.args...)
		text := out + errOut
		if code != tt.code || !strings.Contains(text, "sentinel add") || !strings.Contains(text, "sentinel check") || strings.Contains(text, "bench diff") {
			t.Errorf("%v: exit %d:\n%s", tt.args, code, text)
		}
	}
}

// TestCLISecondAudit covers what a second audit found: a delta of a file
// numbered as the file numbers it when undone; a note when the two
// versions are read in different formats; an update of white space shown
// in the summary; diffs with byte-order marks put end to end.
func TestCLISecondAudit(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string { return writeFile(t, dir, name, content) }
	_, x12, _ := runCLI(t, "", "diff", example+"v1.xml", example+"v2.xml")
	_, x23, _ := runCLI(t, "", "diff", example+"v2.xml", example+"v3.xml")
	// Undoing the chain from v3, with the file's delta 1 (undone last)
	// claiming a price v2 does not have: named delta 1, as in the file.
	chain := write("x13", strings.Replace(x12, `update="yes">$699</i>`, `update="yes">$698</i>`, 1)+x23)
	if code, _, errOut := runCLI(t, "", "patch", "--reverse", example+"v3.xml", chain); code != exitError || !strings.Contains(errOut, "delta 1: ") {
		t.Errorf("patch --reverse with a delta that does not fit: exit %d: %s", code, errOut)
	}
	// The second diff, renumbered onto the first's XIDs, does not fit:
	// the message says its XIDs are not the file's.
	bad := write("bad13", x12+strings.Replace(x23, `update="yes">$899</d>`, `update="yes">$898</d>`, 1))
	if code, _, errOut := runCLI(t, "", "patch", example+"v1.xml", bad); code != exitError || !strings.Contains(errOut, "delta 2: ") || !strings.Contains(errOut, "renumbered") {
		t.Errorf("a renumbered delta that does not fit: exit %d: %s", code, errOut)
	}
	bom := write("bom13", "\xef\xbb\xbf"+x12+"\xef\xbb\xbf"+x23)
	if code, out, errOut := runCLI(t, "", "patch", example+"v1.xml", bom); code != exitOK {
		t.Errorf("diffs with byte-order marks put end to end: exit %d: %s", code, errOut)
	} else if code, _, _ := runCLI(t, out, "diff", "-", example+"v3.xml"); code != exitOK {
		t.Errorf("diffs with byte-order marks put end to end: the patched v1 is not v3")
	}
	xh1 := write("xh1.html", `<?xml version="1.0"?><html><body><p>a<br/>b</p></body></html>`)
	xh2 := write("xh2.html", `<?xml version="1.0"?><html><body><p>a<br>b</p></body></html>`)
	if _, _, errOut := runCLI(t, "", "diff", xh1, xh2); !strings.Contains(errOut, "read as XML") || !strings.Contains(errOut, "--parse html") {
		t.Errorf("versions read in different formats: no note: %q", errOut)
	}
	w1 := write("w1.xml", "<r><p>a  b</p><q/></r>")
	w2 := write("w2.xml", "<r><p>a b</p><q/></r>")
	if code, out, _ := runCLI(t, "", "diff", "--whitespace", "keep", "--format", "summary", w1, w2); code != exitChanged || !strings.Contains(out, `"a  b" -> "a b"`) {
		t.Errorf("white-space update: exit %d:\n%s", code, out)
	}
}

// TestHelpOnStdout prints a command's help on standard output when asked
// for, and its usage on stderr after a mistake.
func TestHelpOnStdout(t *testing.T) {
	for _, args := range [][]string{{"diff", "--help"}, {"patch", "-h"}, {"compose", "-help"}} {
		code, out, errOut := runCLI(t, "", args...)
		if code != exitOK || !strings.Contains(out, "Usage: vigil "+args[0]) || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	code, out, errOut := runCLI(t, "", "diff", "--bogus")
	if code != exitError || out != "" || !strings.Contains(errOut, "Usage: vigil diff") {
		t.Errorf("diff --bogus: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestHelpCommand: vigil help COMMAND is COMMAND -h, for a command of one
// word, of two, and a group; an unknown one is named. It printed the list
// of every command whatever followed help.
func TestHelpCommand(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"help", "diff"}, "Usage: vigil diff"},
		{[]string{"help", "site", "crawl"}, "Usage: vigil site crawl"},
		{[]string{"help", "sentinel"}, "sentinel check"},
	} {
		code, out, errOut := runCLI(t, "", tt.args...)
		if code != exitOK || !strings.Contains(out, tt.want) || strings.Contains(out, "Usage: vigil <command>") || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", tt.args, code, out, errOut)
		}
	}
	code, out, errOut := runCLI(t, "", "help", "difff")
	if code != exitError || out != "" || !strings.Contains(errOut, `unknown command "difff"`) {
		t.Errorf("help difff: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestHelpOnlyFirst: -h later on a command line may be a flag's value, and
// a mistaken command line keeps its usage on stderr.
func TestHelpOnlyFirst(t *testing.T) {
	code, out, errOut := runCLI(t, "", "diff", "--bogus", "-h")
	if code != exitError || out != "" || !strings.Contains(errOut, "Usage: vigil diff") {
		t.Errorf("diff --bogus -h: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !wantsHelp([]string{"--help"}) || wantsHelp([]string{"--smtp-user", "-h"}) || wantsHelp(nil) {
		t.Error("wantsHelp: help asked for only by the first argument")
	}
}

// TestReadDeltasEmptyAndJSON reads delta files that hold no delta, or JSON
// that is not a delta object: JSON is told by its first character and its
// errors are said in JSON terms; a file with no delta in it (empty, an
// empty <unit_delta>, an empty JSON array) is refused alike, while an
// explicit empty delta ({} in JSON, <unit_delta><t/></unit_delta> in
// XML) is one.
func TestReadDeltasEmptyAndJSON(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "a.xml")
	if err := os.WriteFile(doc, []byte(`<a x="1"/>`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, want string }{
		{"", "no delta in the file: it is empty"},
		{" \n\t", "no delta in the file: it is empty"},
		{"<unit_delta></unit_delta>", "no delta in the file"},
		{"<unit_delta/>\n", "no delta in the file"},
		{"[]\n", "no delta in the file: an empty JSON array; a JSON delta is an object"},
		{" [ ] ", "no delta in the file: an empty JSON array; a JSON delta is an object"},
		{`[{"ops":[]}]`, "line 1, column 1: a JSON array where an object is wanted (a file of several JSON deltas holds the objects one after the other, not in an array)"},
		{"\n\"x\"", "line 2, column 1: a JSON string where an object is wanted"},
		{"12", "line 1, column 1: a JSON number 12 where an object is wanted"},
		{"null\n", "line 1, column 1: a JSON null where an object is wanted"},
		{" true", "line 1, column 2: a JSON bool where an object is wanted"},
		{"false,", "line 1, column 1: a JSON bool where an object is wanted"},
		{"nullx", "line 1, column 1: text before the root element"}, // not JSON's literal
		{"PK\x03\x04\x00\x00garbage", "not a delta: markup: a NUL byte at line 1, column 5: binary input"},
		{"{}", ""},
		{"{}\n{}", ""},
		{"<unit_delta><t/></unit_delta>", ""},
	} {
		name := filepath.Join(dir, "d")
		if err := os.WriteFile(name, []byte(tc.in), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := runCLI(t, "", "patch", doc, name)
		if tc.want == "" {
			if code != exitOK {
				t.Errorf("%q: exit %d, stderr %q; want an empty delta applied", tc.in, code, errOut)
			}
			continue
		}
		if code != exitError || !strings.Contains(errOut, name+": "+tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %q", tc.in, code, errOut, tc.want)
		}
	}
	// {} and <t/> are the same delta.
	empty := filepath.Join(dir, "empty.json")
	if err := os.WriteFile(empty, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	j, _, err := readDeltas(&environment{}, empty, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	x, err := delta.DecodeXML(strings.NewReader("<unit_delta><t/></unit_delta>"))
	if err != nil {
		t.Fatal(err)
	}
	if len(j) != 1 || len(x) != 1 || !delta.Equal(j[0], x[0]) {
		t.Errorf("{} and <t/> read apart: %+v, %+v", j, x)
	}
}

// TestStdinFileOverLimit refuses standard input redirected from a file
// larger than --max-bytes by the file's size, as a named file is, without
// reading it: "vigil diff - NEW < big.xml" on a 2 GB file read the limit's
// 256 MiB first.
func TestStdinFileOverLimit(t *testing.T) {
	path := writeFile(t, t.TempDir(), "big.xml", "<r>"+strings.Repeat("x", 1000)+"</r>")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out, errOut strings.Builder
	env := &environment{stdin: f, stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	code := run(context.Background(), env, []string{"diff", "--max-bytes", "100", "-", example + "v1.xml"})
	if code != exitError || !strings.Contains(errOut.String(), "<stdin>: 1007 bytes is more than the limit of 100") {
		t.Errorf("exit %d: %s", code, errOut.String())
	}
	if off, _ := f.Seek(0, io.SeekCurrent); off != 0 {
		t.Errorf("%d bytes of standard input read before it was refused", off)
	}
}

// TestStreamReadBounded reads a stream (a pipe, of unknown size) into a
// buffer no larger than the limit: doubling as it filled, the buffer of
// a stream at the 256 MiB limit grew to 512 MiB, and the process to 1 GB
// before refusing a larger one.
func TestStreamReadBounded(t *testing.T) {
	const limit = 3<<20 + 7
	for _, n := range []int{limit, limit + 1, 5 << 20} {
		env := &environment{stdin: strings.NewReader(strings.Repeat("x", n))}
		b, err := readInput(env, "-", limit)
		if n > limit {
			if err == nil || !strings.Contains(err.Error(), "more than the limit") {
				t.Errorf("%d bytes: %v, want over the limit", n, err)
			}
			continue
		}
		if err != nil || len(b) != n {
			t.Fatalf("%d bytes: read %d: %v", n, len(b), err)
		}
		if c := cap(b); c > limit+64<<10 {
			t.Errorf("%d bytes read into a buffer of %d, more than the limit of %d", n, c, limit)
		}
	}
}

// TestEmptyFileName: an empty argument for a file (an unset shell
// variable) is said as an empty name by each command that reads files,
// where they said "open : no such file or directory".
func TestEmptyFileName(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"diff", []string{"diff", "", example + "v1.xml"}},
		{"patch", []string{"patch", example + "v1.xml", ""}},
		{"compose", []string{"compose", ""}},
		{"sentinel check", []string{"sentinel", "check", ""}},
		{"import warc", []string{"import", "warc", "--data", data, ""}},
	} {
		code, _, errOut := runCLI(t, "", tc.args...)
		if want := "vigil " + tc.name + ": \"\": an empty file name\n"; code != exitError || errOut != want {
			t.Errorf("%q: exit %d, stderr %q, want %q", tc.args, code, errOut, want)
		}
	}
}

// TestDirectoryArgument: a folder given for a file is named once, as a
// folder, by each command that reads files. The sentinel commands said
// "read DIR: is a directory", and import warc named the folder as the
// first record of a file, after saying it imported nothing.
func TestDirectoryArgument(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(t.TempDir(), "data")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"diff", []string{"diff", dir, example + "v1.xml"}},
		{"patch", []string{"patch", example + "v1.xml", dir}},
		{"compose", []string{"compose", dir}},
		{"sentinel check", []string{"sentinel", "check", dir}},
		{"sentinel fmt", []string{"sentinel", "fmt", dir}},
		{"sentinel add", []string{"sentinel", "add", "--data", data, dir}},
		{"import warc", []string{"import", "warc", "--data", data, dir}},
	} {
		code, _, errOut := runCLI(t, "", tc.args...)
		if want := "vigil " + tc.name + ": " + dir + ": a folder, not a file\n"; code != exitError || errOut != want {
			t.Errorf("%q: exit %d, stderr %q, want %q", tc.args, code, errOut, want)
		}
	}
}

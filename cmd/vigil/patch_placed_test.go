package main

import (
	"os"
	"strings"
	"testing"
)

// TestPatchNamesPlaceOfOperation: a delta that decodes but does not fit
// its document (edited by hand) is refused (exit 2, nothing written, DOC
// as it was) with an error that names where the operation at fault
// starts in the delta file, in either codec, read from a file or from
// standard input, in a file of several deltas, and undone with --reverse
// (where the operation named is the inverse of the one written there,
// numbered as the file numbers it: undone, the operations are in another
// order, and the number named another line's). The error named only the
// operation's number.
func TestPatchNamesPlaceOfOperation(t *testing.T) {
	const v1 = `<r><a>x</a><b>y</b></r>`
	// XIDs of v1, numbered afresh: x 1, a 2, y 3, b 4, r 5.
	const xmlDelta = "<unit_delta>\n<t>\n<rn xid=\"2\" ov=\"a\" nv=\"A\"/>\n<au xid=\"4\" a=\"k\" ov=\"1\" nv=\"2\"/>\n</t>\n</unit_delta>\n"
	const jsonDelta = "{\"ops\":[\n{\"op\":\"rn\",\"xid\":2,\"ov\":\"a\",\"nv\":\"A\"},\n  {\"op\":\"au\",\"xid\":4,\"a\":\"k\",\"ov\":\"1\",\"nv\":\"2\"}]}\n"
	const fault = `operation 2 (au xid=4 a=k ov="1" nv="2"): element XID 4 has no attribute k`
	dir := t.TempDir()
	// A delta of vigil diff whose insert was given a parent the
	// document does not have.
	v2 := writeFile(t, dir, "v2.xml", `<r><a>z</a><c/><b>y</b></r>`)
	_, diffed, _ := runCLI(t, "", "diff", writeFile(t, dir, "v1.xml", v1), v2)
	edited := strings.Replace(diffed, `<i par="5" pos="2"`, `<i par="17" pos="2"`, 1)
	if edited == diffed || !strings.Contains(strings.Split(edited, "\n")[4], `par="17"`) {
		t.Fatalf("the delta's insert is not on line 5:\n%s", diffed)
	}
	for _, tc := range []struct {
		name, delta, stdin string
		doc                string
		args               []string
		want               string // after "vigil patch: FILE: "
	}{
		{name: "xml", delta: xmlDelta, doc: v1, want: "line 4, column 1: " + fault},
		{name: "json", delta: jsonDelta, doc: v1, want: "line 3, column 3: " + fault},
		{name: "xml on stdin", stdin: xmlDelta, doc: v1, want: "line 4, column 1: " + fault},
		{name: "json, second delta", doc: v1,
			delta: "{\"ops\":[{\"op\":\"rn\",\"xid\":2,\"ov\":\"a\",\"nv\":\"A\"}]}\n{\"ops\":[\n{\"op\":\"rn\",\"xid\":2,\"ov\":\"a\",\"nv\":\"B\"}]}",
			want:  `delta 2: line 3, column 1: operation 1 (rn xid=2 ov="a" nv="B"): element XID 2 is named "A", not "a"`},
		{name: "json, first delta undone", doc: `<r><A>x</A><B>y</B></r>`, args: []string{"--reverse"},
			delta: "{\"fromXidMap\":\"(1-5|6)\",\"toXidMap\":\"(1-5|6)\",\"ops\":[\n{\"op\":\"rn\",\"xid\":2,\"ov\":\"a\",\"nv\":\"Z\"}]}\n" +
				"{\"fromXidMap\":\"(1-5|6)\",\"toXidMap\":\"(1-5|6)\",\"ops\":[{\"op\":\"rn\",\"xid\":4,\"ov\":\"b\",\"nv\":\"B\"}]}",
			want: `delta 1: line 2, column 1: operation 1 (rn xid=2 ov="Z" nv="a"): element XID 2 is named "A", not "Z" (--reverse: the inverse of the operation written there)`},
		{name: "vigil diff's, edited", delta: edited, doc: v1,
			want: "line 5, column 1: operation 3 (i par=17 pos=2 xm=(6)): parent XID 17 not in document"},
		{name: "vigil diff's, edited, undone", delta: edited, doc: `<r><a>z</a><c/><b>y</b></r>`, args: []string{"--reverse"},
			want: "line 5, column 1: operation 3 (d par=17 pos=2 xm=(6)): parent XID 17 not in document (--reverse: the inverse of the operation written there)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			doc := writeFile(t, dir, "doc.xml", tc.doc)
			name, shown := "-", "<stdin>"
			if tc.stdin == "" {
				name = writeFile(t, dir, "delta", tc.delta)
				shown = name
			}
			code, out, errOut := runCLI(t, tc.stdin, append([]string{"patch", doc, name}, tc.args...)...)
			if want := "vigil patch: " + shown + ": " + tc.want + "\n"; code != exitError || out != "" || errOut != want {
				t.Errorf("exit %d, output %q, stderr\n%s\nwant 2, nothing, and\n%s", code, out, errOut, want)
			}
			if b, err := os.ReadFile(doc); err != nil || string(b) != tc.doc {
				t.Errorf("DOC is now %q (%v), want it as it was", b, err)
			}
		})
	}
}

// TestComposeNamesPlaceOfOperation: a delta that does not follow the one
// before it is refused naming where its operation at fault starts, and,
// in the legend, the file that holds it.
func TestComposeNamesPlaceOfOperation(t *testing.T) {
	dir := t.TempDir()
	d1 := writeFile(t, dir, "d1.xml", `<unit_delta><t><rn xid="2" ov="a" nv="A"/></t></unit_delta>`)
	d2 := writeFile(t, dir, "d2.json", "{\"ops\":[\n  {\"op\":\"rn\",\"xid\":2,\"ov\":\"a\",\"nv\":\"B\"}]}")
	code, out, errOut := runCLI(t, "", "compose", d1, d2)
	want := `vigil compose: delta 2: deltas cannot be composed: line 2, column 3: operation 1 (rn xid=2 ov="a" nv="B"): the name of XID 2 is "a", where delta 1 leaves "A" (delta 1: ` + d1 + "; delta 2: " + d2 + ")\n"
	if code != exitError || out != "" || errOut != want {
		t.Errorf("exit %d, output %q, stderr\n%s\nwant 2, nothing, and\n%s", code, out, errOut, want)
	}
}

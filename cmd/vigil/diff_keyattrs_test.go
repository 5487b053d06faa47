package main

import (
	"strings"
	"testing"
)

// TestDiffKeyAttrsHTMLCase: an HTML page's attribute names are read in
// lower case (<div ID="a"> has the attribute id), so --key-attrs ID matches
// them as --key-attrs id does; it matched nothing, silently.
func TestDiffKeyAttrsHTMLCase(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.html", `<html><body><div ID="a">1</div><div id="b">2</div></body></html>`)
	b := writeFile(t, dir, "b.html", `<html><body><div id="b">1</div><div id="a">2</div></body></html>`)
	_, want, _ := runCLI(t, "", "diff", "--format", "summary", "--key-attrs", "id", a, b)
	code, got, errOut := runCLI(t, "", "diff", "--format", "summary", "--key-attrs", "Name,ID", a, b)
	if code != exitChanged || got != want || !strings.Contains(want, "3 moved") {
		t.Errorf("--key-attrs Name,ID: exit %d %s\n%s\nwant as --key-attrs id:\n%s", code, errOut, got, want)
	}
}

// TestDiffKeyAttrsAbsent: a key attribute that no element of either
// version has (a typo) is noted on standard error, as the flag then does
// nothing; the diff is made all the same.
func TestDiffKeyAttrsAbsent(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.xml", `<r><i id="a">1</i><i id="b">2</i></r>`)
	b := writeFile(t, dir, "b.xml", `<r><i id="b">1</i><i id="a">2</i></r>`)
	for _, tc := range []struct {
		keys, note string
	}{
		{"idd", "vigil diff: note: no element of either version has the attribute idd (--key-attrs)\n"},
		{"id, ref ,idd", "vigil diff: note: no element of either version has the attributes ref, idd (--key-attrs)\n"},
		{"id", ""},
	} {
		code, out, errOut := runCLI(t, "", "diff", "--key-attrs", tc.keys, a, b)
		if code != exitChanged || errOut != tc.note || !strings.Contains(out, "<unit_delta>") {
			t.Errorf("--key-attrs %q: exit %d, stderr %q (want %q)\n%s", tc.keys, code, errOut, tc.note, out)
		}
	}
}

// TestDiffKeyAttrsRefusesEmptyNames: a --key-attrs list with an empty
// name (",,", " ", "id,,name", a trailing comma) or a name with white
// space in it (names separated by spaces, not commas) is refused before
// anything is read, naming the flag (exit 2, nothing written), where it
// was taken silently for the names it held, or for none. An empty value
// is the default: no key attributes.
func TestDiffKeyAttrsRefusesEmptyNames(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.xml", `<r><i id="a">1</i><i id="b">2</i></r>`)
	b := writeFile(t, dir, "b.xml", `<r><i id="b">1</i><i id="a">2</i></r>`)
	for _, tc := range []struct{ keys, want string }{
		{",,", `vigil diff: --key-attrs ",,": name 1 is empty; want attribute names separated by commas, such as id,name` + "\n"},
		{" ", `vigil diff: --key-attrs " ": name 1 is empty; want attribute names separated by commas, such as id,name` + "\n"},
		{"id,,name", `vigil diff: --key-attrs "id,,name": name 2 is empty; want attribute names separated by commas, such as id,name` + "\n"},
		{"id,", `vigil diff: --key-attrs "id,": name 2 is empty; want attribute names separated by commas, such as id,name` + "\n"},
		{"id name", `vigil diff: --key-attrs "id name": "id name" holds white space, which no attribute name does; want attribute names separated by commas, such as id,name` + "\n"},
	} {
		// The files are not read: a missing one is not the error.
		code, out, errOut := runCLI(t, "", "diff", "--key-attrs", tc.keys, a, dir+"/missing.xml")
		if code != exitError || out != "" || errOut != tc.want {
			t.Errorf("--key-attrs %q: exit %d, output %q, stderr\n%s\nwant 2, nothing and\n%s", tc.keys, code, out, errOut, tc.want)
		}
	}
	_, want, _ := runCLI(t, "", "diff", a, b)
	if code, out, errOut := runCLI(t, "", "diff", "--key-attrs", "", a, b); code != exitChanged || out != want || errOut != "" {
		t.Errorf(`--key-attrs "": exit %d, stderr %q, output\n%s\nwant 1 and the delta without the flag:\n%s`, code, errOut, out, want)
	}
}

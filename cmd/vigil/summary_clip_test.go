package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestSummaryClipsAttributeValues: a summary line shows an attribute's
// value clipped as it shows a text, around the change; an inline image's
// data: URL (hundreds of kilobytes) was printed whole, twice on one line.
func TestSummaryClipsAttributeValues(t *testing.T) {
	long := strings.Repeat("QUJD", 5000)
	for _, tc := range []struct{ name, old, new, want string }{
		{"update", `<html><body><img src="data:image/png;base64,` + long + `"></body></html>`,
			`<html><body><img src="data:image/png;base64,` + long + `Rw=="></body></html>`,
			`attr    /html[1]/body[1]/img[1]: @src "...QUJDQUJDQUJDQUJDQUJD" -> "...QUJDQUJDQUJDQUJDQUJDRw=="`},
		{"added", `<d><e/></d>`, `<d><e k="` + long + `"/></d>`,
			`attr    /d[1]/e[1]: @k added "QUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQ..."`},
		{"removed", `<d><e k="` + long + `"/></d>`, `<d><e/></d>`,
			`attr    /d[1]/e[1]: @k removed (was "QUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQUJDQ...")`},
		{"short", `<d><e k="a&#10;b"/></d>`, `<d><e k="a b"/></d>`, `attr    /d[1]/e[1]: @k "a\nb" -> "a b"`},
	} {
		dir := t.TempDir()
		ext := ".xml"
		if strings.HasPrefix(tc.old, "<html") {
			ext = ".html"
		}
		a, b := writeFile(t, dir, "a"+ext, tc.old), writeFile(t, dir, "b"+ext, tc.new)
		code, out, errOut := runCLI(t, "", "diff", "--format", "summary", a, b)
		if code != exitChanged || !strings.Contains(out, "\n"+tc.want+"\n") || len(out) > 1000 {
			if len(out) > 1000 {
				out = out[:1000] + "..."
			}
			t.Errorf("%s: exit %d %s\n%s\nwant the line %q", tc.name, code, errOut, out, tc.want)
		}
	}
}

// TestSummaryClipsDoctype: a changed DOCTYPE is shown around its change,
// as a comment outside the root is; a DTD's internal subset of hundreds of
// declarations was printed whole, twice on one line.
func TestSummaryClipsDoctype(t *testing.T) {
	var decls strings.Builder
	for i := range 300 {
		fmt.Fprintf(&decls, "<!ENTITY e%d \"value %d\">\n", i, i)
	}
	dir := t.TempDir()
	a := writeFile(t, dir, "a.xml", "<!DOCTYPE r [\n"+decls.String()+"]><r>&e1;</r>")
	b := writeFile(t, dir, "b.xml", "<!DOCTYPE r [\n"+decls.String()+"<!ENTITY extra \"x\">]><r>&e1;</r>")
	code, out, errOut := runCLI(t, "", "diff", "--format", "summary", a, b)
	want := `outside DOCTYPE: "...Y e299 \"value 299\">\n]" -> "...Y e299 \"value 299\">\n<!ENTITY extra \"x\">]"`
	if code != exitChanged || !strings.Contains(out, "\n"+want+"\n") {
		if len(out) > 1000 {
			out = out[:1000] + "..."
		}
		t.Errorf("exit %d %s\n%s\nwant the line %s", code, errOut, out, want)
	}
}

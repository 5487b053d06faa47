package main

import (
	"strings"
	"testing"
)

// TestPatchRefusesDoctypeThatEndsEarly: a delta whose change outside the
// root gives the new version a DOCTYPE that would end before its text does
// (a > outside its quoted identifiers and internal subset, in a quote or
// a subset that does not close) is refused, in XyDelta and JSON, and
// nothing is written: no parser gives such a DOCTYPE, and patch would
// write markup of the delta's (a script) into the page. The fingerprints
// cover the root element only, so they do not catch it. One whose >
// stands in a quoted identifier, as XML gives it, is taken, and written
// to an HTML page cut to its name (markup.WriteHTML), with no script.
func TestPatchRefusesDoctypeThatEndsEarly(t *testing.T) {
	const old = `<!DOCTYPE html><html><body><p>x</p></body></html>`
	const new = `<html><body><p>y</p></body></html>`
	for _, tc := range []struct{ name, doctype, want string }{
		{"markup after a >", `html><script>alert(1)</script><!--`, "DOCTYPE"},
		{"> after an open quote", `html PUBLIC "x><script>alert(1)</script>`, "DOCTYPE"},
		{"open internal subset", `r [ <!ENTITY a "b">`, "DOCTYPE"},
	} {
		for _, format := range []string{"xydelta", "json"} {
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				dir := t.TempDir()
				oldPath, newPath := writeFile(t, dir, "old.html", old), writeFile(t, dir, "new.html", new)
				code, d, errOut := runCLI(t, "", "diff", "--format", format, oldPath, newPath)
				if code != exitChanged {
					t.Fatalf("diff: exit %d, stderr %q", code, errOut)
				}
				var edited string
				if format == "json" {
					q := strings.NewReplacer(`"`, `\"`).Replace(tc.doctype)
					edited = strings.Replace(d, `"new":{"doctype":""`, `"new":{"doctype":"`+q+`"`, 1)
				} else {
					q := strings.NewReplacer(`&`, `&amp;`, `<`, `&lt;`, `>`, `&gt;`, `"`, `&quot;`).Replace(tc.doctype)
					edited = strings.Replace(d, `<new></new>`, `<new doctype="`+q+`"></new>`, 1)
				}
				if edited == d {
					t.Fatalf("the delta has no empty new side outside the root to edit:\n%s", d)
				}
				deltaPath := writeFile(t, dir, "d", edited)
				code, out, errOut := runCLI(t, "", "patch", oldPath, deltaPath)
				if code != exitError {
					t.Fatalf("patch: exit %d, want %d; stdout %q, stderr %q", code, exitError, out, errOut)
				}
				if out != "" {
					t.Errorf("patch wrote %q on error", out)
				}
				if !strings.Contains(errOut, deltaPath) || !strings.Contains(errOut, tc.want) {
					t.Errorf("stderr %q: want the delta file and %q named", errOut, tc.want)
				}
			})
		}
	}
	t.Run("> in a quoted identifier", func(t *testing.T) {
		dir := t.TempDir()
		oldPath, newPath := writeFile(t, dir, "old.html", old), writeFile(t, dir, "new.html", new)
		_, d, _ := runCLI(t, "", "diff", oldPath, newPath)
		q := `html SYSTEM &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;`
		edited := strings.Replace(d, `<new></new>`, `<new doctype="`+q+`"></new>`, 1)
		if edited == d {
			t.Fatalf("the delta has no empty new side outside the root to edit:\n%s", d)
		}
		code, out, errOut := runCLI(t, "", "patch", oldPath, writeFile(t, dir, "d", edited))
		if code != exitOK {
			t.Fatalf("patch: exit %d, stderr %q", code, errOut)
		}
		if strings.Contains(out, "<script>") || !strings.HasPrefix(out, "<!DOCTYPE html>") {
			t.Errorf("patch wrote %q, want the DOCTYPE cut to its name and no script", out)
		}
	})
}

// TestPatchKeepsXMLDoctypeWithQuotedGreaterThan: an XML document whose
// DOCTYPE quotes a > in its system identifier (well-formed XML, which an
// XML parser gives) is diffed and patched, the DOCTYPE gained or kept,
// in XyDelta and JSON: the delta is not malformed.
func TestPatchKeepsXMLDoctypeWithQuotedGreaterThan(t *testing.T) {
	const doctype = `<!DOCTYPE r SYSTEM "a>b.dtd">`
	for _, tc := range []struct{ name, old, new string }{
		{"kept", doctype + `<r><p>x</p></r>`, doctype + `<r><p>y</p></r>`},
		{"gained", `<r><p>x</p></r>`, doctype + `<r><p>y</p></r>`},
	} {
		for _, format := range []string{"xydelta", "json"} {
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				dir := t.TempDir()
				oldPath, newPath := writeFile(t, dir, "old.xml", tc.old), writeFile(t, dir, "new.xml", tc.new)
				code, d, errOut := runCLI(t, "", "diff", "--format", format, oldPath, newPath)
				if code != exitChanged {
					t.Fatalf("diff: exit %d, stderr %q", code, errOut)
				}
				deltaPath := writeFile(t, dir, "d", d)
				code, out, errOut := runCLI(t, "", "patch", oldPath, deltaPath)
				if code != exitOK {
					t.Fatalf("patch: exit %d, stderr %q", code, errOut)
				}
				if !strings.Contains(out, doctype) || !strings.Contains(out, "<p>y</p>") {
					t.Errorf("patch wrote %q, want the DOCTYPE %s and <p>y</p>", out, doctype)
				}
			})
		}
	}
}

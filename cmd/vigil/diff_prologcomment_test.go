package main

import (
	"strings"
	"testing"
)

// TestDiffCommentShapedLikeDeclaration: read as XML, a comment before the
// root whose text looks like an XML declaration (<!--?xml ...?-->) is a
// comment like any other: diff says the versions differ, in every format,
// and patch (a delta of either codec, or an RFC 5261 patch) makes the old
// version the new one, --reverse the new the old. So for a comment after
// the root, one shaped like a DOCTYPE and a processing instruction. Diff
// said a version that gained such a comment before the root was the same.
// Read as HTML, <?xml ...?> before the root is the declaration, no change.
func TestDiffCommentShapedLikeDeclaration(t *testing.T) {
	const doc = `<a><b>x</b></a>`
	for _, tc := range []struct {
		name, old, new, summary string
	}{
		{"declaration-shaped comment first", doc, `<!--?xml version="1.0"?-->` + doc, `outside before the root: "" -> "<!--?xml version=\"1.0\"?-->"`},
		{"declaration-shaped comment after the declaration", `<?xml version="1.0"?>` + doc, `<?xml version="1.0"?><!--?xml version="1.0"?-->` + doc, `outside before the root`},
		{"declaration-shaped comment changed", `<!--?xml version="1.0"?-->` + doc, `<!--?xml version="1.1"?-->` + doc, `outside before the root`},
		{"declaration-shaped comment after the root", doc, doc + `<!--?xml version="1.0"?-->`, `outside after the root`},
		{"DOCTYPE-shaped comment", doc, `<!--!DOCTYPE a-->` + doc, `outside before the root`},
		{"processing instruction", doc, `<?p x?>` + doc, `outside before the root`},
	} {
		for _, format := range []string{"xydelta", "json", "xmlpatch", "summary"} {
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				dir := t.TempDir()
				oldPath, newPath := writeFile(t, dir, "old.xml", tc.old), writeFile(t, dir, "new.xml", tc.new)
				code, out, errOut := runCLI(t, "", "diff", "--parse", "xml", "--format", format, oldPath, newPath)
				if code != exitChanged {
					t.Fatalf("diff: exit %d, want %d (changed); stderr %q\n%s", code, exitChanged, errOut, out)
				}
				if format == "summary" {
					if !strings.Contains(out, tc.summary) {
						t.Errorf("summary does not say %q:\n%s", tc.summary, out)
					}
					return
				}
				d := writeFile(t, dir, "d", out)
				code, got, errOut := runCLI(t, "", "patch", "--parse", "xml", oldPath, d)
				if code != exitOK || strings.TrimSuffix(got, "\n") != tc.new {
					t.Errorf("patch: exit %d, stderr %q\n got %q\nwant %q\n%s", code, errOut, got, tc.new, out)
				}
				if format == "xmlpatch" {
					return
				}
				code, got, errOut = runCLI(t, "", "patch", "--parse", "xml", "--reverse", newPath, d)
				if code != exitOK || strings.TrimSuffix(got, "\n") != tc.old {
					t.Errorf("patch --reverse: exit %d, stderr %q\n got %q\nwant %q\n%s", code, errOut, got, tc.old, out)
				}
			})
		}
	}
	dir := t.TempDir()
	const page = `<html><body><p>x</p></body></html>`
	oldPath, newPath := writeFile(t, dir, "old.html", page), writeFile(t, dir, "new.html", `<?xml version="1.0"?>`+page)
	if code, out, errOut := runCLI(t, "", "diff", "--parse", "html", oldPath, newPath); code != exitOK {
		t.Errorf("diff of HTML that gained an XML declaration: exit %d, want %d (same); stderr %q\n%s", code, exitOK, errOut, out)
	}
}

package main

import (
	"strings"
	"testing"
)

// TestPatchEndsWithNewline: the patched document ends with a newline, as
// vigil's other outputs do, for XML and HTML, from a XyDelta, a JSON delta
// or an RFC 5261 XML patch; except HTML read with --whitespace keep,
// where a newline after </html> would read back as a text node in the
// body, and the output reads back as the tree the delta leads to.
func TestPatchEndsWithNewline(t *testing.T) {
	tests := map[string]struct {
		old, new string
		flags    []string
		newline  bool
	}{
		"xml":               {old: `<?xml version="1.0"?><r><a>x</a></r>`, new: `<?xml version="1.0"?><r><a>y</a></r>`, newline: true},
		"xml json":          {old: `<?xml version="1.0"?><r><a>x</a></r>`, new: `<?xml version="1.0"?><r><a>y</a></r>`, flags: []string{"--format", "json"}, newline: true},
		"xml rfc5261":       {old: `<?xml version="1.0"?><r><a>x</a></r>`, new: `<?xml version="1.0"?><r><a>y</a></r>`, flags: []string{"--format", "xmlpatch"}, newline: true},
		"xml keep":          {old: `<?xml version="1.0"?><r><a>x</a></r>`, new: `<?xml version="1.0"?><r><a>y</a></r>`, flags: []string{"--whitespace", "keep"}, newline: true},
		"html":              {old: `<html><body><p>x</p></body></html>`, new: `<html><body><p>y</p></body></html>`, newline: true},
		"html keep":         {old: "<html><body><p>x</p></body></html>\n", new: "<html><body><p>y</p></body></html>\n", flags: []string{"--whitespace", "keep"}, newline: false},
		"html keep no text": {old: "<html><body><p>x</p></body></html>", new: "<html><body><p>y</p></body></html>", flags: []string{"--whitespace", "keep"}, newline: false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			ext := ".xml"
			if strings.HasPrefix(name, "html") {
				ext = ".html"
			}
			oldPath := writeFile(t, dir, "old"+ext, tc.old)
			newPath := writeFile(t, dir, "new"+ext, tc.new)
			code, d, errOut := runCLI(t, "", append(append([]string{"diff"}, tc.flags...), oldPath, newPath)...)
			if code != exitChanged {
				t.Fatalf("diff: exit %d, stderr %s", code, errOut)
			}
			var patchFlags []string
			if len(tc.flags) > 0 && tc.flags[0] == "--whitespace" {
				patchFlags = tc.flags
			}
			deltaPath := writeFile(t, dir, "delta", d)
			code, out, errOut := runCLI(t, "", append(append([]string{"patch"}, patchFlags...), oldPath, deltaPath)...)
			if code != exitOK || errOut != "" {
				t.Fatalf("patch: exit %d, stderr %s", code, errOut)
			}
			if got := strings.HasSuffix(out, "\n"); got != tc.newline {
				t.Errorf("patch output ends with a newline: %v, want %v; output %q", got, tc.newline, out)
			}
			// The output is the new version: diffing them finds nothing.
			code, same, errOut := runCLI(t, "", append(append([]string{"diff"}, patchFlags...), writeFile(t, dir, "patched"+ext, out), newPath)...)
			if code != exitOK {
				t.Errorf("diff patched new: exit %d, want %d (no changes); stderr %s, delta\n%s", code, exitOK, errOut, same)
			}
		})
	}
}

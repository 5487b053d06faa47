package main

import (
	"strings"
	"testing"
)

// TestPatchKeepsDoctypePlace: diff then patch writes the comments and
// processing instructions before the root on the same side of the DOCTYPE
// as the new version had them, the XML declaration first, byte for byte as
// the new version is written, an XML declaration an HTML page holds as a
// comment after another comment included; an RFC 5261 patch (diff
// --format xmlpatch) of an XML document does too.
func TestPatchKeepsDoctypePlace(t *testing.T) {
	for _, tc := range []struct {
		name, old, new, want string
		html                 bool
	}{
		{"html comment before doctype",
			`<!-- a --><!DOCTYPE html><html><body><p>x</p></body></html>`,
			`<!-- a --><!DOCTYPE html><html><body><p>y</p></body></html>`,
			`<!-- a --><!DOCTYPE html><html><head></head><body><p>y</p></body></html>`, true},
		{"xml declaration, comment, pi, doctype, comment",
			`<?xml version="1.0"?><!-- a --><?p x?><!DOCTYPE r><!-- b --><r>x</r>`,
			`<?xml version="1.0"?><!-- a --><?p x?><!DOCTYPE r><!-- b --><r>y</r>`,
			`<?xml version="1.0"?><!-- a --><?p x?><!DOCTYPE r><!-- b --><r>y</r>`, false},
		{"xml comment before doctype changes",
			`<!-- v1 --><!DOCTYPE r><r>x</r>`,
			`<!-- v2 --><!DOCTYPE r><r>y</r>`,
			`<!-- v2 --><!DOCTYPE r><r>y</r>`, false},
		{"only the doctype moves past a comment",
			`<!-- a --><!DOCTYPE r><r>x</r>`,
			`<!DOCTYPE r><!-- a --><r>x</r>`,
			`<!DOCTYPE r><!-- a --><r>x</r>`, false},
		{"doctype moves and a comment is added",
			`<!-- a --><!DOCTYPE r><r>x</r>`,
			`<!DOCTYPE r><!-- a --><!-- b --><r>y</r>`,
			`<!DOCTYPE r><!-- a --><!-- b --><r>y</r>`, false},
		{"html xml declaration after a comment, body changes",
			`<!-- x --><?xml version="1.0"?><!DOCTYPE html><html><body><p>a</p></body></html>`,
			`<!-- x --><?xml version="1.0"?><!DOCTYPE html><html><body><p>b</p></body></html>`,
			`<!-- x --><!--?xml version="1.0"?--><!DOCTYPE html><html><head></head><body><p>b</p></body></html>`, true},
		{"html xml declaration after a comment that changes",
			`<!-- x --><?xml version="1.0"?><!DOCTYPE html><html><body><p>a</p></body></html>`,
			`<!-- y --><?xml version="1.0"?><!DOCTYPE html><html><body><p>b</p></body></html>`,
			`<!-- y --><!--?xml version="1.0"?--><!DOCTYPE html><html><head></head><body><p>b</p></body></html>`, true},
		{"xml declaration read as a comment, after a comment that changes",
			`<!-- x --><!--?xml version="1.0"?--><!DOCTYPE r><r>a</r>`,
			`<!-- y --><!--?xml version="1.0"?--><!DOCTYPE r><r>b</r>`,
			`<!-- y --><!--?xml version="1.0"?--><!DOCTYPE r><r>b</r>`, false},
	} {
		for _, format := range []string{"xydelta", "xmlpatch"} {
			if tc.html && format == "xmlpatch" {
				continue
			}
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				dir := t.TempDir()
				ext := ".xml"
				if tc.html {
					ext = ".html"
				}
				oldPath, newPath := writeFile(t, dir, "old"+ext, tc.old), writeFile(t, dir, "new"+ext, tc.new)
				code, delta, errOut := runCLI(t, "", "diff", "--format", format, oldPath, newPath)
				if code != exitChanged {
					t.Fatalf("diff: exit %d, stderr %q", code, errOut)
				}
				d := writeFile(t, dir, "d.xml", delta)
				code, got, errOut := runCLI(t, "", "patch", oldPath, d)
				if code != exitOK {
					t.Fatalf("patch: exit %d, stderr %q", code, errOut)
				}
				if got != tc.want && got != tc.want+"\n" {
					t.Errorf("patch old (diff old new):\n got %q\nwant %q\n%s", got, tc.want, delta)
				}
			})
		}
	}
}

// TestDiffSummaryDoctypeMoves: a summary of a DOCTYPE that only moves past
// a comment says where it stands before and after, not that its text went
// from itself to itself.
func TestDiffSummaryDoctypeMoves(t *testing.T) {
	dir := t.TempDir()
	oldPath := writeFile(t, dir, "old.xml", `<!-- a --><!DOCTYPE r><r>x</r>`)
	newPath := writeFile(t, dir, "new.xml", `<!DOCTYPE r><!-- a --><r>x</r>`)
	code, summary, errOut := runCLI(t, "", "diff", "--format", "summary", oldPath, newPath)
	if code != exitChanged || !strings.Contains(summary, "outside DOCTYPE place: after 1 comments and processing instructions -> after 0") ||
		strings.Contains(summary, `"r" -> "r"`) {
		t.Errorf("summary: exit %d:\n%s%s", code, summary, errOut)
	}
}

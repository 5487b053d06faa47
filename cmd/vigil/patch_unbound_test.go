package main

import (
	"strings"
	"testing"
)

// TestPatchRefusesUnboundPrefix: a delta that states no versions (written
// by hand, without fingerprints) whose names use a prefix that nothing
// declares where they land in an XML document does not fit it: patch
// refuses it (exit 2, nothing written), naming the document and the prefix.
// It wrote XML that no parser reads, with exit 0 and a warning that asked
// whether the version was read as HTML.
func TestPatchRefusesUnboundPrefix(t *testing.T) {
	for _, tc := range []struct{ name, delta, want string }{
		{"xydelta element", `<unit_delta><t><i par="2" pos="1" xm="(99)"><x:y/></i></t></unit_delta>`,
			"undeclared namespace prefix x"},
		{"json element", `{"ops":[{"op":"i","par":2,"pos":1,"xm":"(99)","content":{"kind":"element","name":"x:y"}}]}`,
			"undeclared namespace prefix x"},
		{"json attribute", `{"ops":[{"op":"ai","xid":2,"a":"x:a","v":"1"}]}`,
			"undeclared namespace prefix x in the attribute x:a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			doc := writeFile(t, dir, "doc.xml", `<r><a>1</a><b>2</b></r>`)
			d := writeFile(t, dir, "d", tc.delta)
			code, out, errOut := runCLI(t, "", "patch", doc, d)
			if code != exitError || out != "" {
				t.Fatalf("exit %d, output %q, want 2 and nothing; stderr %s", code, out, errOut)
			}
			if !strings.Contains(errOut, "does not fit "+doc) || !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr %q, want it to say the delta does not fit %s: %s", errOut, doc, tc.want)
			}
		})
	}
	// Declared in the document, the prefix is bound where the delta uses it.
	dir := t.TempDir()
	doc := writeFile(t, dir, "doc.xml", `<r xmlns:x="urn:x"><a>1</a><b>2</b></r>`)
	d := writeFile(t, dir, "d", `{"ops":[{"op":"ai","xid":2,"a":"x:a","v":"1"}]}`)
	code, out, errOut := runCLI(t, "", "patch", doc, d)
	if want := `<r xmlns:x="urn:x"><a x:a="1">1</a><b>2</b></r>` + "\n"; code != exitOK || out != want || errOut != "" {
		t.Errorf("prefix in scope: exit %d, output %q, stderr %q; want 0 and %q", code, out, errOut, want)
	}
}

package main

import (
	"strings"
	"testing"
)

// TestPatchBareDelta: a XyDelta's <t> taken out of the <unit_delta> that
// vigil diff wrote around it is a delta, refused as one, saying where it
// belongs, by patch (with or without --reverse) and compose alike; it was
// read by patch as an RFC 5261 patch whose operations <i> and <d> are
// unknown, or, empty, as a patch that changes nothing, which --reverse
// then refused as a patch.
func TestPatchBareDelta(t *testing.T) {
	dir := t.TempDir()
	_, x, _ := runCLI(t, "", "diff", example+"v1.xml", example+"v2.xml")
	start, end := strings.Index(x, "<t "), strings.LastIndex(x, "</t>")
	if start < 0 || end < 0 {
		t.Fatalf("no <t> in the delta:\n%s", x)
	}
	bare := x[start : end+len("</t>")]
	const hint = "root element is <t>, not <unit_delta> (a XyDelta's <t> stands in a <unit_delta>"
	cases := []struct {
		name, delta string
		args        []string
	}{
		{"empty t", "<t/>", []string{"patch", example + "v1.xml"}},
		{"empty t reversed", "<t/>", []string{"patch", "--reverse", example + "v2.xml"}},
		{"t of a diff", bare, []string{"patch", example + "v1.xml"}},
		{"t of a diff reversed", bare, []string{"patch", "--reverse", example + "v2.xml"}},
		{"t of a diff composed", bare, []string{"compose"}},
		{"t with a declaration", "<?xml version=\"1.0\"?>\n" + bare, []string{"patch", example + "v1.xml"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := writeFile(t, dir, "d.xml", c.delta)
			code, out, errOut := runCLI(t, "", append(c.args, d)...)
			if code != exitError || out != "" || !strings.Contains(errOut, "d.xml: line ") || !strings.Contains(errOut, hint) {
				t.Errorf("exit %d, output %q, stderr %q; want exit %d, no output, %q", code, out, errOut, exitError, hint)
			}
		})
	}
	// The same delta in its unit_delta applies, and a patch of any other
	// root still reads as an RFC 5261 patch.
	if code, _, errOut := runCLI(t, "", "patch", example+"v1.xml", writeFile(t, dir, "u.xml", "<unit_delta>"+bare+"</unit_delta>")); code != exitOK {
		t.Errorf("patch with the <t> in a <unit_delta>: exit %d, stderr %q", code, errOut)
	}
	if !isXMLPatch([]byte(`<tt><remove sel="/x"/></tt>`)) || isXMLPatch([]byte(`<xy:t xmlns:xy="u"/>`)) {
		t.Error("isXMLPatch misreads a root named like t")
	}
}

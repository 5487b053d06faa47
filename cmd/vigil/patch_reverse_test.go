package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestPatchReverseSaysWhichVersion: undone with --reverse, a delta applies
// to the version it leads to and gives the one it was computed from; its
// refusals say so (exit 2, nothing written), where they said, of the
// version the delta leads to, that the delta "was computed from another
// document" (even of the very version it was computed from, given by
// mistake), and named the version it was computed from "the delta's
// target version".
func TestPatchReverseSaysWhichVersion(t *testing.T) {
	dir := t.TempDir()
	v1 := writeFile(t, dir, "v1.xml", `<r><a>x</a><b>y</b></r>`)
	v2 := writeFile(t, dir, "v2.xml", `<r><a>z</a><c/><b>y</b></r>`)
	other := writeFile(t, dir, "other.xml", `<r><a>q</a><b>y</b></r>`)
	_, d, _ := runCLI(t, "", "diff", v1, v2)
	fps := regexp.MustCompile(`fromFingerprint="(\w+)" toFingerprint="(\w+)"`).FindStringSubmatch(d)
	if fps == nil {
		t.Fatalf("no fingerprints in the delta:\n%s", d)
	}
	from, to := fps[1], fps[2]
	dp := writeFile(t, dir, "d.xml", d)
	// The old text of the update altered: undone, the delta gives
	// another version than v1.
	altered := strings.Replace(d, `update="yes">x</d>`, `update="yes">w</d>`, 1)
	if altered == d {
		t.Fatalf("no update of x in the delta:\n%s", d)
	}
	ap := writeFile(t, dir, "altered.xml", altered)
	_, _, otherPrint := runCLI(t, "", "patch", other, dp) // its fingerprint, in the message
	m := regexp.MustCompile(`this document's (\w+)`).FindStringSubmatch(otherPrint)
	if m == nil {
		t.Fatalf("patch other.xml: %s", otherPrint)
	}
	for _, tc := range []struct {
		name, doc, delta string
		want             *regexp.Regexp
	}{
		{"another document", other, dp, regexp.MustCompile(`^vigil patch: the delta does not fit ` + regexp.QuoteMeta(other) +
			`: it leads to another document: the fingerprint of the version it leads to is ` + to + `, this document's ` + m[1] +
			` \(--reverse undoes a delta on the version it leads to, parsed with the same --whitespace and --parse\)\n$`)},
		{"the version it was computed from", v1, dp, regexp.MustCompile(`^vigil patch: the delta does not fit ` + regexp.QuoteMeta(v1) +
			`: it leads to another document: the fingerprint of the version it leads to is ` + to + `, this document's ` + from +
			` \(` + regexp.QuoteMeta(v1) + ` is the version the delta starts from: without --reverse, patch applies the delta to it\)\n$`)},
		{"altered delta", v2, ap, regexp.MustCompile(`^vigil patch: ` + regexp.QuoteMeta(ap) +
			`: the result is not the version the delta was computed from: that version's fingerprint is ` + from +
			`, the result's \w{16} \(was the delta file altered\?\)\n$`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "", "patch", "--reverse", tc.doc, tc.delta)
			if code != exitError || out != "" || !tc.want.MatchString(errOut) {
				t.Errorf("exit %d, output %q, stderr\n%s\nwant 2, nothing, and matching\n%s", code, out, errOut, tc.want)
			}
		})
	}
	// Applied, not undone, the messages are as they were.
	code, _, errOut := runCLI(t, "", "patch", other, dp)
	if want := "vigil patch: the delta does not fit " + other + ": the delta was computed from another document: its source's fingerprint is " + from; code != exitError || !strings.HasPrefix(errOut, want) {
		t.Errorf("patch other.xml: exit %d, stderr %q, want it to start %q", code, errOut, want)
	}
}

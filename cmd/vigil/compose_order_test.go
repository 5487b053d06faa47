package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestComposeOutOfOrder: deltas given in the wrong order are refused as
// "delta 2 does not follow delta 1", saying that it leads to delta 1's
// source instead, whether the fingerprints of the root element show it or,
// for a pair where only a comment outside the root changed (its
// fingerprint the same in all three versions), what the deltas say of the
// outside. compose reported the comment's mismatch as the deltas' fault,
// "cannot be composed", with no word of their order. testdata/
// compose-outside holds versions modelled on the first of the corpus's
// xml-sysmon-config history: v1 -> v2 -> v3 change only the white space of
// the licence comment above the root, v3 -> v4 a value in the root.
func TestComposeOutOfOrder(t *testing.T) {
	dir := filepath.Join("testdata", "compose-outside")
	tmp := t.TempDir()
	for _, format := range []string{"xydelta", "json"} {
		deltas := map[string]string{}
		for pair, versions := range map[string][2]string{
			"12": {filepath.Join(dir, "v1.xml"), filepath.Join(dir, "v2.xml")},
			"23": {filepath.Join(dir, "v2.xml"), filepath.Join(dir, "v3.xml")},
			"34": {filepath.Join(dir, "v3.xml"), filepath.Join(dir, "v4.xml")},
			// Of another document.
			"other": {example + "v1.xml", example + "v2.xml"},
		} {
			code, d, errOut := runCLI(t, "", "diff", "--format", format, versions[0], versions[1])
			if code != exitChanged {
				t.Fatalf("%s diff %s: exit %d: %s", format, pair, code, errOut)
			}
			deltas[pair] = filepath.Join(tmp, format+pair)
			if err := os.WriteFile(deltas[pair], []byte(d), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			name    string
			chain   []string
			want    []string
			wantNot string
		}{
			{"outside only, in the wrong order", []string{"23", "12"},
				[]string{"vigil compose: delta 2 does not follow delta 1: outside the root element, its source has comment ", "it leads to the previous delta's source instead: are the deltas in the wrong order?"}, ""},
			{"the root, in the wrong order", []string{"34", "23"},
				[]string{"vigil compose: delta 2 does not follow delta 1: its source is not the previous delta's target (fingerprint ", "it leads to the previous delta's source instead: are the deltas in the wrong order?"}, ""},
			{"a delta of another document", []string{"12", "other"},
				[]string{"vigil compose: delta 2 does not follow delta 1: its source is not the previous delta's target"}, "wrong order"},
			{"outside only, twice", []string{"12", "12"},
				[]string{"vigil compose: delta 2 does not follow delta 1: outside the root element, its source has comment "}, "wrong order"},
		} {
			args := []string{"compose"}
			for _, p := range c.chain {
				args = append(args, deltas[p])
			}
			code, out, errOut := runCLI(t, "", args...)
			if code != exitError || out != "" {
				t.Errorf("%s %s: exit %d, stdout %q; want 2 and nothing", format, c.name, code, out)
			}
			for _, w := range c.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("%s %s: stderr does not say %q:\n%s", format, c.name, w, errOut)
				}
			}
			if c.wantNot != "" && strings.Contains(errOut, c.wantNot) {
				t.Errorf("%s %s: stderr says %q:\n%s", format, c.name, c.wantNot, errOut)
			}
		}
		if code, _, errOut := runCLI(t, "", "compose", deltas["12"], deltas["23"], deltas["34"]); code != exitOK {
			t.Errorf("%s compose in order: exit %d: %s", format, code, errOut)
		}
	}
}

// TestChainWithHandWrittenEmptyDeltas: an empty delta written by hand ({}
// or <t/>, which says nothing of the versions it joins) in a file of
// consecutive deltas leaves the version as it is, wherever it stands. The
// delta after it was renumbered onto its XIDs (none) and failed to fit;
// one at an end of the file took the fingerprint checks with it, and
// undone it numbered the document afresh.
func TestChainWithHandWrittenEmptyDeltas(t *testing.T) {
	dir := t.TempDir()
	v1, v2, v3 := example+"v1.xml", example+"v2.xml", example+"v3.xml"
	d12 := runOut(t, "diff", "--format", "json", v1, v2)
	d23 := runOut(t, "diff", "--format", "json", v2, v3)
	chain := writeFile(t, dir, "chain.json", "{}\n"+d12+"{}\n"+d23+"{}\n")
	same := func(what, out, want string) {
		t.Helper()
		if code, _, errOut := runCLI(t, "", "diff", writeFile(t, dir, "out.xml", out), want); code != exitOK {
			t.Errorf("%s: the result differs from %s: exit %d, stderr %q", what, want, code, errOut)
		}
	}
	code, out, errOut := runCLI(t, "", "patch", v1, chain)
	if code != exitOK {
		t.Fatalf("patch v1: exit %d, stderr %q", code, errOut)
	}
	same("patch v1", out, v3)
	code, out, errOut = runCLI(t, "", "patch", "--reverse", v3, chain)
	if code != exitOK {
		t.Fatalf("patch --reverse v3: exit %d, stderr %q", code, errOut)
	}
	same("patch --reverse v3", out, v1)
	code, composed, errOut := runCLI(t, "", "compose", chain)
	if code != exitOK {
		t.Fatalf("compose: exit %d, stderr %q", code, errOut)
	}
	if code, out, errOut = runCLI(t, "", "patch", v1, writeFile(t, dir, "composed.json", composed)); code != exitOK {
		t.Fatalf("patch v1 with the composed delta: exit %d, stderr %q", code, errOut)
	}
	same("patch v1 with the composed delta", out, v3)
	// The versions are still checked through the empty deltas at the ends.
	if code, _, errOut := runCLI(t, "", "patch", v3, chain); code != exitError || !strings.Contains(errOut, "v3.xml is the version the delta leads to: patched already?") {
		t.Errorf("patch v3, patched already: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := runCLI(t, "", "patch", v2, chain); code != exitError || !strings.Contains(errOut, "the delta does not fit") {
		t.Errorf("patch v2: exit %d, stderr %q", code, errOut)
	}
}

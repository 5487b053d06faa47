package main

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestOutputIsAnInput: diff, patch, compose, the sentinel commands that
// read files and site diff and crawl (its --previous) refuse standard output
// redirected to one of their inputs ("vigil patch doc.xml d.xml >
// doc.xml", or >>), saying so (exit 2, nothing written): with >, the
// shell has emptied the file before the command reads it, and patch said
// only that DOC was an empty document; with >>, the result was added to
// the input (sentinel fmt's too, the file then holding each sentinel
// twice; sentinel check's problems, site diff's changes, a crawl's new
// snapshot after its previous one).
func TestOutputIsAnInput(t *testing.T) {
	dir := t.TempDir()
	v1 := writeFile(t, dir, "v1.xml", `<r><a>x</a></r>`)
	v2 := writeFile(t, dir, "v2.xml", `<r><a>y</a></r>`)
	_, d, _ := runCLI(t, "", "diff", v1, v2)
	dp := writeFile(t, dir, "d.xml", d)
	_, d23, _ := runCLI(t, "", "diff", v2, writeFile(t, dir, "v3.xml", `<r><a>z</a></r>`))
	dp23 := writeFile(t, dir, "d23.xml", d23)
	s1 := writeFile(t, dir, "s1.ssl", "Create Sentinel s1 Using https://a.example/\n\tFetch 1 day\n")
	s2 := writeFile(t, dir, "s2.ssl", "Create Sentinel s2 Using https://b.example/\n")
	bad := writeFile(t, dir, "bad.ssl", "Create Sentinel b Using https://b.example/\nFetch 0 days\n")
	snap := writeFile(t, dir, "snap.json", "{}")
	for _, tc := range []struct {
		args   []string
		output string // the input standard output is redirected to
	}{
		{[]string{"patch", v1, dp}, v1},
		{[]string{"patch", v1, dp}, dp},
		{[]string{"diff", v1, v2}, v2},
		{[]string{"compose", dp, dp23}, dp23},
		{[]string{"sentinel", "fmt", s1}, s1},
		{[]string{"sentinel", "fmt", s1, s2}, s2},
		{[]string{"sentinel", "check", bad}, bad},
		{[]string{"sentinel", "add", "--data", dir, s2}, s2},
		{[]string{"site", "diff", snap, dp}, snap},
		{[]string{"site", "crawl", "--previous", snap, "https://a.example/"}, snap},
	} {
		for _, truncate := range []bool{false, true} {
			before, err := os.ReadFile(tc.output)
			if err != nil {
				t.Fatal(err)
			}
			flags := os.O_WRONLY | os.O_APPEND
			if truncate {
				flags = os.O_WRONLY | os.O_TRUNC
			}
			f, err := os.OpenFile(tc.output, flags, 0)
			if err != nil {
				t.Fatal(err)
			}
			var errOut bytes.Buffer
			env := &environment{stdin: strings.NewReader(""), stdout: f, stderr: &errOut, getenv: func(string) string { return "" }}
			code := run(context.Background(), env, tc.args)
			f.Close()
			after, _ := os.ReadFile(tc.output)
			name := tc.args[0]
			if name == "sentinel" || name == "site" {
				name += " " + tc.args[1]
			}
			if slices.Contains(tc.args, "--previous") {
				name += ": --previous"
			}
			hint := ">> " + tc.output + " would append the output to it"
			if truncate {
				hint = "> " + tc.output + " empties it before it is read"
			}
			want := "vigil " + name + ": " + tc.output + " is also the standard output: write the output to another file (" + hint + ")\n"
			if code != exitError || errOut.String() != want {
				t.Errorf("%v > %s (truncated %v): exit %d, stderr\n%s\nwant 2 and\n%s", tc.args, tc.output, truncate, code, errOut.String(), want)
			}
			if !truncate && !bytes.Equal(after, before) {
				t.Errorf("%v >> %s: the file is now %q", tc.args, tc.output, after)
			}
			if err := os.WriteFile(tc.output, before, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

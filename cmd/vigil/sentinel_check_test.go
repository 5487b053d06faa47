package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkArchiveFile is a file of a txtar archive (golang.org/x/tools/txtar's
// format: a comment, then files introduced by "-- name --" lines).
type checkArchiveFile struct {
	name string
	data []byte
}

// parseCheckArchive splits a txtar archive into its comment and files.
func parseCheckArchive(data []byte) (comment []byte, files []checkArchiveFile) {
	cur := -1
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		s := strings.TrimRight(string(l), "\n")
		if strings.HasPrefix(s, "-- ") && strings.HasSuffix(s, " --") && len(s) >= 6 {
			files = append(files, checkArchiveFile{name: strings.TrimSpace(s[3 : len(s)-3])})
			cur = len(files) - 1
			continue
		}
		if cur < 0 {
			comment = append(comment, l...)
		} else {
			files[cur].data = append(files[cur].data, l...)
		}
	}
	return comment, files
}

// formatCheckArchive is the inverse of parseCheckArchive.
func formatCheckArchive(comment []byte, files []checkArchiveFile) []byte {
	var b bytes.Buffer
	b.Write(comment)
	for _, f := range files {
		b.WriteString("-- " + f.name + " --\n")
		b.Write(f.data)
	}
	return b.Bytes()
}

// TestSentinelCheckSyntaxAndSemantic: vigil sentinel check reports, in one
// run, the syntax errors of a file and the semantic errors of every
// sentinel that parsed, sorted by position and within the 10 a file; a
// sentinel that uses one that did not parse gets one error, "sentinel a
// has errors". Check printed the syntax errors alone, so that the user
// fixed them and only then learnt of the others. Each case is
// testdata/sentinel-check/NAME.txtar: the *.ssl files, checked in the
// archive's order, and the expected "stdout" (the files named without
// their directory); go test -run TestSentinelCheckSyntaxAndSemantic
// -update rewrites it.
func TestSentinelCheckSyntaxAndSemantic(t *testing.T) {
	for _, c := range []struct {
		name  string
		flags []string
		exit  int
	}{
		// Semantic errors before and after a syntax error.
		{"mixed", nil, exitChanged},
		// Sentinels that use, or refer to the events of, one whose
		// syntax error left it out: one error each, no cascade.
		{"refers-to-faulty", nil, exitChanged},
		// The same across files: the second file uses a sentinel of the
		// first that did not parse.
		{"refers-across-files", nil, exitChanged},
		// A syntax error in the name: the sentinel is not known at all.
		{"no-name", nil, exitChanged},
		// Syntax and semantic errors past 10: the first 10 by position,
		// then "too many errors".
		{"too-many", nil, exitChanged},
		// The parser stopped at its 10th error: the semantic errors
		// of the sentinels before come first, the list still cut at 10.
		{"parser-stopped", nil, exitChanged},
		// The parser stopped, and no sentinel before has a semantic
		// error: the list is cut where the parser stopped.
		{"parser-stopped-clean", nil, exitChanged},
		// One sentinel's semantic errors past 10: its first 10, then
		// "too many errors" at the first left out, with or without
		// the errors of a later sentinel.
		{"semantic-cut", nil, exitChanged},
		{"semantic-cut-then-more", nil, exitChanged},
		// The valid sentinels are printed, with their warnings, as JSON.
		{"json", []string{"--json"}, exitChanged},
		// A syntax error outside any sentinel (before the first): every
		// sentinel is checked.
		{"junk-before", nil, exitChanged},
		// A syntax error in the header of b, whose name can be read
		// all the same: those that use b, or refer to its events, are
		// told that b has errors, not that it is unknown.
		{"misspelt-header", nil, exitChanged},
		{"misspelt-create", nil, exitChanged},
		{"missing-sentinel-keyword", nil, exitChanged},
		{"header-after-name", nil, exitChanged},
		{"quoted-name", nil, exitChanged},
		// A header that gives no name: none is guessed.
		{"misspelt-no-name", nil, exitChanged},
		// A mistake in a clause followed by the word sentinel: the
		// clause's error, no sentinel made up at it.
		{"typo-in-clause", nil, exitChanged},
		// Two words of a title after Create: no name made up of them.
		{"title-not-name", nil, exitChanged},
		// A syntax error and the semantic errors of the other clauses,
		// in one run, without those that only follow from it.
		{"syntax-then-semantic", nil, exitChanged},
		// A syntax error of a at the Create of b, on a's last line:
		// a's, as the parser tells, not b's.
		{"error-at-next-create", nil, exitChanged},
		// The pieces of a clause read before its syntax error, each
		// checked alone.
		{"clause-parts", nil, exitChanged},
		// A header read past its mistake, checked in full; one without
		// its target, checked as far as it states.
		{"header-lost", nil, exitChanged},
		// A sentinel that uses one defined after it is told where
		// that one is.
		{"uses-later", nil, exitChanged},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join("testdata", "sentinel-check", c.name+".txtar")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			comment, files := parseCheckArchive(data)
			dir := t.TempDir()
			args := append([]string{"sentinel", "check", "--now", "11/01/2002"}, c.flags...)
			golden := -1
			for i, f := range files {
				switch {
				case strings.HasSuffix(f.name, ".ssl"):
					args = append(args, writeFile(t, dir, f.name, string(f.data)))
				case f.name == "stdout":
					golden = i
				}
			}
			if golden < 0 {
				t.Fatalf("%s: no stdout section", path)
			}
			code, out, errOut := runVigil(t, "", args...)
			out = strings.ReplaceAll(out, dir+string(filepath.Separator), "")
			if *update {
				files[golden].data = []byte(out)
				if err := os.WriteFile(path, formatCheckArchive(comment, files), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if code != c.exit || errOut != "" {
				t.Errorf("exit %d, stderr %q; want %d and nothing", code, errOut, c.exit)
			}
			if want := string(files[golden].data); out != want {
				t.Errorf("stdout:\n%s\nwant:\n%s", out, want)
			}
		})
	}
}

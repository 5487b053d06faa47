package main

import (
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestUsageLines: the help of every command begins with its usage line in
// one form, "Usage: vigil NAME ...", without trailing blanks. diff, patch,
// compose, export and bench diff-memory wrote "usage:", and sentinel list
// and user list, which take no argument, ended the line in a space.
func TestUsageLines(t *testing.T) {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		args := append(strings.Fields(n), "-h")
		code, out, errOut := runVigil(t, "", args...)
		first, _, _ := strings.Cut(out, "\n")
		if code != exitOK || !strings.HasPrefix(first, "Usage: vigil "+n) || strings.TrimRight(first, " \t") != first {
			t.Errorf("vigil %s -h: exit %d, first line %q (stderr %q); want 0 and %q without trailing blanks", n, code, first, errOut, "Usage: vigil "+n+" ...")
		}
	}
}

// TestUsageNamesFlagsWithTwoDashes: the text of every command's help
// names its flags with two dashes (--json), as the commands' errors do;
// the list of flags below it is the flag package's, with one. sentinel
// list said "With -json".
func TestUsageNamesFlagsWithTwoDashes(t *testing.T) {
	oneDash := regexp.MustCompile(`(^|[\s(])-[a-z][a-z-]*\b`)
	for n := range commands {
		code, out, _ := runVigil(t, "", append(strings.Fields(n), "-h")...)
		if code != exitOK {
			t.Errorf("vigil %s -h: exit %d", n, code)
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "  -") || strings.HasPrefix(line, "    \t") {
				continue // the flag package's list: a flag's name, its text
			}
			for _, m := range oneDash.FindAllString(line, -1) {
				t.Errorf("vigil %s -h names a flag with one dash, %q: %q", n, strings.TrimSpace(m), line)
			}
		}
	}
}

package main

import (
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

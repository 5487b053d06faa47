package main

import (
	"strings"
	"testing"
)

// TestEveryCommandHelpDescribes: every command's -h says what it does
// between its usage line and its flags, as vigil -h lists them: the
// bench commands but opic printed the usage line and the flags alone, so
// that bench quality's or bench store's output could not be read from its
// help.
func TestEveryCommandHelpDescribes(t *testing.T) {
	for name := range commands {
		if name == "bench diff-memory" {
			continue // internal: run by bench diff in a process of its own
		}
		code, out, errOut := runCLI(t, "", append(strings.Fields(name), "-h")...)
		if code != exitOK {
			t.Errorf("%s -h: exit %d, stderr %q", name, code, errOut)
			continue
		}
		help := out + errOut
		i := strings.Index(help, "\n\n")
		j := strings.Index(help, "Flags:\n")
		if !strings.HasPrefix(help, "Usage: vigil "+name) || i < 0 || j < 0 || j < i+3 {
			t.Errorf("%s -h: no description between the usage line and the flags:\n%s", name, help)
		}
	}
}

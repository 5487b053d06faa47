package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSentinelAddSaysNewStore: sentinel add that makes the store of a
// data directory that held none says so on standard error, naming the
// directory, so that a user whose vigil serve runs on another --data
// (sentinel add run in another directory, its ./vigil-data) learns that
// the daemon will not run the sentinel it added; before, it printed
// "added sentinel 1" alone. An add to the store made is silent.
func TestSentinelAddSaysNewStore(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	a := writeFile(t, dir, "a.ssl", "Create Sentinel a Using https://example.org/a\n")
	b := writeFile(t, dir, "b.ssl", "Create Sentinel b Using https://example.org/b\n")
	code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, a)
	want := "vigil sentinel add: note: made a new store in " + data
	if code != exitOK || !strings.HasPrefix(out, "added sentinel 1 a ") || !strings.Contains(errOut, want) {
		t.Errorf("first add: exit %d, stdout %q, stderr %q; want exit 0 and %q", code, out, errOut, want)
	}
	code, out, errOut = runVigil(t, "", "sentinel", "add", "--data", data, b)
	if code != exitOK || !strings.HasPrefix(out, "added sentinel 2 b ") || errOut != "" {
		t.Errorf("second add: exit %d, stdout %q, stderr %q; want exit 0 and nothing on stderr", code, out, errOut)
	}
}

// withoutNewStoreNote returns the standard error of a sentinel add
// without its note that it made a new store, for the tests of a first
// add that want nothing else there.
func withoutNewStoreNote(errOut string) string {
	var keep []string
	for line := range strings.Lines(errOut) {
		if !strings.HasPrefix(line, "vigil sentinel add: note: made a new store in ") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "")
}

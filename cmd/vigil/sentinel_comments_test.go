package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestSentinelAddKeepsComments: vigil sentinel add stores each sentinel of
// a file with the comments of its own text, laid out as vigil sentinel fmt
// lays them, as the dashboard and the API keep them; the source stored was
// the printed sentinel alone, so every note of the file was lost.
func TestSentinelAddKeepsComments(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "two.ssl", "# The kettle's price.\n"+
		"Create Sentinel kettle Using http://a.example/\n"+
		"  Monitor any change # any at all\n"+
		"  # closes kettle\n"+
		"\n"+
		"# The news, daily.\n"+
		"Create Sentinel news Using http://b.example/\n"+
		"  Every 1 day # enough\n"+
		"# the end\n")
	data := filepath.Join(dir, "data")
	if code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, f); code != exitOK {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut := runVigil(t, "", "sentinel", "list", "--data", data, "-json")
	if code != exitOK {
		t.Fatalf("list: exit %d\n%s%s", code, out, errOut)
	}
	want := map[string]string{
		"kettle": "# The kettle's price.\nCreate Sentinel kettle Using http://a.example/\n\tMonitor any change # any at all\n\t# closes kettle\n",
		"news":   "# The news, daily.\nCreate Sentinel news Using http://b.example/\n\tEvery 1 day # enough\n\n# the end\n",
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var s struct{ Name, Source string }
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if s.Source != want[s.Name] {
			t.Errorf("sentinel %s stored\n%s\nwant\n%s", s.Name, s.Source, want[s.Name])
		}
		delete(want, s.Name)
	}
	if len(want) > 0 {
		t.Errorf("not stored: %v", want)
	}
}

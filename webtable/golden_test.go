package webtable

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the delta.json sections of testdata/golden")

// TestGolden decodes the tables of each testdata/golden/*.txtar (old.json,
// new.json, and options.json if present), runs Diff and compares the
// delta, as JSON, with delta.json. The files hold the notes' fixture F1
// and the paper's running example (see fixture_test.go and
// paper_test.go for what each value means).
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			names, sections := parseTxtar(string(data))
			w1, err := DecodeTable(strings.NewReader(sections["old.json"]))
			if err != nil {
				t.Fatal(err)
			}
			w2, err := DecodeTable(strings.NewReader(sections["new.json"]))
			if err != nil {
				t.Fatal(err)
			}
			var opt Options
			if s, ok := sections["options.json"]; ok {
				if err := json.Unmarshal([]byte(s), &opt); err != nil {
					t.Fatal(err)
				}
			}
			d, err := Diff(w1, w2, &opt)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(d, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			if *update {
				sections["delta.json"] = string(got)
				if err := os.WriteFile(file, []byte(formatTxtar(names, sections)), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := sections["delta.json"]; string(got) != want {
				t.Errorf("delta differs from %s (go test ./webtable -update rewrites it):\n%s", file, firstDiff(string(got), want))
			}
		})
	}
}

// parseTxtar splits a txtar archive into its files, in order.
func parseTxtar(s string) (names []string, files map[string]string) {
	files = map[string]string{}
	name := ""
	var b strings.Builder
	flush := func() {
		if name != "" {
			files[name] = b.String()
		}
		b.Reset()
	}
	for line := range strings.Lines(s) {
		if n, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "-- "); ok && strings.HasSuffix(n, " --") {
			flush()
			name = strings.TrimSuffix(n, " --")
			names = append(names, name)
			continue
		}
		b.WriteString(line)
	}
	flush()
	if _, ok := files["delta.json"]; !ok {
		names = append(names, "delta.json")
	}
	return names, files
}

func formatTxtar(names []string, files map[string]string) string {
	var b bytes.Buffer
	for _, n := range names {
		b.WriteString("-- " + n + " --\n" + files[n])
	}
	return b.String()
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + gl + "\n want " + wl
		}
	}
	return ""
}

package spec

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/format")

// The files testdata/format/*.txtar hold an input sentinel file and its
// canonical form ("-- input.ssl --", "-- canonical.ssl --"); go test
// ./spec -update rewrites the canonical part.

type archiveFile struct {
	name string
	data []byte
}

// parseTxtar reads the txtar format (golang.org/x/tools/txtar, which a
// library of the standard library only cannot import): a comment, then
// files introduced by "-- name --" lines.
func parseTxtar(data []byte) (comment []byte, files []archiveFile) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	cur := -1
	for _, l := range lines {
		s := strings.TrimRight(string(l), "\n")
		if strings.HasPrefix(s, "-- ") && strings.HasSuffix(s, " --") && len(s) >= 6 {
			files = append(files, archiveFile{name: strings.TrimSpace(s[3 : len(s)-3])})
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

func formatTxtar(comment []byte, files []archiveFile) []byte {
	var b bytes.Buffer
	b.Write(comment)
	for _, f := range files {
		b.WriteString("-- " + f.name + " --\n")
		b.Write(f.data)
	}
	return b.Bytes()
}

func TestFormatGolden(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "format", "*.txtar"))
	if len(paths) == 0 {
		t.Fatal("no golden files")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			comment, files := parseTxtar(data)
			var input []byte
			canon := -1
			for i, f := range files {
				switch f.name {
				case "input.ssl":
					input = f.data
				case "canonical.ssl":
					canon = i
				}
			}
			got, err := Format(path, input)
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				if canon < 0 {
					files = append(files, archiveFile{name: "canonical.ssl"})
					canon = len(files) - 1
				}
				files[canon].data = got
				if err := os.WriteFile(path, formatTxtar(comment, files), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if canon < 0 {
				t.Fatal("no canonical.ssl; run go test ./spec -update")
			}
			if !bytes.Equal(got, files[canon].data) {
				t.Errorf("canonical form differs (go test ./spec -update rewrites it):\n got:\n%s\nwant:\n%s", got, files[canon].data)
			}
			again, err := Format(path, got)
			if err != nil || !bytes.Equal(again, got) {
				t.Errorf("the canonical form is not a fixed point: %v\n%s", err, again)
			}
		})
	}
}

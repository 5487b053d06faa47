package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchQualityCorpusFolders: --corpus names a folder of histories, or
// one history (its versions in the folder itself, as in
// /work/shared/corpus/go-spec), measured as one; a folder that holds no
// history is refused before the simulated pairs, with what was expected.
// A single history printed no real pair at all, without a word.
func TestBenchQualityCorpusFolders(t *testing.T) {
	versions := map[string]string{
		"v0001.xml": `<?xml version="1.0"?><r><a>1</a><b>2</b></r>`,
		"v0002.xml": `<?xml version="1.0"?><r><a>1</a><b>3</b></r>`,
		"v0003.xml": `<?xml version="1.0"?><r><b>3</b><c>4</c></r>`,
	}
	tests := map[string]struct {
		files   map[string]string // path in the corpus: content
		want    []string          // in the output, exit 0
		wantErr string            // in the error, exit 2
	}{
		"corpus of histories": {
			files: map[string]string{"hist/v0001.xml": versions["v0001.xml"], "hist/v0002.xml": versions["v0002.xml"], "hist/README.md": "x"},
			want:  []string{"  hist ", "  1 pairs"},
		},
		"one history": {
			files: map[string]string{"v0001.xml": versions["v0001.xml"], "v0002.xml": versions["v0002.xml"], "v0003.xml": versions["v0003.xml"], "MANIFEST.tsv": "x"},
			want:  []string{"  corpus ", "  2 pairs"},
		},
		"one history of html": {
			files: map[string]string{"v0001.html": "<p>a</p>", "v0002.html": "<p>b</p>"},
			want:  []string{"  corpus ", "  1 pairs"},
		},
		"no history": {
			files:   map[string]string{"README.md": "x", "other/notes.txt": "x"},
			wantErr: "--corpus CORPUS: no history: want folders of two versions or more (v0001.xml, v0002.xml, ... or .html), or such versions in the folder itself",
		},
		"one version": {
			files:   map[string]string{"v0001.xml": versions["v0001.xml"]},
			wantErr: "--corpus CORPUS: one version (v0001.xml), no history: want folders",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			corpus := filepath.Join(t.TempDir(), "corpus")
			for p, content := range tc.files {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(corpus, p)), 0o755); err != nil {
					t.Fatal(err)
				}
				writeFile(t, corpus, p, content)
			}
			code, out, errOut := runCLI(t, "", "bench", "quality", "--seeds", "1", "--size", "500", "--corpus", corpus)
			if tc.wantErr != "" {
				want := strings.ReplaceAll(tc.wantErr, "CORPUS", corpus)
				if code != exitError || out != "" || !strings.Contains(errOut, want) {
					t.Errorf("exit %d, output %q, stderr %q; want 2, nothing and %q", code, out, errOut, want)
				}
				return
			}
			if code != exitOK {
				t.Fatalf("exit %d, stderr %s", code, errOut)
			}
			_, real, ok := strings.Cut(out, "real pairs from "+corpus)
			if !ok {
				t.Fatalf("no real pairs in the output:\n%s", out)
			}
			for _, w := range tc.want {
				if !strings.Contains(real, w) {
					t.Errorf("real pairs lack %q:\n%s", w, real)
				}
			}
		})
	}
}

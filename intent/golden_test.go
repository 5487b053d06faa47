package intent

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenClauses are the change types whose records the golden files hold.
var goldenClauses = []string{
	`any change`,
	`all words`,
	`all links`,
	`all images`,
	`table`,
	`list`,
	`keywords {LOVOO, Finya, data, Vertrag}`,
	`phrase {"Terms of Service", "personal data"}`,
	`regular expression {"\\d{1,2}\\.\\d{1,2}\\.\\d{4}"}`,
	`all words In css "main, #content, article" Ignore css "nav, header, footer"`,
}

// TestCorpusGolden runs every golden change type on each consecutive pair
// of real pages and compares the records with testdata/golden; run with
// -update to rewrite them.
func TestCorpusGolden(t *testing.T) {
	pages := []struct{ dir, name string }{
		{"../testdata/corpus/page-finya-terms-of-service", "finya"},
		{"testdata/corpus/page-lovoo-terms-of-service", "lovoo"},
	}
	for _, pg := range pages {
		files, _ := filepath.Glob(filepath.Join(pg.dir, "v*.html"))
		if len(files) < 2 {
			t.Logf("%s: fewer than two versions, skipped", pg.dir)
			continue
		}
		for i := 0; i+1 < len(files); i++ {
			a, b := files[i], files[i+1]
			name := pg.name + "-" + trimExt(filepath.Base(a)) + "-" + trimExt(filepath.Base(b))
			t.Run(name, func(t *testing.T) {
				old := readPage(t, a)
				new := readPage(t, b)
				d, err := treediff.Diff(old, new, nil)
				if err != nil {
					t.Fatal(err)
				}
				p := NewPair(old, new, d, nil)
				var results []*Result
				for _, clause := range goldenClauses {
					r, err := p.Evaluate(monitor(t, clause))
					if err != nil {
						t.Fatalf("%s: %v", clause, err)
					}
					results = append(results, r)
				}
				got, err := json.MarshalIndent(results, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, '\n')
				if err := validateJSON(t, loadSchema(t), []byte(`{"type":"golden","matched":true,"operands":`+string(got)+`}`)); err != nil {
					t.Errorf("records do not follow the schema: %v", err)
				}
				golden := filepath.Join("testdata", "golden", name+".json")
				if *update {
					if err := os.WriteFile(golden, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./intent -run CorpusGolden -update)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("records differ from %s (run with -update after checking the change)", golden)
				}
			})
		}
	}
}

func trimExt(s string) string { return s[:len(s)-len(filepath.Ext(s))] }

func readPage(t *testing.T, path string) *tree.Document {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := markup.ParseBytes(b, nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return d
}

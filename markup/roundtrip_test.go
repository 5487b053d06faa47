package markup_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// sharedCorpus is the full corpus of real document histories, present on
// development machines but not in CI.
const sharedCorpus = "/work/shared/corpus"

// corpusFiles returns every .xml and .html file under dir.
func corpusFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := filepath.Ext(path); !d.IsDir() && (ext == ".xml" || ext == ".html") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// equalDocs returns "" if a and b have the same tree, DOCTYPE, prolog and
// epilog, and otherwise the first difference.
func equalDocs(a, b *tree.Document) string {
	if d := tree.Diff(a.Root, b.Root, tree.Content); d != "" {
		return d
	}
	if a.Doctype != b.Doctype {
		return "doctype " + a.Doctype + " != " + b.Doctype
	}
	if len(a.Prolog) != len(b.Prolog) || len(a.Epilog) != len(b.Epilog) {
		return "prolog or epilog length differs"
	}
	for i := range a.Prolog {
		x, y := a.Prolog[i], b.Prolog[i]
		if x.Kind == tree.ProcInst && x.Name == "xml" {
			continue // the writer changes the declared encoding to UTF-8
		}
		if d := tree.Diff(x, y, tree.Content); d != "" {
			return "prolog: " + d
		}
	}
	for i := range a.Epilog {
		if d := tree.Diff(a.Epilog[i], b.Epilog[i], tree.Content); d != "" {
			return "epilog: " + d
		}
	}
	return ""
}

// roundTrip checks Parse(Write(Parse(src))) == Parse(src) under opt.
func roundTrip(t *testing.T, src []byte, opt *markup.Options) {
	t.Helper()
	d1, f, err := markup.ParseBytes(src, opt)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	var buf bytes.Buffer
	write, parse := markup.WriteXML, markup.ParseXMLBytes
	if f == markup.HTML {
		write, parse = markup.WriteHTML, markup.ParseHTMLBytes
	}
	if err := write(&buf, d1, nil); err != nil {
		t.Fatalf("write: %v", err)
	}
	d2, err := parse(buf.Bytes(), opt)
	if err != nil {
		t.Fatalf("parse of written %s: %v", f, err)
	}
	if d := equalDocs(d1, d2); d != "" {
		t.Fatalf("%s round trip: %s", f, d)
	}
}

func testCorpusRoundTrip(t *testing.T, dir string) {
	files := corpusFiles(t, dir)
	if len(files) == 0 {
		t.Fatalf("no .xml or .html files under %s", dir)
	}
	for _, path := range files {
		name := strings.TrimPrefix(path, dir+"/")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, ws := range []markup.Whitespace{markup.Normalize, markup.Keep} {
				roundTrip(t, src, &markup.Options{Whitespace: ws})
			}
		})
	}
}

// TestRoundTripCorpus round-trips every file of the full shared corpus when
// it is beside the repository, else of the subset kept in testdata/corpus
// (what CI has), so that it never skips.
func TestRoundTripCorpus(t *testing.T) {
	dir := filepath.Join("..", "testdata", "corpus")
	if _, err := os.Stat(sharedCorpus); err == nil && !testing.Short() {
		dir = sharedCorpus
	}
	testCorpusRoundTrip(t, dir)
}

package delta_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// corpusDir is the full shared corpus when it is beside the repository, else
// the subset kept in testdata/corpus (what CI has), so the test never skips.
var corpusDir = func() string {
	if _, err := os.Stat("../../shared/corpus"); err == nil {
		return "../../shared/corpus"
	}
	return "../testdata/corpus"
}()

var corpusAll = flag.Bool("corpus-all", false, "run TestCorpusAlgebra on every version of every history, not the first 12")

// TestCorpusAlgebra runs the delta algebra on real histories: for each run
// of three consecutive versions a, b, c, with d1 = Diff(a, b) and
// d2 = Diff(b, c): Apply(a, d1) = b, Apply(b, Invert(d1)) = a,
// Apply(a, Compose(d1, d2)) = c, and both codecs give d1 back.
func TestCorpusAlgebra(t *testing.T) {
	versions := 12
	if *corpusAll {
		versions = 1 << 30
	}
	if testing.Short() {
		versions = 3
	}
	for _, folder := range []string{"xml-sysmon-config", "feed-artsy-engineering-rss", "page-finya-terms-of-service", "page-lovoo-terms-of-service", "page-tinder-privacy-policy", "go-spec"} {
		files, _ := filepath.Glob(filepath.Join(corpusDir, folder, "v*.*"))
		if len(files) == 0 && corpusDir == "../testdata/corpus" {
			continue // not in the subset
		}
		t.Run(folder, func(t *testing.T) {
			if len(files) < 2 {
				t.Fatalf("%s: fewer than two versions", folder)
			}
			if len(files) > versions {
				files = files[:versions]
			}
			var docs []*tree.Document
			var ds []*delta.Delta
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				doc, _, err := markup.ParseBytes(data, nil)
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				if len(docs) > 0 {
					d, err := treediff.Diff(docs[len(docs)-1], doc, nil)
					if err != nil {
						t.Fatalf("%s: %v", f, err)
					}
					ds = append(ds, d)
				}
				docs = append(docs, doc)
			}
			if len(ds) == 0 {
				t.Fatalf("no versions in %s", folder)
			}
			ops := 0
			for _, d := range ds {
				ops += len(d.Ops)
			}
			t.Logf("%d versions, %d operations", len(docs), ops)
			for i, d := range ds {
				a, b := docs[i], docs[i+1]
				check := func(what string, got *tree.Document, err error, want *tree.Document) {
					t.Helper()
					if err != nil {
						t.Fatalf("v%d: %s: %v", i+1, what, err)
					}
					if diff := tree.Diff(got.Root, want.Root, tree.ContentAndXIDs); diff != "" {
						t.Fatalf("v%d: %s: %s", i+1, what, diff)
					}
				}
				got, err := delta.Apply(a, d)
				check("Apply(a, d)", got, err, b)
				got, err = delta.Apply(b, delta.Invert(d))
				check("Apply(b, Invert(d))", got, err, a)
				if i+1 < len(ds) {
					c, err := delta.Compose(d, ds[i+1])
					if err != nil {
						t.Fatalf("v%d: Compose: %v", i+1, err)
					}
					got, err = delta.Apply(a, c)
					check("Apply(a, Compose(d1, d2))", got, err, docs[i+2])
				}
				var buf bytes.Buffer
				if err := delta.EncodeXML(&buf, d); err != nil {
					t.Fatalf("v%d: EncodeXML: %v", i+1, err)
				}
				back, err := delta.DecodeXML(&buf)
				if err != nil || !delta.Equal(back[0], d) {
					t.Fatalf("v%d: XML round trip: %v", i+1, err)
				}
				buf.Reset()
				if err := delta.EncodeJSON(&buf, d); err != nil {
					t.Fatalf("v%d: EncodeJSON: %v", i+1, err)
				}
				dj, err := delta.DecodeJSON(&buf)
				if err != nil || !delta.Equal(dj, d) {
					t.Fatalf("v%d: JSON round trip: %v", i+1, err)
				}
			}
		})
	}
}

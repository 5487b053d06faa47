package web

import (
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// TestAnnotatedBases: the views of a diff resolve each version's URLs
// against that version's base (intent.PageBase, a base in the body
// counting too): a delta without operations, which annotated does not
// walk the new version for, leaves the old one's; one that changes the
// base gives each its own.
func TestAnnotatedBases(t *testing.T) {
	parse := func(s string) *tree.Document {
		t.Helper()
		d, err := markup.ParseHTMLBytes([]byte(s), nil)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	oldPage := `<!DOCTYPE html><html><head></head><body><p>a</p><base href="http://old.example/x/"></body></html>`
	newPage := `<!DOCTYPE html><html><head></head><body><p>a</p><base href="http://new.example/y/"></body></html>`
	old := parse(oldPage)
	old.AssignXIDs()
	changed, err := treediff.Diff(old, parse(newPage), nil)
	if err != nil {
		t.Fatal(err)
	}
	outsideOnly, err := treediff.Diff(old, parse("<!-- c -->"+oldPage), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(outsideOnly.Ops) != 0 || outsideOnly.Outside == nil {
		t.Fatalf("the comment before the DOCTYPE: %d operations, outside %v", len(outsideOnly.Ops), outsideOnly.Outside)
	}
	for _, tc := range []struct {
		name          string
		d             *delta.Delta
		oldBase, base string
	}{
		{"same version", &delta.Delta{}, "http://old.example/x/", "http://old.example/x/"},
		{"outside the root only", outsideOnly, "http://old.example/x/", "http://old.example/x/"},
		{"base changed", changed, "http://old.example/x/", "http://new.example/y/"},
	} {
		p := &diffPair{Resource: &vigil.Resource{URL: "http://a.example/p"}, From: &vigil.Version{ID: 1}, To: &vigil.Version{ID: 2}, Old: old, Delta: tc.d}
		_, f, err := annotated(p)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if f.oldBase == nil || f.base == nil || f.oldBase.String() != tc.oldBase || f.base.String() != tc.base {
			t.Errorf("%s: bases %v and %v, want %s and %s", tc.name, f.oldBase, f.base, tc.oldBase, tc.base)
		}
	}
}

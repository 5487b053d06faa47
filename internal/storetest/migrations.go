package storetest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// ApplyMigrationsBefore builds a database as an older release left it: it
// runs, in the order a store applies them, the migration files of dir
// (*.sql, as the store embeds them) that come before the one called name,
// which must be among them, calling apply with each file's name and text.
// apply runs the text and records the name as the store's migration table
// does.
func ApplyMigrationsBefore(t *testing.T, dir, name string, apply func(name, text string) error) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.sql"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	if !slices.Contains(files, filepath.Join(dir, name)) {
		t.Fatalf("no migration %s in %v", name, files)
	}
	for _, f := range files {
		base := filepath.Base(f)
		if base >= name {
			break
		}
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := apply(base, string(text)); err != nil {
			t.Fatalf("%s: %v", base, err)
		}
	}
}

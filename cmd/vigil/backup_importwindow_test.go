package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestBackupImportWindow: vigil backup looks for an import warc in one
// transaction before its copy and after it, and speaks of one that held
// the data directory at either moment: one running when the copy began
// that committed before it ended may or may not be in the copy. It
// looked only after the copy, and said nothing of that import.
func TestBackupImportWindow(t *testing.T) {
	before := "vigil import warc (pid %d) was importing into the data directory %s in one transaction when the copy began, and has ended since"
	during := "vigil import warc (pid %d) is importing into the data directory %s in one transaction, not committed"
	for _, c := range []struct {
		name string
		// heldBefore and heldAfter say whether the import holds its lock
		// when the copy begins and once it ends.
		heldBefore, heldAfter bool
		want                  string // "" for no note
	}{
		{"no import", false, false, ""},
		{"committed during the copy", true, false, before},
		{"started during the copy", false, true, during},
		{"running throughout", true, true, during},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			var release func()
			lock := func() {
				var err error
				if release, err = lockImport(dir); err != nil {
					t.Fatal(err)
				}
			}
			if c.heldBefore {
				lock()
			}
			copied := false
			note, err := backupBesideImport(dir, func() error {
				copied = true
				switch {
				case c.heldBefore && !c.heldAfter:
					release()
				case !c.heldBefore && c.heldAfter:
					lock()
				}
				return nil
			})
			if c.heldAfter {
				defer release()
			}
			if err != nil || !copied {
				t.Fatalf("backupBesideImport: %v, copied %v", err, copied)
			}
			want := ""
			if c.want != "" {
				want = fmt.Sprintf(c.want, os.Getpid(), dir)
			}
			if want == "" && note != "" || want != "" && !strings.HasPrefix(note, want) {
				t.Errorf("note %q, want one beginning %q", note, want)
			}
		})
	}
}

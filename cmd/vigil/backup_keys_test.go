package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestBackupNamesItsKeys: vigil backup names each key file the data
// directory has with what it signs, one file in the singular, and says to
// keep the --webhook-secret where the webhook key is in no file. With only
// the secret file it said "the key file ... (feed links, sessions and
// webhook signatures are made with them)": one file, "them", and a
// webhook key the file does not hold.
func TestBackupNamesItsKeys(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string
		want  []string // the lines after the first, with {data} for the data directory
	}{
		{"both", []string{secretFile, webhookSecretFile}, []string{
			"keep the key files {data}/secret (for feed links and sessions) and {data}/webhook-secret (for webhook signatures) with it"}},
		{"secret only", []string{secretFile}, []string{
			"keep the key file {data}/secret (for feed links and sessions) with it",
			"the webhook key is in no file of {data}: keep the --webhook-secret (VIGIL_WEBHOOK_SECRET) the daemon is given with it"}},
		{"none", nil, []string{
			"the webhook key is in no file of {data}: keep the --webhook-secret (VIGIL_WEBHOOK_SECRET) the daemon is given with it"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := t.TempDir()
			db, err := sqlite.Open(context.Background(), data)
			if err != nil {
				t.Fatal(err)
			}
			db.Close()
			for _, f := range tc.files {
				if err := os.WriteFile(filepath.Join(data, f), []byte("0123456789abcdef0123456789abcdef"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			code, out, errOut := runVigil(t, "", "backup", "--data", data, filepath.Join(t.TempDir(), "b.db"))
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")[1:]
			want := strings.Split(strings.ReplaceAll(strings.Join(tc.want, "\n"), "{data}", data), "\n")
			if strings.Join(lines, "\n") != strings.Join(want, "\n") {
				t.Errorf("vigil backup says:\n%s\nwant after its first line:\n%s", out, strings.Join(want, "\n"))
			}
		})
	}
}

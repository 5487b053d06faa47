package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/postgres"
)

// keyFile returns the key a data directory's file holds, checking that
// it is one keys rotate or the daemon writes: 64 hex digits and a line
// end, readable by its owner only.
func keyFile(t *testing.T, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[0-9a-f]{64}\n$`).Match(b) {
		t.Errorf("%s holds %q, want 64 hex digits and a line end", path, b)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("%s: mode %v (%v), want 0600", path, fi.Mode().Perm(), err)
	}
	return strings.TrimSpace(string(b))
}

// writeSentinel writes a sentinel file called name to a new directory and
// returns its path.
func writeSentinel(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "s.ssl")
	if err := os.WriteFile(src, []byte("Create Sentinel "+name+" Using http://example.org/page Monitor any change Every 1 day\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return src
}

// TestKeysRotateSQLite: on SQLite, keys rotate feed refuses while vigil
// serve runs on the data directory (the daemon keeps the key it started
// with) and leaves the key as it was; with the daemon stopped it writes a
// new key, never printed, after which vigil sentinel feed prints another
// feed link, the restarted daemon answers it, and the old link is gone.
func TestKeysRotateSQLite(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	t.Setenv("VIGIL_ADMIN_PASSWORD", testAdminPassword)
	dir := t.TempDir()
	oldPath := addedFeed(t, runBinary(t, "sentinel", "add", "--data", dir, writeSentinel(t, "rotated")))
	oldKey := keyFile(t, dir, secretFile)

	d := startDaemon(t, dir)
	code, _, stderr := runVigil(t, "", "keys", "rotate", "--data", dir, "feed")
	if code != exitError || !strings.Contains(stderr, "is running on the data directory") || !strings.Contains(stderr, "stop it, rotate, and start it again") {
		t.Errorf("keys rotate with vigil serve running: exit %d, %q; want 2 and a message to stop it first", code, stderr)
	}
	if got := keyFile(t, dir, secretFile); got != oldKey {
		t.Errorf("keys rotate refused, yet the key changed")
	}
	d.stop(t)

	code, stdout, stderr := runVigil(t, "", "keys", "rotate", "--data", dir, "feed")
	if code != exitOK || !strings.Contains(stdout, "the feed key in "+filepath.Join(dir, secretFile)+" is new") {
		t.Fatalf("keys rotate feed: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	newKey := keyFile(t, dir, secretFile)
	if newKey == oldKey {
		t.Fatalf("keys rotate feed left the key as it was")
	}
	if strings.Contains(stdout+stderr, newKey) || strings.Contains(stdout+stderr, oldKey) {
		t.Errorf("keys rotate printed a key: %q %q", stdout, stderr)
	}
	newPath := strings.Fields(runBinary(t, "sentinel", "feed", "--data", dir, "rotated"))[4]
	if newPath == oldPath {
		t.Fatalf("vigil sentinel feed prints the old feed link %s after the rotation", oldPath)
	}
	d = startDaemon(t, dir)
	if got := httpStatus(t, "http://"+d.addr+newPath); got != http.StatusOK {
		t.Errorf("the restarted daemon answers the new feed link with %d, want 200", got)
	}
	if got := httpStatus(t, "http://"+d.addr+oldPath); got != http.StatusNotFound {
		t.Errorf("the restarted daemon answers the old feed link with %d, want 404", got)
	}
	d.stop(t)
	if log := d.stderr.String(); strings.Contains(log, newKey) {
		t.Errorf("the daemon logged the key:\n%s", log)
	}
}

// TestKeysRotateWebhookSQLite: keys rotate webhook writes a new webhook
// key file each time, and leaves the feed key alone; it says every user's
// webhook key, derived from it, is new too.
func TestKeysRotateWebhookSQLite(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runVigil(t, "", "sentinel", "add", "--data", dir, writeSentinel(t, "hooked")); code != exitOK {
		t.Fatalf("sentinel add: %d %s", code, stderr)
	}
	feedKey := keyFile(t, dir, secretFile)
	var keys []string
	for range 2 {
		code, stdout, stderr := runVigil(t, "", "keys", "rotate", "--data", dir, "webhook")
		if code != exitOK || !strings.Contains(stdout, "give it to their receivers") || !strings.Contains(stdout, "every user's webhook key is new too (vigil user webhook-key") {
			t.Fatalf("keys rotate webhook: exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
		keys = append(keys, keyFile(t, dir, webhookSecretFile))
	}
	if keys[0] == keys[1] {
		t.Errorf("a second rotation left the webhook key as it was")
	}
	if got := keyFile(t, dir, secretFile); got != feedKey {
		t.Errorf("keys rotate webhook changed the feed key")
	}
}

// TestKeysRotateBadInput: a missing or unknown key, and a data directory
// without a store, are refused with a message that says what to give,
// and write no key.
func TestKeysRotateBadInput(t *testing.T) {
	empty := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"keys", "rotate", "--data", empty}, "Usage: vigil keys rotate [flags] feed|webhook"},
		{[]string{"keys", "rotate", "--data", empty, "feed", "webhook"}, "Usage: vigil keys rotate [flags] feed|webhook"},
		{[]string{"keys", "rotate", "--data", empty, "cookies"}, "want feed or webhook"},
		{[]string{"keys", "rotate", "--data", empty, "feed"}, "no store in " + empty},
	} {
		code, stdout, stderr := runVigil(t, "", tc.args...)
		if code != exitError || !strings.Contains(stderr, tc.want) {
			t.Errorf("vigil %s: exit %d, stdout %q, stderr %q; want 2 and %q", strings.Join(tc.args, " "), code, stdout, stderr, tc.want)
		}
	}
	if names, _ := os.ReadDir(empty); len(names) != 0 {
		t.Errorf("refused rotations wrote %v", names)
	}
}

// TestPostgresKeysRotate: on PostgreSQL keys rotate replaces the store's
// key, whatever the data directory: the daemons that restart after it
// answer the new feed link and not the old one; the webhook key is
// copied to the data directory given, for the receivers, and a feed key
// file found there (imported from it once) is replaced too, so that the
// old key neither stays on disk nor comes back.
func TestPostgresKeysRotate(t *testing.T) {
	dsn := postgresDSN(t)
	t.Setenv("VIGIL_ADMIN_PASSWORD", testAdminPassword)
	old := t.TempDir()
	imported := writeKeyFile(t, old, secretFile)
	oldPath := addedFeed(t, runBinary(t, "sentinel", "add", "--postgres", dsn, "--data", old, writeSentinel(t, "shared")))

	d := startDaemon(t, t.TempDir(), "--postgres", dsn)
	code, stdout, stderr := runVigil(t, "", "keys", "rotate", "--postgres", dsn, "--data", old, "feed")
	if code != exitOK || !strings.Contains(stdout, "restart every vigil serve of this store") {
		t.Fatalf("keys rotate feed: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	ctx := context.Background()
	st, err := postgres.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	stored, err := st.Secret(ctx, secretFile)
	if err != nil || string(stored) == imported {
		t.Fatalf("the store's feed key after the rotation: %v; want a new one", err)
	}
	if got := keyFile(t, old, secretFile); got != string(stored) {
		t.Errorf("the data directory's feed key file is not the store's new key")
	}
	if strings.Contains(stdout+stderr, string(stored)) {
		t.Errorf("keys rotate printed the key: %q %q", stdout, stderr)
	}
	d.stop(t)

	d = startDaemon(t, t.TempDir(), "--postgres", dsn)
	newPath := strings.Fields(runBinary(t, "sentinel", "feed", "--postgres", dsn, "shared"))[4]
	if newPath == oldPath {
		t.Fatalf("vigil sentinel feed prints the old feed link %s after the rotation", oldPath)
	}
	if got := httpStatus(t, "http://"+d.addr+newPath); got != http.StatusOK {
		t.Errorf("a daemon started after the rotation answers the new feed link with %d, want 200", got)
	}
	if got := httpStatus(t, "http://"+d.addr+oldPath); got != http.StatusNotFound {
		t.Errorf("a daemon started after the rotation answers the old feed link with %d, want 404", got)
	}
	d.stop(t)

	receivers := t.TempDir()
	code, stdout, stderr = runVigil(t, "", "keys", "rotate", "--postgres", dsn, "--data", receivers, "webhook")
	if code != exitOK || !strings.Contains(stdout, "copied to "+filepath.Join(receivers, webhookSecretFile)) || !strings.Contains(stdout, "--webhook-secret") {
		t.Fatalf("keys rotate webhook: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	hook, err := st.Secret(ctx, webhookSecretFile)
	if err != nil {
		t.Fatal(err)
	}
	if got := keyFile(t, receivers, webhookSecretFile); got != string(hook) {
		t.Errorf("the data directory's webhook key is not the store's")
	}
	if _, err := os.Stat(filepath.Join(receivers, secretFile)); !os.IsNotExist(err) {
		t.Errorf("keys rotate webhook wrote a feed key file on a PostgreSQL store (stat: %v)", err)
	}
}

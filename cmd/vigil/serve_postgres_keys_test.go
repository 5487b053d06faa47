package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/notify/feed"
	"github.com/vigil-web/vigil/internal/postgres"
	"github.com/vigil-web/vigil/internal/postgres/pgtest"
)

// postgresDSN returns a fresh schema of the test server, or skips.
func postgresDSN(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	base := os.Getenv("VIGIL_TEST_POSTGRES_DSN")
	if base == "" {
		t.Skip("VIGIL_TEST_POSTGRES_DSN not set")
	}
	dsn, _ := pgtest.Schema(t, base)
	return dsn
}

// runIn runs a vigil command in the working directory dir, with neither
// VIGIL_DATA nor VIGIL_POSTGRES_DSN, and returns its standard output.
func runIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(vigilBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "VIGIL_DATA=", "VIGIL_POSTGRES_DSN=")
	var errOut strings.Builder
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("vigil %s: %v\n%s%s", strings.Join(args, " "), err, out, errOut.String())
	}
	return string(out)
}

// addedFeed returns the feed path of the one sentinel vigil sentinel add
// printed it added.
func addedFeed(t *testing.T, out string) string {
	t.Helper()
	_, path, ok := strings.Cut(strings.TrimSpace(out), " feed ")
	if !ok || strings.Contains(path, "\n") {
		t.Fatalf("vigil sentinel add printed %q, want one sentinel added with its feed", out)
	}
	return path
}

// httpStatus returns the status of a GET of url.
func httpStatus(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// writeKeyFile writes a key file of a data directory as earlier releases
// made them, and returns the key.
func writeKeyFile(t *testing.T, dir, name string) string {
	t.Helper()
	b := make([]byte, 32)
	rand.Read(b)
	key := hex.EncodeToString(b)
	if err := os.WriteFile(filepath.Join(dir, name), []byte(key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return key
}

// TestPostgresKeysShared: on a PostgreSQL store the keys are the store's,
// not a data directory's. vigil sentinel add run in another working
// directory than the daemon's, without its --data, prints a feed link the
// running daemon answers, and makes no ./vigil-data; vigil sentinel feed
// prints the same link; a session signed in on one daemon is good on
// another one with another data directory.
func TestPostgresKeysShared(t *testing.T) {
	dsn := postgresDSN(t)
	t.Setenv("VIGIL_ADMIN_PASSWORD", testAdminPassword)
	a := startDaemon(t, t.TempDir(), "--postgres", dsn)

	elsewhere := t.TempDir()
	if err := os.WriteFile(filepath.Join(elsewhere, "s.ssl"), []byte("Create Sentinel shared Using http://example.org/page Monitor any change Every 1 day\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := addedFeed(t, runIn(t, elsewhere, "sentinel", "add", "--postgres", dsn, "s.ssl"))
	if got := httpStatus(t, "http://"+a.addr+path); got != http.StatusOK {
		t.Errorf("the daemon answers the feed link vigil sentinel add printed, %s, with %d, want 200", path, got)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "vigil-data")); !os.IsNotExist(err) {
		t.Errorf("vigil sentinel add --postgres made a data directory in its working directory (stat: %v)", err)
	}
	if out := runIn(t, elsewhere, "sentinel", "feed", "--postgres", dsn, "shared"); !strings.Contains(out, " atom "+path+" ") {
		t.Errorf("vigil sentinel feed printed %q, want the atom link %s", out, path)
	}

	b := startDaemon(t, t.TempDir(), "--postgres", dsn)
	if got := httpStatus(t, "http://"+b.addr+path); got != http.StatusOK {
		t.Errorf("a second daemon, on another data directory, answers the feed link with %d, want 200", got)
	}
	s, status := signIn(t, "http://"+a.addr, testAdminPassword)
	if status != http.StatusSeeOther {
		t.Fatalf("sign in: %d", status)
	}
	s.client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	s.base = "http://" + b.addr // the jar's cookies are the host's, whatever the port
	if got := s.status("/sentinels"); got != http.StatusOK {
		t.Errorf("the session of the first daemon on the second: /sentinels answers %d, want 200", got)
	}
}

// TestPostgresKeysImported: an installation upgraded from a release that
// kept the keys in the data directory keeps its feed links, sessions and
// webhook key: the first process that needs a key with that --data
// copies the file's into the store, and every process then uses it; the
// daemon writes the store's webhook key to a data directory that has no
// webhook-secret file, for the receivers, and warns, without the keys,
// when a data directory's file is not the store's.
func TestPostgresKeysImported(t *testing.T) {
	dsn := postgresDSN(t)
	old := t.TempDir()
	secret := writeKeyFile(t, old, secretFile)
	hook := writeKeyFile(t, old, webhookSecretFile)
	src := filepath.Join(t.TempDir(), "s.ssl")
	if err := os.WriteFile(src, []byte("Create Sentinel upgraded Using http://example.org/page Monitor any change Every 1 day\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := addedFeed(t, runBinary(t, "sentinel", "add", "--postgres", dsn, "--data", old, src))

	ctx := context.Background()
	st, err := postgres.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sens, _, err := st.FindSentinels(ctx, vigil.SentinelFilter{})
	if err != nil || len(sens) != 1 {
		t.Fatalf("sentinels: %v, %v", sens, err)
	}
	if want := feed.Path([]byte(secret), sens[0], "atom"); path != want {
		t.Errorf("feed link %s, want %s, made with the data directory's secret", path, want)
	}

	a := startDaemon(t, old, "--postgres", dsn)
	for name, want := range map[string]string{secretFile: secret, webhookSecretFile: hook} {
		if got, err := st.Secret(ctx, name); err != nil || string(got) != want {
			t.Errorf("the store's %s: %q, %v; want the data directory's", name, got, err)
		}
	}
	a.stop(t)

	fresh := t.TempDir()
	b := startDaemon(t, fresh, "--postgres", dsn)
	if got := httpStatus(t, "http://"+b.addr+path); got != http.StatusOK {
		t.Errorf("a daemon on another data directory answers the old feed link with %d, want 200", got)
	}
	if got, err := os.ReadFile(filepath.Join(fresh, webhookSecretFile)); err != nil || strings.TrimSpace(string(got)) != hook {
		t.Errorf("the new data directory's %s: %q, %v; want the store's webhook key", webhookSecretFile, got, err)
	}
	if _, err := os.Stat(filepath.Join(fresh, secretFile)); !os.IsNotExist(err) {
		t.Errorf("the daemon wrote a %s file on a PostgreSQL store (stat: %v)", secretFile, err)
	}
	b.stop(t)

	other := t.TempDir()
	stale := writeKeyFile(t, other, secretFile)
	c := startDaemon(t, other, "--postgres", dsn)
	if got := httpStatus(t, "http://"+c.addr+path); got != http.StatusOK {
		t.Errorf("a daemon whose data directory holds another secret answers the feed link with %d, want 200", got)
	}
	c.stop(t)
	log := c.stderr.String()
	if !strings.Contains(log, "is not the store's") {
		t.Errorf("no warning that the data directory's %s is not the store's:\n%s", secretFile, log)
	}
	for _, key := range []string{secret, hook, stale} {
		if strings.Contains(log, key) {
			t.Errorf("the daemon logged a key:\n%s", log)
		}
	}
}

// TestSQLiteKeysStayFiles: on SQLite the keys stay files of the data
// directory, which is where the store lives: an installation upgraded
// with its secret file keeps its feed links, and nothing is copied into
// the store's secrets table.
func TestSQLiteKeysStayFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	data := t.TempDir()
	secret := writeKeyFile(t, data, secretFile)
	path := addedFeed(t, addSentinels(t, data, "Create Sentinel kept Using http://example.org/page Monitor any change Every 1 day\n"))
	d := startDaemon(t, data)
	if got := httpStatus(t, "http://"+d.addr+path); got != http.StatusOK {
		t.Errorf("the daemon answers the feed link with %d, want 200", got)
	}
	d.stop(t)
	db := openData(t, data)
	sens, _, err := db.FindSentinels(context.Background(), vigil.SentinelFilter{})
	if err != nil || len(sens) != 1 {
		t.Fatalf("sentinels: %v, %v", sens, err)
	}
	if want := feed.Path([]byte(secret), sens[0], "atom"); path != want {
		t.Errorf("feed link %s, want %s, made with the data directory's secret", path, want)
	}
	for _, name := range []string{secretFile, webhookSecretFile} {
		if _, err := db.Secret(context.Background(), name); vigil.ErrorCode(err) != vigil.ENOTFOUND {
			t.Errorf("the SQLite store's %s: %v, want none (the data directory's file is the key)", name, err)
		}
	}
}

// TestPostgresSentinelFeedNeedsKey: vigil sentinel feed on a PostgreSQL
// store that holds no feed key, with a --data that has no secret file,
// says so and makes none: a key made there would print links that the
// daemon, still on its data directory's key, never serves.
func TestPostgresSentinelFeedNeedsKey(t *testing.T) {
	dsn := postgresDSN(t)
	st, err := postgres.Open(context.Background(), dsn) // a store, without keys
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	data := filepath.Join(t.TempDir(), "data")
	code, out, errOut := runVigil(t, "", "sentinel", "feed", "--postgres", dsn, "--data", data, "any")
	if code != exitError || out != "" || !strings.Contains(errOut, "holds no key secret") || !strings.Contains(errOut, data) {
		t.Errorf("exit %d, %q, %q; want exit %d and that neither the store nor %s holds the key", code, out, errOut, exitError, data)
	}
	if _, err := st.Secret(context.Background(), secretFile); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("the store's key after vigil sentinel feed: %v, want none", err)
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("vigil sentinel feed made %s (stat: %v)", data, err)
	}
}

// TestPostgresKeyNotMadeForUsedStore: on a PostgreSQL store upgraded from
// a release that kept the feed key in a data directory (its sentinels'
// feed links made with that file's key, no key in the store), vigil
// sentinel add run elsewhere, without that --data, makes no key: one made
// there would be the store's from then on, and every feed link and
// session the daemon gave out before would stop working at its restart.
// It says where the key is to come from; with the daemon's --data it
// copies the file's key, as before.
func TestPostgresKeyNotMadeForUsedStore(t *testing.T) {
	dsn := postgresDSN(t)
	old := t.TempDir()
	secret := writeKeyFile(t, old, secretFile)
	src := writeFile(t, t.TempDir(), "s.ssl", "Create Sentinel upgraded Using http://example.org/page Monitor any change Every 1 day\n")
	runBinary(t, "sentinel", "add", "--postgres", dsn, "--data", old, src)
	// The store as the release before the secrets table left it.
	sdb, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	if _, err := sdb.Exec("DELETE FROM secrets"); err != nil {
		t.Fatal(err)
	}

	src2 := writeFile(t, t.TempDir(), "t.ssl", "Create Sentinel later Using http://example.org/other Monitor any change Every 1 day\n")
	elsewhere := filepath.Join(t.TempDir(), "data")
	code, out, errOut := runVigil(t, "", "sentinel", "add", "--postgres", dsn, "--data", elsewhere, src2)
	if code != exitError || out != "" || !strings.Contains(errOut, "holds no key "+secretFile) || !strings.Contains(errOut, "sentinels") || !strings.Contains(errOut, "vigil keys rotate feed") {
		t.Errorf("exit %d, %q, %q; want exit %d, that the store, which has sentinels, holds no key, and how to start over", code, out, errOut, exitError)
	}
	st, err := postgres.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if got, err := st.Secret(context.Background(), secretFile); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Fatalf("the store's key after vigil sentinel add elsewhere: %q, %v; want none", got, err)
	}

	runBinary(t, "sentinel", "add", "--postgres", dsn, "--data", old, src2)
	if got, err := st.Secret(context.Background(), secretFile); err != nil || string(got) != secret {
		t.Errorf("the store's key after vigil sentinel add with the old --data: %q, %v; want the file's", got, err)
	}

	// Starting over, as the message says, without the old data directory:
	// a new key, with which the commands run anywhere work again.
	if _, err := sdb.Exec("DELETE FROM secrets"); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runVigil(t, "", "keys", "rotate", "--postgres", dsn, "--data", elsewhere, "feed"); code != exitOK {
		t.Fatalf("keys rotate feed on a store without a key: exit %d, %s", code, errOut)
	}
	if got, err := st.Secret(context.Background(), secretFile); err != nil || len(got) != 64 || string(got) == secret {
		t.Errorf("the store's key after keys rotate feed: %v; want a new one", err)
	}
	src3 := writeFile(t, t.TempDir(), "u.ssl", "Create Sentinel again Using http://example.org/again Monitor any change Every 1 day\n")
	if code, _, errOut := runVigil(t, "", "sentinel", "add", "--postgres", dsn, "--data", elsewhere, src3); code != exitOK {
		t.Errorf("sentinel add after keys rotate feed: exit %d, %s", code, errOut)
	}
}

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/postgres"
)

// TestPostgresWebhookSecretFlagDiffers: on a PostgreSQL store, a daemon
// given --webhook-secret signs with it, while the daemons started before
// without it sign with the store's key: a receiver that checks one key
// refuses the others' deliveries, depending on which daemon sent them.
// Such a daemon warns at its start (without either key), and one given
// the store's own key, or started without the flag, does not.
func TestPostgresWebhookSecretFlagDiffers(t *testing.T) {
	dsn := postgresDSN(t)
	a := startDaemon(t, t.TempDir(), "--postgres", dsn)
	if log := a.stderr.String(); strings.Contains(log, "--webhook-secret") {
		t.Errorf("a daemon without --webhook-secret warns of it:\n%s", log)
	}
	const flagKey = "a-key-of-this-daemon-only-0123456789abcdef"
	b := startDaemon(t, t.TempDir(), "--postgres", dsn, "--webhook-secret", flagKey)
	log := b.stderr.String()
	if !strings.Contains(log, "level=WARN") || !strings.Contains(log, "--webhook-secret") || !strings.Contains(log, "store's") {
		t.Errorf("a daemon whose --webhook-secret is not the store's key does not warn:\n%s", log)
	}
	if strings.Contains(log, flagKey) {
		t.Errorf("the log shows the key given:\n%s", log)
	}

	st, err := postgres.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	key, err := st.Secret(context.Background(), webhookSecretFile)
	if err != nil {
		t.Fatal(err)
	}
	c := startDaemon(t, t.TempDir(), "--postgres", dsn, "--webhook-secret", string(key))
	if log := c.stderr.String(); strings.Contains(log, "--webhook-secret") {
		t.Errorf("a daemon given the store's own key warns:\n%s", log)
	}
}

// TestPostgresWebhookSecretFlagIsTheStoresKey: on a PostgreSQL store,
// --webhook-secret is the store's webhook key from the start of the daemon
// given it, so that the daemons of the store agree. The first daemon of a
// fresh store given the flag kept its key to itself, and those started
// after without it signed with a key of their own, unwarned; daemons all
// given the same flag were warned at every start of a store key none of
// them used. Only a start that replaces another key warns (daemons
// started before without the flag sign with that one until restarted).
func TestPostgresWebhookSecretFlagIsTheStoresKey(t *testing.T) {
	const flagKey = "the-key-of-every-daemon-0123456789abcdef"
	storeKey := func(t *testing.T, dsn string) string {
		t.Helper()
		st, err := postgres.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		key, err := st.Secret(context.Background(), webhookSecretFile)
		if err != nil {
			t.Fatal(err)
		}
		return string(key)
	}

	t.Run("the first daemon of a fresh store has the flag", func(t *testing.T) {
		dsn := postgresDSN(t)
		b := startDaemon(t, t.TempDir(), "--postgres", dsn, "--webhook-secret", flagKey)
		if log := b.stderr.String(); warned(log) || strings.Contains(log, flagKey) {
			t.Errorf("the first daemon of a fresh store, given --webhook-secret, warns or shows the key:\n%s", log)
		}
		data := t.TempDir()
		a := startDaemon(t, data, "--postgres", dsn)
		a.stop(t)
		if got := storeKey(t, dsn); got != flagKey {
			t.Errorf("the store's webhook key is not the first daemon's --webhook-secret: daemons started without it sign with another")
		}
		if b, err := os.ReadFile(filepath.Join(data, webhookSecretFile)); err != nil || strings.TrimSpace(string(b)) != flagKey {
			t.Errorf("a daemon started without the flag does not copy the flag's key to its data directory: %v", err)
		}
	})

	t.Run("every daemon has the same flag", func(t *testing.T) {
		dsn := postgresDSN(t)
		// A start without the flag, before the flag was used, made the
		// store's key.
		startDaemon(t, t.TempDir(), "--postgres", dsn).stop(t)
		b := startDaemon(t, t.TempDir(), "--postgres", dsn, "--webhook-secret", flagKey)
		if log := b.stderr.String(); !warned(log) || !strings.Contains(log, "--webhook-secret") || !strings.Contains(log, "restart") {
			t.Errorf("the start that replaces the store's key does not warn the daemons without the flag must restart:\n%s", log)
		}
		if got := storeKey(t, dsn); got != flagKey {
			t.Errorf("the store's webhook key is not the --webhook-secret given")
		}
		c := startDaemon(t, t.TempDir(), "--postgres", dsn, "--webhook-secret", flagKey)
		if log := c.stderr.String(); warned(log) {
			t.Errorf("a daemon given the same --webhook-secret as the others warns:\n%s", log)
		}
		const other = "another-key-of-another-daemon-0123456789"
		d := startDaemon(t, t.TempDir(), "--postgres", dsn, "--webhook-secret", other)
		if log := d.stderr.String(); !warned(log) || strings.Contains(log, other) || strings.Contains(log, flagKey) {
			t.Errorf("a daemon given another --webhook-secret than the others does not warn, or shows a key:\n%s", log)
		}
	})
}

// warned reports whether a daemon's log holds a warning other than
// Chromium's: that of its sandbox, which a daemon run as root (CI) gives at
// every start, and that rendering is off, which one gives on a machine
// without Chromium (go test ./... on a fresh one failed for it).
func warned(log string) bool {
	for line := range strings.Lines(log) {
		if strings.Contains(line, "level=WARN") && !strings.Contains(line, "Chromium renders pages without its sandbox") &&
			!strings.Contains(line, "rendering is off") {
			return true
		}
	}
	return false
}

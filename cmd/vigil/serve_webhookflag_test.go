package main

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/postgres"
)

// TestPostgresWebhookSecretFlagDiffers: on a PostgreSQL store, a daemon
// given --webhook-secret signs with it, while the daemons started without
// it sign with the store's key: a receiver that checks one key refuses the
// others' deliveries, depending on which daemon sent them. Such a daemon
// warns at its start (without either key), and one given the store's own
// key, or started without the flag, does not.
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

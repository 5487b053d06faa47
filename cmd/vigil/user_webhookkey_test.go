package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/notify/webhook"
	"github.com/vigil-web/vigil/internal/postgres"
)

// TestUserWebhookKey: vigil user webhook-key prints the user's webhook
// key under the key the daemon signs with: the data directory's
// webhook-secret file, or --webhook-secret (VIGIL_WEBHOOK_SECRET) when
// given, as a daemon given it signs with it; each user gets their own,
// and a new server key (keys rotate webhook) gives them a new one. Bad
// input is refused, saying what is wrong, without printing any key.
func TestUserWebhookKey(t *testing.T) {
	data := newStoreDir(t)
	for _, email := range []string{"ada@example.com", "bob@example.com"} {
		if code, _, errOut := runVigil(t, "", "user", "add", "--data", data, email); code != exitOK {
			t.Fatalf("user add %s: exit %d, %s", email, code, errOut)
		}
	}
	ada, bob := storedUser(t, data, "ada@example.com"), storedUser(t, data, "bob@example.com")
	const flagKey = "the-key-of-a-daemon-given-the-flag-0123456789"
	noFile := filepath.Join(t.TempDir(), "data")
	if err := os.Rename(newStoreDir(t), noFile); err != nil {
		t.Fatal(err)
	}

	// The daemon's first start makes the file; rotate makes another.
	if code, _, errOut := runVigil(t, "", "keys", "rotate", "--data", data, "webhook"); code != exitOK {
		t.Fatalf("keys rotate webhook: exit %d, %s", code, errOut)
	}
	fileKey := []byte(keyFile(t, data, webhookSecretFile))
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string // the key printed
	}{
		{"ada, the file's key", nil, []string{"--data", data, "ada@example.com"}, string(webhook.UserKey(fileKey, ada.ID))},
		{"bob, the file's key", nil, []string{"--data", data, "Bob@Example.com"}, string(webhook.UserKey(fileKey, bob.ID))},
		{"ada, --webhook-secret", nil, []string{"--data", data, "--webhook-secret", flagKey, "ada@example.com"}, string(webhook.UserKey([]byte(flagKey), ada.ID))},
		{"ada, VIGIL_WEBHOOK_SECRET", map[string]string{"VIGIL_WEBHOOK_SECRET": flagKey}, []string{"--data", data, "ada@example.com"}, string(webhook.UserKey([]byte(flagKey), ada.ID))},
	} {
		code, out, errOut := runVigilEnv(t, tc.env, append([]string{"user", "webhook-key"}, tc.args...)...)
		if code != exitOK || out != tc.want+"\n" || errOut != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 0 and %q", tc.name, code, out, errOut, tc.want)
		}
	}
	_, adaKey, _ := runVigil(t, "", "user", "webhook-key", "--data", data, "ada@example.com")
	if code, _, errOut := runVigil(t, "", "keys", "rotate", "--data", data, "webhook"); code != exitOK {
		t.Fatalf("keys rotate webhook: exit %d, %s", code, errOut)
	}
	if _, rotated, _ := runVigil(t, "", "user", "webhook-key", "--data", data, "ada@example.com"); rotated == adaKey || len(rotated) != 65 {
		t.Errorf("after keys rotate webhook, ada's key is %q, was %q: want a new one", rotated, adaKey)
	}

	for _, tc := range []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"no email", []string{"--data", data}, "Usage: vigil user webhook-key"},
		{"not an email", []string{"--data", data, "ada"}, "email"},
		{"no such user", []string{"--data", data, "carol@example.com"}, "no user carol@example.com"},
		{"a short --webhook-secret", []string{"--data", data, "--webhook-secret", "hunter2hunter2", "ada@example.com"}, "--webhook-secret (or VIGIL_WEBHOOK_SECRET) holds 14 bytes, fewer than the 32 a secret needs"},
		{"no store", []string{"--data", filepath.Join(t.TempDir(), "none"), "ada@example.com"}, "no store in"},
	} {
		code, out, errOut := runVigil(t, "", append([]string{"user", "webhook-key"}, tc.args...)...)
		if code != exitError || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2 and %q", tc.name, code, out, errOut, tc.want)
		}
		if strings.Contains(errOut, "hunter2") {
			t.Errorf("%s: the key given is shown: %s", tc.name, errOut)
		}
	}
	if code, _, _ := runVigil(t, "", "user", "add", "--data", noFile, "ada@example.com"); code != exitOK {
		t.Fatal("user add in the store without a webhook key")
	}
	code, out, errOut := runVigil(t, "", "user", "webhook-key", "--data", noFile, "ada@example.com")
	if code != exitError || out != "" || !strings.Contains(errOut, "no webhook-secret file in "+noFile) {
		t.Errorf("a data directory without the daemon's key: exit %d, stdout %q, stderr %q; want 2 and that it has no webhook-secret file", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(noFile, webhookSecretFile)); err == nil {
		t.Error("user webhook-key made a webhook key, which no daemon signs with")
	}
}

// TestUserWebhookKeyPostgres: on PostgreSQL, vigil user webhook-key
// derives the key from the store's webhook key, which the daemons of the
// store sign with, whatever the data directory given: not from a
// webhook-secret file there that is not the store's.
func TestUserWebhookKeyPostgres(t *testing.T) {
	dsn := postgresDSN(t)
	made, err := postgres.Open(context.Background(), dsn) // the store, as a daemon's first start makes it
	if err != nil {
		t.Fatal(err)
	}
	made.Close()
	if code, _, errOut := runVigil(t, "", "user", "add", "--postgres", dsn, "ada@example.com"); code != exitOK {
		t.Fatalf("user add: exit %d, %s", code, errOut)
	}
	rotated := t.TempDir()
	if code, _, errOut := runVigil(t, "", "keys", "rotate", "--postgres", dsn, "--data", rotated, "webhook"); code != exitOK {
		t.Fatalf("keys rotate webhook: exit %d, %s", code, errOut)
	}
	storeKey := []byte(keyFile(t, rotated, webhookSecretFile)) // the store's, copied
	stale := t.TempDir()
	if err := os.WriteFile(filepath.Join(stale, webhookSecretFile), []byte("a-stale-key-no-daemon-signs-with-0123456789\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := openExistingStore(t.Context(), "", dsn)
	if err != nil {
		t.Fatal(err)
	}
	ada, err := st.FindUserByEmail(t.Context(), "ada@example.com")
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := string(webhook.UserKey(storeKey, ada.ID)) + "\n"
	code, out, errOut := runVigil(t, "", "user", "webhook-key", "--postgres", dsn, "--data", stale, "ada@example.com")
	if code != exitOK || out != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want 0 and %q, the store key's", code, out, errOut, want)
	}
}

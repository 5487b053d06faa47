package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/vigil-web/vigil"
)

func init() {
	register(&command{name: "keys rotate", summary: "replace the server's feed and session key, or its webhook signing key, with a new one", run: runKeysRotate})
}

// rotatableKeys names the keys keys rotate replaces, by the word a user
// gives, with what a new key changes.
var rotatableKeys = []struct {
	word, name, changes string
}{
	{"feed", secretFile, "every sentinel's feed links changed (vigil sentinel feed prints the new ones), every user signs in again"},
	{"webhook", webhookSecretFile, "webhooks are signed with the new key: give it to their receivers; every user's webhook key is new too (vigil user webhook-key prints it; each user sees theirs on the dashboard's API tokens page)"},
}

// runKeysRotate replaces one of the server's keys (secret.go) with a new
// random one: the feed key, which also keys the session cookies and form
// tokens, or the webhook signing key, from which every user's webhook key
// is derived (webhook.UserKey), so that theirs change with it. It is what an operator does when a
// key leaked: on SQLite it rewrites the data directory's file, on
// PostgreSQL the store's key (and the data directory's copy). A running
// daemon keeps the key it started with, so on SQLite, where the data
// directory's lock tells whether one runs, rotate refuses while it does;
// on PostgreSQL it says to restart every daemon of the store. The key
// itself is never printed.
func runKeysRotate(ctx context.Context, env *environment, args []string) (code int, err error) {
	fs := newSentinelFlagSet(env, "keys rotate", "feed|webhook", "Rotate replaces one of the server's keys with a new random one, for a key that\n"+
		"leaked or receivers that should no longer check signatures:\n"+
		"  feed     the key of the sentinels' feed links, the session cookies and the\n"+
		"           forms' tokens: every feed link changes (vigil sentinel feed prints\n"+
		"           the new ones) and every user signs in again;\n"+
		"  webhook  the key webhook deliveries are signed with: give the receivers the\n"+
		"           new one, the data directory's webhook-secret file; every user's\n"+
		"           webhook key, derived from it, changes too (vigil user webhook-key).\n"+
		"A running vigil serve keeps the key it started with. On SQLite, stop it first\n"+
		"(rotate refuses while it runs) and start it again after; on PostgreSQL, restart\n"+
		"every vigil serve of the store after. The key is never printed.")
	sf := addStoreFlags(fs, env)
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitError, errUsageShown
	}
	key := -1
	for k, rk := range rotatableKeys {
		if fs.Arg(0) == rk.word {
			key = k
		}
	}
	if key < 0 {
		return exitError, fmt.Errorf("%q: want feed or webhook", fs.Arg(0))
	}
	rk := rotatableKeys[key]
	shared := *sf.postgres != ""
	if !shared {
		// Checked before the store is opened, and again after the new
		// key is written (a daemon that started meanwhile read the old
		// one, or the new one: either way the operator is told).
		if dataDirHeld(*sf.data) != nil {
			return exitError, fmt.Errorf("%s is running on the data directory %s and keeps the key it started with: stop it, rotate, and start it again", lockHolder(*sf.data), *sf.data)
		}
	}
	st, err := openExistingStore(ctx, *sf.data, *sf.postgres)
	if err != nil {
		return exitError, err
	}
	defer closeStore(st, &code, &err)
	newKey, err := newSecret()
	if err != nil {
		return exitError, err
	}
	path := filepath.Join(*sf.data, rk.name)
	if !shared {
		if err := replaceSecretFile(*sf.data, rk.name, newKey); err != nil {
			return exitError, fmt.Errorf("write the new %s key to %s: %w (the old key stays)", rk.word, path, err)
		}
		fmt.Fprintf(env.stdout, "the %s key in %s is new: %s; start vigil serve again\n", rk.word, path, rk.changes)
		if dataDirHeld(*sf.data) != nil {
			return exitError, fmt.Errorf("the key is new, but %s started on the data directory %s while it was replaced, and may use the old one: restart it", lockHolder(*sf.data), *sf.data)
		}
		return exitOK, nil
	}
	ss, ok := st.(vigil.SecretStore)
	if !ok {
		return exitError, errors.New("this store backend keeps no keys (vigil.SecretStore)")
	}
	if _, err := ss.ReplaceSecret(ctx, rk.name, newKey); err != nil {
		return exitError, fmt.Errorf("store the new %s key: %w", rk.word, err)
	}
	// The data directory's copy: the webhook key's, which the receivers'
	// administrator reads, always; the feed key's where there is one (a
	// key imported from it), so that the old key neither stays on disk
	// nor is copied back into a store that lost its own.
	copied := ""
	if existing, _ := readSecretFile(*sf.data, rk.name); existing != nil || rk.name == webhookSecretFile {
		if err := replaceSecretFile(*sf.data, rk.name, newKey); err != nil {
			return exitError, fmt.Errorf("the store's key is new, but its copy in %s: %w", path, err)
		}
		copied = " (copied to " + path + ")"
	}
	fmt.Fprintf(env.stdout, "the store's %s key is new%s: %s; restart every vigil serve of this store\n", rk.word, copied, rk.changes)
	if rk.name == webhookSecretFile {
		fmt.Fprintf(env.stdout, "a vigil serve given --webhook-secret (or VIGIL_WEBHOOK_SECRET) makes its own key the store's when it starts: give it the new key, or neither\n")
	}
	return exitOK, nil
}

// replaceSecretFile writes key to the data directory's file called name,
// readable by its owner only, replacing the file there if any. The file
// changes whole or not at all (written under another name, synced, then
// renamed over the old one, and the directory synced), so that a process
// starting at the same moment reads the old key or the new one, never a
// part, and after a power loss the new key is there, as in the store.
func replaceSecretFile(dataDir, name string, key []byte) error {
	tmp, err := tempSecretFile(dataDir, name, key)
	if err != nil {
		return err
	}
	defer os.Remove(tmp) // gone once renamed
	if err := os.Rename(tmp, filepath.Join(dataDir, name)); err != nil {
		return err
	}
	return syncDir(dataDir)
}

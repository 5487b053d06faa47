package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/vigil-web/vigil"
)

// The server's keys. secretFile keys the feed tokens, the session cookies
// and the CSRF tokens; webhookSecretFile, unless --webhook-secret says
// otherwise, the webhook signatures. They are apart because the webhook
// key is handed to the receivers, who must be able to check a signature
// and nothing more (the server's secret would let them read every feed).
//
// Where they are kept depends on the store (keyring):
//   - SQLite: files of the data directory, which is where the store
//     lives, made on first use.
//   - PostgreSQL: the store's secrets table (vigil.SecretStore), so that
//     every daemon and command using the store agrees, whatever its
//     --data and working directory. A key missing there is taken from the
//     data directory's file when there is one (an installation upgraded
//     from a release that kept it there keeps its feed links and
//     sessions), else made anew, but for the feed key of a store that
//     has sentinels already (keyring.unkeyedSentinels); it is written
//     once, and the first process to write it wins, but for the webhook
//     key that a daemon's --webhook-secret sets (keyring.setWebhookKey).
const (
	secretFile        = "secret"
	webhookSecretFile = "webhook-secret"
	// minSecretLen is the fewest bytes a secret may have, in a file
	// or given by --webhook-secret (the files made here hold 64 hex
	// digits).
	minSecretLen = 32
)

// keyOrigin says where keyring.load found a key.
type keyOrigin int

const (
	keyFound    keyOrigin = iota // where it is kept
	keyImported                  // in the data directory's file, now copied into the store
	keyCreated                   // nowhere: made anew
)

// keyring finds the server's keys for one store and data directory.
type keyring struct {
	store   vigil.Store
	dataDir string
	// shared is set for a PostgreSQL store: the keys are the store's.
	shared bool
}

// newKeyring returns the keyring of st; dsn is the PostgreSQL DSN it was
// opened with, empty for SQLite.
func newKeyring(st vigil.Store, dataDir, dsn string) keyring {
	return keyring{store: st, dataDir: dataDir, shared: dsn != ""}
}

// load returns the key called name, making it if there is none.
func (k keyring) load(ctx context.Context, name string) ([]byte, keyOrigin, error) {
	if !k.shared {
		b, created, err := loadSecret(k.dataDir, name)
		if created {
			return b, keyCreated, err
		}
		return b, keyFound, err
	}
	return k.fromStore(ctx, name, true)
}

// read returns the key called name, which must be there already: for a
// command that shows what the daemon's key makes (feed paths), where a
// key made anew would make paths that the daemon never serves.
func (k keyring) read(ctx context.Context, name string) ([]byte, error) {
	if !k.shared {
		return readSecret(k.dataDir, name)
	}
	b, _, err := k.fromStore(ctx, name, false)
	return b, err
}

// fromStore returns the store's key called name. A store without one
// takes the data directory's file, or, if create is set, a new key.
func (k keyring) fromStore(ctx context.Context, name string, create bool) ([]byte, keyOrigin, error) {
	ss, ok := k.store.(vigil.SecretStore)
	if !ok {
		return nil, 0, fmt.Errorf("key %s: this store backend keeps no keys (vigil.SecretStore)", name)
	}
	b, err := ss.Secret(ctx, name)
	if err == nil {
		return b, keyFound, nil
	} else if vigil.ErrorCode(err) != vigil.ENOTFOUND {
		return nil, 0, fmt.Errorf("key %s: %w", name, err)
	}
	key, err := readSecretFile(k.dataDir, name)
	if err != nil {
		return nil, 0, err
	}
	origin := keyImported
	if key == nil {
		if !create {
			return nil, 0, fmt.Errorf("the store holds no key %s, and %s has no %s file to take it from: start vigil serve on this store once (with the --data it used, if it kept its keys there before)", name, k.dataDir, name)
		}
		if err := k.unkeyedSentinels(ctx, name); err != nil {
			return nil, 0, err
		}
		if key, err = newSecret(); err != nil {
			return nil, 0, err
		}
		origin = keyCreated
	}
	b, stored, err := ss.EnsureSecret(ctx, name, key)
	if err != nil {
		return nil, 0, err
	}
	if !stored {
		origin = keyFound // another process's, stored meanwhile
	}
	return b, origin, nil
}

// unkeyedSentinels refuses to make the feed key of a store that has
// sentinels but no such key: a store a release before the secrets table
// used, whose feed links and sessions were made with the key of its
// daemon's data directory. A key made here would be the store's from then
// on, and none of them would work once the daemon restarted.
func (k keyring) unkeyedSentinels(ctx context.Context, name string) error {
	if name != secretFile {
		return nil // the webhook key: receivers may hold the feed key (serve.go)
	}
	_, n, err := k.store.FindSentinels(ctx, vigil.SentinelFilter{Limit: 1})
	if err != nil {
		return fmt.Errorf("key %s: sentinels: %w", name, err)
	}
	if n == 0 {
		return nil
	}
	return fmt.Errorf("the store holds no key %s but has sentinels, whose feed links were made with the %s file of the data directory of the vigil serve that used it, and %s has none: "+
		"give that --data (or start that vigil serve once); to start over with a new key, which changes every feed link and session, run vigil keys rotate feed", name, name, k.dataDir)
}

// fileDiffers reports whether the data directory holds a file called name
// whose key is not key: for a shared store, a file that is not in use.
func (k keyring) fileDiffers(name string, key []byte) bool {
	b, err := readSecretFile(k.dataDir, name)
	return (err != nil || b != nil) && !bytes.Equal(b, key)
}

// writeFile writes key to the data directory's file called name unless
// there is one, and reports whether it did: the webhook key of a shared
// store, where the receivers' administrator looks for it.
func (k keyring) writeFile(name string, key []byte) (bool, error) {
	return createSecretFile(k.dataDir, name, key)
}

// createSecretFile writes key to the data directory's file called name,
// readable by its owner only, unless there is one, and reports whether it
// did. The file appears whole or not at all (written under another name,
// then linked, and the directory synced), so that a process starting at
// the same moment never reads it empty, and it is there after a power
// loss.
func createSecretFile(dataDir, name string, key []byte) (bool, error) {
	tmp, err := tempSecretFile(dataDir, name, key)
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp)
	path := filepath.Join(dataDir, name)
	err = os.Link(tmp, path)
	if errors.Is(err, os.ErrExist) {
		return false, nil
	} else if err == nil {
		return true, syncDir(dataDir)
	}
	// A file system without hard links: made with O_EXCL and written
	// after, as before.
	g, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if _, err := g.Write(append(key, '\n')); err != nil {
		g.Close()
		return false, err
	}
	return true, g.Close()
}

// tempSecretFile writes key and a line end to a new file of dataDir (made
// if need be), readable by its owner only, under a temporary name beside
// the file called name, synced, and returns its path: the caller links or
// renames it into place, so that the key file appears or changes whole,
// and removes it.
func tempSecretFile(dataDir, name string, key []byte) (string, error) {
	if err := makeDataDir(dataDir); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dataDir, "."+name+"-*") // mode 0600
	if err != nil {
		return "", err
	}
	_, err = f.Write(append(key, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// checkWebhookSecretFlag refuses a --webhook-secret (or
// VIGIL_WEBHOOK_SECRET) shorter than a secret must be: a short key can be
// found by trying keys against one signed request. The key itself is not
// repeated, as it is never logged.
func checkWebhookSecretFlag(key string) error {
	if n := len(key); n > 0 && n < minSecretLen {
		return fmt.Errorf("--webhook-secret (or VIGIL_WEBHOOK_SECRET) holds %d bytes, fewer than the %d a secret needs", n, minSecretLen)
	}
	return nil
}

// readSecret reads a secret of the data directory that must be there
// already (keyring.read).
func readSecret(dataDir, name string) ([]byte, error) {
	b, err := readSecretFile(dataDir, name)
	if b == nil && err == nil {
		return nil, fmt.Errorf("no %s file in %s: give the --data of the vigil serve that uses this store", name, dataDir)
	}
	return b, err
}

// readSecretFile reads a secret of the data directory, nil if there is
// no such file.
func readSecretFile(dataDir, name string) ([]byte, error) {
	path := filepath.Join(dataDir, name)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	s := strings.TrimSpace(string(b))
	if len(s) < minSecretLen {
		// Not replaced: feeds, sessions or receivers may depend on it.
		return nil, fmt.Errorf("%s holds %d bytes, fewer than the %d a secret needs: put a longer one there, or remove the file to have one made", path, len(s), minSecretLen)
	}
	return []byte(s), nil
}

// newSecret returns a new key: 64 hex digits.
func newSecret() ([]byte, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	return []byte(hex.EncodeToString(raw)), nil
}

// loadSecret reads a secret of the data directory, creating it on first
// use, and reports whether it created it.
func loadSecret(dataDir, name string) ([]byte, bool, error) {
	if b, err := readSecretFile(dataDir, name); b != nil || err != nil {
		return b, false, err
	}
	s, err := newSecret()
	if err != nil {
		return nil, false, err
	}
	created, err := createSecretFile(dataDir, name, s)
	if err != nil {
		return nil, false, err
	}
	if !created {
		return loadSecret(dataDir, name) // created meanwhile by another process
	}
	return s, true, nil
}

// report logs, for a shared store, where the key called name came from
// when it was not the store's already, and warns of a data directory's
// file that holds another key, which is no longer used. The keys
// themselves are never logged.
func (k keyring) report(logger *slog.Logger, name string, key []byte, origin keyOrigin) {
	if !k.shared {
		return
	}
	path := filepath.Join(k.dataDir, name)
	switch origin {
	case keyImported:
		logger.Info("the data directory's key copied into the store, which every process using it reads from now on", "file", path, "key", name)
	case keyCreated:
		logger.Info("key created in the store", "key", name)
	}
	if k.fileDiffers(name, key) {
		logger.Warn("the data directory's key file is not the store's key, which is used: feed links, sessions or signatures made with the file's no longer work; remove the file", "file", path, "key", name)
	}
}

// setWebhookKey makes key, given by --webhook-secret to a daemon of the
// PostgreSQL store of k, the store's webhook key, which the daemons of the
// store started without the flag sign with: so the daemons of one store
// sign with one key, whichever of them has the flag and whichever starts
// first. It warns when it replaces another key, which daemons started
// before without the flag, and those given another --webhook-secret, sign
// with until they restart, and of a data directory's copy of another key.
// Neither key is logged.
func (k keyring) setWebhookKey(ctx context.Context, logger *slog.Logger, key []byte) error {
	ss, ok := k.store.(vigil.SecretStore)
	if !ok {
		return fmt.Errorf("key %s: this store backend keeps no keys (vigil.SecretStore)", webhookSecretFile)
	}
	stored, err := ss.Secret(ctx, webhookSecretFile)
	if err != nil && vigil.ErrorCode(err) != vigil.ENOTFOUND {
		return fmt.Errorf("key %s: %w", webhookSecretFile, err)
	}
	if !bytes.Equal(stored, key) {
		if stored, err = ss.ReplaceSecret(ctx, webhookSecretFile, key); err != nil {
			return err
		}
	}
	switch {
	case stored == nil:
		logger.Info("the store's webhook signing key is --webhook-secret (or VIGIL_WEBHOOK_SECRET): the daemons of this store started without it sign with it too")
	case !bytes.Equal(stored, key):
		logger.Warn("--webhook-secret (or VIGIL_WEBHOOK_SECRET) replaced the store's webhook signing key: the daemons of this store started before without it sign with the old key until they restart, " +
			"and a daemon given another --webhook-secret signs with that one, so a receiver that checks one key refuses the others' deliveries: " +
			"restart the daemons of the store started without the flag, and give every vigil serve of the store the same --webhook-secret, or none")
	}
	k.report(logger, webhookSecretFile, key, keyFound)
	return nil
}

package vigil

import "context"

// SecretStore keeps the server's named keys in the store itself, so that
// every process using one store (several vigil serve on one PostgreSQL
// database, and the commands run beside them) uses the same keys: the
// key of the feed tokens and session cookies, and that of the webhook
// signatures. A key, once stored, is replaced only by ReplaceSecret: the
// webhook key, which an operator may set for every process of the store.
type SecretStore interface {
	// Secret returns the key stored under name; ENOTFOUND if there is
	// none.
	Secret(ctx context.Context, name string) ([]byte, error)
	// EnsureSecret stores key under name unless a key is stored there
	// already, and returns the stored key and whether it is this key
	// (this call stored it). Processes that call it at once with
	// different keys all get back the one that was stored first. It
	// returns EINVALID for an empty name or key.
	EnsureSecret(ctx context.Context, name string, key []byte) ([]byte, bool, error)
	// ReplaceSecret stores key under name, replacing the key stored
	// there, and returns the key it replaced (nil if there was none).
	// It returns EINVALID for an empty name or key.
	ReplaceSecret(ctx context.Context, name string, key []byte) ([]byte, error)
}

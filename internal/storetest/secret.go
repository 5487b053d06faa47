package storetest

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/vigil-web/vigil"
)

// secretStore returns s as a vigil.SecretStore, failing the test if it
// is none.
func secretStore(t *testing.T, s vigil.Store) vigil.SecretStore {
	t.Helper()
	ss, ok := s.(vigil.SecretStore)
	if !ok {
		t.Fatalf("%T does not implement vigil.SecretStore", s)
	}
	return ss
}

// testSecrets checks that a key is stored once and kept: a second
// EnsureSecret gets the first key back, and names are apart; only
// ReplaceSecret replaces one.
func testSecrets(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	ss := secretStore(t, s)
	_, err := ss.Secret(ctx, "secret")
	wantCode(t, err, vigil.ENOTFOUND)

	first := []byte("0123456789abcdef0123456789abcdef\x00\xff")
	got, stored, err := ss.EnsureSecret(ctx, "secret", first)
	must(t, err)
	if !stored || !bytes.Equal(got, first) {
		t.Fatalf("first EnsureSecret: %q, stored %v; want %q, true", got, stored, first)
	}
	got, stored, err = ss.EnsureSecret(ctx, "secret", []byte("another key, never stored........"))
	must(t, err)
	if stored || !bytes.Equal(got, first) {
		t.Fatalf("second EnsureSecret: %q, stored %v; want the first key %q, false", got, stored, first)
	}
	got, err = ss.Secret(ctx, "secret")
	must(t, err)
	if !bytes.Equal(got, first) {
		t.Fatalf("Secret: %q, want %q", got, first)
	}

	_, err = ss.Secret(ctx, "webhook-secret")
	wantCode(t, err, vigil.ENOTFOUND)
	other := []byte("the webhook key, apart from the other")
	got, stored, err = ss.EnsureSecret(ctx, "webhook-secret", other)
	must(t, err)
	if !stored || !bytes.Equal(got, other) {
		t.Fatalf("EnsureSecret of another name: %q, stored %v; want %q, true", got, stored, other)
	}

	// The webhook key replaced: the old one comes back, the new one is
	// read from then on, and EnsureSecret keeps it.
	third := []byte("the webhook key an operator gave....")
	old, err := ss.ReplaceSecret(ctx, "webhook-secret", third)
	must(t, err)
	if !bytes.Equal(old, other) {
		t.Fatalf("ReplaceSecret: replaced %q, want %q", old, other)
	}
	got, err = ss.Secret(ctx, "webhook-secret")
	must(t, err)
	if !bytes.Equal(got, third) {
		t.Fatalf("Secret after ReplaceSecret: %q, want %q", got, third)
	}
	got, stored, err = ss.EnsureSecret(ctx, "webhook-secret", other)
	must(t, err)
	if stored || !bytes.Equal(got, third) {
		t.Fatalf("EnsureSecret after ReplaceSecret: %q, stored %v; want %q, false", got, stored, third)
	}
	got, err = ss.Secret(ctx, "secret")
	must(t, err)
	if !bytes.Equal(got, first) {
		t.Fatalf("ReplaceSecret of another name changed %q: %q", "secret", got)
	}
	old, err = ss.ReplaceSecret(ctx, "new-key", third)
	must(t, err)
	if old != nil {
		t.Fatalf("ReplaceSecret of a name with no key: replaced %q, want nil", old)
	}
	got, err = ss.Secret(ctx, "new-key")
	must(t, err)
	if !bytes.Equal(got, third) {
		t.Fatalf("Secret after ReplaceSecret of a new name: %q, want %q", got, third)
	}
	_, err = ss.ReplaceSecret(ctx, "", third)
	wantCode(t, err, vigil.EINVALID)
	_, err = ss.ReplaceSecret(ctx, "empty", nil)
	wantCode(t, err, vigil.EINVALID)

	_, _, err = ss.EnsureSecret(ctx, "", first)
	wantCode(t, err, vigil.EINVALID)
	_, _, err = ss.EnsureSecret(ctx, "empty", nil)
	wantCode(t, err, vigil.EINVALID)
	_, err = ss.Secret(ctx, "empty")
	wantCode(t, err, vigil.ENOTFOUND)
}

// testSecretsConcurrent has several processes' first starts store their
// own new key under one name at once: exactly one is stored, and every
// caller gets that one back.
func testSecretsConcurrent(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	ss := secretStore(t, s)
	const n = 8
	got := make([][]byte, n)
	stored := make([]bool, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			got[i], stored[i], errs[i] = ss.EnsureSecret(ctx, "secret", fmt.Appendf(nil, "key of process %d, 32 bytes or more", i))
		}()
	}
	close(start)
	wg.Wait()
	winners := 0
	for i := range n {
		must(t, errs[i])
		if !bytes.Equal(got[i], got[0]) {
			t.Fatalf("caller %d got %q, caller 0 %q: they disagree", i, got[i], got[0])
		}
		if stored[i] {
			winners++
			if want := fmt.Appendf(nil, "key of process %d, 32 bytes or more", i); !bytes.Equal(got[i], want) {
				t.Fatalf("caller %d stored its key but got %q back", i, got[i])
			}
		}
	}
	if winners != 1 {
		t.Fatalf("%d callers stored their key, want 1", winners)
	}
	back, err := ss.Secret(ctx, "secret")
	must(t, err)
	if !bytes.Equal(back, got[0]) {
		t.Fatalf("Secret: %q, want the key every caller got, %q", back, got[0])
	}
}

// testSecretsReplaceConcurrent replaces one key from several processes at
// once: the replacements are in some order, each returning the key of the
// one before it, so exactly one finds no key there before it (nil), no
// key is returned twice, and the key stored at the end is returned by
// none. Two that both read no key (a row lock taken on no row) would each
// say they set the first key, though one replaced the other's.
func testSecretsReplaceConcurrent(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	ss := secretStore(t, s)
	const n = 8
	olds := make([][]byte, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			olds[i], errs[i] = ss.ReplaceSecret(ctx, "replaced-concurrently", fmt.Appendf(nil, "key of process %d, 32 bytes or more", i))
		}()
	}
	close(start)
	wg.Wait()
	first := 0
	seen := map[string]bool{}
	for i := range n {
		must(t, errs[i])
		if olds[i] == nil {
			first++
			continue
		}
		if seen[string(olds[i])] {
			t.Fatalf("%q replaced twice", olds[i])
		}
		seen[string(olds[i])] = true
	}
	if first != 1 {
		t.Fatalf("%d callers replaced no key, want 1: %q", first, olds)
	}
	last, err := ss.Secret(ctx, "replaced-concurrently")
	must(t, err)
	if seen[string(last)] {
		t.Fatalf("the key stored at the end, %q, was returned as replaced", last)
	}
}

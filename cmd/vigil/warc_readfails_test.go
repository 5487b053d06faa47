package main

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// readFailsStore's transactions fail a read: the first lookup of a
// resource by URL in one runs a read PostgreSQL refuses (a version at a
// time past the last it keeps), which fails the transaction, and then
// returns that read's error, or, with absent set, takes it for an
// absence and answers ENOTFOUND, as a caller that goes on would.
type readFailsStore struct {
	vigil.Store
	absent bool
}

func (s *readFailsStore) InTransaction(ctx context.Context, fn func(tx vigil.TxStore) error) error {
	return s.Store.(vigil.Transactor).InTransaction(ctx, func(tx vigil.TxStore) error {
		return fn(&readFailsTx{TxStore: tx, absent: s.absent})
	})
}

// readFailsTx is a transaction of readFailsStore.
type readFailsTx struct {
	vigil.TxStore
	absent, failed bool
}

func (tx *readFailsTx) FindResourceByURL(ctx context.Context, rawURL string) (*vigil.Resource, error) {
	if tx.failed {
		return tx.TxStore.FindResourceByURL(ctx, rawURL)
	}
	tx.failed = true
	_, err := tx.VersionAt(ctx, 1, time.Date(300000, 1, 1, 0, 0, 0, 0, time.UTC))
	if err == nil || vigil.ErrorCode(err) == vigil.ENOTFOUND {
		return nil, err // PostgreSQL did not refuse it: the test says so
	}
	if tx.absent {
		return nil, vigil.Errorf(vigil.ENOTFOUND, "no resource has url %s", rawURL)
	}
	return nil, err
}

// TestWARCImportReadFails: an import into PostgreSQL whose transaction a
// read fails (a query PostgreSQL refuses) says so: its error, and the
// command's summary line, name that read's error and that nothing was
// imported, whether the lookup returned the error or took it for an
// absence and the import went on to write; it said "current transaction
// is aborted" (the next statement's error), or "commit unexpectedly
// resulted in rollback", naming no cause. The store holds nothing of it.
func TestWARCImportReadFails(t *testing.T) {
	for _, absent := range []bool{false, true} {
		name := map[bool]string{false: "returned", true: "taken for an absence"}[absent]
		t.Run(name, func(t *testing.T) {
			st := openFlags(t, []string{"--postgres", postgresDSN(t)})
			ctx := context.Background()
			wh, err := openWarehouse(&readFailsStore{Store: st, absent: absent}, warehouse.Options{})
			if err != nil {
				t.Fatal(err)
			}
			file := writeForeignWARC(t, true, pages("2026-01-01T00:00:00Z", "http://example.com/a", "http://example.com/b")...)
			n, skipped, err := importWARC(ctx, wh, file, openT(t, file), warcImportOptions{verify: true}, io.Discard)
			if err == nil || !strings.Contains(err.Error(), "timestamp out of range") || !strings.Contains(err.Error(), "nothing imported") ||
				strings.Contains(err.Error(), "aborted") || strings.Contains(err.Error(), "unexpectedly") || n != 0 {
				t.Errorf("import whose transaction a read failed: %d, %v; want 0 and the read's error, nothing imported", n, err)
			}
			if got, want := importSummary(n, skipped, err), "imported 0 versions; skipped 0 records"; got != want {
				t.Errorf("summary %q, want %q", got, want)
			}
			for _, u := range []string{"http://example.com/a", "http://example.com/b"} {
				if _, err := st.FindResourceByURL(ctx, u); vigil.ErrorCode(err) != vigil.ENOTFOUND {
					t.Errorf("%s after the import failed: %v; want ENOTFOUND", u, err)
				}
			}
		})
	}
}

package storetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// farFuture is a time past the last PostgreSQL keeps (294276 AD): a read
// given it fails there with PostgreSQL's error, which fails the
// transaction it runs in.
var farFuture = time.Date(300000, 1, 1, 0, 0, 0, 0, time.UTC)

// testTransactionReadFails: a read of a transaction that the store
// refuses (ENOTFOUND, EINVALID) or that fails (a query the database
// refuses) is reported as itself. A function that returns the read's
// error gets it back from InTransaction, wrapped or not, with its code,
// and nothing of the transaction is stored. A function that goes on
// after it either goes on in a transaction the read left usable (a
// refusal; any failure on SQLite), all of it committed, or, the read
// having failed the transaction (PostgreSQL), meets the read's error,
// not another, at its next read or write and from InTransaction, which
// commits nothing: PostgreSQL's "current transaction is aborted" or
// "commit unexpectedly resulted in rollback" named no cause.
func testTransactionReadFails(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	tr, ok := s.(vigil.Transactor)
	if !ok {
		t.Fatalf("%T does not implement vigil.Transactor", s)
	}
	old, err := s.EnsureResource(ctx, "http://old.example/")
	must(t, err)
	appendBody(t, s, old, 0, t0, "old")
	reads := []struct {
		name string
		read func(tx vigil.TxStore) error
	}{
		{"resource not found", func(tx vigil.TxStore) error {
			_, err := tx.FindResourceByURL(ctx, "http://absent.example/")
			return err
		}},
		{"resource URL refused", func(tx vigil.TxStore) error {
			_, err := tx.FindResourceByURL(ctx, "ftp://absent.example/")
			return err
		}},
		{"version not found", func(tx vigil.TxStore) error {
			_, err := tx.FindVersionByID(ctx, 1<<40)
			return err
		}},
		{"blob of a hash holding a NUL", func(tx vigil.TxStore) error {
			_, err := tx.FindBlob(ctx, "a\x00b")
			return err
		}},
		{"version at a time past the last PostgreSQL keeps", func(tx vigil.TxStore) error {
			_, err := tx.VersionAt(ctx, old.ID, farFuture)
			return err
		}},
		{"versions since a time past the last PostgreSQL keeps", func(tx vigil.TxStore) error {
			_, _, err := tx.FindVersions(ctx, vigil.VersionFilter{ResourceID: old.ID, Since: farFuture})
			return err
		}},
	}
	for i, c := range reads {
		t.Run(c.name, func(t *testing.T) {
			// Returned: InTransaction returns the read's error.
			returned := fmt.Sprintf("http://returned-%d.example/", i)
			var readErr error
			err := tr.InTransaction(ctx, func(tx vigil.TxStore) error {
				if _, err := tx.EnsureResource(ctx, returned); err != nil {
					return err
				}
				if readErr = c.read(tx); readErr != nil {
					return fmt.Errorf("reading: %w", readErr)
				}
				return nil
			})
			_, stored := s.FindResourceByURL(ctx, returned)
			switch {
			case readErr == nil && (err != nil || stored != nil):
				// (A store may answer where another fails.)
				t.Errorf("a transaction whose read answered: %v, its resource %v; want it committed", err, stored)
			case readErr == nil:
			case !errors.Is(err, readErr) || vigil.ErrorCode(err) != vigil.ErrorCode(readErr):
				t.Errorf("InTransaction whose function returns its read's error %v (%s): %v (%s); want that error",
					readErr, vigil.ErrorCode(readErr), err, vigil.ErrorCode(err))
			case vigil.ErrorCode(stored) != vigil.ENOTFOUND:
				t.Errorf("a resource of the transaction rolled back stays: %v", stored)
			}

			// Gone on, to the end of the function (the commit) or to
			// a read and a write: the transaction commits, or says why
			// it cannot.
			for _, more := range []bool{false, true} {
				before, after := fmt.Sprintf("http://before-%d-%t.example/", i, more), fmt.Sprintf("http://after-%d-%t.example/", i, more)
				var refused bool
				err = tr.InTransaction(ctx, func(tx vigil.TxStore) error {
					if _, err := tx.EnsureResource(ctx, before); err != nil {
						return err
					}
					readErr = c.read(tx)
					switch vigil.ErrorCode(readErr) {
					case "", vigil.ENOTFOUND, vigil.EINVALID, vigil.ECONFLICT:
						refused = true // answered, or refused
					}
					if !more {
						return nil
					}
					// The caller goes on, as one that takes an error
					// for an absence.
					if _, err := tx.FindResourceByURL(ctx, before); err != nil && !mentions(err, readErr) {
						t.Errorf("a read after the read that failed with %v: %v; want what it reads, or the failed read's error", readErr, err)
					}
					r, err := tx.EnsureResource(ctx, after)
					if err != nil {
						return nil // InTransaction says why
					}
					if _, err := txAppend(ctx, tx, r, 0, t0, "after"); err != nil && !mentions(err, readErr) {
						t.Errorf("a write after the read that failed with %v: %v; want it stored, or the failed read's error", readErr, err)
					}
					return nil
				})
				_, errBefore := s.FindResourceByURL(ctx, before)
				_, v, errAfter := s.LatestVersionByURL(ctx, after)
				if !more {
					errAfter = nil
				} else if errAfter == nil && v == nil {
					errAfter = fmt.Errorf("%s stored without its version", after)
				}
				switch {
				case err == nil && (errBefore != nil || errAfter != nil):
					t.Errorf("a transaction committed after a read that failed with %v lacks its writes: %v, %v", readErr, errBefore, errAfter)
				case err == nil:
				case refused:
					t.Errorf("a transaction that goes on after a read refused (%v): %v; want it committed", readErr, err)
				case !mentions(err, readErr):
					t.Errorf("a transaction that goes on after a read that failed with %v: %v; want that error", readErr, err)
				case vigil.ErrorCode(errBefore) != vigil.ENOTFOUND || (more && vigil.ErrorCode(errAfter) != vigil.ENOTFOUND):
					t.Errorf("a transaction that failed (%v) stored its writes: %v, %v", err, errBefore, errAfter)
				}
			}
		})
	}
}

// mentions reports whether err says what cause does (a failed read's
// error, which the store may have wrapped as it returned it).
func mentions(err, cause error) bool {
	return err != nil && cause != nil && strings.Contains(err.Error(), cause.Error())
}

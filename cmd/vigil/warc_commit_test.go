package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// lostCommitStore ends the server process of its transaction on
// PostgreSQL (found by the application_name of its connections) once fn
// returns, just before the commit: the commit's connection is lost.
type lostCommitStore struct {
	vigil.Store
	t     *testing.T
	admin *pgx.Conn
	app   string
}

func (s *lostCommitStore) InTransaction(ctx context.Context, fn func(tx vigil.TxStore) error) error {
	return s.Store.(vigil.Transactor).InTransaction(ctx, func(tx vigil.TxStore) error {
		if err := fn(tx); err != nil {
			return err
		}
		var ended int
		err := s.admin.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE application_name = $1 AND state = 'idle in transaction'`, s.app).Scan(&ended)
		if err != nil || ended != 1 {
			s.t.Errorf("ending the import's connection: %d ended, %v", ended, err)
		}
		return nil
	})
}

// TestWARCImportCommitLost: an import into PostgreSQL whose commit loses
// its connection says that the store holds all its versions or none,
// which is what is known, and that importing the file again adds what
// it lacks; it said "nothing imported (the store is as it was)".
func TestWARCImportCommitLost(t *testing.T) {
	dsn := postgresDSN(t)
	app := "vigil_import_" + strings.ReplaceAll(t.Name(), "/", "_")
	st := openFlags(t, []string{"--postgres", dsn + "&application_name=" + app})
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	wh, err := openWarehouse(&lostCommitStore{Store: st, t: t, admin: admin, app: app}, warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	file := writeForeignWARC(t, true, pages("2026-01-01T00:00:00Z", "http://example.com/a", "http://example.com/b")...)
	n, _, err := importWARC(ctx, wh, file, openT(t, file), warcImportOptions{verify: true}, io.Discard)
	if err == nil || strings.Contains(err.Error(), "as it was") || !strings.Contains(err.Error(), "not known") ||
		!strings.Contains(err.Error(), "all 2 versions or none") || n != 2 {
		t.Errorf("import whose commit is lost: %d, %v; want 2 and an error saying the store holds them all or none", n, err)
	}
}

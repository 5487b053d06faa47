package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
)

// storeFlags are the flags of every command that opens the store.
type storeFlags struct {
	data     *string
	postgres *string
}

// addStoreFlags adds --data (default $VIGIL_DATA, else ./vigil-data) and
// --postgres (default $VIGIL_POSTGRES_DSN) to fs.
func addStoreFlags(fs *flag.FlagSet, env *environment) storeFlags {
	data := env.getenv("VIGIL_DATA")
	if data == "" {
		data = "vigil-data"
	}
	return storeFlags{
		data:     fs.String("data", data, "data directory holding the SQLite store (default $VIGIL_DATA or ./vigil-data)"),
		postgres: secretString(fs, "postgres", env.getenv("VIGIL_POSTGRES_DSN"), "PostgreSQL DSN; uses PostgreSQL instead of SQLite (default $VIGIL_POSTGRES_DSN)"),
	}
}

// openStore opens the store: PostgreSQL at dsn if it is not empty, else
// the SQLite file in dataDir (created if needed). The daemon uses it too.
func openStore(ctx context.Context, dataDir, dsn string) (vigil.Store, error) {
	if dsn != "" {
		return postgres.Open(ctx, dsn)
	}
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	return sqlite.Open(ctx, dataDir)
}

// openWarehouse returns the warehouse service over st with the zstd codec.
func openWarehouse(st vigil.Store, opt warehouse.Options) (*warehouse.Warehouse, error) {
	codec, err := zstd.New(0)
	if err != nil {
		return nil, err
	}
	opt.Codec = codec
	return warehouse.New(st, opt)
}

package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/postgres"
	"github.com/vigil-web/vigil/internal/postgres/pgtest"
)

// TestOpenSearchPathWithoutSchema: a DSN whose search_path names a schema
// that does not exist is refused by Open (which makes a store) and by
// OpenExisting (which reads one) alike, each saying that the schema is
// missing and how to make it: OpenExisting said that vigil sentinel add
// would make the store, and Open then failed with PostgreSQL's "no
// schema has been selected to create in".
func TestOpenSearchPathWithoutSchema(t *testing.T) {
	b := make([]byte, 6)
	rand.Read(b)
	schema := "vigil_nosuch_" + hex.EncodeToString(b)
	d := pgtest.WithSearchPath(t, dsn(t), schema)
	ctx := context.Background()
	want := "CREATE SCHEMA " + schema
	for name, open := range map[string]func(context.Context, string) (*postgres.DB, error){
		"Open": postgres.Open, "OpenExisting": postgres.OpenExisting, "OpenCurrent": postgres.OpenCurrent,
	} {
		db, err := open(ctx, d)
		if err == nil {
			db.Close()
			t.Errorf("%s of a search path whose schema does not exist: no error", name)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, want) || !strings.Contains(msg, "no schema of its search path ("+schema+") exists") ||
			strings.Contains(msg, "no schema has been selected") || strings.Contains(msg, "no store in postgres at") && !strings.Contains(msg, "CREATE SCHEMA") {
			t.Errorf("%s of a search path whose schema does not exist: %q; want it to say the schema is missing and %q", name, msg, want)
		}
	}
}

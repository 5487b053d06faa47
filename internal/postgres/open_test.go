package postgres_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
)

// TestOpenErrorsSayWhere: an Open that cannot reach its database says
// that the PostgreSQL store failed and which one (host, port, database),
// never with the DSN's password, as SQLite's errors name the file; pgx's
// words alone ("failed to connect to `user=vigil database=vigil`: ...")
// named no store, and the port only in passing.
func TestOpenErrorsSayWhere(t *testing.T) {
	const password = "hunter2-secret"
	cases := map[string]struct {
		// dsn returns the DSN and the start of Open's error.
		dsn  func(t *testing.T) (string, string)
		want []string // what the error says after its start
	}{
		"nothing listens": {
			dsn: func(*testing.T) (string, string) {
				return "postgres://vigil:" + password + "@127.0.0.1:1/vigildb?sslmode=disable&connect_timeout=5",
					"postgres at 127.0.0.1:1, database vigildb: connect: "
			},
			want: []string{"connection refused"},
		},
		"no such database": {
			dsn: func(t *testing.T) (string, string) {
				u, err := url.Parse(dsn(t)) // the test server's
				if err != nil {
					t.Fatal(err)
				}
				u.Path = "/vigil_no_such_db"
				u.User = url.UserPassword(u.User.Username(), password)
				return u.String(), "postgres at " + u.Host + ", database vigil_no_such_db: connect: "
			},
			want: []string{`database "vigil_no_such_db" does not exist`},
		},
		"key=value DSN": {
			dsn: func(*testing.T) (string, string) {
				return "host=127.0.0.1 port=1 dbname=other user=vigil password=" + password + " sslmode=disable",
					"postgres at 127.0.0.1:1, database other: connect: "
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			d, start := tc.dsn(t)
			db, err := postgres.Open(ctx, d)
			if err == nil {
				db.Close()
				t.Fatal("Open succeeded")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, start) {
				t.Errorf("Open: %q, want it to begin %q", msg, start)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("Open: %q, want it to say %q", msg, w)
				}
			}
			if strings.Contains(msg, password) {
				t.Errorf("Open: %q shows the password", msg)
			}
		})
	}
}

// TestOpenExisting: OpenExisting refuses a schema that holds no store,
// with ENOTFOUND and without making one there, and opens one that Open
// made.
func TestOpenExisting(t *testing.T) {
	d, _ := newSchema(t)
	ctx := context.Background()
	db, err := postgres.OpenExisting(ctx, d)
	if err == nil {
		db.Close()
		t.Fatal("OpenExisting opened a schema without a store")
	}
	if vigil.ErrorCode(err) != vigil.ENOTFOUND || !strings.Contains(err.Error(), "no store in postgres at ") {
		t.Errorf("OpenExisting on an empty schema: %v; want ENOTFOUND and where", err)
	}
	// Nothing made: OpenExisting refuses it again, and Open migrates it
	// from the first migration.
	if db, err := postgres.OpenExisting(ctx, d); err == nil {
		db.Close()
		t.Fatal("the refusal made a store")
	}
	db, err = postgres.Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	if r := db.Schema(); len(r.Applied) == 0 || r.Applied[0] != "0001_init.sql" {
		t.Errorf("Open after the refusal applied %v, want every migration from the first", r.Applied)
	}
	db.Close()
	db, err = postgres.OpenExisting(ctx, d)
	if err != nil {
		t.Fatalf("OpenExisting on the store Open made: %v", err)
	}
	db.Close()
}

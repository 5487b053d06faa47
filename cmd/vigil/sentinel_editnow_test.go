package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres/pgtest"
	"github.com/vigil-web/vigil/spec"
)

// TestStoredCheckerNowIsTheEdits: evC, stored at T0 with no To and
// edited at T1, more than a minute later, to end To Now + 1 minute, ends
// at T1 + 1 minute to the checker over the store (storedChecker, which
// vigil sentinel add and vigil serve use): a sentinel checked From
// end(evC) starts then. Before, Now in evC was taken as its creation,
// and end(evC), T0 + 1 minute, had passed. On SQLite, and on PostgreSQL
// when VIGIL_TEST_POSTGRES_DSN is set.
func TestStoredCheckerNowIsTheEdits(t *testing.T) {
	backends := map[string]func(t *testing.T) (data, dsn string){
		"sqlite": func(t *testing.T) (string, string) { return filepath.Join(t.TempDir(), "data"), "" },
		"postgres": func(t *testing.T) (string, string) {
			base := os.Getenv("VIGIL_TEST_POSTGRES_DSN")
			if base == "" {
				t.Skip("VIGIL_TEST_POSTGRES_DSN not set")
			}
			dsn, _ := pgtest.Schema(t, base)
			return t.TempDir(), dsn
		},
	}
	const evC = "Create Sentinel evC Using http://a.example/ Monitor any change Fetch 2 seconds"
	for name, backend := range backends {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			data, dsn := backend(t)
			st, err := openStore(ctx, data, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			u := &vigil.User{Email: "ada@example.com", Name: "Ada", PasswordHash: "x"}
			if err := st.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			check := func(c *spec.Checker, src string) *spec.Checked {
				t.Helper()
				f, err := spec.Parse("a.ssl", []byte(src))
				if err != nil {
					t.Fatal(err)
				}
				ch, err := c.Check(f.Sentinels[0])
				if err != nil {
					t.Fatalf("%s at %v: %v", src, c.Now, err)
				}
				return ch
			}
			created := time.Now().UTC().Truncate(time.Second)
			js, _ := json.Marshal(check(spec.NewChecker(created), evC))
			sen := &vigil.Sentinel{OwnerID: u.ID, Name: "evC", Source: evC, Spec: js, Status: vigil.SentinelActive, NextCheck: created}
			if err := st.CreateSentinel(ctx, sen); err != nil {
				t.Fatal(err)
			}

			edited := created.Add(2 * time.Minute)
			sen.Source = evC + " To Now + 1 minute"
			sen.Spec, _ = json.Marshal(check(spec.NewChecker(edited), sen.Source))
			if err := st.UpdateSentinel(ctx, sen); err != nil {
				t.Fatal(err)
			}

			c, err := storedChecker(ctx, st, u, edited.Add(10*time.Second), nil)
			if err != nil {
				t.Fatal(err)
			}
			got := check(c, "Create Sentinel evE Using http://c.example/ Fetch 1 hour From end(evC)")
			if want := edited.Add(time.Minute); !got.Start.Equal(want) {
				t.Errorf("From end(evC): start %v, want evC's end %v", got.Start, want)
			}
		})
	}
}

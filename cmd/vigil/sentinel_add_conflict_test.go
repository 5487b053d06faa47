package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres/pgtest"
	"github.com/vigil-web/vigil/spec"
)

// oddConflictStore refuses the sentinel called odd with a conflict of
// the store's that is not its name taken (a vigil.Error of code
// ECONFLICT, no vigil.SentinelNameTakenError).
type oddConflictStore struct{ vigil.Store }

// oddConflictSecretStore is oddConflictStore of a store that keeps the
// keys (vigil.SecretStore: PostgreSQL), which it keeps showing.
type oddConflictSecretStore struct {
	oddConflictStore
	vigil.SecretStore
}

// oddConflict is the message of oddConflictStore's refusal.
const oddConflict = "the sentinel conflicts with something else"

func (s oddConflictStore) CreateSentinel(ctx context.Context, sen *vigil.Sentinel) error {
	if sen.Name == "odd" {
		return vigil.Errorf(vigil.ECONFLICT, oddConflict)
	}
	return s.Store.CreateSentinel(ctx, sen)
}

// TestSentinelAddStoreConflicts: sentinel add tells the store's refusal
// of a name the owner came to use since the check (a
// vigil.SentinelNameTakenError) from its other conflicts. The name taken
// is a problem printed at the name, as the check's is, saying which
// sentinel has it, and the others are added all the same (exit 1);
// another conflict is reported as itself, an error (exit 2). Before, any
// conflict was printed as the name's problem, whatever it said. On SQLite,
// and on PostgreSQL when VIGIL_TEST_POSTGRES_DSN is set.
func TestSentinelAddStoreConflicts(t *testing.T) {
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
	for name, backend := range backends {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			data, dsn := backend(t)
			st, err := openStore(ctx, data, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			now := time.Now().UTC().Truncate(time.Second)
			add := func(src string) sentinelToAdd {
				t.Helper()
				f, err := spec.Parse("a.ssl", []byte(src))
				if err != nil {
					t.Fatal(err)
				}
				ch, err := spec.NewChecker(now).Check(f.Sentinels[0])
				if err != nil {
					t.Fatal(err)
				}
				n := f.Sentinels[0].Name
				return sentinelToAdd{file: "a.ssl", name: n.Name, namePos: n.NamePos.Position("a.ssl"), source: src, checked: ch}
			}
			adds := []sentinelToAdd{
				add("Create Sentinel taken Using http://a.example/"),
				add("Create Sentinel fine Using http://b.example/"),
				add("Create Sentinel odd Using http://c.example/"),
			}
			// The feed key made, as the first add makes it.
			if _, _, err := newKeyring(st, data, dsn).load(ctx, secretFile); err != nil {
				t.Fatal(err)
			}
			// Another add, between the check and the store's write.
			u, err := ensureOwner(ctx, st, "ann@example.org")
			if err != nil {
				t.Fatal(err)
			}
			spec0, _ := json.Marshal(adds[0].checked)
			holder := &vigil.Sentinel{OwnerID: u.ID, Name: "Taken", Source: "Create Sentinel Taken Using http://a.example/", Spec: spec0, Status: vigil.SentinelActive, NextCheck: now}
			if err := st.CreateSentinel(ctx, holder); err != nil {
				t.Fatal(err)
			}
			var stdout bytes.Buffer
			env := &environment{stdout: &stdout, stderr: &stdout, getenv: func(string) string { return "" }}
			sf := storeFlags{data: &data, postgres: &dsn}
			var odd vigil.Store = oddConflictStore{st}
			if ss, ok := st.(vigil.SecretStore); ok {
				odd = oddConflictSecretStore{oddConflictStore{st}, ss}
			}
			refused, err := storeSentinels(ctx, env, odd, sf, "ann@example.org", now, adds)
			taken := "a.ssl:1:17: sentinel name taken is taken: your sentinel Taken (sentinel " + strconv.FormatInt(holder.ID, 10) + ") has it; choose another name\n"
			out := stdout.String()
			if !refused || !strings.HasPrefix(out, taken) || !strings.Contains(out, "added sentinel ") || strings.Contains(out, oddConflict) {
				t.Errorf("stdout %q, refused %v; want the name taken printed first, %q, then fine added, and nothing of odd", out, refused, taken)
			}
			if vigil.ErrorCode(err) != vigil.ECONFLICT || !strings.Contains(err.Error(), "sentinel odd: ") || vigil.ErrorMessage(err) != oddConflict {
				t.Errorf("error %v; want the store's own conflict, of sentinel odd: %q", err, oddConflict)
			}
		})
	}
}

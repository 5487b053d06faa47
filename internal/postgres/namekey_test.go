package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
	"github.com/vigil-web/vigil/spec"
)

// TestMigrateSentinelNamesUnique: a store that holds sentinels of one
// owner and name, as the checker compares them (in lower case), is
// migrated with the oldest of each keeping its name and the others
// renamed "name-2", "name-3"... to a name their owner does not use,
// another owner's untouched; the database then refuses a second sentinel
// of a name in ASCII lower case whoever writes it. A renamed sentinel's
// source names it so in its header, every other byte (its comments) as
// it was, and so does its checked spec: the editor shows the new name, and
// the source saved unchanged keeps it. A source without a header of the
// name (not the language's) and a spec that is not kept are left as they
// were.
func TestMigrateSentinelNamesUnique(t *testing.T) {
	ctx := context.Background()
	d, _ := newSchema(t)
	c := olderSchema(t, d, "0116_sentinel_name_unique.sql")
	at := time.Unix(1, 0).UTC()
	long := strings.Repeat("é", 100) // 200 bytes
	// source is a sentinel's source whose header writes name, as the
	// dashboard keeps one with its comments.
	source := func(name string) string {
		return "# the shop's prices\nCreate  Sentinel\t" + name + " # its name\n\tUsing http://example.com/prices # the page\n  Every 1 hours\n# end\n"
	}
	// checked is the checked spec of src, as the dashboard stores it.
	checked := func(src string) []byte {
		t.Helper()
		sen, err := spec.ParseSentinel("", []byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		ch, err := spec.NewChecker(at).Check(sen)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		js, err := json.Marshal(ch)
		if err != nil {
			t.Fatal(err)
		}
		return js
	}
	rows := []struct {
		id, owner  int64
		name, want string
		written    string // the name as the source writes it, if not name
		notSpec    bool   // the source is not the language's, and no spec is kept
	}{
		{id: 1, owner: 1, name: "Prices", want: "Prices"},
		{id: 2, owner: 1, name: "prices", want: "prices-3"},
		{id: 3, owner: 1, name: "prices-2", want: "prices-2"},
		{id: 4, owner: 1, name: "PRICES", want: "PRICES-4"},
		{id: 5, owner: 1, name: "Café", want: "Café"},
		{id: 6, owner: 1, name: "CAFÉ", want: "CAFÉ-2", written: "CAFE\u0301"},
		{id: 7, owner: 1, name: "ſale", want: "ſale"},
		{id: 8, owner: 1, name: "sale", want: "sale"},
		{id: 9, owner: 1, name: long, want: long},
		{id: 10, owner: 1, name: strings.ToUpper(long), want: strings.Repeat("É", 99) + "-2"},
		{id: 11, owner: 2, name: "prices", want: "prices"},
		{id: 12, owner: 2, name: "other", want: "other"},
		{id: 13, owner: 1, name: "SALE", want: "SALE-2", notSpec: true},
	}
	for _, q := range []string{
		`INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (1, 'ada@example.com', 'Ada', 'x', $1, $1)`,
		`INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (2, 'bob@example.com', 'Bob', 'x', $1, $1)`,
	} {
		if _, err := c.Exec(ctx, q, at); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, r := range rows {
		src, js := "x", []byte(nil)
		if !r.notSpec {
			written := r.name
			if r.written != "" {
				written = r.written
			}
			src = source(written)
			js = checked(src)
		}
		if _, err := c.Exec(ctx, `INSERT INTO sentinels (id, owner_id, name, source, spec, status, created_at, updated_at, next_check, last_check)
			VALUES ($1, $2, $3, $4, $5, 'active', $6, $6, $6, $6)`, r.id, r.owner, r.name, src, js, at); err != nil {
			t.Fatal(err)
		}
	}
	db, err := postgres.Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, r := range rows {
		s, err := db.FindSentinelByID(ctx, r.id)
		if err != nil {
			t.Fatal(err)
		}
		if s.Name != r.want || !spec.IsValidName(s.Name) {
			t.Errorf("sentinel %d (%q): named %q after the migration, want %q (a valid name)", r.id, r.name, s.Name, r.want)
		}
		if r.notSpec {
			if s.Source != "x" || s.Spec != nil {
				t.Errorf("sentinel %d (%q): source %q and spec %s after the migration, want them as they were (x, none)", r.id, r.name, s.Source, s.Spec)
			}
			continue
		}
		wantSource := source(r.want)
		if r.want == r.name && r.written != "" {
			wantSource = source(r.written)
		}
		if s.Source != wantSource {
			t.Errorf("sentinel %d (%q): source after the migration\n%q\nwant\n%q", r.id, r.name, s.Source, wantSource)
		}
		if want := checked(source(r.want)); string(s.Spec) != string(want) {
			t.Errorf("sentinel %d (%q): spec after the migration\n%s\nwant\n%s", r.id, r.name, s.Spec, want)
		}
		var ch spec.Checked
		if err := json.Unmarshal(s.Spec, &ch); err != nil {
			t.Errorf("sentinel %d (%q): its spec after the migration: %v", r.id, r.name, err)
		} else if ch.Sentinel.Name.Name != r.want {
			t.Errorf("sentinel %d (%q): the checker reads its spec as named %q, want %q", r.id, r.name, ch.Sentinel.Name.Name, r.want)
		}
		// Saved unchanged, as the dashboard does: named as its source's
		// header says.
		sen, err := spec.ParseSentinel("", []byte(s.Source))
		if err != nil {
			t.Errorf("sentinel %d (%q): its source after the migration: %v", r.id, r.name, err)
			continue
		}
		s.Name = sen.Name.Name
		if err := db.UpdateSentinel(ctx, s); err != nil {
			t.Errorf("sentinel %d (%q): its source saved unchanged after the migration: %v", r.id, r.name, err)
		}
	}
	_, err = c.Exec(ctx, `INSERT INTO sentinels (id, owner_id, name, source, status, created_at, updated_at, next_check, last_check)
		VALUES (14, 2, 'OTHER', 'x', 'active', $1, $1, $1, $1)`, at)
	if err == nil || !strings.Contains(err.Error(), "sentinels_owner_name_key") {
		t.Errorf("a second sentinel of one name written to the migrated store: %v, want the unique constraint's refusal", err)
	}
}

// TestSentinelNameTakenByAnUnlockedWriter: a sentinel added while a
// writer that did not take the owner's name lock adds one of its name,
// in another case, is refused at its commit by the database
// (sentinels_owner_name_key), as a name taken (vigil.SentinelNameUsed),
// not with the database's error.
func TestSentinelNameTakenByAnUnlockedWriter(t *testing.T) {
	ctx := context.Background()
	db, d := openDSN(t)
	u := &vigil.User{Email: "ada@example.com", Name: "Ada", PasswordHash: "x"}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	c, err := pgx.Connect(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	tx, err := c.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	var other int64
	if err := tx.QueryRow(ctx, `INSERT INTO sentinels (owner_id, name, source, status, created_at, updated_at, next_check, last_check)
		VALUES ($1, 'prices', 'x', 'active', now(), now(), now(), now()) RETURNING id`, u.ID).Scan(&other); err != nil {
		t.Fatal(err)
	}
	var pid int
	if err := c.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- db.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: u.ID, Name: "Prices", Source: "y", Status: vigil.SentinelActive, NextCheck: time.Now()})
	}()
	// The add waits, at its commit, for the writer's transaction.
	for {
		var waiting int
		if err := c.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", pid).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting > 0 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the add ended before the writer's commit: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	err = <-done
	var taken *vigil.SentinelNameTakenError
	if !errors.As(err, &taken) || taken.ID != other || taken.IDName != "prices" {
		t.Fatalf("the add: %v, want the name taken by sentinel %d (prices)", err, other)
	}
	if list, _, err := db.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID}); err != nil || len(list) != 1 {
		t.Errorf("sentinels after the refused add: %v (%v), want the writer's alone", list, err)
	}
}

package postgres_test

import (
	"context"
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
// of a name in ASCII lower case whoever writes it.
func TestMigrateSentinelNamesUnique(t *testing.T) {
	ctx := context.Background()
	d, _ := newSchema(t)
	c := olderSchema(t, d, "0116_sentinel_name_unique.sql")
	at := time.Unix(1, 0).UTC()
	long := strings.Repeat("é", 100) // 200 bytes
	rows := []struct {
		id, owner  int64
		name, want string
	}{
		{1, 1, "Prices", "Prices"},
		{2, 1, "prices", "prices-3"},
		{3, 1, "prices-2", "prices-2"},
		{4, 1, "PRICES", "PRICES-4"},
		{5, 1, "Café", "Café"},
		{6, 1, "CAFÉ", "CAFÉ-2"},
		{7, 1, "ſale", "ſale"},
		{8, 1, "sale", "sale"},
		{9, 1, long, long},
		{10, 1, strings.ToUpper(long), strings.Repeat("É", 99) + "-2"},
		{11, 2, "prices", "prices"},
		{12, 2, "other", "other"},
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
		if _, err := c.Exec(ctx, `INSERT INTO sentinels (id, owner_id, name, source, status, created_at, updated_at, next_check, last_check)
			VALUES ($1, $2, $3, 'x', 'active', $4, $4, $4, $4)`, r.id, r.owner, r.name, at); err != nil {
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
	}
	_, err = c.Exec(ctx, `INSERT INTO sentinels (id, owner_id, name, source, status, created_at, updated_at, next_check, last_check)
		VALUES (13, 2, 'OTHER', 'x', 'active', $1, $1, $1, $1)`, at)
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

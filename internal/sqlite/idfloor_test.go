package sqlite_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// userIDsMigration is the migration that keeps the ids of users, tokens
// and notifications from being given again.
const userIDsMigration = "0115_user_ids_never_reused.sql"

// TestMigrateUserIDsNeverReused migrates a database an older Vigil left,
// with users, a token and a notification in it: the rows are kept as they
// were, the tables' schema too, and once the newest user goes, with the
// newest token and notification, the ids go on from the largest each table
// gave rather than from the largest left.
func TestMigrateUserIDsNeverReused(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	c := olderDatabase(t, dir, userIDsMigration,
		`INSERT INTO users (id, email, name, password_hash, admin, created_at, updated_at) VALUES
			(3, 'ann@example.org', 'Ann', 'h', 1, 1, 1), (5, 'bob@example.org', 'Bob', 'h', 0, 2, 2)`,
		`INSERT INTO tokens (id, user_id, name, hash, created_at, expires_at, last_used_at) VALUES
			(4, 3, 'ann', X'01', 1, 0, 0), (8, 5, 'bob', X'02', 2, 0, 0)`,
		`INSERT INTO notifications (id, user_id, change_id, channel, target, payload, state, attempts, next_attempt,
			last_error, created_at, sent_at) VALUES
			(7, 3, NULL, 'webhook', 'https://hooks.example/shared', CAST('{"n":7}' AS BLOB), 'sent', 1, 1, '', 1, 2),
			(11, 5, NULL, 'webhook', 'https://hooks.example/shared', CAST('{"n":11}' AS BLOB), 'pending', 0, 3, '', 3, 0)`,
	)
	before := schemaOf(t, c, "users", "tokens", "notifications")
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	// The migrations after it add what they add: 0116_time_zones.sql a
	// column of users, 0118_outbox_address_order.sql two indexes of
	// notifications, which 0119_outbox_queue.sql makes again on the
	// place in the queue, a column it adds, and 0120_outbox_heads.sql a
	// column that marks the heads of the addresses, and their index in
	// the place of notifications_queued; 0124_claims.sql a column that
	// records the lease end of an entry's claim.
	want := maps.Clone(before)
	want["table users"] = strings.TrimSuffix(want["table users"], ")") + ", time_zone TEXT NOT NULL DEFAULT '')"
	want["table notifications"] = strings.TrimSuffix(want["table notifications"], ")") + ", requeued INTEGER, head INTEGER NOT NULL DEFAULT 0, claimed_until INTEGER)"
	want["index notifications_heads"] = "CREATE INDEX notifications_heads ON notifications(coalesce(requeued, id), next_attempt) WHERE head AND state IN ('pending', 'failed')"
	want["index notifications_address"] = "CREATE INDEX notifications_address ON notifications(channel, target, coalesce(requeued, id), next_attempt)\n\tWHERE state IN ('pending', 'failed')"
	if after := schemaOf(t, c, "users", "tokens", "notifications"); !maps.Equal(after, want) {
		t.Errorf("schema after the migration:\n%v\nwant it as before:\n%v", after, want)
	}
	users, err := db.FindUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := userIDs(users); !slices.Equal(got, []int64{3, 5}) || !users[0].Admin || users[1].Email != "bob@example.org" {
		t.Errorf("users after the migration: %v (%+v, %+v), want 3, an administrator, and 5, bob@example.org", got, users[0], users[1])
	}
	if toks, err := db.FindTokens(ctx, 5); err != nil || len(toks) != 1 || toks[0].ID != 8 || toks[0].Name != "bob" {
		t.Errorf("bob's tokens after the migration: %+v, %v; want token 8", toks, err)
	}
	if n, err := db.FindNotificationByID(ctx, 11); err != nil || n.UserID != 5 || n.State != vigil.NotificationPending || string(n.Payload) != `{"n":11}` {
		t.Errorf("notification 11 after the migration: %+v, %v", n, err)
	}

	// The newest user goes, and with them the newest token and
	// notification.
	if err := db.DeleteUser(ctx, 5); err != nil {
		t.Fatal(err)
	}
	u := &vigil.User{Email: "cy@example.org", Name: "Cy", PasswordHash: "h"}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	tok := &vigil.Token{UserID: u.ID, Name: "cy", Hash: vigil.HashToken("cy's")}
	if err := db.CreateToken(ctx, tok); err != nil {
		t.Fatal(err)
	}
	n := &vigil.Notification{UserID: u.ID, Channel: "webhook", Target: "https://hooks.example/shared", Payload: json.RawMessage(`{"n":"cy"}`)}
	if err := db.EnqueueNotification(ctx, n); err != nil {
		t.Fatal(err)
	}
	if u.ID != 6 || tok.ID != 9 || n.ID != 12 {
		t.Errorf("after deleting the newest: user %d (want 6), token %d (want 9), notification %d (want 12)", u.ID, tok.ID, n.ID)
	}
}

// schemaOf returns the SQL that created each table named and its
// indexes, by type and name, as sqlite_master keeps it.
func schemaOf(t *testing.T, c *sql.DB, tables ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, table := range tables {
		rows, err := c.Query("SELECT type || ' ' || name, coalesce(sql, '') FROM sqlite_master WHERE tbl_name = ? AND type IN ('table', 'index')", table)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var name, text string
			if err := rows.Scan(&name, &text); err != nil {
				t.Fatal(err)
			}
			out[name] = text
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no schema for %v", tables)
	}
	return out
}

// userIDs returns the users' ids in order.
func userIDs(users []*vigil.User) []int64 {
	ids := make([]int64, len(users))
	for i, u := range users {
		ids[i] = u.ID
	}
	return ids
}

// TestEveryIDHasAFloor: each table whose rows have an id of their own (an
// INTEGER PRIMARY KEY that is not a foreign key) numbers them from
// id_floor, which its trigger raises: otherwise deleting its newest row
// hands that id to the next one, as it did for users, tokens and
// notifications. A table added with an id of its own fails here until
// its migration gives it a floor and its inserts use nextID.
func TestEveryIDHasAFloor(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	c, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ids := names(t, c, `SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) p
		WHERE m.type = 'table' AND p.pk = 1 AND upper(p.type) = 'INTEGER'
		AND (SELECT count(*) FROM pragma_table_info(m.name) WHERE pk > 0) = 1
		AND NOT EXISTS (SELECT 1 FROM pragma_foreign_key_list(m.name) f WHERE f."from" = p.name)
		ORDER BY 1`)
	if want := []string{"changes", "notifications", "resources", "sentinels", "tokens", "users", "versions"}; !slices.Equal(ids, want) {
		t.Errorf("tables with ids of their own: %v, want %v", ids, want)
	}
	if floors := names(t, c, "SELECT name FROM id_floor ORDER BY 1"); !slices.Equal(floors, ids) {
		t.Errorf("tables with an id floor: %v, want %v", floors, ids)
	}
	if triggers := names(t, c, "SELECT tbl_name FROM sqlite_master WHERE type = 'trigger' AND name = tbl_name || '_id_floor' ORDER BY 1"); !slices.Equal(triggers, ids) {
		t.Errorf("tables whose trigger raises their id floor: %v, want %v", triggers, ids)
	}
}

// names returns the first column of the rows query reads.
func names(t *testing.T, c *sql.DB, query string) []string {
	t.Helper()
	rows, err := c.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

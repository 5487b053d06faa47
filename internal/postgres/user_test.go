package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/vigil-web/vigil"
)

// TestDeleteUserWithoutSentinelsWaits: a sentinel being made for a user
// (its transaction not yet committed) when DeleteUserWithoutSentinels
// begins keeps the user once it is made. The deletion counted the user's
// sentinels in a snapshot without it, then waited for the row lock the
// sentinel's foreign key held, and deleted the user, with the sentinel by
// the cascade.
func TestDeleteUserWithoutSentinelsWaits(t *testing.T) {
	ctx := context.Background()
	db, d := openDSN(t)
	u := &vigil.User{Email: "ada@example.com", Name: "Ada", PasswordHash: "$argon2id$x"}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	create := func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO sentinels (owner_id, name, source, status, created_at, updated_at, next_check, last_check)
			VALUES ($1, 'meanwhile', 'x', $2, now(), now(), now(), now())`, u.ID, string(vigil.SentinelActive))
		return err
	}
	err := whileHeldThen(t, d, create, func() error { return db.DeleteUserWithoutSentinels(ctx, u.ID) }, nil)
	if vigil.ErrorCode(err) != vigil.ECONFLICT {
		t.Errorf("deleting the user while a sentinel was made for them: %v; want ECONFLICT", err)
	}
	if _, err := db.FindUserByID(ctx, u.ID); err != nil {
		t.Errorf("the user: %v; want them kept", err)
	}
	if _, n, err := db.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID}); err != nil || n != 1 {
		t.Errorf("the user's sentinels: %d, %v; want 1", n, err)
	}
}

// TestCreateOwnedWhileUserDeleted: a sentinel or token made for a user
// whose deletion is under way fails with ENOTFOUND, as for a user long
// gone: it checked that the user existed in a snapshot where they did,
// and its insert then failed on the foreign key, an error with no code
// (the API's 500).
func TestCreateOwnedWhileUserDeleted(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		create func(db vigil.Store, owner int64) error
	}{
		{"sentinel", func(db vigil.Store, owner int64) error {
			return db.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: owner, Name: "late", Source: "x", Status: vigil.SentinelActive})
		}},
		{"token", func(db vigil.Store, owner int64) error {
			return db.CreateToken(ctx, &vigil.Token{UserID: owner, Name: "late", Hash: vigil.HashToken("late")})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, d := openDSN(t)
			u := &vigil.User{Email: "ada@example.com", Name: "Ada", PasswordHash: "$argon2id$x"}
			if err := db.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			remove := func(tx pgx.Tx) error {
				_, err := tx.Exec(ctx, "DELETE FROM users WHERE id = $1", u.ID)
				return err
			}
			err := whileHeldThen(t, d, remove, func() error { return tc.create(db, u.ID) }, nil)
			if vigil.ErrorCode(err) != vigil.ENOTFOUND {
				t.Errorf("made while the user was deleted: %v; want ENOTFOUND", err)
			}
		})
	}
}

// TestSetNonAdminPasswordWhileGranted: a grant of the administrator role
// under way (its transaction not yet committed) when SetNonAdminPassword
// begins refuses the reset once it commits, the hash unchanged. A reset
// that read the role and then wrote would read it in a snapshot without
// the grant, wait for the row lock, and write an administrator's hash.
func TestSetNonAdminPasswordWhileGranted(t *testing.T) {
	ctx := context.Background()
	db, d := openDSN(t)
	u := &vigil.User{Email: "bob@example.com", Name: "Bob", PasswordHash: "$argon2id$old"}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	grant := func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "UPDATE users SET admin = true WHERE id = $1", u.ID)
		return err
	}
	err := whileHeld(t, d, grant, func() error { return db.SetNonAdminPassword(ctx, u.ID, "$argon2id$token") })
	if vigil.ErrorCode(err) != vigil.ECONFLICT {
		t.Errorf("a reset while the user was made an administrator: %v; want ECONFLICT", err)
	}
	if got, err := db.FindUserByID(ctx, u.ID); err != nil || !got.Admin || got.PasswordHash != "$argon2id$old" {
		t.Errorf("the user: %+v, %v; want an administrator with the old hash", got, err)
	}
}

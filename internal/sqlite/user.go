package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/vigil-web/vigil"
)

const userColumns = "id, email, name, password_hash, admin, time_zone, created_at, updated_at"

func scanUser(row interface{ Scan(...any) error }) (*vigil.User, error) {
	u := &vigil.User{}
	err := row.Scan(&u.ID, &u.Email, &u.Name, &u.PasswordHash, &u.Admin, &u.TimeZone, ts{&u.CreatedAt}, ts{&u.UpdatedAt})
	return u, err
}

// CreateUser implements vigil.UserStore.
func (db *DB) CreateUser(ctx context.Context, u *vigil.User) error {
	if err := u.Validate(); err != nil {
		return err
	}
	now := db.now().UTC()
	err := db.update(ctx, func(tx execer) error {
		return tx.QueryRowContext(ctx, q("INSERT INTO users (id, email, name, password_hash, admin, time_zone, created_at, updated_at) VALUES ("+nextID("users")+", ?, ?, ?, ?, ?, ?, ?) RETURNING id"),
			u.Email, u.Name, u.PasswordHash, u.Admin, u.TimeZone, tv(now), tv(now)).Scan(&u.ID)
	})
	if isUnique(err) {
		return vigil.Errorf(vigil.ECONFLICT, "email %s is taken", u.Email)
	} else if err != nil {
		return err
	}
	u.CreatedAt, u.UpdatedAt = now, now
	return nil
}

// FindUserByID implements vigil.UserStore.
func (db *DB) FindUserByID(ctx context.Context, id int64) (*vigil.User, error) {
	u, err := scanUser(db.read.QueryRowContext(ctx, q("SELECT "+userColumns+" FROM users WHERE id = ?"), id))
	if err != nil {
		return nil, notFound(err, "user %d not found", id)
	}
	return u, nil
}

// FindUserByEmail implements vigil.UserStore.
func (db *DB) FindUserByEmail(ctx context.Context, email string) (*vigil.User, error) {
	u, err := scanUser(db.read.QueryRowContext(ctx, q("SELECT "+userColumns+" FROM users WHERE email = ?"), email))
	if err != nil {
		return nil, notFound(err, "no user has email %s", email)
	}
	return u, nil
}

// FindUsers implements vigil.UserStore.
func (db *DB) FindUsers(ctx context.Context) ([]*vigil.User, error) {
	rows, err := db.read.QueryContext(ctx, q("SELECT "+userColumns+" FROM users ORDER BY id"))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*vigil.User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// UpdateUser implements vigil.UserStore.
func (db *DB) UpdateUser(ctx context.Context, u *vigil.User) error {
	if err := u.Validate(); err != nil {
		return err
	}
	now := db.now().UTC()
	err := db.update(ctx, func(tx execer) error {
		res, err := tx.ExecContext(ctx, q("UPDATE users SET email = ?, name = ?, updated_at = ? WHERE id = ?"),
			u.Email, u.Name, tv(now), u.ID)
		if err := affected(res, err, "user %d not found", u.ID); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, q("SELECT created_at, admin, password_hash, time_zone FROM users WHERE id = ?"), u.ID).Scan(ts{&u.CreatedAt}, &u.Admin, &u.PasswordHash, &u.TimeZone)
	})
	if isUnique(err) {
		return vigil.Errorf(vigil.ECONFLICT, "email %s is taken", u.Email)
	} else if err != nil {
		return err
	}
	u.UpdatedAt = now
	return nil
}

// TouchUser implements vigil.UserStore.
func (db *DB) TouchUser(ctx context.Context, id int64, at time.Time) error {
	if err := vigil.CheckStorableTime("user updatedAt", at); err != nil {
		return err
	}
	// Times are kept in microseconds (tv), as in PostgreSQL: one more
	// (1000 nanoseconds) is the least step.
	return db.update(ctx, func(tx execer) error {
		res, err := tx.ExecContext(ctx, q("UPDATE users SET updated_at = MAX(?, updated_at + 1000) WHERE id = ?"), tv(at), id)
		return affected(res, err, "user %d not found", id)
	})
}

// SetUserAdmin implements vigil.UserStore.
func (db *DB) SetUserAdmin(ctx context.Context, id int64, admin bool) error {
	// One write transaction (BEGIN IMMEDIATE) at a time, whatever the
	// process: no other revocation runs between the count and the change.
	return db.update(ctx, func(tx execer) error {
		if err := userExists(ctx, tx, id); err != nil {
			return err
		}
		if !admin {
			if err := notOnlyAdmin(ctx, tx, id); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, q("UPDATE users SET admin = ? WHERE id = ?"), admin, id)
		return err
	})
}

// SetUserTimeZone implements vigil.UserStore.
func (db *DB) SetUserTimeZone(ctx context.Context, id int64, zone string) error {
	if err := vigil.CheckTimeZone("timeZone", zone); err != nil {
		return err
	}
	return db.update(ctx, func(tx execer) error {
		res, err := tx.ExecContext(ctx, q("UPDATE users SET time_zone = ? WHERE id = ?"), zone, id)
		return affected(res, err, "user %d not found", id)
	})
}

// SetUserPassword implements vigil.UserStore.
func (db *DB) SetUserPassword(ctx context.Context, id int64, hash string) error {
	if hash == "" {
		return vigil.Errorf(vigil.EINVALID, "password hash required")
	}
	now := db.now().UTC()
	return db.update(ctx, func(tx execer) error {
		res, err := tx.ExecContext(ctx, q("UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?"), hash, tv(now), id)
		return affected(res, err, "user %d not found", id)
	})
}

// SetNonAdminPassword implements vigil.UserStore.
func (db *DB) SetNonAdminPassword(ctx context.Context, id int64, hash string) error {
	if hash == "" {
		return vigil.Errorf(vigil.EINVALID, "password hash required")
	}
	now := db.now().UTC()
	return db.update(ctx, func(tx execer) error {
		// The role is read by the statement that writes: a grant
		// committed before it is seen, one after it follows the reset.
		res, err := tx.ExecContext(ctx, q("UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ? AND NOT admin"), hash, tv(now), id)
		if err := affected(res, err, "user %d not found", id); vigil.ErrorCode(err) != vigil.ENOTFOUND {
			return err
		}
		if err := userExists(ctx, tx, id); err != nil {
			return err
		}
		return vigil.Errorf(vigil.ECONFLICT, "user %d is an administrator: their password is not reset here", id)
	})
}

// DisableUser implements vigil.UserStore.
func (db *DB) DisableUser(ctx context.Context, id int64, force bool) error {
	now := db.now().UTC()
	// One write transaction (BEGIN IMMEDIATE, _txlock=immediate) at a
	// time, whatever the process: no other change of a password or a role
	// runs between the counts and the change, so that two at once never
	// leave no user with a password, nor no administrator.
	return db.update(ctx, func(tx execer) error {
		if err := userExists(ctx, tx, id); err != nil {
			return err
		}
		if !force {
			if err := notOnlyPassword(ctx, tx, id); err != nil {
				return err
			}
			if err := notOnlyAdmin(ctx, tx, id); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, q("UPDATE users SET password_hash = '', admin = FALSE, updated_at = ? WHERE id = ?"), tv(now), id)
		return err
	})
}

// notOnlyPassword returns ECONFLICT if the user with id is the only one
// with a password.
func notOnlyPassword(ctx context.Context, tx execer, id int64) error {
	var self, others int
	err := tx.QueryRowContext(ctx, q("SELECT count(*) FILTER (WHERE id = ?), count(*) FILTER (WHERE id <> ?) FROM users WHERE password_hash <> ''"), id, id).Scan(&self, &others)
	if err != nil {
		return err
	}
	if self > 0 && others == 0 {
		return vigil.Errorf(vigil.ECONFLICT, "user %d is the only user with a password", id)
	}
	return nil
}

// notOnlyAdmin returns ECONFLICT if the user with id is the only
// administrator.
func notOnlyAdmin(ctx context.Context, tx execer, id int64) error {
	var self, others int
	err := tx.QueryRowContext(ctx, q("SELECT count(*) FILTER (WHERE id = ?), count(*) FILTER (WHERE id <> ?) FROM users WHERE admin"), id, id).Scan(&self, &others)
	if err != nil {
		return err
	}
	if self > 0 && others == 0 {
		return vigil.Errorf(vigil.ECONFLICT, "user %d is the only administrator", id)
	}
	return nil
}

// DeleteUser implements vigil.UserStore.
func (db *DB) DeleteUser(ctx context.Context, id int64) error {
	return db.update(ctx, func(tx execer) error {
		return deleteUser(ctx, tx, id)
	})
}

// DeleteUserWithoutSentinels implements vigil.UserStore.
func (db *DB) DeleteUserWithoutSentinels(ctx context.Context, id int64) error {
	// One write transaction (BEGIN IMMEDIATE) at a time, whatever the
	// process: no sentinel is made between the count and the deletion.
	return db.update(ctx, func(tx execer) error {
		if err := userExists(ctx, tx, id); err != nil {
			return err
		}
		if err := ownsNoSentinel(ctx, tx, id); err != nil {
			return err
		}
		return deleteUser(ctx, tx, id)
	})
}

// deleteUser deletes user id, and with them their notifications (the
// foreign key's cascade), and marks the head of each address that had
// one of them undelivered (promoteHeads): an address may be shared by
// several users.
func deleteUser(ctx context.Context, tx execer, id int64) error {
	addresses, err := readAddresses(ctx, tx, "SELECT channel, target FROM notifications WHERE user_id = ? AND state IN ('pending', 'failed')", id)
	if err != nil {
		return fmt.Errorf("delete user %d: their messages' addresses: %w", id, err)
	}
	res, err := tx.ExecContext(ctx, q("DELETE FROM users WHERE id = ?"), id)
	if err := affected(res, err, "user %d not found", id); err != nil {
		return err
	}
	return promoteHeads(ctx, tx, addresses...)
}

// ownsNoSentinel returns ECONFLICT, naming how many, if the user with id
// owns sentinels.
func ownsNoSentinel(ctx context.Context, tx execer, id int64) error {
	var n int
	if err := tx.QueryRowContext(ctx, q("SELECT count(*) FROM sentinels WHERE owner_id = ?"), id).Scan(&n); err != nil {
		return err
	}
	switch {
	case n == 1:
		return vigil.Errorf(vigil.ECONFLICT, "user %d owns 1 sentinel", id)
	case n > 1:
		return vigil.Errorf(vigil.ECONFLICT, "user %d owns %d sentinels", id, n)
	}
	return nil
}

const tokenColumns = "id, user_id, name, hash, created_at, expires_at, last_used_at"

func scanToken(row interface{ Scan(...any) error }) (*vigil.Token, error) {
	t := &vigil.Token{}
	err := row.Scan(&t.ID, &t.UserID, &t.Name, &t.Hash, ts{&t.CreatedAt}, ts{&t.ExpiresAt}, ts{&t.LastUsedAt})
	return t, err
}

// CreateToken implements vigil.UserStore.
func (db *DB) CreateToken(ctx context.Context, t *vigil.Token) error {
	if err := t.Validate(); err != nil {
		return err
	}
	now := db.now().UTC()
	err := db.update(ctx, func(tx execer) error {
		if err := userExists(ctx, tx, t.UserID); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, q(`INSERT INTO tokens (id, user_id, name, hash, created_at, expires_at, last_used_at)
			VALUES (`+nextID("tokens")+`, ?, ?, ?, ?, ?, ?) RETURNING id`), t.UserID, t.Name, t.Hash, tv(now), tv(t.ExpiresAt), tv(t.LastUsedAt)).Scan(&t.ID)
	})
	if isUnique(err) {
		return vigil.Errorf(vigil.ECONFLICT, "token already stored")
	} else if err != nil {
		return err
	}
	t.CreatedAt = now
	return nil
}

// FindTokenByHash implements vigil.UserStore.
func (db *DB) FindTokenByHash(ctx context.Context, hash []byte, now time.Time) (*vigil.Token, error) {
	if err := vigil.CheckStorableTime("token lastUsedAt", now); err != nil {
		return nil, err
	}
	var t *vigil.Token
	err := db.update(ctx, func(tx execer) error {
		var err error
		t, err = scanToken(tx.QueryRowContext(ctx, q("SELECT "+tokenColumns+" FROM tokens WHERE hash = ?"), hash))
		if err != nil {
			return err
		}
		if t.Expired(now) {
			return vigil.Errorf(vigil.EUNAUTHORIZED, "token expired")
		}
		t.LastUsedAt = now.UTC()
		_, err = tx.ExecContext(ctx, q("UPDATE tokens SET last_used_at = ? WHERE id = ?"), tv(now), t.ID)
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, vigil.Errorf(vigil.EUNAUTHORIZED, "invalid token")
	} else if err != nil {
		return nil, err
	}
	return t, nil
}

// FindTokens implements vigil.UserStore.
func (db *DB) FindTokens(ctx context.Context, userID int64) ([]*vigil.Token, error) {
	rows, err := db.read.QueryContext(ctx, q("SELECT "+tokenColumns+" FROM tokens WHERE user_id = ? ORDER BY id"), userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*vigil.Token
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// DeleteToken implements vigil.UserStore.
func (db *DB) DeleteToken(ctx context.Context, id int64) error {
	return db.update(ctx, func(tx execer) error {
		res, err := tx.ExecContext(ctx, q("DELETE FROM tokens WHERE id = ?"), id)
		return affected(res, err, "token %d not found", id)
	})
}

package postgres

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
	err := db.update(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, q("INSERT INTO users (email, name, password_hash, admin, time_zone, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id"),
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
	err := db.update(ctx, func(tx *sql.Tx) error {
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
	// Times are kept in microseconds (PostgreSQL would round the rest): one
	// more is the least step.
	at = at.Truncate(time.Microsecond)
	return db.update(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, q("UPDATE users SET updated_at = GREATEST(?::timestamptz, updated_at + interval '1 microsecond') WHERE id = ?"), tv(at), id)
		return affected(res, err, "user %d not found", id)
	})
}

// SetUserAdmin implements vigil.UserStore.
func (db *DB) SetUserAdmin(ctx context.Context, id int64, admin bool) error {
	return db.update(ctx, func(tx *sql.Tx) error {
		// The administrators' rows locked, in id order: a revocation
		// under way holds them, and this one reads them once it commits
		// (READ COMMITTED reads the locked rows again), so that two at
		// once never leave none.
		rows, err := tx.QueryContext(ctx, q("SELECT id FROM users WHERE admin ORDER BY id FOR UPDATE"))
		if err != nil {
			return err
		}
		var admins []int64
		for rows.Next() {
			var a int64
			if err := rows.Scan(&a); err != nil {
				rows.Close()
				return err
			}
			admins = append(admins, a)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if !admin && len(admins) == 1 && admins[0] == id {
			return vigil.Errorf(vigil.ECONFLICT, "user %d is the only administrator", id)
		}
		res, err := tx.ExecContext(ctx, q("UPDATE users SET admin = ? WHERE id = ?"), admin, id)
		return affected(res, err, "user %d not found", id)
	})
}

// SetUserTimeZone implements vigil.UserStore.
func (db *DB) SetUserTimeZone(ctx context.Context, id int64, zone string) error {
	if err := vigil.CheckTimeZone("timeZone", zone); err != nil {
		return err
	}
	return db.update(ctx, func(tx *sql.Tx) error {
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
	return db.update(ctx, func(tx *sql.Tx) error {
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
	return db.update(ctx, func(tx *sql.Tx) error {
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
	return db.update(ctx, func(tx *sql.Tx) error {
		// The rows of the users with a password or the role, and the
		// user's, locked in id order, as SetUserAdmin locks the
		// administrators': a change under way holds them, and this one
		// reads them once it commits (READ COMMITTED reads a locked row
		// again, and leaves it out if it no longer matches), so that two
		// at once never leave none. Locks rather than a SERIALIZABLE
		// transaction: the second waits and is refused, or goes on,
		// instead of failing with a serialization error to retry; and in
		// id order, with SetUserAdmin's, no two of them deadlock.
		rows, err := tx.QueryContext(ctx, q(`SELECT id, password_hash <> '', admin FROM users
			WHERE id = ? OR password_hash <> '' OR admin ORDER BY id FOR UPDATE`), id)
		if err != nil {
			return err
		}
		found := false
		passwords, admins := 0, 0
		selfPassword, selfAdmin := false, false
		for rows.Next() {
			var (
				other           int64
				password, admin bool
			)
			if err := rows.Scan(&other, &password, &admin); err != nil {
				rows.Close()
				return err
			}
			if other == id {
				found, selfPassword, selfAdmin = true, password, admin
			}
			if password {
				passwords++
			}
			if admin {
				admins++
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		switch {
		case !found:
			return vigil.Errorf(vigil.ENOTFOUND, "user %d not found", id)
		case !force && selfPassword && passwords == 1:
			return vigil.Errorf(vigil.ECONFLICT, "user %d is the only user with a password", id)
		case !force && selfAdmin && admins == 1:
			return vigil.Errorf(vigil.ECONFLICT, "user %d is the only administrator", id)
		}
		_, err = tx.ExecContext(ctx, q("UPDATE users SET password_hash = '', admin = FALSE, updated_at = ? WHERE id = ?"), tv(now), id)
		return err
	})
}

// DeleteUser implements vigil.UserStore. The user's sentinels and
// messages go with it (the cascade), the messages under the claims' lock
// (lockOutbox). The rows are locked in the order every other writer
// takes them, the user's, its sentinels' (DeleteSentinel), then the
// claims' lock, so that none waits for another that waits for it.
func (db *DB) DeleteUser(ctx context.Context, id int64) error {
	return db.update(ctx, func(tx *sql.Tx) error {
		var locked int64
		err := tx.QueryRowContext(ctx, q("SELECT id FROM users WHERE id = ? FOR UPDATE"), id).Scan(&locked)
		if err != nil {
			return notFound(err, "user %d not found", id)
		}
		if _, err := tx.ExecContext(ctx, q("SELECT id FROM sentinels WHERE owner_id = ? ORDER BY id FOR UPDATE"), id); err != nil {
			return fmt.Errorf("delete user %d: lock its sentinels: %w", id, err)
		}
		if err := lockOutbox(ctx, tx); err != nil {
			return fmt.Errorf("delete user %d: %w", id, err)
		}
		return deleteUser(ctx, tx, id)
	})
}

// DeleteUserWithoutSentinels implements vigil.UserStore.
func (db *DB) DeleteUserWithoutSentinels(ctx context.Context, id int64) error {
	return db.update(ctx, func(tx *sql.Tx) error {
		// The user's row locked first: a sentinel being made for them
		// holds it (FOR KEY SHARE, its foreign key) until it commits, and
		// one made after waits for this deletion, then fails. The count
		// below, a statement after the lock, sees every sentinel made
		// before (READ COMMITTED takes a snapshot a statement).
		var locked int64
		err := tx.QueryRowContext(ctx, q("SELECT id FROM users WHERE id = ? FOR UPDATE"), id).Scan(&locked)
		if err != nil {
			return notFound(err, "user %d not found", id)
		}
		if err := ownsNoSentinel(ctx, tx, id); err != nil {
			return err
		}
		if err := lockOutbox(ctx, tx); err != nil {
			return fmt.Errorf("delete user %d: %w", id, err)
		}
		return deleteUser(ctx, tx, id)
	})
}

// deleteUser deletes user id, locked, under the claims' lock, and with
// them their notifications (the foreign key's cascade), and marks the
// head of each address that had one of them undelivered (promoteHeads):
// an address may be shared by several users.
func deleteUser(ctx context.Context, tx *sql.Tx, id int64) error {
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
func ownsNoSentinel(ctx context.Context, tx *sql.Tx, id int64) error {
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
	err := db.update(ctx, func(tx *sql.Tx) error {
		if err := userExists(ctx, tx, t.UserID); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, q(`INSERT INTO tokens (user_id, name, hash, created_at, expires_at, last_used_at)
			VALUES (?, ?, ?, ?, ?, ?) RETURNING id`), t.UserID, t.Name, t.Hash, tv(now), tv(t.ExpiresAt), tv(t.LastUsedAt)).Scan(&t.ID)
	})
	if isUnique(err) {
		return vigil.Errorf(vigil.ECONFLICT, "token already stored")
	} else if isForeignKey(err) {
		// The user was deleted after userExists saw them.
		return vigil.Errorf(vigil.ENOTFOUND, "user %d not found", t.UserID)
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
	err := db.update(ctx, func(tx *sql.Tx) error {
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
	return db.update(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, q("DELETE FROM tokens WHERE id = ?"), id)
		return affected(res, err, "token %d not found", id)
	})
}

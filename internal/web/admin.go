package web

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// The rules of user management, shared by the dashboard's Users page
// (users.go) and the vigil user commands of cmd/vigil: one place says
// what a user, a password and a removal must be, and each says it in its
// own words.

const (
	// MinPasswordLength is the fewest characters (runes) a password that
	// is typed or piped in may have; a generated one has 24.
	MinPasswordLength = 12
	// MaxPasswordBytes bounds a password that is typed or piped in.
	MaxPasswordBytes = 1024
)

// CheckNewPassword returns an error saying why a password chosen by a
// person is refused, or nil.
func CheckNewPassword(pw string) error {
	switch n := utf8.RuneCountInString(pw); {
	case pw == "":
		return vigil.Errorf(vigil.EINVALID, "empty password")
	case len(pw) > MaxPasswordBytes:
		return vigil.Errorf(vigil.EINVALID, "too long: want at most %d bytes", MaxPasswordBytes)
	case n < MinPasswordLength:
		return vigil.Errorf(vigil.EINVALID, "too short: %d characters, want at least %d", n, MinPasswordLength)
	}
	return nil
}

// GeneratePassword returns a strong password: 144 random bits, 24
// characters of base64url. Every password Vigil makes is one of these:
// the admin account's on the first start (EnsureAdmin), vigil user add
// and passwd's, and the Users page's.
func GeneratePassword() (string, error) {
	return randomSecret(18)
}

// NewPassword returns typed, checked by CheckNewPassword, or, if typed is
// empty, a generated password with generated true; and its stored form
// (HashPassword). Only the hash is to be stored; a generated password is
// shown once, to the person who asked for it.
func NewPassword(typed string) (password, hash string, generated bool, err error) {
	if typed == "" {
		if password, err = GeneratePassword(); err != nil {
			return "", "", false, err
		}
		generated = true
	} else {
		if err := CheckNewPassword(typed); err != nil {
			return "", "", false, err
		}
		password = typed
	}
	if hash, err = HashPassword(password); err != nil {
		return "", "", false, fmt.Errorf("hash the password: %w", err)
	}
	return password, hash, generated, nil
}

// passwordField is NewPassword of a password typed in a form's or a
// request's password field, its refusal an EINVALID error that says it
// is the password's and names the field (fieldError).
func passwordField(typed string) (password, hash string, generated bool, err error) {
	password, hash, generated, err = NewPassword(typed)
	if vigil.ErrorCode(err) == vigil.EINVALID {
		return "", "", false, fieldError("password", "password: "+vigil.ErrorMessage(err))
	} else if err != nil {
		return "", "", false, err
	}
	return password, hash, generated, nil
}

// ListedUser is a user as the lists of users show them (the Users page,
// GET /api/v1/users, vigil user list): never a password hash, only
// whether there is one, how many sentinels they own and their own time
// zone.
type ListedUser struct {
	ID        int64  `json:"id"`
	Email     string `json:"email"`
	Name      string `json:"name"`
	Admin     bool   `json:"admin"`
	Password  bool   `json:"password"`  // whether they can sign in
	Sentinels int    `json:"sentinels"` // how many they own
	// TimeZone is the user's own zone (vigil.User.TimeZone), "" for the
	// deployment's.
	TimeZone  string    `json:"timeZone"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// ListUser returns u as listed, counting their sentinels in st.
func ListUser(ctx context.Context, st vigil.Store, u *vigil.User) (ListedUser, error) {
	_, n, err := st.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID, Limit: 1})
	if err != nil {
		return ListedUser{}, fmt.Errorf("sentinels of %s: %w", u.Email, err)
	}
	return ListedUser{ID: u.ID, Email: u.Email, Name: u.Name, Admin: u.Admin, Password: u.PasswordHash != "",
		Sentinels: n, TimeZone: u.TimeZone, CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt}, nil
}

// ListUsers returns the users of st, in id order, as listed.
func ListUsers(ctx context.Context, st vigil.Store) ([]ListedUser, error) {
	users, err := st.FindUsers(ctx)
	if err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	list := make([]ListedUser, 0, len(users))
	for _, u := range users {
		l, err := ListUser(ctx, st, u)
		if err != nil {
			return nil, err
		}
		list = append(list, l)
	}
	return list, nil
}

// NewUser returns the user to create with email (trimmed and lower-cased;
// it must be an address whose domain has a dot or is localhost), name (by default the
// part of the email before the @) and the administrator role, or an
// EINVALID error saying what is wrong.
func NewUser(email, name string, admin bool) (*vigil.User, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	if err := spec.ValidateContact(spec.Email, email); err != nil {
		return nil, vigil.Errorf(vigil.EINVALID, "%v", err)
	}
	u := &vigil.User{Email: email, Name: strings.TrimSpace(name), Admin: admin}
	if u.Name == "" {
		u.Name, _, _ = strings.Cut(email, "@")
	}
	if err := u.Validate(); err != nil {
		return nil, err
	}
	return u, nil
}

// newRequestUser is NewUser for an email a request gave (the Users page's
// form, the API): its refusal of the email names the field and what it
// must be, not the email, which spec's error quotes and a request could
// have made say anything. vigil user add keeps NewUser's, for the address
// its user typed. A refusal names its field (fieldError): email, or name
// (too long), the one NewUser refuses once the email is an address.
func newRequestUser(email, name string, admin bool) (*vigil.User, error) {
	if spec.ValidateContact(spec.Email, strings.ToLower(strings.TrimSpace(email))) != nil {
		return nil, fieldError("email", "email must be an address whose domain has a dot or is localhost, such as ada@example.com")
	}
	u, err := NewUser(email, name, admin)
	if vigil.ErrorCode(err) == vigil.EINVALID {
		return nil, fieldError("name", vigil.ErrorMessage(err))
	}
	return u, err
}

// SetAdmin grants (on) or revokes the administrator role of u, whose
// sessions go on: the role is read again at each request. Revoking the
// only administrator is refused (ECONFLICT), checked by the store as it
// changes the role.
func SetAdmin(ctx context.Context, st vigil.UserStore, u *vigil.User, on bool) error {
	err := st.SetUserAdmin(ctx, u.ID, on)
	switch vigil.ErrorCode(err) {
	case "":
		u.Admin = on
		return nil
	case vigil.ECONFLICT:
		return onlyAdmin(u.Email)
	case vigil.ENOTFOUND:
		return vigil.Errorf(vigil.ENOTFOUND, "no user %s", u.Email)
	}
	return fmt.Errorf("set the role of %s: %w", u.Email, err)
}

// onlyAdmin is the refusal to revoke the role of the only administrator
// (email), or to remove them: SetAdmin's, and RemoveRefusal's for
// RefusedLastAdmin.
func onlyAdmin(email string) error {
	return vigil.Errorf(vigil.ECONFLICT, "%s is the only administrator: grant the role to another user first", email)
}

// The reasons a removal is refused (RemoveRefusal.Reason).
const (
	// RefusedOwnsSentinels: the user owns sentinels, and they were not
	// to be removed with them.
	RefusedOwnsSentinels = "owns sentinels"
	// RefusedMadeMeanwhile: the user made sentinels while being removed;
	// they are kept, signed out and without API tokens.
	RefusedMadeMeanwhile = "made sentinels meanwhile"
	// RefusedLastPassword: the user is the only one with a password.
	RefusedLastPassword = "only password"
	// RefusedLastAdmin: the user is the only administrator.
	RefusedLastAdmin = "only administrator"
)

// RemoveRefusal is the error of a removal refused by a rule: Reason says
// which, Sentinels how many the user owns for RefusedOwnsSentinels and
// RefusedMadeMeanwhile. It is an ECONFLICT, with a message naming the user.
type RemoveRefusal struct {
	Email     string
	Reason    string
	Sentinels int
}

func (r *RemoveRefusal) Error() string { return r.Unwrap().Error() }

// Unwrap returns the refusal as a domain error, in the dashboard's words.
func (r *RemoveRefusal) Unwrap() error {
	switch r.Reason {
	case RefusedOwnsSentinels:
		return vigil.Errorf(vigil.ECONFLICT, "%s owns %s: remove them first, or remove them with the user", r.Email, counted(r.Sentinels, "sentinel"))
	case RefusedMadeMeanwhile:
		return vigil.Errorf(vigil.ECONFLICT, "%s made %s while being removed: kept with them (they can no longer sign in, and their API tokens are revoked)", r.Email, counted(r.Sentinels, "sentinel"))
	case RefusedLastPassword:
		return vigil.Errorf(vigil.ECONFLICT, "%s is the only user with a password: without them nobody can sign in", r.Email)
	case RefusedLastAdmin:
		return onlyAdmin(r.Email)
	}
	return vigil.Errorf(vigil.ECONFLICT, "%s is kept: %s", r.Email, r.Reason)
}

// Removed is what RemoveUser removed with the user.
type Removed struct {
	Sentinels int // removed with the user (withSentinels)
	Tokens    int // API tokens revoked
}

// With says what was removed with the user, as "2 sentinels and 1 API
// token", or "" for nothing.
func (d Removed) With() string {
	var with []string
	if d.Sentinels > 0 {
		with = append(with, counted(d.Sentinels, "sentinel"))
	}
	if d.Tokens > 0 {
		with = append(with, counted(d.Tokens, "API token"))
	}
	return strings.Join(with, " and ")
}

// RemoveUser removes u from st with their API tokens and sessions,
// beside a daemon that may serve the user meanwhile. It refuses
// (*RemoveRefusal) a user who owns sentinels unless withSentinels (which
// removes them one by one, giving up their messages not yet sent, as
// vigil sentinel rm does), and, unless force, the only user with a
// password and the only administrator (both checked by the store again
// as it takes away their password and role, the first change made, so
// that removals at once never leave none). Without withSentinels,
// a sentinel the user makes while being removed is kept, and the user
// with it, signed out: the store checks again as it deletes them.
func RemoveUser(ctx context.Context, st vigil.Store, u *vigil.User, withSentinels, force bool) (Removed, error) {
	var done Removed
	if err := refuseRemoval(ctx, st, u, withSentinels, force); err != nil {
		return done, err
	}
	// First the password and the role, together: the store refuses,
	// unless force, the only user with a password and the only
	// administrator in the same transaction as it takes them away, so
	// that two removals at once of the last two (or a removal and a
	// revocation), which both passed refuseRemoval, never leave none, and
	// the one refused keeps both, and their tokens. Then the user's
	// sessions are over and they can no longer sign in, so that nothing
	// of theirs is made while the rest goes. A user then kept
	// (RefusedMadeMeanwhile) is kept without either.
	err := st.DisableUser(ctx, u.ID, force)
	switch vigil.ErrorCode(err) {
	case "":
		u.PasswordHash, u.Admin = "", false
	case vigil.ECONFLICT:
		return done, disableRefusal(ctx, st, u, err)
	case vigil.ENOTFOUND:
		return done, nil // removed meanwhile
	default:
		return done, fmt.Errorf("sign out %s: %w", u.Email, err)
	}
	tokens, err := DeleteTokens(ctx, st, u)
	done.Tokens = tokens
	if err != nil {
		return done, err
	}
	if !withSentinels {
		// A running daemon may have made a sentinel for the user since
		// refuseRemoval, until they could no longer sign in nor use a
		// token, which deleting the user would remove unasked (the store
		// cascades): the store checks again as it deletes them, at once.
		err := st.DeleteUserWithoutSentinels(ctx, u.ID)
		if vigil.ErrorCode(err) == vigil.ECONFLICT {
			return done, madeWhileRemoved(ctx, st, u, err)
		} else if err != nil && vigil.ErrorCode(err) != vigil.ENOTFOUND {
			return done, fmt.Errorf("remove user %s: %w", u.Email, err)
		}
		return done, nil
	}
	// The sentinels, those made since refuseRemoval counted with them;
	// one by one through DeleteSentinel, which gives up the letters not
	// yet sent: deleting the user would only cascade.
	sentinels, _, err := st.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID})
	if err != nil {
		return done, fmt.Errorf("sentinels of %s: %w", u.Email, err)
	}
	for _, s := range sentinels {
		if err := st.DeleteSentinel(ctx, s.ID); err != nil && vigil.ErrorCode(err) != vigil.ENOTFOUND {
			return done, fmt.Errorf("remove sentinel %d %s of %s: %w", s.ID, s.Name, u.Email, err)
		}
		done.Sentinels++
	}
	if err := st.DeleteUser(ctx, u.ID); err != nil && vigil.ErrorCode(err) != vigil.ENOTFOUND {
		return done, fmt.Errorf("remove user %s: %w", u.Email, err)
	}
	return done, nil
}

// refuseRemoval returns the refusal (*RemoveRefusal) of RemoveUser's
// rules checked before anything changes, or an error reading what they
// check, or nil: u owns sentinels and not withSentinels; unless force, u
// is the only user with a password or the only administrator.
func refuseRemoval(ctx context.Context, st vigil.Store, u *vigil.User, withSentinels, force bool) error {
	// Only counted here: withSentinels reads them after the sign-out,
	// with those made meanwhile.
	_, owned, err := st.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID, Limit: 1})
	if err != nil {
		return fmt.Errorf("sentinels of %s: %w", u.Email, err)
	}
	if owned > 0 && !withSentinels {
		return &RemoveRefusal{Email: u.Email, Reason: RefusedOwnsSentinels, Sentinels: owned}
	}
	if force || (u.PasswordHash == "" && !u.Admin) {
		return nil
	}
	users, err := st.FindUsers(ctx)
	if err != nil {
		return fmt.Errorf("list users: %w", err)
	}
	otherPassword, otherAdmin := false, false
	for _, o := range users {
		if o.ID != u.ID {
			otherPassword = otherPassword || o.PasswordHash != ""
			otherAdmin = otherAdmin || o.Admin
		}
	}
	switch {
	case u.PasswordHash != "" && !otherPassword:
		return &RemoveRefusal{Email: u.Email, Reason: RefusedLastPassword}
	case u.Admin && !otherAdmin:
		return &RemoveRefusal{Email: u.Email, Reason: RefusedLastAdmin}
	}
	return nil
}

// disableRefusal is the refusal of a removal whose DisableUser the store
// refused (refused): RefusedLastPassword or RefusedLastAdmin, by the
// users as they are now, checked in the store's order.
func disableRefusal(ctx context.Context, st vigil.Store, u *vigil.User, refused error) error {
	users, err := st.FindUsers(ctx)
	if err != nil {
		return fmt.Errorf("remove user %s: %w", u.Email, refused)
	}
	var self *vigil.User
	passwords, admins := 0, 0
	for _, o := range users {
		if o.ID == u.ID {
			self = o
		}
		if o.PasswordHash != "" {
			passwords++
		}
		if o.Admin {
			admins++
		}
	}
	switch {
	case self != nil && self.PasswordHash != "" && passwords == 1:
		return &RemoveRefusal{Email: u.Email, Reason: RefusedLastPassword}
	case self != nil && self.Admin && admins == 1:
		return &RemoveRefusal{Email: u.Email, Reason: RefusedLastAdmin}
	}
	// Changed again meanwhile: the store's own words.
	return fmt.Errorf("remove user %s: %w", u.Email, refused)
}

// madeWhileRemoved is the refusal of a removal without its sentinels of
// a user who made sentinels while being removed: refused is the store's
// (DeleteUserWithoutSentinels), said again with the user's email.
func madeWhileRemoved(ctx context.Context, st vigil.Store, u *vigil.User, refused error) error {
	_, n, err := st.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID, Limit: 1})
	if err != nil || n == 0 {
		// Their sentinels gone again meanwhile: the store's own words.
		return fmt.Errorf("remove user %s: %w", u.Email, refused)
	}
	return &RemoveRefusal{Email: u.Email, Reason: RefusedMadeMeanwhile, Sentinels: n}
}

// DeleteTokens deletes the API tokens of u and returns how many there
// were.
func DeleteTokens(ctx context.Context, st vigil.UserStore, u *vigil.User) (int, error) {
	tokens, err := st.FindTokens(ctx, u.ID)
	if err != nil {
		return 0, fmt.Errorf("API tokens of %s: %w", u.Email, err)
	}
	n := 0
	for _, t := range tokens {
		if err := st.DeleteToken(ctx, t.ID); err != nil && vigil.ErrorCode(err) != vigil.ENOTFOUND {
			return n, fmt.Errorf("revoke API token %d of %s: %w", t.ID, u.Email, err)
		}
		n++
	}
	return n, nil
}

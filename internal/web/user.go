package web

import (
	"context"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/vigil-web/vigil"
)

// pbkdf2Iterations is OWASP's 2023 recommendation for PBKDF2-HMAC-SHA256.
const pbkdf2Iterations = 600_000

// HashPassword returns the stored form of a password:
// pbkdf2-sha256$<iterations>$<salt>$<key>, base64 without padding.
func HashPassword(password string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key, err := pbkdf2.Key(sha256.New, password, salt, pbkdf2Iterations, 32)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("pbkdf2-sha256$%d$%s$%s", pbkdf2Iterations, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// CheckPassword reports whether password matches the stored hash.
func CheckPassword(hash, password string) bool {
	parts := strings.Split(hash, "$")
	if len(parts) != 4 || parts[0] != "pbkdf2-sha256" {
		return false
	}
	iter, err := strconv.Atoi(parts[1])
	salt, err1 := b64.DecodeString(parts[2])
	want, err2 := b64.DecodeString(parts[3])
	if err != nil || err1 != nil || err2 != nil || iter < 1 || iter > 10_000_000 {
		return false
	}
	got, err := pbkdf2.Key(sha256.New, password, salt, iter, len(want))
	return err == nil && subtle.ConstantTimeCompare(got, want) == 1
}

// randomSecret returns n random bytes in base64url.
func randomSecret(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// EnsureAdmin makes sure that the store has an administrator who can sign
// in, through the admin account (email) that vigil serve keeps: the
// account is made, an administrator, and made one if it exists, only
// when no administrator has a password (on the first start, and after
// every administrator was removed with vigil user remove --force). An
// account that another administrator removed is not made again, and one
// whose role was revoked beside another administrator is not given it
// back: the account is a way in, not a role the configuration holds. If
// the account does not exist and an administrator can sign in,
// EnsureAdmin changes nothing and returns ENOTFOUND, saying how to make
// the account.
//
// With a password given (from configuration) an existing account gets it
// if it does not already match, whatever its role (a lost password is
// replaced so). Without one, an administrator's account that has no
// password gets a generated one, which is returned so that the caller can
// print it once; any other account keeps what it has and "" is returned.
func EnsureAdmin(ctx context.Context, st vigil.UserStore, email, password string) (generated string, err error) {
	email = strings.ToLower(strings.TrimSpace(email))
	users, err := st.FindUsers(ctx)
	if err != nil {
		return "", fmt.Errorf("list users: %w", err)
	}
	var u *vigil.User
	signsIn := false // an administrator can sign in
	for _, o := range users {
		if o.Email == email {
			u = o
		}
		signsIn = signsIn || o.Admin && o.PasswordHash != ""
	}
	switch {
	case u == nil && signsIn:
		return "", vigil.Errorf(vigil.ENOTFOUND, "no user %s, and the store has an administrator: not made (vigil user add %s --admin makes it)", email, email)
	case u == nil:
		name, _, _ := strings.Cut(email, "@")
		u = &vigil.User{Email: email, Name: name, Admin: true}
		if err := st.CreateUser(ctx, u); err != nil {
			return "", fmt.Errorf("create admin %s: %w", email, err)
		}
	case !u.Admin && !signsIn:
		if err := st.SetUserAdmin(ctx, u.ID, true); err != nil {
			return "", fmt.Errorf("make %s an administrator: %w", u.Email, err)
		}
		u.Admin = true
	}
	switch {
	case password != "" && CheckPassword(u.PasswordHash, password):
		return "", nil
	case password == "" && (u.PasswordHash != "" || !u.Admin):
		return "", nil
	case password == "":
		if password, err = GeneratePassword(); err != nil {
			return "", err
		}
		generated = password
	}
	hash, err := HashPassword(password)
	if err != nil {
		return "", err
	}
	if err := st.SetUserPassword(ctx, u.ID, hash); err != nil {
		return "", fmt.Errorf("set admin password: %w", err)
	}
	return generated, nil
}

package vigil

import (
	"crypto/sha256"
	"strings"
	"time"
)

// User is a person who owns sentinels.
type User struct {
	ID           int64  `json:"id"`
	Email        string `json:"email"` // unique, compared as given (lower-case it before storing)
	Name         string `json:"name"`
	PasswordHash string `json:"-"` // an encoded password hash (bcrypt, argon2...) or empty
	// Admin lets the user manage the users in the dashboard (/users).
	// Only CreateUser, SetUserAdmin and DisableUser write it; UpdateUser
	// keeps it.
	Admin bool `json:"admin"`
	// TimeZone is the IANA name of the zone the dates the user writes in
	// sentinels are read in (From 2026-12-24 09:00), such as Asia/Tokyo;
	// empty for the deployment's (vigil serve --tz). Only CreateUser and
	// SetUserTimeZone write it; UpdateUser keeps it.
	TimeZone  string    `json:"timeZone"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Validate returns an EINVALID error naming the first bad field.
func (u *User) Validate() error {
	at := strings.IndexByte(u.Email, '@')
	switch {
	case u.Email == "":
		return Errorf(EINVALID, "user email required")
	case at <= 0 || at == len(u.Email)-1 || strings.ContainsAny(u.Email, " \t\r\n"):
		return Errorf(EINVALID, "user email %q is not an address", u.Email)
	case len(u.Name) > 200:
		return Errorf(EINVALID, "user name longer than 200 bytes")
	}
	return CheckTimeZone("timeZone", u.TimeZone)
}

// Token is an API token record. The secret itself is shown to the user once
// and never stored: only its SHA-256 (HashToken) is.
type Token struct {
	ID         int64     `json:"id"`
	UserID     int64     `json:"userId"`
	Name       string    `json:"name"`
	Hash       []byte    `json:"-"` // HashToken(secret)
	CreatedAt  time.Time `json:"createdAt"`
	ExpiresAt  time.Time `json:"expiresAt,omitzero"` // zero: never
	LastUsedAt time.Time `json:"lastUsedAt,omitzero"`
}

// HashToken returns the stored form of an API token secret.
func HashToken(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// Validate returns an EINVALID error naming the first bad field.
func (t *Token) Validate() error {
	switch {
	case t.UserID <= 0:
		return Errorf(EINVALID, "token userId required")
	case len(t.Hash) != sha256.Size:
		return Errorf(EINVALID, "token hash must be a SHA-256")
	case len(t.Name) > 200:
		return Errorf(EINVALID, "token name longer than 200 bytes")
	}
	if err := CheckStorableTime("token expiresAt", t.ExpiresAt); err != nil {
		return err
	}
	return CheckStorableTime("token lastUsedAt", t.LastUsedAt)
}

// Expired reports whether the token is expired at now.
func (t *Token) Expired(now time.Time) bool {
	return !t.ExpiresAt.IsZero() && !now.Before(t.ExpiresAt)
}

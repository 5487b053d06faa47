package vigil

import (
	"context"
	"time"
)

// MaxFlashTTL is the longest a FlashStore keeps a flash.
const MaxFlashTTL = time.Minute

// MaxFlashValue is the most bytes a flash's value holds.
const MaxFlashValue = 4096

// MaxFlashID is the most bytes a flash's id holds.
const MaxFlashID = 200

// FlashStore keeps the dashboard's flashes (internal/web, flash.go):
// what a form did, kept for the page its redirect leads to, which takes
// it once. They are kept in the store, not in a daemon's memory, so that
// every daemon of one store (several vigil serve behind a balancer)
// answers the page, and a flash taken by one is gone for all: a second
// take, a replayed cookie's, finds none. A flash is kept a minute at
// most (MaxFlashTTL). The store keeps the bytes it is given as they
// are: the web adapter seals a secret it keeps in them first (a new API
// token, a generated password), so that neither the store nor its
// backups ever hold it in clear.
type FlashStore interface {
	// PutFlash keeps value under id until expires, for one TakeFlash,
	// and deletes the flashes expired at now. It returns EINVALID for an
	// empty id or one longer than MaxFlashID bytes, a value longer than
	// MaxFlashValue bytes, and an expiry not after now or more than
	// MaxFlashTTL after it; ECONFLICT for an id kept already. A nil
	// value is kept empty.
	PutFlash(ctx context.Context, id string, value []byte, expires, now time.Time) error
	// TakeFlash returns the value kept under id and deletes it, at once,
	// so that of several takes of one id, on one daemon or many, one
	// alone gets it. It returns ENOTFOUND for an id not kept, taken
	// already, or whose flash expired at now (deleted all the same).
	TakeFlash(ctx context.Context, id string, now time.Time) ([]byte, error)
}

// CheckFlash returns the EINVALID error of PutFlash's arguments that a
// store refuses, or nil: both backends check them so.
func CheckFlash(id string, value []byte, expires, now time.Time) error {
	switch {
	case id == "":
		return Errorf(EINVALID, "flash id required")
	case len(id) > MaxFlashID:
		return Errorf(EINVALID, "flash id longer than %d bytes", MaxFlashID)
	case len(value) > MaxFlashValue:
		return Errorf(EINVALID, "flash value of %d bytes, longer than %d", len(value), MaxFlashValue)
	case !expires.After(now):
		return Errorf(EINVALID, "flash expires at %s, not after now (%s)", expires.UTC().Format(time.RFC3339Nano), now.UTC().Format(time.RFC3339Nano))
	case expires.Sub(now) > MaxFlashTTL:
		return Errorf(EINVALID, "flash expires %s from now, past the most a flash is kept (%s)", expires.Sub(now), MaxFlashTTL)
	}
	return CheckStorableTime("flash expires", expires)
}

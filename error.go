package vigil

import (
	"errors"
	"fmt"
)

// Error codes carried by domain errors. The web adapter maps each code to an
// HTTP status in one table; the command line maps them to exit codes.
const (
	ECONFLICT         = "ECONFLICT"         // the action conflicts with the current state
	EINTERNAL         = "EINTERNAL"         // an unexpected failure; details are logged, not shown
	EINVALID          = "EINVALID"          // the input is invalid; the message says which field
	ENOTFOUND         = "ENOTFOUND"         // the entity does not exist
	EUNAUTHORIZED     = "EUNAUTHORIZED"     // no valid session or token
	EFORBIDDEN        = "EFORBIDDEN"        // the caller is known but the request is refused (a missing CSRF token)
	ETOOLARGE         = "ETOOLARGE"         // the request is over a size limit
	EMETHOD           = "EMETHOD"           // the resource exists but not with this method
	ENOTIMPLEMENTED   = "ENOTIMPLEMENTED"   // the operation is not supported by this backend
	EUNAVAILABLE      = "EUNAVAILABLE"      // the store is busy with another writer for now; the same request may succeed later
	EUNSUPPORTEDMEDIA = "EUNSUPPORTEDMEDIA" // the request's body is not of a type the operation reads (not JSON)
	EPRECONDITION     = "EPRECONDITION"     // the entity is no longer the revision the request was made on (a stale If-Match)
)

// Error is a domain error: a code a program can branch on and a message a
// user can read. Internal details never go into Message.
type Error struct {
	Code    string
	Message string
}

// Error implements the error interface.
func (e *Error) Error() string {
	return fmt.Sprintf("vigil: code=%s message=%s", e.Code, e.Message)
}

// Errorf returns a domain error with the given code and a formatted message.
func Errorf(code string, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first domain error in err's chain, the
// empty string for nil, and EINTERNAL for any other error.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the user-facing message of the first domain error in
// err's chain, or a generic message for any other error.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return "Internal error."
}

package web

import (
	"context"
	"fmt"
	"strings"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// An edit that the sentinels using the edited one refuse (a rename of a
// sentinel another uses, refuseIfUsed; a change that would make one of
// them invalid, recheckUsers) is a conflict (ECONFLICT) that the user
// mends in the editor, as a name taken meanwhile is (nameTaken): the
// editor shows its form again with the source kept and the refusal,
// naming the sentinel that refuses it; the API answers 409 with it as a
// diagnostic.

// usedConflict returns err, the refusal of an edit of sen by the
// sentinels that use it, as an ECONFLICT diagnosticsError saying it. A
// refused rename (onName) is marked on sen's name: its place in src
// (empty for the JSON form) and field name; a user made invalid is
// marked nowhere in src, the place its message gives being in that
// user's source. Any other error is returned as is.
func usedConflict(sen *spec.Sentinel, src string, err error, onName bool) error {
	if vigil.ErrorCode(err) != vigil.ECONFLICT {
		return err
	}
	msg := vigil.ErrorMessage(err)
	if onName {
		return nameConflict(sen, src, msg)
	}
	diags := []Diagnostic{{Message: msg}}
	return &diagnosticsError{err: vigil.Errorf(vigil.ECONFLICT, "%s", diagSummary(diags)), Diagnostics: diags}
}

// A sentinel using the edited one may be removed (in another tab) between
// the edit's recheck of its users (recheckUsers) and the write of the
// edit with them, which fails then, saving nothing. The user removed no
// longer constrains the edit, nor needs to follow it: the edit is checked
// again, with the users left, and saved, as if it had been sent after the
// removal, which a user would otherwise have to do by sending it again.
// Removals that go on at every write (saveAttempts) are a conflict mended
// in the editor, shown as the other refusals of users are: the editor
// again, the source kept, naming the sentinels removed; the API's 409
// with it as a diagnostic.

// saveAttempts is how many times an edit is checked and written while
// users of it are removed at each write, before it is refused.
const saveAttempts = 3

// usersGoneError is the failure of a write of an edit with its users
// (SentinelStore.UpdateSentinels: ENOTFOUND, nothing saved) as some of
// them, named, were removed meanwhile.
type usersGoneError struct {
	removed []string
	err     error
}

func (e *usersGoneError) Error() string {
	return fmt.Sprintf("%s removed meanwhile: %v", strings.Join(e.removed, ", "), e.err)
}

func (e *usersGoneError) Unwrap() error { return e.err }

// usersGone returns err, the failure of the write of an edit with users,
// as a *usersGoneError naming those of users that are removed, or err
// itself if none is (another failure).
func (s *Server) usersGone(ctx context.Context, users []*vigil.Sentinel, err error) error {
	var removed []string
	for _, dep := range users {
		if _, ferr := s.Store.FindSentinelByID(ctx, dep.ID); vigil.ErrorCode(ferr) == vigil.ENOTFOUND {
			removed = append(removed, dep.Name)
		} else if ferr != nil {
			return fmt.Errorf("sentinel %s: %w", dep.Name, ferr)
		}
	}
	if len(removed) == 0 {
		return err
	}
	return &usersGoneError{removed: removed, err: err}
}

// usersRemoved returns the ECONFLICT diagnosticsError of an edit of the
// sentinel called name that was not saved as users of it, removed (in
// this order), were removed at each of its writes.
func usersRemoved(name string, removed []string) error {
	msg := fmt.Sprintf("sentinel %s was not saved: sentinels using it were removed while it was being saved (%s); save it again", name, strings.Join(removed, ", "))
	return &diagnosticsError{err: vigil.Errorf(vigil.ECONFLICT, "%s", msg), Diagnostics: []Diagnostic{{Message: msg}}}
}

package web

import (
	"context"
	"errors"
	"fmt"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// A sentinel's name that another of its owner's sentinels has is a
// conflict with what is stored (ECONFLICT), however it is found: by the
// check before the save (spec.Checker; spec.Error.NameTaken), or by the
// store's write (SentinelStore: a *vigil.SentinelNameTakenError naming
// the sentinel that has it), when another request gave the name to
// another of the owner's sentinels between the check and the write. Both
// are shown alike, on the name: the editor shows its form again with the
// name marked, the API answers 409 with one diagnostic whose field is
// name, naming the sentinel that has it, in the words of
// spec.NameTakenMessage, as the check and the command line say it. A
// name whose holder was removed between the check and the look-up of
// the holder is free: the save is tried again (nameFreedError). Another
// conflict of the store's write is shown as itself; a name taken among
// other mistakes of the sentinel is one of its diagnostics (EINVALID,
// 400), marked name too.

// nameTakenField is the Diagnostic.Field of a name another sentinel has.
const nameTakenField = "name"

// nameTaken returns the store's refusal (err) of sen's name, which
// another of the owner's sentinels took after the name was checked, as
// an ECONFLICT diagnosticsError on the name: its place in src (empty for
// the JSON form) and field name, saying which sentinel has it. It
// returns err itself if err is not that refusal
// (vigil.SentinelNameTakenError of sen's name).
func nameTaken(sen *spec.Sentinel, src string, err error) error {
	name := sen.Name.Name
	var taken *vigil.SentinelNameTakenError
	if !errors.As(err, &taken) || !vigil.SameSentinelName(taken.Name, name) {
		return err
	}
	return nameConflict(sen, src, spec.NameTakenMessage(name, spec.NameHolder{Name: taken.IDName, ID: taken.ID}))
}

// nameHeld returns the check's refusal of sen's name (spec.Error.NameTaken)
// as the ECONFLICT diagnosticsError nameTaken returns for the store's,
// saying which of u's sentinels other than replacing (nil for a new
// sentinel) has it. If none has it any more (removed since the check), it
// returns a *nameFreedError, for the save to be tried again, carrying
// the refusal with checked, the check's message, for a save that finds
// the name freed at each try.
func (s *Server) nameHeld(ctx context.Context, u *vigil.User, sen *spec.Sentinel, src string, replacing *vigil.Sentinel, checked string) error {
	all, _, err := s.Store.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID})
	if err != nil {
		return fmt.Errorf("sentinels of %s: %w", u.Email, err)
	}
	name := sen.Name.Name
	for _, o := range all {
		if (replacing == nil || o.ID != replacing.ID) && vigil.SameSentinelName(o.Name, name) {
			return nameConflict(sen, src, spec.NameTakenMessage(name, spec.NameHolder{Name: o.Name, ID: o.ID}))
		}
	}
	return &nameFreedError{conflict: nameConflict(sen, src, checked)}
}

// nameFreedError is nameHeld's answer when the sentinel that had the
// name at the check has been removed since: the name is free, and the
// save is tried again (saveSentinel). conflict is the check's refusal,
// returned if the name is found taken and then freed at each try.
type nameFreedError struct{ conflict error }

func (e *nameFreedError) Error() string { return e.conflict.Error() }

func (e *nameFreedError) Unwrap() error { return e.conflict }

// nameConflict returns the ECONFLICT diagnosticsError saying msg on sen's
// name: its place in src (empty for the JSON form), and field name.
func nameConflict(sen *spec.Sentinel, src, msg string) error {
	diags := diagnostics(spec.ErrorList{{Pos: sen.Name.Pos().Position(""), Msg: msg, Found: sen.Name.Name}}, src)
	for i := range diags {
		diags[i].Field = nameTakenField
	}
	return &diagnosticsError{err: vigil.Errorf(vigil.ECONFLICT, "%s", diagSummary(diags)), Diagnostics: diags}
}

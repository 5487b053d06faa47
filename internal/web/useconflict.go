package web

import (
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
	diags := []Diagnostic{{Message: msg}}
	if onName {
		diags = diagnostics(spec.ErrorList{{Pos: sen.Name.Pos().Position(""), Msg: msg, Found: sen.Name.Name}}, src)
		for i := range diags {
			diags[i].Field = nameTakenField
		}
	}
	return &diagnosticsError{err: vigil.Errorf(vigil.ECONFLICT, "%s", diagSummary(diags)), Diagnostics: diags}
}

package web

import (
	"errors"
	"fmt"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// The editor and the API check a sentinel's name before they save it
// (spec.Checker), but another request may give the name to another of
// the owner's sentinels between that check and the store's write, which
// refuses it then (SentinelStore: ECONFLICT, a
// *vigil.SentinelNameTakenError naming the sentinel that has it). The
// refusal is shown as the check's would be, on the name: the editor
// shows its form again with the name marked, the API answers 409 with a
// diagnostic whose field is name. Another conflict of the store's write
// is shown as itself.

// nameTakenField is the Diagnostic.Field of a name the store refused.
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
	msg := fmt.Sprintf("sentinel name %s is taken: your sentinel %s (sentinel %d) was given it meanwhile; choose another name", name, taken.IDName, taken.ID)
	diags := diagnostics(spec.ErrorList{{Pos: sen.Name.Pos().Position(""), Msg: msg, Found: name}}, src)
	for i := range diags {
		diags[i].Field = nameTakenField
	}
	return &diagnosticsError{err: vigil.Errorf(vigil.ECONFLICT, "%s", diagSummary(diags)), Diagnostics: diags}
}

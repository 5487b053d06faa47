package web

import (
	"context"
	"fmt"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// The editor and the API check a sentinel's name before they save it
// (spec.Checker), but another request may give the name to another of
// the owner's sentinels between that check and the store's write, which
// refuses it then (SentinelStore: ECONFLICT, vigil.SentinelNameUsed).
// The refusal is shown as the check's would be, on the name: the
// editor shows its form again with the name marked, the API answers 409
// with a diagnostic whose field is name.

// nameTakenField is the Diagnostic.Field of a name the store refused.
const nameTakenField = "name"

// nameTaken returns the store's refusal (err) of sen's name, which
// another of u's sentinels took after the name was checked, as an
// ECONFLICT diagnosticsError on the name: its place in src (empty for
// the JSON form) and field name, saying which sentinel has it. id is the
// sentinel saved (0 for a new one).
func (s *Server) nameTaken(ctx context.Context, u *vigil.User, sen *spec.Sentinel, id int64, src string, err error) error {
	name := sen.Name.Name
	all, _, ferr := s.Store.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID})
	if ferr != nil {
		return fmt.Errorf("sentinel name %s refused (%v): find the sentinel that has it: %w", name, err, ferr)
	}
	msg := "sentinel name " + name + " is taken: another of your sentinels was given it meanwhile; choose another name"
	for _, o := range all {
		if o.ID != id && vigil.SameSentinelName(o.Name, name) {
			msg = fmt.Sprintf("sentinel name %s is taken: your sentinel %s (sentinel %d) was given it meanwhile; choose another name", name, o.Name, o.ID)
			break
		}
	}
	diags := diagnostics(spec.ErrorList{{Pos: sen.Name.Pos().Position(""), Msg: msg, Found: name}}, src)
	for i := range diags {
		diags[i].Field = nameTakenField
	}
	return &diagnosticsError{err: vigil.Errorf(vigil.ECONFLICT, "%s", diagSummary(diags)), Diagnostics: diags}
}

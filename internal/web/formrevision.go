package web

import (
	"net/http"

	"github.com/vigil-web/vigil"
)

// The dashboard's editor of a sentinel carries, in a hidden field
// (revisionField), the revision of the sentinel it was rendered from: its
// ETag (sentinelETag), as GET /api/v1/sentinels/{id} gives it. Its save
// (POST /sentinels/{id}) is made only on that revision, as a PUT with
// If-Match is: checked at once, and again in the transaction that saves
// the edit (vigil.SentinelStore.UpdateSentinelsIf), so that an edit, a
// pause or a resume saved in another tab since the form was opened is
// never overwritten unseen. A stale form is not saved: the editor is
// shown again (editorStale), 409 as the dashboard's other conflicts, with
// the source as the user typed it, a message saying that the sentinel
// was changed and that saving again overwrites it, and the field holding
// the current revision, so that a second submit saves. A form without
// the field (a page rendered before it, a script) is saved whatever the
// stored revision, as before: the last write wins.

// revisionField is the name of the editor's hidden field holding the
// revision its form was rendered from.
const revisionField = "revision"

// staleFormError is the refusal of an editor's save made on a revision of
// the sentinel that is no longer the stored one: an ECONFLICT carrying
// the sentinel as stored, which the editor is shown again on.
type staleFormError struct {
	current *vigil.Sentinel
	err     error
}

func (e *staleFormError) Error() string { return e.err.Error() }

func (e *staleFormError) Unwrap() error { return e.err }

// formMatches returns nil if the stored sentinel sen is the revision rev
// names (sentinelETag), else a *staleFormError carrying sen.
func formMatches(rev string, sen *vigil.Sentinel) error {
	if rev == sentinelETag(sen) {
		return nil
	}
	return &staleFormError{current: sen, err: vigil.Errorf(vigil.ECONFLICT,
		"sentinel %s was changed since this form was opened; saving the form again overwrites that change", sen.Name)}
}

// formRevision returns the revision an editor's form was rendered from,
// and a precondition for sentinelInput that saves only on it; "" and nil
// for a form without one (an empty field is none), saved whatever the
// stored revision.
func formRevision(r *http.Request) (string, func(stored *vigil.Sentinel) error) {
	rev := r.PostFormValue(revisionField)
	if rev == "" {
		return "", nil
	}
	return rev, func(stored *vigil.Sentinel) error { return formMatches(rev, stored) }
}

// editorStale shows the editor of current, the sentinel as stored, again
// with src, the source of a stale form (formMatches) that was not saved,
// saying that the sentinel was changed since the form was opened, and
// with the revision of current, on which a second submit saves.
func (s *Server) editorStale(w http.ResponseWriter, r *http.Request, sess *session, current *vigil.Sentinel, src string) error {
	data, title, err := s.editorAgain(r, sess, current, src, nil)
	if err != nil {
		return err
	}
	data.Revision, data.Stale = sentinelETag(current), true
	return s.page(w, r, sess, errorStatus(vigil.ECONFLICT), "sentinel", title, "sentinels", data)
}

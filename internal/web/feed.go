package web

import (
	"context"
	"net/http"

	"github.com/vigil-web/vigil"
)

// rotateFeed gives the feed of sen, a sentinel of the signed-in user's
// (ownSentinel), a new generation, and so a new URL: the URLs handed out
// before stop working, those of the user's other sentinels do not.
func (s *Server) rotateFeed(ctx context.Context, sen *vigil.Sentinel) error {
	gen, err := s.Store.RotateSentinelFeed(ctx, sen.ID)
	if err != nil {
		return err
	}
	sen.FeedGeneration = gen
	return nil
}

// handleSentinelRotateFeed rotates a sentinel's feed and answers the
// sentinel, its feed the new path.
func (s *Server) handleSentinelRotateFeed(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	sen, err := s.ownSentinel(r.Context(), u, r.PathValue("id"))
	if err != nil {
		return err
	}
	if err := s.rotateFeed(r.Context(), sen); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.sentinelView(r.Context(), sen))
	return nil
}

// handleSentinelRotateFeedPage is the dashboard's "Replace feed link":
// back to the sentinel's page, which shows the new one.
func (s *Server) handleSentinelRotateFeedPage(w http.ResponseWriter, r *http.Request, sess *session) error {
	sen, err := s.ownSentinel(r.Context(), sess.User, r.PathValue("id"))
	if err != nil {
		return err
	}
	if err := s.rotateFeed(r.Context(), sen); err != nil {
		return err
	}
	return s.seeOtherDone(w, r, sentinelPath(sen.ID)+"#feed", "feed")
}

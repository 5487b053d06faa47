package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"

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
	if err := readNoBody(r, "rotate-feed"); err != nil {
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

// feedLink is a sentinel's feed as its page links it: its format's name
// and its absolute URL, the link's text too, to be copied into a feed
// reader.
type feedLink struct {
	Name, URL string
}

// feedLinks returns the Atom and RSS feeds of sentinel sen, under the
// server's public URL (absoluteURL); none without Server.FeedPath. Their
// token is the sentinel owner's: only the owner's page shows them.
func (s *Server) feedLinks(r *http.Request, sen *vigil.Sentinel) []feedLink {
	if s.FeedPath == nil {
		return nil
	}
	return []feedLink{
		{"Atom", s.absoluteURL(r, s.FeedPath(sen, "atom"))},
		{"RSS", s.absoluteURL(r, s.FeedPath(sen, "rss"))},
	}
}

// absoluteURL returns the absolute URL of path on this server, for a
// link given to be used elsewhere: under Server.BaseURL, or without it
// at the scheme and host request r came to (a host Hosts.Check lets
// through in the daemon), https over TLS or behind a proxy that
// terminates it (SecureCookies). A request with no Host (HTTP/1.0) gets
// path alone, which its page resolves against the address it came to.
func (s *Server) absoluteURL(r *http.Request, path string) string {
	if s.BaseURL != "" {
		return strings.TrimRight(s.BaseURL, "/") + path
	}
	if r.Host == "" {
		return path
	}
	scheme := "http"
	if r.TLS != nil || s.SecureCookies {
		scheme = "https"
	}
	return (&url.URL{Scheme: scheme, Host: r.Host, Path: path}).String()
}

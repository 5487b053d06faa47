package web

import (
	"net/http"
	"strings"

	"github.com/vigil-web/vigil"
)

// NotFoundPages returns mux answering the GET or HEAD of a dashboard path
// that none of its routes has (a typo: /sentinel/1 for /sentinels/1) with
// the dashboard's Not found page, status 404, where mux answers Go's plain
// "404 page not found". A catch-all route cannot do it: "GET /" would
// clash with the API's "/api/" and panic. The page has the layout's
// navigation for a signed-in user (session or API token); without one it
// is the same page without the navigation, still a 404: an unknown path
// tells a stranger nothing more than it did, and a sign-in for a page
// that does not exist would lead nowhere. Everything else is mux's own
// answer: the routes, the API's JSON 404 under /api/, the 405 of a path
// that has other methods, and the redirects (to a path's cleaned form,
// to /static/). cmd/vigil wraps its whole routing table in it, the
// daemon's feeds and health included.
func (s *Server) NotFoundPages(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (r.Method != http.MethodGet && r.Method != http.MethodHead) || strings.HasPrefix(r.URL.Path, "/api/") {
			mux.ServeHTTP(w, r)
			return
		}
		h, pattern := mux.Handler(r)
		if pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		// No route: mux's own 404, 405 or redirect to the cleaned path.
		// Its answer is held back until its status says which.
		held := &unmatched{w: w, header: http.Header{}}
		h.ServeHTTP(held, r)
		if held.notFound {
			s.secure(http.HandlerFunc(s.handleNotFound)).ServeHTTP(w, r)
		}
	})
}

// handleNotFound shows the Not found page of a path no route has.
func (s *Server) handleNotFound(w http.ResponseWriter, r *http.Request) {
	var sess *session
	if got, err := s.authenticate(r); err == nil {
		sess = got
	}
	// The path is not repeated: a link could make the page say anything.
	s.errorPage(w, r, sess, vigil.Errorf(vigil.ENOTFOUND, "There is no page at this address."))
}

// unmatched is the response writer of mux's answer to a request no route
// matched: a 404 is dropped (notFound set), to be answered with the Not
// found page; any other answer goes to w as it is.
type unmatched struct {
	w        http.ResponseWriter
	header   http.Header
	notFound bool
	wrote    bool
}

func (u *unmatched) Header() http.Header { return u.header }

func (u *unmatched) WriteHeader(status int) {
	if u.wrote {
		return
	}
	u.wrote = true
	if status == http.StatusNotFound {
		u.notFound = true
		return
	}
	for k, v := range u.header {
		u.w.Header()[k] = v
	}
	u.w.WriteHeader(status)
}

func (u *unmatched) Write(b []byte) (int, error) {
	if !u.wrote {
		u.WriteHeader(http.StatusOK)
	}
	if u.notFound {
		return len(b), nil
	}
	return u.w.Write(b)
}

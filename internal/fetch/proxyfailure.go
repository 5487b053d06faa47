package fetch

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// guardFailureHeader marks an answer of the guard proxy's own to a plain
// request it could not forward (the server could not be reached, did not
// answer in time, or its address was refused): its value is the proxy's
// token and the number of the failure kept (failures), for a render to
// learn that its main frame's document is the proxy's 502 or 504, which
// the browser shows as the page, and why. The header is dropped from the
// servers' answers the proxy forwards, and an answer through a tunnel,
// which could carry it, does not know the token.
const guardFailureHeader = "Vigil-Guard-Failure"

// failures are the errors of the plain requests the guard proxy could not
// forward, numbered, the latest maxFailures kept, each with the origin of
// its request: a page's script may read the header of the proxy's answer
// to a request of its own origin (one its server left unanswered), and
// its server then send it, through a tunnel, on an answer of its own; it
// names no failure but of the origin of that answer, an http one, never
// an https one's (another render's error, another user's host, is not
// told to the page's render).
type failures struct {
	mu    sync.Mutex
	count uint64
	errs  map[uint64]failure
}

// failure is an error the guard proxy kept, and the origin
// (failureOrigin) of the request that failed with it.
type failure struct {
	err    error
	origin string
}

// failureOrigin returns u's scheme, host and port (the scheme's default
// if none), "" if u is nil.
func failureOrigin(u *url.URL) string {
	if u == nil {
		return ""
	}
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// maxFailures is how many failures the guard proxy keeps: many more than
// a render's documents fail while it runs.
const maxFailures = 1024

// keep records err, of a request to origin, and returns its number.
func (fs *failures) keep(err error, origin string) uint64 {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.errs == nil {
		fs.errs = map[uint64]failure{}
	}
	fs.count++
	fs.errs[fs.count] = failure{err: err, origin: origin}
	delete(fs.errs, fs.count-maxFailures)
	return fs.count
}

// get returns the error of failure n if it is kept and of a request to
// origin, nil otherwise.
func (fs *failures) get(n uint64, origin string) error {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	f, ok := fs.errs[n]
	if !ok || origin == "" || f.origin != origin {
		return nil
	}
	return f.err
}

// markFailure sets the guardFailureHeader of the proxy's answer to
// request r, which failed with err, kept.
func (p *guardProxy) markFailure(h http.Header, r *http.Request, err error) {
	h.Set(guardFailureHeader, p.token+"-"+strconv.FormatUint(p.failed.keep(err, failureOrigin(r.URL)), 10))
}

// failure returns the error of the failure a guardFailureHeader's value
// names, on the answer to a document at docURL, nil if it names none of
// this proxy's (a server's header, through a tunnel, or one forgotten) or
// one of a request to another origin.
func (p *guardProxy) failure(value, docURL string) error {
	u, err := url.Parse(docURL)
	if err != nil {
		return nil
	}
	token, n, ok := strings.Cut(strings.TrimSpace(value), "-")
	if !ok || token != p.token {
		return nil
	}
	num, err := strconv.ParseUint(n, 10, 64)
	if err != nil {
		return nil
	}
	return p.failed.get(num, failureOrigin(u))
}

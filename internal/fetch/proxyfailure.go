package fetch

import (
	"net/http"
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
// forward, numbered, the latest maxFailures kept.
type failures struct {
	mu    sync.Mutex
	count uint64
	errs  map[uint64]error
}

// maxFailures is how many failures the guard proxy keeps: many more than
// a render's documents fail while it runs.
const maxFailures = 1024

// keep records err and returns its number.
func (fs *failures) keep(err error) uint64 {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.errs == nil {
		fs.errs = map[uint64]error{}
	}
	fs.count++
	fs.errs[fs.count] = err
	delete(fs.errs, fs.count-maxFailures)
	return fs.count
}

// get returns failure n, nil if it is not kept.
func (fs *failures) get(n uint64) error {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.errs[n]
}

// markFailure sets the guardFailureHeader of the proxy's answer to a
// request that failed with err, kept.
func (p *guardProxy) markFailure(h http.Header, err error) {
	h.Set(guardFailureHeader, p.token+"-"+strconv.FormatUint(p.failed.keep(err), 10))
}

// failure returns the error of the failure a guardFailureHeader's value
// names, nil if it names none of this proxy's (a server's header, through
// a tunnel, or one forgotten).
func (p *guardProxy) failure(value string) error {
	token, n, ok := strings.Cut(strings.TrimSpace(value), "-")
	if !ok || token != p.token {
		return nil
	}
	num, err := strconv.ParseUint(n, 10, 64)
	if err != nil {
		return nil
	}
	return p.failed.get(num)
}

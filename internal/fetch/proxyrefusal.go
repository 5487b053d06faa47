package fetch

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// refusals is a render's record (renderLog) of the hosts whose requests
// the guard proxy refused (a dial that failed with ErrRefused), or whose
// tunnels it could not open, for the render to learn why its main frame's
// document is the proxy's 403, which the browser shows as the page (a
// plain request), or why its tunnel failed
// (net::ERR_TUNNEL_CONNECTION_FAILED). The latest error of each host is
// kept, at most maxRefusals hosts (the oldest forgotten first): many more
// than a render's documents have. A host is kept with its scheme (a
// tunnel's is https): an http page is not told the failure of an https
// request to its host and port (an image whose tunnel timed out), which
// hostKey alone does not tell apart, nor is an https page told an http
// one's.
type refusals struct {
	mu    sync.Mutex
	count uint64
	hosts map[string]refusal // by refusalKey
}

type refusal struct {
	n   uint64 // its number: count when it was kept
	err error
}

const maxRefusals = 1024

// keep records that the host of r (a plain request's URL, or a CONNECT's
// host) failed with err.
func (rs *refusals) keep(r *http.Request, err error) {
	u := r.URL
	if r.Method == http.MethodConnect {
		u = &url.URL{Scheme: "https", Host: r.Host}
	}
	key := refusalKey(u)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.hosts == nil {
		rs.hosts = map[string]refusal{}
	}
	rs.count++
	rs.hosts[key] = refusal{n: rs.count, err: err}
	if len(rs.hosts) <= maxRefusals {
		return
	}
	oldest := ""
	for k, v := range rs.hosts {
		if oldest == "" || v.n < rs.hosts[oldest].n {
			oldest = k
		}
	}
	delete(rs.hosts, oldest)
}

// of returns the error kept for the host of rawURL, nil if none is.
func (rs *refusals) of(rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil
	}
	key := refusalKey(u)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.hosts[key].err
}

// refusalKey is the key of u's host in refusals: its scheme, in lower
// case, and its hostKey.
func refusalKey(u *url.URL) string {
	return strings.ToLower(u.Scheme) + "://" + hostKey(u)
}

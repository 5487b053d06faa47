package fetch

import (
	"net/http"
	"net/url"
	"sync"
)

// refusals is a render's record (renderLog) of the hosts whose requests
// the guard proxy refused (a dial that failed with ErrRefused), or whose
// tunnels it could not open, for the render to learn why its main frame's
// document is the proxy's 403, which the browser shows as the page (a
// plain request), or why its tunnel failed
// (net::ERR_TUNNEL_CONNECTION_FAILED). The latest error of each host is
// kept, at most maxRefusals hosts (the oldest forgotten first): many more
// than a render's documents have.
type refusals struct {
	mu    sync.Mutex
	count uint64
	hosts map[string]refusal // by hostKey
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
	key := hostKey(u)
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
	key := hostKey(u)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.hosts[key].err
}

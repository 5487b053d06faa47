package fetch

import (
	"net/http"
	"net/url"
	"sync"
	"time"
)

// refusals is the guard proxy's record of the hosts whose requests the
// address guard refused (a dial that failed with ErrRefused), for a render
// to learn why its main frame's document is the proxy's 403, which the
// browser shows as the page (a plain request), or why its tunnel failed
// (net::ERR_TUNNEL_CONNECTION_FAILED): the proxy serves every tab, and
// cannot tell whose request it refused, but the guard's verdict is the
// host's, whoever asks. Each refusal is numbered; a render notes the count
// as it starts (mark) and asks for its documents' hosts refused since
// (since). A refusal is forgotten after refusalTTL, or when more than
// maxRefusals are kept, the oldest first.
type refusals struct {
	mu    sync.Mutex
	count uint64
	hosts map[string]refusal // by hostKey
}

type refusal struct {
	n   uint64 // its number: count when it was kept
	at  time.Time
	err error
}

const (
	// refusalTTL is longer than a render may last (TotalTimeout is
	// minutes at most in practice).
	refusalTTL  = time.Hour
	maxRefusals = 1024
)

// keep records that the guard refused the host of r (a plain request's
// URL, or a CONNECT's host) with err.
func (rs *refusals) keep(r *http.Request, err error) {
	u := r.URL
	if r.Method == http.MethodConnect {
		u = &url.URL{Scheme: "https", Host: r.Host}
	}
	key := hostKey(u)
	now := time.Now()
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.hosts == nil {
		rs.hosts = map[string]refusal{}
	}
	rs.count++
	rs.hosts[key] = refusal{n: rs.count, at: now, err: err}
	if len(rs.hosts) <= maxRefusals {
		return
	}
	oldest := ""
	for k, v := range rs.hosts {
		if now.Sub(v.at) > refusalTTL {
			delete(rs.hosts, k)
		} else if oldest == "" || v.n < rs.hosts[oldest].n {
			oldest = k
		}
	}
	if len(rs.hosts) > maxRefusals {
		delete(rs.hosts, oldest)
	}
}

// mark returns how many refusals were recorded so far.
func (rs *refusals) mark() uint64 {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.count
}

// since returns the guard's error for the host of rawURL if it refused it
// after mark, nil otherwise.
func (rs *refusals) since(mark uint64, rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil
	}
	key := hostKey(u)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if r, ok := rs.hosts[key]; ok && r.n > mark && time.Since(r.at) <= refusalTTL {
		return r.err
	}
	return nil
}

package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/temoto/robotstxt"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// robotsRules is a host's robots.txt as parsed.
type robotsRules struct {
	data    *robotstxt.RobotsData
	fetched time.Time
	// status is the HTTP status of a robots.txt that answered 5xx, which
	// disallows every page (RFC 9309); 0 otherwise.
	status int
}

func (r *robotsRules) allowed(agent string, u *url.URL) bool {
	if r == nil || r.data == nil {
		return true
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	return r.data.TestAgent(robotsPath(path), agent)
}

func (r *robotsRules) crawlDelay(agent string) time.Duration {
	if r == nil || r.data == nil {
		return 0
	}
	if g := r.data.FindGroup(agent); g != nil {
		return min(g.CrawlDelay, time.Minute)
	}
	return 0
}

// robotsAllow reads robots.txt for u (from the cache if it is there) and
// returns its rules, or an error: ErrRobots if they disallow u, one saying
// robots.txt could not be read, or, where u's host gave no answer at all
// (unreachableError, kept so that follow tells it), that failure as u's
// own, without robots.txt named.
func (c *Client) robotsAllow(ctx context.Context, u *url.URL) (*robotsRules, error) {
	rules, err := c.robots.get(ctx, u, c.fetchRobots)
	var unreachable *unreachableError
	if errors.As(err, &unreachable) {
		// The page's host gave no answer: the page's failure, said as
		// its own (unreachableError's text is its cause's).
		return nil, unreachable
	}
	if err != nil {
		return nil, fmt.Errorf("robots.txt: %w", err)
	}
	if !rules.allowed(c.opt.RobotsAgent, u) {
		if rules.status != 0 {
			return nil, &robotsUnavailableError{status: rules.status}
		}
		return nil, ErrRobots
	}
	return rules, nil
}

// robotsUnavailableError refuses a page whose host's robots.txt answered
// a server error (status, 5xx), which disallows every page until it
// works: it is ErrRobots and vigil.ErrRobotsUnavailable, a refusal that
// passes.
type robotsUnavailableError struct {
	status int
}

func (e *robotsUnavailableError) Error() string {
	return fmt.Sprintf("%v (it answered HTTP %d, which disallows every page until it works)", ErrRobots, e.status)
}

// Is makes the refusal ErrRobots, and vigil.ErrRobotsUnavailable.
func (e *robotsUnavailableError) Is(target error) bool {
	return target == ErrRobots || target == vigil.ErrRobotsUnavailable
}

// allowDocument is the Chromium's Allow for this client: it holds a
// document the browser's main frame is about to request (the page asked
// for, a redirect, a page a script sends it to) to robots.txt as turn
// holds a page the plain path fetches, the wait for robots.txt included
// (HostWait). The page asked for was checked by its turn already: its
// robots.txt comes from the cache. An error is ErrUnsupported (a scheme
// other than http and https, or a URL with credentials), ErrRobots, or
// robots.txt that could not be read.
func (c *Client) allowDocument(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return hideCredentials(err)
	}
	if err := checkScheme(u); err != nil {
		return err
	}
	if err := spec.CheckHostName(u); err != nil {
		return err
	}
	if u.User != nil {
		// The browser would answer a challenge with them.
		return errCredentials
	}
	if c.opt.IgnoreRobots {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, c.opt.HostWait)
	defer cancel()
	_, err = c.robotsAllow(ctx, u)
	return err
}

// robotsCache keeps each origin's robots.txt for ttl; concurrent fetches of
// one origin wait for the first. A fetch that ends because its own caller
// gave up is no answer for those waiting on it: they fetch again.
type robotsCache struct {
	mu  sync.Mutex
	ttl time.Duration
	// retry is how long a robots.txt that answered 5xx is kept: it
	// disallows every page of its origin while it is, and a deploy's
	// minute of 503s would otherwise block them for the whole ttl.
	retry   time.Duration
	entries map[string]*robotsEntry
}

// robotsRetry is the longest a robots.txt that answered 5xx is kept
// (robotsCache.retry): its origin is asked again after that.
const robotsRetry = 5 * time.Minute

type robotsEntry struct {
	ready     chan struct{}
	rules     *robotsRules
	err       error
	abandoned bool // the fetcher's context ended: no answer, not kept
}

func newRobotsCache(ttl time.Duration) *robotsCache {
	return &robotsCache{ttl: ttl, retry: min(ttl, robotsRetry), entries: map[string]*robotsEntry{}}
}

func (c *robotsCache) get(ctx context.Context, u *url.URL, fetch func(context.Context, string) (*robotsRules, error)) (*robotsRules, error) {
	origin := originKey(u)
	for {
		c.mu.Lock()
		e := c.entries[origin]
		if e != nil {
			select {
			case <-e.ready:
				if e.err != nil || time.Since(e.rules.fetched) > c.keep(e.rules) {
					e = nil
				}
			default:
			}
		}
		if e == nil {
			e = &robotsEntry{ready: make(chan struct{})}
			c.entries[origin] = e
			c.mu.Unlock()
			// Built as a URL, not a string: an IPv6 zone ([fe80::1%lo]) is
			// escaped in a URL's string form.
			robots := &url.URL{Scheme: u.Scheme, Host: hostKey(u), Path: "/robots.txt"}
			e.rules, e.err = fetch(ctx, robots.String())
			if e.err != nil && ctx.Err() != nil {
				e.abandoned = true
				c.mu.Lock()
				if c.entries[origin] == e {
					delete(c.entries, origin)
				}
				c.mu.Unlock()
			}
			close(e.ready)
			return e.rules, e.err
		}
		c.mu.Unlock()
		select {
		case <-e.ready:
			if e.abandoned {
				continue
			}
			return e.rules, e.err
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				// The fetch waited on has had no answer either.
				return nil, &unreachableError{err: fmt.Errorf("no answer from %s: %w", hostKey(u), ctx.Err())}
			}
			return nil, ctx.Err()
		}
	}
}

// keep returns how long rules are kept: ttl, or retry for a robots.txt
// that answered 5xx.
func (c *robotsCache) keep(r *robotsRules) time.Duration {
	if r != nil && r.status >= 500 {
		return c.retry
	}
	return c.ttl
}

// originKey is u's origin as the cache's key: the scheme lower-cased and
// the host as hostKey spells it (lower-cased, in ASCII, the default port
// dropped, as a browser writes the URLs it requests), so that the
// renderer's check of the page asked for (the browser's URL) finds the
// robots.txt that the client's turn read for it (the URL as given), and a
// host spelt in Unicode and in punycode has its robots.txt read once.
func originKey(u *url.URL) string {
	return strings.ToLower(u.Scheme) + "://" + hostKey(u)
}

// unreachableError is robots.txt's failure where its host gave no answer
// at all (its name does not resolve, the connection is refused, TLS or
// the time failed): the page's host cannot be reached, which is the
// page's own failure, reported as such (err), not as robots.txt's: a user
// reading "robots.txt: ..." thinks the site blocks Vigil.
type unreachableError struct {
	err error
}

func (e *unreachableError) Error() string { return e.err.Error() }
func (e *unreachableError) Unwrap() error { return e.err }

// fetchRobots fetches and parses a robots.txt. As RFC 9309 says: a 4xx
// answer means no rules, a 5xx answer means everything is disallowed, and a
// network failure is an error (the page fetch fails and is retried later):
// one before any answer came is an unreachableError.
// Its redirects are followed as a page's are, up to MaxRedirects: past
// them (a loop), robots.txt is unavailable (RFC 9309 §2.3.1.2), no
// rules; one to a URL with credentials, or another scheme, or a private
// address literal, is an error that shows no credentials.
func (c *Client) fetchRobots(ctx context.Context, robotsURL string) (*robotsRules, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, robotsURL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", c.opt.UserAgent)
	var answered atomic.Bool // a response came, robots.txt's or a redirect's
	req = req.WithContext(httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotFirstResponseByte: func() { answered.Store(true) },
	}))
	resp, err := c.robotsHTTP.Do(req)
	if errors.Is(err, ErrRedirects) {
		// Redirects past MaxRedirects (a loop among them): robots.txt
		// is unavailable, as RFC 9309 (§2.3.1.2) lets a crawler take
		// it, which means no rules, a 4xx's (§2.3.1.3).
		return parseRobots(http.StatusNotFound, nil), nil
	}
	if err != nil {
		var ue *url.Error
		if !answered.Load() && errors.As(err, &ue) {
			// url.Error's text names robots.txt's URL: the cause alone.
			cause := ue.Err
			if errors.Is(cause, context.DeadlineExceeded) {
				cause = fmt.Errorf("no answer from %s: %w", req.URL.Host, cause)
			}
			return nil, &unreachableError{err: hideCredentials(cause)}
		}
		// net/http quotes the Location of a redirect it refuses.
		return nil, hideCredentials(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 500<<10)) // RFC 9309: at least 500 KiB parsed
	if err != nil {
		return nil, err
	}
	return parseRobots(resp.StatusCode, body), nil
}

// parseRobots returns the rules of a robots.txt that answered status with
// body, fetched now.
func parseRobots(status int, body []byte) *robotsRules {
	data, err := robotstxt.FromStatusAndBytes(status, robotsPaths(body))
	if err != nil {
		data, _ = robotstxt.FromStatusAndBytes(404, nil) // unparsable: no rules
	}
	rules := &robotsRules{data: data, fetched: time.Now()}
	if status >= 500 && status <= 599 {
		rules.status = status
	}
	return rules
}

// robotsPaths returns body, a robots.txt, with the path of each of its
// Allow and Disallow lines in the form robotsPath gives a page's path,
// so that the two compare as RFC 9309 (§2.2.2) says they do. A line
// ends at "\n" or "\r", as the parser reads it (RFC 9309 §2.2: CR, LF
// or CRLF).
func robotsPaths(body []byte) []byte {
	out := make([]byte, 0, len(body))
	for len(body) > 0 {
		end := bytes.IndexAny(body, "\r\n") + 1
		if end == 0 {
			end = len(body)
		}
		line := body[:end]
		body = body[end:]
		if colon := bytes.IndexByte(line, ':'); colon >= 0 {
			switch strings.ToLower(strings.TrimSpace(string(line[:colon]))) {
			case "allow", "disallow":
				out = append(out, line[:colon+1]...)
				out = append(out, robotsPath(string(line[colon+1:]))...)
				continue
			}
		}
		out = append(out, line...)
	}
	return out
}

// robotsPath returns p, a path (with its query) of a page or of a
// robots.txt rule, in the one form in which RFC 9309 (§2.2.2) compares
// them: an octet outside US-ASCII percent-encoded (café is caf%C3%A9),
// a percent-encoded unreserved character (RFC 3986: letters, digits,
// "-", ".", "_", "~") decoded (%7E is ~), and the hex digits of the
// other encoded octets in upper case (%2f is %2F, which stays another
// than /). Anything else, the rules' * and $ included, is kept.
func robotsPath(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c >= 0x80:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		case c == '%' && i+2 < len(p) && isHex(p[i+1]) && isHex(p[i+2]):
			d := unhex(p[i+1])<<4 | unhex(p[i+2])
			if isUnreserved(d) {
				b.WriteByte(d)
			} else {
				b.WriteByte('%')
				b.WriteByte(hex[d>>4])
				b.WriteByte(hex[d&15])
			}
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// isUnreserved reports whether c is an unreserved character of RFC 3986.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

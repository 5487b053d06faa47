package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vigil-web/vigil"
)

// isRedirect reports whether an answer's status is one that net/http's
// client follows.
func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// follow fetches u and follows its redirects one at a time, each page a
// redirect leads to checked as the page asked is: its scheme, an address
// literal against the guard, the caller's CheckRedirect, robots.txt on its
// own host, and its host's turn (the turn of the previous hop ends first,
// so that a redirect to the same host takes its next turn instead of
// waiting for itself).
//
// The fetch has TotalTimeout from its first turn for everything after it:
// the requests, and the robots.txt and turns of the pages redirects lead
// to, each of which waits at most HostWait. So a fetch lasts at most
// HostWait + TotalTimeout, however many redirects it follows. A
// redirect's turn that does not come in the time left is the fetch's
// timeout, a failure of the page (it was asked for), not vigil.ErrHostBusy.
//
// A redirect refused gives an error that names where it led ("redirect to
// URL: disallowed by robots.txt") and a result holding that URL without
// status: the page is there, unread. A redirect to a URL with credentials
// is named without them, and its result holds the URL of the page that
// redirected: the one at the URL without them is another. A page a
// redirect led to that fails is named the same way ("redirect to URL:
// HTTP error status 404"). A redirect to a page the fetch asked already
// is a loop, which fails at once naming the pages on it ("redirect loop:
// A → B → A", ErrRedirects), where it was followed to MaxRedirects; a
// loop, and a fetch redirected more than MaxRedirects times, give a
// result holding the URL asked, no status, and the time the redirects
// took.
func (c *Client) follow(ctx context.Context, req *vigil.FetchRequest, u *url.URL) (*vigil.FetchResult, error) {
	var start, deadline time.Time
	retried := false
	chain := []string{u.String()} // the pages asked, in order
	for hops := 0; ; hops++ {
		var release func()
		var err error
		if start.IsZero() {
			asked := time.Now()
			release, err = c.turn(ctx, u)
			var unreachable *unreachableError
			if errors.As(err, &unreachable) {
				// The host gave robots.txt no answer (read before the
				// host's turn, and its failure the page's): the time
				// spent on it goes with the error, as a page's request
				// that had no answer does.
				res := &vigil.FetchResult{URL: u.String(), FetchedAt: asked, Duration: time.Since(asked)}
				return res, fmt.Errorf("fetch %s: %w", vigil.RedactURL(req.URL), err)
			}
			if err != nil {
				return nil, fmt.Errorf("fetch %s: %w", vigil.RedactURL(req.URL), err)
			}
			// The fetch starts now, not when it was asked for, and has
			// its whole time from here: waiting for the host's turn took
			// up to a slow page's whole time, which is not this page's,
			// and a version's time is when its page was read.
			start = time.Now()
			deadline = start.Add(c.opt.TotalTimeout)
		} else if release, err = c.hopTurn(ctx, u, deadline); err != nil {
			return refused(req, u, start, err)
		}
		hctx, cancel := context.WithDeadline(ctx, deadline)
		// The validators are one page's (validatorsFor): every other
		// page on the way is asked unconditionally, as its answer to
		// another page's validators would say nothing of it.
		etag, lastModified := "", time.Time{}
		if validatorsFor(req, u, hops) {
			etag, lastModified = req.ETag, req.LastModified
		}
		// The turn ends once the answer is read (get ends it then): the
		// work on the body after it (its decoding, a binary document's
		// digest) does not hold the host.
		release = sync.OnceFunc(release)
		res, next, err := c.get(hctx, u, etag, lastModified, req.DigestBinary, release)
		cancel()
		wait := c.retryWait(u, err) // held off before the next turn is given
		release()
		if wait > 0 && !retried && time.Now().Add(wait).Before(deadline) {
			// Asked again once, when the host said, if the fetch's
			// time allows: the same page, not another hop.
			retried = true
			hops--
			continue
		}
		if next == nil {
			if res != nil {
				// With an error, what came of the answer (its final URL,
				// status and content type; no body) goes with it: the
				// history records the status of a failed fetch, a crawler
				// the page a redirect led to.
				res.FetchedAt = start
				res.Duration = time.Since(start)
			} else if err != nil {
				// No answer came (a connection refused, a name that does
				// not resolve, a timeout before the headers): the page
				// that failed, and the time the fetch took, which its
				// failed version keeps as any other's.
				res = &vigil.FetchResult{URL: u.String(), FetchedAt: start, Duration: time.Since(start)}
			}
			switch {
			case err != nil && hops > 0:
				return res, fmt.Errorf("fetch %s: redirect to %s: %w", vigil.RedactURL(req.URL), vigil.RedactURL(u.String()), err)
			case err != nil:
				return res, fmt.Errorf("fetch %s: %w", vigil.RedactURL(req.URL), err)
			}
			return res, nil
		}
		if slices.Contains(chain, next.String()) {
			// Asked again, it answers again as it did: a loop, which
			// following to the cap only made requests of.
			// The page asked fails, after the time its redirects took,
			// which its failed version keeps as any other's.
			res := &vigil.FetchResult{URL: chain[0], FetchedAt: start, Duration: time.Since(start)}
			return res, fmt.Errorf("fetch %s: %w", vigil.RedactURL(req.URL), &redirectLoopError{chain: append(chain, next.String())})
		}
		chain = append(chain, next.String())
		if hops >= c.opt.MaxRedirects {
			res := &vigil.FetchResult{URL: chain[0], FetchedAt: start, Duration: time.Since(start)}
			return res, fmt.Errorf("fetch %s: %w: more than %d redirects", vigil.RedactURL(req.URL), ErrRedirects, c.opt.MaxRedirects)
		}
		if next.User != nil {
			// Credentials the user never typed for that host, as a
			// sentinel's URL holds none: not sent, not shown. The page
			// that fails is u, whose redirect this is: next without
			// them is another page, which may well work (a crawl that
			// recorded the failure as its own found it failed when a
			// link led to it).
			res := &vigil.FetchResult{URL: u.String(), FetchedAt: start, Duration: time.Since(start)}
			return res, fmt.Errorf("fetch %s: redirect to %s: %w", vigil.RedactURL(req.URL), withoutCredentials(next), errCredentials)
		}
		if err := c.checkHop(req, next); err != nil {
			return refused(req, next, start, err)
		}
		u = next
	}
}

// validatorsFor reports whether u, the page requested at hop hops of the
// fetch req (0 for req.URL), is the page whose validators req holds
// (vigil.FetchRequest.ValidatorsURL): req.URL when that is "", else the
// page at ValidatorsURL as vigil.CanonicalURL has both, however the
// redirect spelt it. A page asked twice is a loop (follow), so at most
// one request of a fetch is conditional.
func validatorsFor(req *vigil.FetchRequest, u *url.URL, hops int) bool {
	if req.ValidatorsURL == "" {
		return hops == 0
	}
	if u.String() == req.ValidatorsURL {
		return true
	}
	want, err1 := vigil.CanonicalURL(req.ValidatorsURL)
	got, err2 := vigil.CanonicalURL(u.String())
	return err1 == nil && err2 == nil && want == got
}

// redirectLoopError is a fetch whose redirects led back to a page it
// had asked: chain is the pages asked, from the first to the one met
// again. It is ErrRedirects, and names them with their passwords hidden.
type redirectLoopError struct {
	chain []string
}

func (e *redirectLoopError) Error() string {
	names := make([]string, len(e.chain))
	for i, u := range e.chain {
		names[i] = vigil.RedactURL(u)
	}
	return "redirect loop: " + strings.Join(names, " → ")
}

// Is makes a redirect loop ErrRedirects, as the cap on redirects is.
func (e *redirectLoopError) Is(target error) bool { return target == ErrRedirects }

// retryWait returns how long the answer of u, whose error is err, asked
// its host to be left alone (statusError.retryAfter), and holds the host's
// turns off until then, for at most the fetch's time; 0 if it asked
// nothing.
func (c *Client) retryWait(u *url.URL, err error) time.Duration {
	var se *statusError
	if !errors.As(err, &se) || se.retryAfter <= 0 {
		return 0
	}
	wait := min(se.retryAfter, c.opt.TotalTimeout)
	c.hosts.holdOff(hostKey(u), time.Now().Add(wait))
	return wait
}

// hopTurn is the turn of u, a page a redirect leads to, in a fetch that
// must end by deadline: the wait is HostWait or what is left until the
// deadline, whichever is shorter, and running out of the second is the
// fetch's timeout, not a busy host.
func (c *Client) hopTurn(ctx context.Context, u *url.URL, deadline time.Time) (func(), error) {
	bounded := time.Until(deadline) < c.opt.HostWait
	tctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	release, err := c.turn(tctx, u)
	if err != nil && bounded && ctx.Err() == nil && errors.Is(err, vigil.ErrHostBusy) {
		return nil, fmt.Errorf("waiting for host %s: the fetch's time (%v) ran out: %w", hostKey(u), c.opt.TotalTimeout, context.DeadlineExceeded)
	}
	return release, err
}

// checkHop checks the page a redirect leads to before its robots.txt and
// turn: its scheme, an address literal in private space (refused before
// any dialling, with a clear message; a name is checked when dialled), and
// the caller's CheckRedirect.
func (c *Client) checkHop(req *vigil.FetchRequest, next *url.URL) error {
	if err := checkScheme(next); err != nil {
		return err
	}
	if !c.opt.AllowPrivateNetworks {
		if err := refuseLiteral(next.Hostname(), c.opt.permit); err != nil {
			return err
		}
	}
	if req.CheckRedirect != nil {
		return req.CheckRedirect(next.String())
	}
	return nil
}

// refused returns the result and error of a fetch whose redirect to u was
// not followed.
func refused(req *vigil.FetchRequest, u *url.URL, start time.Time, err error) (*vigil.FetchResult, error) {
	res := &vigil.FetchResult{URL: u.String(), FetchedAt: start, Duration: time.Since(start)}
	return res, fmt.Errorf("fetch %s: redirect to %s: %w", vigil.RedactURL(req.URL), vigil.RedactURL(u.String()), err)
}

// errCredentials refuses a page a redirect or a script leads to whose URL
// carries credentials (http://user:pass@host/): the user typed none, as a
// sentinel's URL holds none, so they are the page's, for a host that may
// be another, and are neither sent nor shown.
var errCredentials = fmt.Errorf("%w: its URL carries credentials (user info), which are not sent", ErrUnsupported)

// withoutCredentials returns a copy of u without its user info.
func withoutCredentials(u *url.URL) *url.URL {
	v := *u
	v.User = nil
	return &v
}

// hideCredentials returns err, or, when its text shows a URL's
// credentials, an error of the same text without them that wraps err (so
// that errors.Is still finds ErrUnsupported or a timeout in it): net/http
// quotes a Location header that does not parse ("failed to parse Location
// header "http://user:pass@host:x/""), or that its CheckRedirect refused,
// which would go to the log as it is. A Location that does not parse for
// a password holding an unescaped "/", "?" or "#" is quoted without
// url.Parse's detail, which quoted the password up to that character.
func hideCredentials(err error) error {
	msg := err.Error()
	if clean := stripCredentials(badLocation(msg)); clean != msg {
		return &credentialsHidden{text: clean, err: err}
	}
	return err
}

// credentialsHidden is an error whose text had a URL's credentials cut
// out by hideCredentials.
type credentialsHidden struct {
	text string
	err  error
}

func (e *credentialsHidden) Error() string { return e.text }
func (e *credentialsHidden) Unwrap() error { return e.err }

// locationPrefix begins net/http's error for a Location that does not
// parse: `failed to parse Location header "LOC": DETAIL`.
const locationPrefix = "failed to parse Location header "

// badLocation returns s, a text that may hold net/http's error for a
// Location that does not parse, with that Location's password hidden
// (vigil.RedactURL) and, if it had one, the detail after it cut: it is
// url.Parse's, which quotes the password up to a "/", "?" or "#" in it
// ("parse "http://user:pa": invalid port ":pa" after host").
func badLocation(s string) string {
	i := strings.Index(s, locationPrefix)
	if i < 0 {
		return s
	}
	rest := s[i+len(locationPrefix):]
	quoted, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return s
	}
	loc, err := strconv.Unquote(quoted)
	if err != nil {
		return s
	}
	shown := vigil.RedactURL(loc)
	if shown == loc {
		return s
	}
	return s[:i] + locationPrefix + strconv.Quote(shown) + ": it does not parse"
}

// stripCredentials cuts out of s, a text that may quote URLs which do not
// parse, whatever stands between a "://", or the `"//` of a quoted
// reference relative to the scheme ("//user:pass@host/"), and the last
// "@" of the authority after it.
func stripCredentials(s string) string {
	var b strings.Builder
	for {
		i := authorityAt(s)
		if i < 0 {
			break
		}
		b.WriteString(s[:i])
		s = s[i:]
		authority := s
		if end := strings.IndexAny(authority, "/?#\"' "); end >= 0 {
			authority = authority[:end]
		}
		if at := strings.LastIndex(authority, "@"); at >= 0 {
			s = s[at+1:]
		}
	}
	b.WriteString(s)
	return b.String()
}

// authorityAt returns the index in s just past its next "://" or `"//`,
// where an authority begins, or -1 if there is none.
func authorityAt(s string) int {
	i, j := strings.Index(s, "://"), strings.Index(s, `"//`)
	switch {
	case i < 0 && j < 0:
		return -1
	case i < 0 || j >= 0 && j < i:
		return j + len(`"//`)
	}
	return i + len("://")
}

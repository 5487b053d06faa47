// Package fetch is Vigil's HTTP fetcher: vigil.Fetcher over net/http, with
// the limits a monitor that fetches URLs typed by users needs.
//
//   - connect and total timeouts, the wait for the response headers
//     within the total unless given a timeout of its own;
//   - a cap on the body as sent and another on the body once decoded (gzip,
//     deflate, brotli), so that a decompression bomb is refused, not expanded;
//   - a host no fetch can reach by its name (spec.CheckHostName: an empty
//     label, a label over 63 bytes, a name over 253) refused before any
//     request or DNS lookup, naming it: a page asked for, a redirect of a
//     page or of robots.txt, a document of a rendered page's main frame;
//   - redirects followed one at a time (redirect.go), an HTML page's meta
//     refresh of at most MaxRefreshDelay seconds to another page among
//     them (refresh.go), each page a redirect
//     leads to treated as a page asked for: robots.txt and the turn of its
//     own host, the caller's FetchRequest.CheckRedirect, and a cap on
//     their number; one back to a page the fetch asked already fails at
//     once as a loop, naming the pages on it; one whose URL carries
//     credentials (user info) is
//     refused, and they are neither sent nor shown in a result or error,
//     and so is a redirect of robots.txt to one;
//   - conversion of the body to UTF-8 from its declared or detected charset;
//   - conditional requests (If-None-Match, If-Modified-Since), for the
//     one page whose validators they are: the URL asked, or the page a
//     redirect of it leads to when the caller names that page
//     (vigil.FetchRequest.ValidatorsURL), never every hop on the way;
//   - robots.txt, honoured by default, and per-host politeness: a bounded
//     number of requests at a time per host (one by default) spaced by a
//     minimum delay or the site's Crawl-delay (the largest of its
//     origins': http and https each have a robots.txt); a host is one host
//     however spelt: in Unicode or in punycode, in any case, with a
//     trailing dot or with its scheme's default port (host.go);
//   - refusal of private, loopback, link-local, unspecified and metadata
//     addresses, checked on the address actually dialled (after DNS
//     resolution, so on every redirect too) unless AllowPrivateNetworks;
//     a host the URL standard reads as an IPv4 address (2130706433,
//     127.1, 0x7f.1: numerichost.go) is refused as that address, and
//     localhost and its subdomains (with a trailing dot or not) as
//     loopback, before any DNS lookup;
//   - optional rendering in headless Chromium (render.go), whose every
//     request goes through a proxy in this process that dials as the client
//     does (proxy.go), so that the address guard holds for what a rendered
//     page loads too, and whose main frame's documents (the page, each
//     redirect, each page a script sends the tab to) are held to robots.txt
//     before the browser requests them (navgate.go): one disallowed, or whose
//     URL carries credentials (which the browser would send when asked to
//     authenticate), fails the render, naming it, and so does one whose
//     address the guard proxy refused (the proxy's 403 is no page), one
//     whose server the proxy could not reach or which did not answer in
//     time (its 502 or 504 is none either: the proxy's error, as the plain
//     fetch gives it), and a redirect loop the browser gives up on (named as the plain fetch
//     names it). A rendered page's status and URL are its main document's
//     (after its redirects; the page a script sends the tab to in the
//     settle time, once it is loaded: followNavigations; the status and
//     URL of the document whose HTML was read, read again when another
//     committed meanwhile), and one not 2xx fails as a plain answer of that
//     status does (ErrStatus), a 429's or 503's Retry-After held to as
//     the plain fetch holds to it (the host left alone, the page asked
//     again once if the fetch's time allows; its page not loaded, whose
//     images and favicon the browser would ask the host for at once). Frames' documents and
//     subresources (scripts, images, a script's requests) are not: a
//     browser's page load is one fetch of the page, as the plain path's is,
//     which fetches none of them. A page's script opens no window (the
//     browser blocks popups), whose documents no gate would hold, and
//     saves no download (a frame served as an attachment, a link's
//     download attribute), which would write files to the host, and
//     loads no document ahead of a navigation (speculative.go): the
//     browser's profile turns preloading off, so that a page's
//     speculation rules prefetch and prerender nothing, and the tab fails
//     a <link rel="prefetch"> unsent, requests no gate would hold to
//     robots.txt and no render needs. Each
//     render has a browser context of its own, discarded with its tab:
//     what a page stores (cookies, Cache Storage, IndexedDB) is neither
//     kept on disk nor found by another render. The browser gets only the
//     variables of the environment it needs to run (browserEnv), none of
//     the secrets Vigil's own process may hold.
//     The document a page's scripts build is held to the cap on a decoded
//     body (its length read in the browser first, Chromium.MaxSize): a
//     larger one fails with ErrTooLarge, as a fetched page's would.
//     A rendered page takes the turn of its own host only, for the whole
//     load: the documents the browser's redirects and navigations lead it
//     to, on that host or another, wait for no turn and no Crawl-delay,
//     as what the page loads does not.
//   - an outbound proxy only when configured (Options.Proxy, upstream.go),
//     never the environment's HTTP_PROXY: every request goes through it,
//     the rendering browser's too (its guard proxy chains to it, plain
//     requests as a client's, tunnels by CONNECT). The guard proxy, on
//     127.0.0.1, answers only requests with its credentials, random for
//     each browser started and given to the browser over the DevTools
//     protocol when it asks (navgate.go): another local process cannot
//     go out through it with the operator's proxy's credentials, but gets
//     a 407. The client then dials
//     the proxy, whose address is let through (the operator chose it), not
//     the target: the target is checked before the request is handed to
//     the proxy, the first request's and each redirect's, by resolving its
//     name and refusing it if any address is refused. A name that cannot
//     be resolved here fails. The residual risk: the proxy resolves the
//     name again, and a name whose answers change between the two
//     resolutions (DNS rebinding) can lead the proxy to a private
//     address; only the proxy's own rules close that.
package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// DefaultMaxSize is the default cap on a page's body, as sent and once
// decoded (Options.MaxDecodedSize): 20 MiB.
const DefaultMaxSize = 20 << 20

// Options configure a Client. Zero fields take the defaults named.
type Options struct {
	ConnectTimeout time.Duration // 10s
	// HeaderTimeout, when set, bounds the wait from a request sent to
	// its response headers. Unset (the default), that wait is bounded by
	// TotalTimeout alone, as the rest of the fetch is, since a page may
	// take its whole budget to answer (a slow report generated on
	// request); a page silent that long fails with the fetch's deadline.
	HeaderTimeout time.Duration
	TotalTimeout  time.Duration // 60s: the whole fetch from the host's turn: bodies, and redirects with their robots.txt and turns
	// MaxDecodedSize caps a body once its content coding (gzip,
	// deflate, brotli) is undone, the size of the page read: 20 MiB
	// (DefaultMaxSize), or twice MaxBodySize when only that is set. A
	// compressed body that expands past it is refused without being
	// expanded further (a decompression bomb).
	MaxDecodedSize int64
	// MaxBodySize caps a body as sent, before decoding: MaxDecodedSize.
	// A page sent without compression is as long on the wire as read,
	// and a compressed one shorter: a lower cap would refuse the pages
	// of a size the decoded cap lets through.
	MaxBodySize int64
	// TooLargeHint, when set, is added to the error of a body over
	// either cap (or a rendered document over MaxDecodedSize): how to
	// raise it, in the caller's terms (vigil serve names its flag).
	TooLargeHint string
	MaxRedirects int    // 10
	UserAgent    string // "Vigil/1.0 (+https://github.com/vigil-web/vigil)"
	// RobotsAgent is the name matched against robots.txt groups ("Vigil").
	RobotsAgent string
	// IgnoreRobots disables robots.txt (for sites the user owns).
	IgnoreRobots bool
	// RobotsTTL is how long a robots.txt stays cached: 1h; one that
	// answered 5xx (every page disallowed) 5 minutes at most.
	RobotsTTL time.Duration
	// HostDelay is the minimum delay between two requests to one host; a
	// larger Crawl-delay in robots.txt wins. Zero means none.
	HostDelay time.Duration
	// HostConcurrency is how many requests may run at once on one host: 1.
	// A plain fetch holds its turn until its answer is read, not while
	// its body is decoded, digested (DigestBinary) or converted; a
	// rendered page, for its whole load.
	HostConcurrency int
	// HostWait is the longest wait for the host's turn (a free slot and
	// its delay since the last request), after which the fetch fails
	// unsent, with an error wrapping vigil.ErrHostBusy: TotalTimeout. The
	// turn of a page a redirect leads to waits at most HostWait too, within
	// TotalTimeout, so that a fetch lasts at most HostWait + TotalTimeout.
	HostWait time.Duration
	// AllowPrivateNetworks lets the client reach loopback, private,
	// link-local and metadata addresses (tests, intranets).
	AllowPrivateNetworks bool
	// Renderer renders pages for requests with Render set; nil refuses them.
	Renderer Renderer

	// Proxy, when not nil, is the HTTP or HTTPS proxy (ParseProxy) every
	// request goes through, its user and password, if any, sent as
	// Proxy-Authorization: pages, robots.txt, HTTPClient's and
	// Transport's requests, and the rendering browser's (as tunnels). The
	// environment's HTTP_PROXY is never used. Private targets are refused
	// before the request is handed to the proxy (upstream.go).
	Proxy *url.URL
	// NoProxy are the hosts reached directly, not through Proxy: names
	// (and their subdomains), addresses, prefixes (10.0.0.0/8), each but
	// a prefix with a port or not, or "*", as ParseNoProxy reads them; an
	// entry it refuses matches nothing.
	NoProxy []string

	permit func(netip.Addr) bool // tests: private addresses let through
}

func (o *Options) defaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.ConnectTimeout, 10*time.Second)
	def(&o.TotalTimeout, 60*time.Second)
	def(&o.HostWait, o.TotalTimeout)
	def(&o.RobotsTTL, time.Hour)
	if o.MaxDecodedSize <= 0 {
		o.MaxDecodedSize = DefaultMaxSize
		if o.MaxBodySize > 0 {
			o.MaxDecodedSize = 2 * o.MaxBodySize
		}
	}
	if o.MaxBodySize <= 0 {
		o.MaxBodySize = o.MaxDecodedSize
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = 10
	}
	if o.UserAgent == "" {
		o.UserAgent = "Vigil/1.0 (+https://github.com/vigil-web/vigil)"
	}
	if o.RobotsAgent == "" {
		o.RobotsAgent = "Vigil"
	}
	if o.HostConcurrency <= 0 {
		o.HostConcurrency = 1
	}
}

// Client fetches pages. It is safe for concurrent use.
type Client struct {
	opt  Options
	http *http.Client // follows redirects: HTTPClient
	// robotsHTTP follows redirects as http does, but not one to a URL
	// with credentials: robots.txt.
	robotsHTTP *http.Client
	// page does not follow redirects: Fetch follows them one by one
	// (redirect.go).
	page   *http.Client
	robots *robotsCache
	hosts  *hostTable
	// guarded dials a target itself, under the address guard; up is the
	// operator's proxy, or nil.
	guarded func(ctx context.Context, network, addr string) (net.Conn, error)
	up      *upstream
}

var _ vigil.Fetcher = (*Client)(nil)

// New returns a client with the options.
func New(opt Options) *Client {
	opt.defaults()
	dialer := &net.Dialer{Timeout: opt.ConnectTimeout, KeepAlive: 30 * time.Second}
	guarded := dialer.DialContext
	if !opt.AllowPrivateNetworks {
		dialer.Control = refusePrivate(opt.permit)
		guarded = guardDial(dialer.DialContext, opt.permit)
	}
	c := &Client{opt: opt, guarded: guarded}
	tr := &http.Transport{
		// The environment's proxy would dial on our behalf, past the
		// address check: only the one configured is used, after the
		// target's check (upstream.go).
		Proxy:                 nil,
		DialContext:           guarded,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   max(8, opt.HostConcurrency*2),
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   opt.ConnectTimeout,
		ResponseHeaderTimeout: opt.HeaderTimeout,
		DisableCompression:    true, // we decode ourselves, under a cap
	}
	if opt.Proxy != nil {
		c.up = &upstream{url: opt.Proxy, addr: proxyAddr(opt.Proxy), noProxy: noProxyRules(opt.NoProxy), guarded: guarded,
			direct: (&net.Dialer{Timeout: opt.ConnectTimeout, KeepAlive: 30 * time.Second}).DialContext}
		if !opt.AllowPrivateNetworks {
			c.up.check = c.checkHost
		}
		tr.Proxy, tr.DialContext = c.up.proxy, c.up.dial
	}
	checkRedirect := func(req *http.Request, via []*http.Request) error {
		if len(via) > opt.MaxRedirects {
			return fmt.Errorf("%w: more than %d redirects", ErrRedirects, opt.MaxRedirects)
		}
		if err := checkScheme(req.URL); err != nil {
			return err
		}
		if err := spec.CheckHostName(req.URL); err != nil {
			return err
		}
		if !opt.AllowPrivateNetworks {
			if err := refuseLiteral(req.URL.Hostname(), opt.permit); err != nil {
				return err
			}
		}
		return nil
	}
	c.http = &http.Client{Transport: tr, CheckRedirect: checkRedirect}
	c.robotsHTTP = &http.Client{
		Transport: tr,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if req.URL.User != nil {
				// As a page's redirect (redirect.go): not sent.
				return errCredentials
			}
			return checkRedirect(req, via)
		},
	}
	c.page = &http.Client{
		Transport: tr,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	c.robots = newRobotsCache(opt.RobotsTTL)
	c.hosts = newHostTable(opt.HostDelay, opt.HostConcurrency)
	if ch, ok := opt.Renderer.(*Chromium); ok {
		ch.mu.Lock()
		if ch.Dial == nil {
			ch.Dial, ch.up = c.dialTarget, c.up
		}
		if ch.Allow == nil {
			ch.Allow = c.allowDocument
		}
		if ch.MaxSize == 0 {
			ch.MaxSize = opt.MaxDecodedSize
		}
		if ch.total == 0 {
			ch.total, ch.headerTimeout, ch.connectTimeout = opt.TotalTimeout, opt.HeaderTimeout, opt.ConnectTimeout
		}
		ch.mu.Unlock()
	}
	return c
}

// Errors a caller may branch on; every fetch error wraps one of them, or
// vigil.ErrHostBusy (never sent: the host's turn did not come), or is a
// network error.
var (
	ErrRefused     = errors.New("address refused")
	ErrTooLarge    = errors.New("body too large")
	ErrRedirects   = errors.New("too many redirects")
	ErrRobots      = vigil.ErrDisallowed // the domain's, so that a crawl tells a URL never requested
	ErrStatus      = errors.New("HTTP error status")
	ErrBinary      = errors.New("binary content")
	ErrCharset     = errors.New("unsupported charset")
	ErrEncoding    = errors.New("bad content encoding")
	ErrUnsupported = errors.New("unsupported request")
)

func checkScheme(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%w: scheme %q is not http or https", ErrUnsupported, u.Scheme)
	}
	return nil
}

// Fetch implements vigil.Fetcher. Its errors name req.URL with its
// password hidden (vigil.RedactURL): they go to the log, to a failed
// version's error and to a failure notice. What is fetched is the URL as
// asked (a host in Unicode by its ASCII form); the result's URL is the
// page's final one, after its redirects, plain or rendered, which its
// links resolve against.
func (c *Client) Fetch(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
	u, err := url.Parse(req.URL)
	if err != nil {
		if shown := vigil.RedactURL(req.URL); shown != req.URL {
			// url.Error quotes the URL as given, and its detail
			// the password cut at a "/", "?" or "#" in it
			// (`invalid port ":pa"`): neither is shown.
			return nil, fmt.Errorf("fetch %s: the URL does not parse", shown)
		}
		return nil, fmt.Errorf("fetch %s: %w", req.URL, hideCredentials(err))
	}
	if err := checkScheme(u); err != nil {
		return nil, fmt.Errorf("fetch %s: %w", vigil.RedactURL(req.URL), err)
	}
	// A host spelt in Unicode is asked for, and named in the result, by
	// its ASCII (punycode) form: the one vigil.CanonicalURL takes, where
	// url.URL.String would percent-encode it.
	host := u.Host
	if err := spec.CheckASCIIHost(u); err != nil {
		return nil, fmt.Errorf("fetch %s: %w", vigil.RedactURL(req.URL), err)
	}
	if u.Host != host {
		r := *req
		r.URL = u.String()
		req = &r
	}
	if req.Render {
		return c.render(ctx, req, u)
	}
	return c.follow(ctx, req, u)
}

// turn reads robots.txt for u, refuses u if it disallows it, and waits
// for the turn of u's host; it returns the function that ends the turn.
// Reading robots.txt and waiting share HostWait. An error is ErrRobots, a
// robots.txt that could not be read, the caller's cancellation, or one
// wrapping vigil.ErrHostBusy (the time allowed ran out).
func (c *Client) turn(ctx context.Context, u *url.URL) (func(), error) {
	host := hostKey(u)
	delay := time.Duration(0)
	wctx, cancel := context.WithTimeout(ctx, c.opt.HostWait)
	defer cancel()
	if !c.opt.IgnoreRobots {
		rules, err := c.robotsAllow(wctx, u)
		if err != nil {
			return nil, err
		}
		delay = rules.crawlDelay(c.opt.RobotsAgent)
	}
	release, err := c.hosts.acquire(wctx, host, originKey(u), delay)
	if err != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			// The caller gave up: no verdict on the host.
			return nil, fmt.Errorf("waiting for host %s: %w", host, ctx.Err())
		}
		// The time allowed (HostWait, or the caller's deadline) ran out.
		return nil, fmt.Errorf("%w: waiting for host %s: %w", vigil.ErrHostBusy, host, err)
	}
	return release, nil
}

// CheckHost resolves host and returns an error wrapping ErrRefused if any
// of its addresses is private, loopback, link-local or reserved, unless the
// client allows private networks. Other outgoing requests that do not go
// through HTTPClient (chat services) use it.
func (c *Client) CheckHost(ctx context.Context, host string) error {
	if c.opt.AllowPrivateNetworks {
		return nil
	}
	return c.checkHost(ctx, host)
}

// checkHost resolves host and refuses it if any address is private.
func (c *Client) checkHost(ctx context.Context, host string) error {
	if err := refuseLiteral(host, c.opt.permit); err != nil {
		return err
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return err
	}
	for _, a := range addrs {
		if c.opt.permit != nil && c.opt.permit(a.Unmap()) {
			continue
		}
		if err := checkAddr(a); err != nil {
			return fmt.Errorf("%s: %w", host, err)
		}
	}
	return nil
}

// get requests u once, without following a redirect: an answer that
// redirects gives the URL it leads to (resolved against u) and no result,
// and so does an HTML page whose meta refresh is a redirect
// (refreshTarget).
// etag and lastModified, when set, are u's validators: the request is
// conditional. digest, when not nil, is given a binary body before it is
// dropped (vigil.FetchRequest.DigestBinary). read, when not nil, is
// called once the body is read, before the work on it (decoding, the
// digest): the host's turn ends there.
func (c *Client) get(ctx context.Context, u *url.URL, etag string, lastModified time.Time, digest func(string, []byte) string, read func()) (*vigil.FetchResult, *url.URL, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, nil, err
	}
	hreq.Header.Set("User-Agent", c.opt.UserAgent)
	hreq.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,text/*;q=0.8,*/*;q=0.5")
	hreq.Header.Set("Accept-Encoding", "gzip, deflate, br")
	if etag != "" {
		hreq.Header.Set("If-None-Match", etag)
	}
	if !lastModified.IsZero() {
		hreq.Header.Set("If-Modified-Since", lastModified.UTC().Format(http.TimeFormat))
	}
	resp, err := c.page.Do(hreq)
	if err != nil {
		// url.Error's text names u again, after the method ("Get
		// "URL": dial tcp ..."), where the fetch's error names it
		// already (follow: "fetch URL: ", "redirect to URL: "): the
		// cause alone, as robots.txt's gives it.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, nil, hideCredentials(err)
	}
	defer resp.Body.Close()
	res := &vigil.FetchResult{URL: resp.Request.URL.String(), Status: resp.StatusCode, ETag: resp.Header.Get("ETag")}
	if loc := resp.Header.Get("Location"); loc != "" && isRedirect(resp.StatusCode) {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		next, err := resp.Request.URL.Parse(loc)
		if err == nil {
			// A host DNS refuses is not asked for (spec.CheckHostName); one
			// spelt in Unicode, or percent-encoded, goes on in its
			// ASCII form (spec.ASCIIHost), as the page asked: both in
			// one conversion, spec.CheckASCIIHost.
			err = spec.CheckASCIIHost(next)
		}
		if err != nil {
			// The Location quoted without its credentials: the error
			// goes to the log and the version.
			return res, nil, hideCredentials(fmt.Errorf("redirect %d to a bad Location %q: %w", resp.StatusCode, loc, err))
		}
		return nil, next, nil
	}
	if lm, err := http.ParseTime(resp.Header.Get("Last-Modified")); err == nil {
		res.LastModified = lm
	}
	if resp.StatusCode == http.StatusNotModified {
		res.NotModified = true
		if res.ETag == "" {
			res.ETag = etag
		}
		if res.LastModified.IsZero() {
			res.LastModified = lastModified
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return res, nil, nil
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return res, nil, &statusError{status: resp.StatusCode, retryAfter: retryAfter(resp)}
	}
	if resp.ContentLength > c.opt.MaxBodySize {
		return res, nil, c.hintTooLarge(fmt.Errorf("%w: Content-Length %d exceeds the cap of %d bytes", ErrTooLarge, resp.ContentLength, c.opt.MaxBodySize))
	}
	raw, err := readCappedHint(resp.Body, c.opt.MaxBodySize, resp.ContentLength)
	if err != nil {
		return res, nil, c.hintTooLarge(err)
	}
	if read != nil {
		read()
	}
	// Codings on several header lines are one list (RFC 9110 §5.3).
	body, err := decodeContent(raw, strings.Join(resp.Header.Values("Content-Encoding"), ","), c.opt.MaxDecodedSize)
	if err != nil {
		return res, nil, c.hintTooLarge(err)
	}
	// The type by vigil.MediaType, which a malformed parameter (a
	// charset given twice) does not undo; the charset from parameters
	// mime.ParseMediaType takes, else detected (toUTF8).
	contentType := resp.Header.Get("Content-Type")
	mediaType := vigil.MediaType(contentType)
	_, params, _ := mime.ParseMediaType(contentType)
	if mediaType == "" {
		mediaType = vigil.MediaType(http.DetectContentType(body))
	}
	res.ContentType = mediaType
	if !vigil.IsTextMediaType(res.ContentType) || looksBinary(body, params["charset"]) {
		if digest != nil {
			res.BinaryDigest, res.BinarySize = digest(res.ContentType, body), int64(len(body))
		}
		return res, nil, fmt.Errorf("%w: %s is not a text document", ErrBinary, res.ContentType)
	}
	utf8Body, cs, err := toUTF8(body, res.ContentType, params["charset"])
	if err != nil {
		return res, nil, err
	}
	res.Body, res.Charset = utf8Body, cs
	if next := refreshTarget(u, res); next != nil {
		// A meta refresh is a redirect the page wrote in HTML: followed
		// as one (refresh.go).
		return nil, next, nil
	}
	return res, nil, nil
}

// hintTooLarge adds Options.TooLargeHint to err when it wraps
// ErrTooLarge.
func (c *Client) hintTooLarge(err error) error {
	if c.opt.TooLargeHint == "" || !errors.Is(err, ErrTooLarge) {
		return err
	}
	return fmt.Errorf("%w; %s", err, c.opt.TooLargeHint)
}

// readCapped reads r fully, failing once more than limit bytes came.
func readCapped(r io.Reader, limit int64) ([]byte, error) {
	return readCappedHint(r, limit, -1)
}

// readCappedHint is readCapped with the expected size (Content-Length, -1
// if unknown), so that the body is read into a buffer of its size: bodies
// are kept for the next comparison, and a doubling buffer would keep up to
// twice their size.
func readCappedHint(r io.Reader, limit, hint int64) ([]byte, error) {
	if hint >= 0 && hint <= limit {
		buf := make([]byte, hint, hint+1)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, err
		}
		var one [1]byte
		if n, _ := r.Read(one[:]); n == 0 {
			return buf, nil
		}
		rest, err := readCapped(r, limit-hint-1) // longer than announced
		if err != nil {
			return nil, err
		}
		return append(append(buf, one[0]), rest...), nil
	}
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
	}
	if b := buf.Bytes(); cap(b) > len(b)+len(b)/8+512 {
		return bytes.Clone(b), nil
	}
	return buf.Bytes(), nil
}

// hostTable spaces and bounds the requests to each host.
type hostTable struct {
	mu          sync.Mutex
	hosts       map[string]*hostSlot
	delay       time.Duration
	concurrency int
}

// Transport returns the fetcher's transport: its dialer refuses private
// networks (unless allowed) for every connection, the first request's and
// each redirect's, after DNS resolution; with Options.Proxy, it sends
// requests through the proxy, each target checked first (upstream.go).
// Callers that need other TLS settings clone it (a clone keeps both).
func (c *Client) Transport() *http.Transport {
	return c.http.Transport.(*http.Transport)
}

// HTTPClient returns an HTTP client with the fetcher's transport: the same
// address checks (private networks refused unless allowed), timeouts and
// redirect cap, for other outgoing requests such as webhooks.
func (c *Client) HTTPClient() *http.Client {
	return &http.Client{Transport: c.http.Transport, CheckRedirect: c.http.CheckRedirect, Timeout: c.opt.TotalTimeout}
}

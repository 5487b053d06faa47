package fetch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/vigil-web/vigil"
)

// Renderer returns the HTML of a page as a browser shows it once its
// scripts ran.
type Renderer interface {
	Render(ctx context.Context, url string) (string, error)
}

// RenderedPage is a page a PageRenderer rendered.
type RenderedPage struct {
	// HTML is the page's document once its scripts ran.
	HTML string
	// Status is the HTTP status of the answer to the page's main
	// document, the last of its redirects; 0 if unknown.
	Status int
	// RetryAfter is how long that answer, a 429 or 503, asked its host
	// to be left alone (its Retry-After, at most a day); 0 if it did not.
	RetryAfter time.Duration
	// URL is the main document's final URL, after its redirects (or the
	// page a script sent the tab to), which the page's links resolve
	// against; the URL asked for when it is that document's, however the
	// browser spells it; empty if unknown (the URL asked for).
	URL string
}

// PageRenderer is a Renderer that tells what the HTTP answer of the page
// it rendered was too (RenderedPage): its status, its final URL and its
// Retry-After. The client fails a page whose status is not 2xx as its
// plain fetch does (ErrStatus), waits out a 429's or 503's Retry-After as
// it does, and names the result by the final URL, where a Renderer's page
// is taken for a 200 of the URL asked.
type PageRenderer interface {
	Renderer
	RenderPage(ctx context.Context, url string) (*RenderedPage, error)
}

// ChromiumPath is where Debian's chromium package installs the browser.
const ChromiumPath = "/usr/bin/chromium"

// Chromium renders pages in one headless Chromium process started on first
// use (through chromedp), one tab per page. It is safe for concurrent use;
// Close stops the browser.
type Chromium struct {
	// ExecPath is the browser binary; ChromiumPath if empty.
	ExecPath string
	// Settle is how long to wait after the load event for scripts that
	// change the page (100ms if zero), and after the load of each page
	// those scripts send the tab to (followNavigations).
	Settle time.Duration
	// Dial makes every request of the browser go through a proxy in this
	// process that dials with it (see guardProxy). New sets it to the
	// client's own guarded dialer (through the client's Options.Proxy,
	// to which the guard proxy then chains) when the Chromium is the client's
	// Renderer and Dial is nil: the address guard then holds for what a
	// rendered page loads, not only for its URL. A Chromium serves one
	// client (the first one given it); without Dial it refuses to start.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Allow returns nil if the browser may request url as the tab's main
	// document, or an error why not (one wrapping ErrRobots if robots.txt
	// disallows it). The tab asks it before each document of its main
	// frame: the page asked for, each redirect, each page a script sends
	// it to (navgate.go). New sets it, as Dial, to the client's check of
	// robots.txt, which shares the client's cache; without it the Chromium
	// refuses to start.
	Allow func(ctx context.Context, url string) error
	// MaxSize is the most bytes of a rendered document: a page whose
	// scripts build a larger one fails with ErrTooLarge, its size read in
	// the browser before the document is copied out of it. New sets it to
	// the client's Options.MaxDecodedSize when zero; negative: none in the
	// browser (the client still refuses a document past its own cap once
	// it is copied out).
	MaxSize int64
	// NoSandbox starts the browser without Chromium's sandbox
	// (--no-sandbox), where it could start in it. The browser runs in its
	// sandbox unless NoSandbox is set or the process runs as root, where
	// Chromium refuses to (see Sandbox). A browser that cannot start in
	// its sandbox (no user namespaces) fails the render, saying so; it is
	// not started without it unasked.
	NoSandbox bool
	// NoSandboxSetting names, in the error of a browser that cannot start
	// in its sandbox, how the user sets NoSandbox ("vigil serve
	// --chromium-sandbox=false"); "Chromium.NoSandbox" if empty.
	NoSandboxSetting string
	// Logger receives what the server of the browser's guard proxy logs
	// itself (net/http's ErrorLog: a connection's error, a panic no
	// handler recovered) and what chromedp logs of the browser's
	// connection (an event it cannot read), its secrets hidden
	// (vigil.RedactSecrets); slog.Default() if nil.
	Logger *slog.Logger

	euid    func() int // os.Geteuid if nil; tests set it
	mu      sync.Mutex
	browser context.Context
	cancel  []context.CancelFunc
	proxy   *guardProxy
	up      *upstream // the client's proxy, which the guard proxy chains to
	// total and headerTimeout are the client's Options.TotalTimeout and
	// Options.HeaderTimeout, which the guard proxy's requests follow as
	// the client's own do (startGuardProxy).
	total, headerTimeout time.Duration
	// connectTimeout is the client's Options.ConnectTimeout, its TLS
	// handshake timeout, which the guard proxy's tunnels follow as the
	// client's own connections do (tunnelTimeout).
	connectTimeout time.Duration
}

var _ PageRenderer = (*Chromium)(nil)

// startProxy starts the guard proxy of the browser's requests, which
// dials with Dial (through up, the client's proxy) and waits for an
// answer as the client's fetch does (total, headerTimeout). The caller
// holds c.mu, or has c to itself.
func (c *Chromium) startProxy() (*guardProxy, error) {
	return startGuardProxyHandshake(c.Dial, c.up, c.total, c.headerTimeout, c.connectTimeout, c.Logger)
}

// start starts the browser unless it runs, and returns its context and
// the Allow of the documents its tabs load. A browser whose process
// exited (it crashed, or was killed) has its context ended by chromedp:
// it is stopped and another started, so that one crash does not fail
// every render after it; so is a browser whose guard proxy stopped on a
// panic (guardProxy.stopped), whose tabs would use a port no longer its.
func (c *Chromium) start() (*browserSession, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.browser != nil {
		if c.browser.Err() == nil && (c.proxy == nil || !c.proxy.stopped()) {
			return c.session(), nil
		}
		c.stop()
	}
	path := c.ExecPath
	if path == "" {
		path = ChromiumPath
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("chromium not found at %s (install the chromium package): %w", path, err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Flag("disable-dev-shm-usage", true),
		// chromedp turns the popup blocker off: a page's script could
		// then open windows of its own (window.open), whose documents no
		// tab's gate holds to robots.txt and which stay open after the
		// render. Blocked, a script opens none (it has no user gesture).
		chromedp.Flag("disable-popup-blocking", false),
	)
	// Set either way: chromedp adds --no-sandbox by itself when the flag
	// is not set and the process's real user is root.
	sandbox := c.Sandbox()
	opts = append(opts, chromedp.Flag("no-sandbox", sandbox != SandboxOn))
	if c.Dial == nil {
		return nil, fmt.Errorf("chromium: no dialer for its proxy (a Chromium renders for the fetch.Client it was given to)")
	}
	if c.Allow == nil {
		return nil, fmt.Errorf("chromium: no robots.txt check for its pages (a Chromium renders for the fetch.Client it was given to)")
	}
	{
		p, err := c.startProxy()
		if err != nil {
			return nil, fmt.Errorf("start chromium's proxy: %w", err)
		}
		c.proxy = p
		opts = append(opts,
			chromedp.ProxyServer(p.URL()),
			// Loopback addresses too (Chromium sends them direct by
			// default), and no UDP of WebRTC's around the proxy.
			chromedp.Flag("proxy-bypass-list", proxyBypassList),
			chromedp.Flag("webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		)
	}
	profile, err := browserProfile()
	if err != nil {
		if c.proxy != nil {
			c.proxy.Close()
			c.proxy = nil
		}
		return nil, fmt.Errorf("start chromium: %w", err)
	}
	dropProfile := func() { removeProfile(profile) }
	opts = append(opts, chromedp.UserDataDir(profile), chromedp.NoInheritEnv, chromedp.Env(browserEnv(os.Environ())...))
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	logf := browserLogf(c.Logger)
	bctx, bcancel := chromedp.NewContext(actx, chromedp.WithLogf(logf), chromedp.WithErrorf(logf))
	if err := chromedp.Do(bctx); err != nil { // starts the browser
		bcancel()
		acancel()
		dropProfile()
		if c.proxy != nil {
			c.proxy.Close()
			c.proxy = nil
		}
		if said := sandboxFailure(err); said != "" && sandbox == SandboxOn {
			return nil, c.sandboxError(said)
		}
		return nil, fmt.Errorf("start chromium: %w", err)
	}
	// acancel waits for the browser to exit: its profile goes after.
	c.browser, c.cancel = bctx, []context.CancelFunc{bcancel, acancel, dropProfile}
	return c.session(), nil
}

// browserSession is what a render needs of the running browser, read
// under the Chromium's lock.
type browserSession struct {
	ctx   context.Context // the browser's
	allow func(context.Context, string) error
	proxy proxyLogin // the guard proxy's URL and the render's credentials
	max   int64      // MaxSize
	// tunnels is the guard proxy, and mark the count of its panics
	// when the render started (guardProxy.panicMark): a tunnel or a
	// request that panics while the render runs fails it (panicked).
	tunnels *guardProxy
	mark    uint64
	// log is what the guard proxy records of the render's own requests
	// (its refusals, the tunnels it could not open), closed by end.
	log *renderLog
}

// tunnelFailed returns the guard proxy's error for a tunnel to url's host
// it could not open for the render, if any.
func (b *browserSession) tunnelFailed(url string) error { return b.log.tunnelFailed.of(url) }

// refused returns the guard proxy's refusal of url's host for the render,
// if any.
func (b *browserSession) refused(url string) error { return b.log.refused.of(url) }

// end closes the render's log: the guard proxy refuses its credentials
// from now on.
func (b *browserSession) end() { b.tunnels.end(b.log) }

// panicked returns a panic of the guard proxy since the render started,
// if any (guardProxy.panicSince).
func (b *browserSession) panicked() error { return b.tunnels.panicSince(b.mark) }

// browserLogf is chromedp's log and error log of the browser's
// connection: each line logged at Error level on logger (slog.Default()
// if nil) with its secrets hidden (vigil.RedactSecrets), where chromedp's
// default, the standard logger, wrote it as it was (an event's text may
// quote a page's URL, its token with it).
func browserLogf(logger *slog.Logger) func(string, ...any) {
	if logger == nil {
		logger = slog.Default()
	}
	return func(format string, args ...any) {
		logger.Error("the rendering browser's connection", "error", vigil.RedactSecrets(fmt.Sprintf(format, args...)))
	}
}

// session returns what a render needs of the running browser, its log
// on the guard proxy opened (end closes it), with c.mu held.
func (c *Chromium) session() *browserSession {
	log := c.proxy.begin()
	return &browserSession{ctx: c.browser, allow: c.Allow, max: c.MaxSize, tunnels: c.proxy, mark: c.proxy.panicMark(),
		log: log, proxy: proxyLogin{origin: c.proxy.URL(), user: log.user, password: log.password}}
}

// newTab opens a tab for one render in a browser context of its own,
// discarded with the tab (when cancel is called): what a page stores
// (cookies, Cache Storage, IndexedDB, service workers) is kept in memory
// for the render only, so that a page rendered at every check cannot fill
// the disk of the browser's profile, and no page finds another's state,
// another user's sentinel's. The context's requests go through the guard
// proxy as the browser's do, and it saves no download (a frame served as
// an attachment, a link's download attribute), which would write files
// of the page's naming and size to the Downloads folder of the daemon's
// user.
//
// The tab is closed when ctx ends too, from the start: a browser that does
// not answer while the tab is being opened holds the render no longer
// than the caller's deadline.
func (b *browserSession) newTab(ctx context.Context) (context.Context, context.CancelFunc, error) {
	tab, closeTab := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext(func(p *target.CreateBrowserContextParams) {
		p.ProxyServer, p.ProxyBypassList = b.proxy.origin, proxyBypassList
	}))
	stop := context.AfterFunc(ctx, closeTab)
	cancel := func() {
		stop()
		closeTab()
	}
	if err := chromedp.Do(tab); err != nil { // opens the tab, in its context
		cancel()
		return nil, nil, err
	}
	_, err := chromedp.CallBrowser(tab, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior:         browser.SetDownloadBehaviorBehaviorDeny,
		BrowserContextID: chromedp.FromContext(tab).BrowserContextID,
	})
	if err != nil {
		cancel()
		return nil, nil, fmt.Errorf("refuse the tab's downloads: %w", err)
	}
	return tab, cancel, nil
}

// proxyBypassList sends loopback addresses through the guard proxy too
// (Chromium sends them direct by default).
const proxyBypassList = "<-loopback>"

// Render implements Renderer. A document of the tab's main frame that
// Allow refuses (the page, a redirect, a page a script sends the tab to)
// is not requested, and fails the render with Allow's error, naming it
// ("redirect to URL: disallowed by robots.txt"). One whose address the
// guard proxy refused fails it with the guard's error (ErrRefused),
// naming it ("navigation to URL: dial tcp: address refused: ::1 is a
// loopback address ..."), where the proxy's 403, which the browser shows
// as the page, was returned as the page. One whose server the guard proxy
// could not reach, or which did not answer in time, fails with the
// proxy's error, naming it, as the plain fetch fails ("navigation to URL:
// dial tcp ...: connection refused"), where the proxy's 502 or 504 was
// returned as the page (and, for an https page whose tunnel it could not
// open, the browser's net::ERR_TUNNEL_CONNECTION_FAILED was all it said;
// for a page a script sent the tab to, its error page, "a document with
// no HTTP answer").
// An https page whose server sent nothing through its tunnel within the
// client's ConnectTimeout (its TLS handshake) fails as the plain fetch's
// TLS handshake timeout does, naming the host ("TLS handshake timeout:
// HOST sent nothing in 10s", a net.Error timeout), where the browser
// waited for it and said net::ERR_TIMED_OUT. A page whose redirects the
// browser gave up on (net::ERR_TOO_MANY_REDIRECTS) after one led back to
// a document its navigation asked already fails naming the loop as the
// plain fetch does ("redirect loop: A → B → A", ErrRedirects). A page
// whose tab shows, once loaded, a document that came with no HTTP answer
// (about:blank or a blob: URL, where a script sent it) fails naming it,
// and so does a download (both wrap ErrUnsupported); a 204 is a page
// without HTML. A page a script sends the tab to in the settle time is
// waited for and read instead, after its own settle time, up to
// maxFollowed of them; one whose scripts send the tab elsewhere each time
// it is read, maxReads times, fails (ErrUnsupported).
func (c *Chromium) Render(ctx context.Context, url string) (string, error) {
	p, err := c.RenderPage(ctx, url)
	if err != nil {
		return "", err
	}
	return p.HTML, nil
}

// RenderPage implements PageRenderer: it renders as Render does, and
// tells the HTTP status and URL of the answer to the main frame's latest
// document (the page's, after its redirects, or the page a script sent the
// tab to), as the browser received it.
func (c *Chromium) RenderPage(ctx context.Context, url string) (*RenderedPage, error) {
	html, doc, err := c.render(ctx, url)
	if err != nil {
		return nil, err
	}
	return &RenderedPage{HTML: html, Status: doc.status, URL: doc.url, RetryAfter: doc.retryAfter}, nil
}

// render renders url, returning its HTML and the answer to its main
// document (its status 0 and URL empty if unknown; its URL url if it is
// the document asked for).
func (c *Chromium) render(ctx context.Context, url string) (string, documentAnswer, error) {
	b, err := c.start()
	if err != nil {
		return "", documentAnswer{}, err
	}
	defer b.end()
	tab, cancel, err := b.newTab(ctx)
	if err != nil {
		return "", documentAnswer{}, ended(ctx, err)
	}
	defer cancel()
	gate, err := openNavigationGate(tab, b.allow, b.proxy)
	if err != nil {
		return "", documentAnswer{}, ended(ctx, err)
	}
	defer gate.close()
	settle := c.Settle
	if settle <= 0 {
		settle = 100 * time.Millisecond
	}
	loadErr := chromedp.Do(tab, chromedp.Navigate(url), chromedp.Sleep(settle))
	for reads := 1; ; reads++ {
		if loadErr == nil {
			loadErr = followNavigations(tab, gate, settle)
		}
		if doc, done, err := gate.afterLoad(ctx, tab, b, url, loadErr); done {
			return "", doc, err
		}
		html, doc, again, err := gate.read(ctx, tab, b, url)
		if !again {
			return html, doc, err
		}
		if reads == maxReads {
			return "", documentAnswer{}, fmt.Errorf("%w: the page's scripts kept sending the tab to other documents while it was read (%d reads)", ErrUnsupported, reads)
		}
		// The document that committed meanwhile gets the settle time
		// for its scripts too, and is held to the same checks.
		loadErr = chromedp.Do(tab, chromedp.Sleep(settle))
	}
}

// afterLoad checks the tab once the page is loaded and settled (loadErr is
// the load's error), before it is read: done says the render ends here,
// with doc's status (an answer with no page: a 204, a 429 that asked its
// host to be left alone) or err.
func (g *navigationGate) afterLoad(ctx, tab context.Context, b *browserSession, url string, loadErr error) (doc documentAnswer, done bool, err error) {
	// A refusal wins over the load's error it causes (the browser's
	// net::ERR_BLOCKED_BY_CLIENT); a document still being decided is
	// waited for, so that the page read is not one on its way out.
	if err := g.settled(tab); err != nil {
		return documentAnswer{}, true, err
	}
	// A tunnel of the guard proxy that panicked while the render ran (its
	// goroutine's bug, recovered there) fails it: the proxy serves the
	// browser's tabs all, and cannot tell whose it was, so each render in
	// flight then fails, the one it served among them, and none started
	// after it.
	if err := b.panicked(); err != nil {
		return documentAnswer{}, true, err
	}
	// A document of the main frame whose address the guard refused: the
	// browser shows the proxy's 403 as the page (or fails its tunnel),
	// which is no page of the site.
	if err := g.refusedByGuard(b.refused); err != nil {
		return documentAnswer{}, true, err
	}
	// The proxy's 502 or 504 for a document of the main frame whose
	// server it could not reach, which the browser shows as the page:
	// the render fails with the proxy's error, as the plain fetch does.
	if err := g.failedAtGuard(b.tunnels.failure); err != nil {
		return documentAnswer{}, true, err
	}
	// A 429 or 503 asking its host to be left alone, whose page the
	// tab did not load (navigationGate.limit): its status is the
	// render's, and its Retry-After.
	if doc, ok := g.limited(url); ok {
		return doc, true, nil
	}
	if loadErr != nil {
		if loop := g.redirectLoop(); loop != nil && strings.Contains(loadErr.Error(), "ERR_TOO_MANY_REDIRECTS") {
			return documentAnswer{}, true, loop
		}
		// An answer not 2xx without a body (a 429 or 503 asking to be
		// left alone, a bare 404): the browser says only
		// net::ERR_HTTP_RESPONSE_CODE_FAILURE, and shows no page. Its
		// status is the render's, as with a body: the client fails it
		// (ErrStatus), and holds its host off as Retry-After says.
		if doc := g.document(url); strings.Contains(loadErr.Error(), "ERR_HTTP_RESPONSE_CODE_FAILURE") && doc.status != 0 && doc.status/100 != 2 {
			return doc, true, nil
		}
		// An answer the browser does not show (net::ERR_ABORTED): a 204
		// or 205, which has no page, as the plain fetch's has no body;
		// a download, refused (the tab saves none), which the render
		// names rather than the browser's words: an attachment, or
		// another answer 2xx, which the browser downloads for its type
		// (application/zip).
		if strings.Contains(loadErr.Error(), "ERR_ABORTED") {
			switch doc := g.document(url); {
			case doc.status == http.StatusNoContent || doc.status == http.StatusResetContent:
				return doc, true, nil
			case doc.attachment:
				return documentAnswer{}, true, fmt.Errorf("%w: %s is a download (Content-Disposition: attachment), not a page the browser shows",
					ErrUnsupported, vigil.RedactURL(doc.url))
			case doc.status/100 == 2:
				return documentAnswer{}, true, fmt.Errorf("%w: %s is a download (Content-Type: %s), not a page the browser shows",
					ErrUnsupported, vigil.RedactURL(doc.url), doc.mime)
			}
		}
		// An https document whose tunnel the proxy could not open (the
		// browser says only net::ERR_TUNNEL_CONNECTION_FAILED), or whose
		// server sent nothing through it in time (its TLS handshake: the
		// browser says the connection closed).
		failed := strings.Contains(loadErr.Error(), "ERR_TUNNEL_CONNECTION_FAILED")
		err := g.refusedByGuard(func(url string) error {
			err := b.tunnelFailed(url)
			var te *tunnelTimeoutError
			if failed || errors.As(err, &te) {
				return err
			}
			return nil
		})
		if err != nil {
			return documentAnswer{}, true, err
		}
		return documentAnswer{}, true, ended(ctx, loadErr)
	}
	return documentAnswer{}, false, nil
}

// read reads the page the tab shows: its HTML and the answer to its
// document. again says that another document committed while it was
// read (a navigation a script started just as the settle time ended),
// which may have given the HTML of one document and the answer of the
// other, or ended the read (the document it read in is gone): the page is
// to be read again once that one is loaded and settled.
func (g *navigationGate) read(ctx, tab context.Context, b *browserSession, url string) (html string, doc documentAnswer, again bool, err error) {
	// The answer to the document the tab shows, not the latest
	// received: a script may have sent the tab to about:blank (no
	// answer), or back to a page before (history.back) from another
	// that answered.
	doc, loader, err := g.shown(tab, url)
	if err != nil {
		// The browser's error page, where a script sent the tab to an
		// https page whose tunnel the proxy could not open, or whose
		// server sent nothing through it in time: the render fails with
		// the proxy's error, naming that page, as the page's own
		// navigation does.
		if failed := g.latestSent(b.tunnelFailed); failed != nil {
			return "", documentAnswer{}, false, failed
		}
		return "", documentAnswer{}, false, ended(ctx, err)
	}
	max := b.max
	html, readErr := documentHTML(tab, max)
	if err := g.refused(); err != nil {
		return "", documentAnswer{}, false, err
	}
	now, err := shownLoader(tab)
	switch {
	case err != nil:
		return "", documentAnswer{}, false, ended(ctx, err)
	case now != loader:
		return "", documentAnswer{}, true, nil
	case readErr != nil:
		return "", documentAnswer{}, false, ended(ctx, readErr)
	case max > 0 && int64(len(html)) > max:
		return "", documentAnswer{}, false, tooLargeRendered(max)
	}
	return "<!DOCTYPE html>\n" + html, doc, false, nil
}

// Bounds of following the navigations a page's scripts start once it is
// loaded (followNavigations) and of reading a page while they commit.
const (
	// maxFollowed is the most navigations followed one after the other.
	maxFollowed = 5
	// maxReads is the most reads of a page whose scripts send the tab
	// elsewhere as it is read.
	maxReads = 3
)

// followNavigations follows the navigations the page's scripts started in
// its settle time (a redirect by script once the page is loaded): it
// waits for the tab's main frame to stop loading, and the settle time
// again for the new page's scripts, up to maxFollowed navigations, so
// that the page read is the one the scripts sent the tab to, not the one
// on its way out. Only the render's deadline bounds the wait for a
// navigation to load, as it bounds the page's own load (the browser does
// not say which document it shows while one is on its way).
func followNavigations(tab context.Context, gate *navigationGate, settle time.Duration) error {
	for range maxFollowed {
		loaded := gate.loading()
		if loaded == nil {
			return nil
		}
		select {
		case <-loaded:
		case <-tab.Done():
			return tab.Err()
		}
		if err := chromedp.Do(tab, chromedp.Sleep(settle)); err != nil {
			return err
		}
	}
	return nil
}

// documentHTML returns the outer HTML of tab's document (its root
// element's), read in an isolated world of its main frame: there the
// page's scripts cannot redefine outerHTML (on the element or
// Element.prototype). With max positive, a document longer than max in
// UTF-16 code units, each one to three bytes of UTF-8 (a pair of them
// four), is longer in bytes, and is refused (ErrTooLarge) without being
// copied here. The length is read off the string that would be copied,
// in the same call: read apart, a document that grew between the two
// reads was copied whatever its size. A document longer than the
// browser's strings can hold (a RangeError) is refused too. The document
// is read as it is, not through chromedp's tracking of the DOM, which
// does not follow a page restored from the back/forward cache (a
// script's history.back()) and waited for a document to the render's
// deadline.
func documentHTML(tab context.Context, max int64) (string, error) {
	world, err := chromedp.Call(tab, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{
		FrameID:   cdp.FrameID(chromedp.FromContext(tab).Target.TargetID),
		WorldName: "vigil-read",
	})
	if err != nil {
		return "", fmt.Errorf("read the document: %w", err)
	}
	inWorld := func(p *runtime.EvaluateParams) { p.ContextID = world.ExecutionContextID }
	read, err := chromedp.Run(tab, chromedp.Evaluate[documentRead](fmt.Sprintf(readDocument, max), inWorld))
	if err != nil {
		return "", fmt.Errorf("read the document: %w", err)
	}
	if read.Unheld {
		return "", fmt.Errorf("%w: the rendered document is longer than the browser's strings hold", ErrTooLarge)
	}
	if read.Over {
		return "", tooLargeRendered(max)
	}
	return read.HTML, nil
}

// readDocument is the script documentHTML runs, given the most UTF-16
// code units it copies (0 for no limit).
const readDocument = `(() => {
	const root = document.documentElement;
	if (!root) return {html: ""};
	let html;
	try {
		html = root.outerHTML;
	} catch (e) {
		if (e instanceof RangeError) return {unheld: true};
		throw e;
	}
	const max = %d;
	return max > 0 && html.length > max ? {over: true} : {html: html};
})()`

// documentRead is what readDocument returns: the document's HTML, or
// that it is over the limit, or longer than a string of the browser
// holds (whatever the limit).
type documentRead struct {
	HTML   string `json:"html"`
	Over   bool   `json:"over"`
	Unheld bool   `json:"unheld"`
}

// tooLargeRendered is the error of a rendered document over max bytes.
func tooLargeRendered(max int64) error {
	return fmt.Errorf("%w: the rendered document is over the cap of %d bytes", ErrTooLarge, max)
}

// ended returns err, or, when the caller's ctx ended (its deadline, the
// fetch's TotalTimeout), ctx's error with err: the tab is closed through
// its own context then, and chromedp reports only that it was canceled.
func ended(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	return fmt.Errorf("%w (%v)", ctx.Err(), err)
}

// Close stops the browser if it was started.
func (c *Chromium) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stop()
	return nil
}

// stop stops the browser and its proxy, with c.mu held.
func (c *Chromium) stop() {
	for _, f := range c.cancel {
		f()
	}
	c.browser, c.cancel = nil, nil
	if c.proxy != nil {
		c.proxy.Close()
		c.proxy = nil
	}
}

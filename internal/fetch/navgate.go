package fetch

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/vigil-web/vigil"
)

// navigationGate holds the documents a tab's main frame requests to
// robots.txt (Chromium.Allow) before the browser sends them: the page
// asked for, each redirect it leads to, and each page a script sends the
// tab to (location.href = ..., a new document). It intercepts them with
// the DevTools protocol's Fetch domain at the request stage: a document
// allowed is continued, one refused is failed (BlockedByClient: the
// browser never sends it) and the refusal kept for Render, which fails.
// The documents let through are kept for Render to ask the guard proxy
// whether it refused them, and the first redirect back to a document its
// navigation asked already (a loop), for Render to name when the browser
// gives up on the redirects.
//
// It holds the answers to documents too, at the response stage, before
// the browser reads them: one to the main frame's that asks its host to be
// left alone (a 429's or 503's Retry-After) is kept and failed unread
// (limit), so that the browser asks the host nothing more (the page's
// images, its favicon) before the time it gave.
//
// It fails the browser's request for the page's icon unsent (isIcon):
// /favicon.ico, or what a <link rel="icon"> names, which the product never
// uses, and which would be one more request of the site's at every
// render, held to no robots.txt; and so a document a <link
// rel="prefetch"> asks for (isSpeculative). The gate holds the requests of
// type Other and Fetch for them (the page's own fetch() calls among the
// latter, a round trip of the DevTools protocol each), and lets the
// others go.
//
// Frames' documents and subresources (scripts, styles, images, a script's
// requests) are not held to robots.txt: a browser's page load is one fetch
// of the page, as the plain path's is, which fetches none of them. The
// address guard holds for them all the same (guardProxy).
//
// It answers the guard proxy's challenge too (Fetch.authRequired of source
// Proxy, from its origin) with the proxy's credentials, once a request: the
// browser, which has no other way to be given them but its command line,
// which any local user reads, then sends them to the proxy for the tab's
// requests. A server's challenge (a 401) is cancelled, its page read as
// the browser shows it without a user to answer.
//
// Every paused request is continued or failed while the tab is open, or
// ends with the tab: closing a tab drops what it had paused, so a caller
// that gives up (its context closes the tab) leaves nothing hung.
type navigationGate struct {
	allow func(ctx context.Context, url string) error
	proxy proxyLogin
	ctx   context.Context // the tab's, ended by close
	stop  context.CancelFunc
	frame cdp.FrameID // the main frame's: the tab's target ID

	mu       sync.Mutex
	pending  int                      // paused documents being decided
	idle     chan struct{}            // closed when pending falls to zero
	closed   bool                     // close was called: no more decisions
	refusal  error                    // the first document refused
	answered map[fetch.RequestID]bool // requests given the proxy's credentials
	deciding sync.WaitGroup
	// chains are the documents each main-frame request asked, by the
	// request's ID, from the first to the latest redirect; loop is the
	// first redirect to one of them (a redirectLoopError), if any.
	chains map[fetch.RequestID][]string
	loop   error
	// sent are the main frame's documents let through, in order
	// (Render asks the guard proxy whether it refused them).
	sent []sentDocument
	// doc is the latest answer to a main-frame document the browser
	// received (network.EventResponseReceived): the page's, after its
	// redirects, once it is loaded. answers are all of them, by the
	// loader of their document (the tab shows one of them: shown).
	doc     *documentAnswer
	answers map[cdp.LoaderID]*documentAnswer
	// limitedAnswer is the answer to a main-frame document that asked
	// its host to be left alone, failed unread (limit).
	limitedAnswer *documentAnswer
	// loaded is made when the main frame starts loading and closed when
	// it stops (Page's frameStartedLoading and frameStoppedLoading):
	// nil while the frame is not loading (see loading).
	loaded chan struct{}
}

// documentAnswer is the answer to a document of the main frame: its URL,
// HTTP status, how long it asked its host to be left alone (a 429's or
// 503's Retry-After, read as the plain fetch reads it: retryAfterValue),
// and the value of its guardFailureHeader, if any (the guard proxy's own
// answer: the server could not be reached).
type documentAnswer struct {
	url        string
	status     int
	retryAfter time.Duration
	failure    string
	// attachment is set when the answer is a download
	// (Content-Disposition: attachment), which the browser does not show;
	// mime is its type, as the browser read it (one it does not show,
	// application/zip, is a download too).
	attachment bool
	mime       string
}

// sentDocument is a document of the main frame the gate let through:
// what it was ("navigation to", "redirect to"), its URL, and the fragment
// it was asked with ("#prices" of a redirect to /new/#prices), which is
// no part of its URL, nor of its answer's, as the browser gives them.
type sentDocument struct {
	what, url, fragment string
}

// proxyLogin is the guard proxy's origin and credentials, which the tab
// gives when that proxy asks.
type proxyLogin struct {
	origin, user, password string
}

// openNavigationGate starts holding the main frame's documents of tab, a
// chromedp context whose target it opens, to allow, and answering proxy's
// challenges.
func openNavigationGate(tab context.Context, allow func(ctx context.Context, url string) error, proxy proxyLogin) (*navigationGate, error) {
	if err := chromedp.Do(tab); err != nil { // opens the tab
		return nil, err
	}
	g := &navigationGate{allow: allow, proxy: proxy, frame: cdp.FrameID(chromedp.FromContext(tab).Target.TargetID),
		answered: map[fetch.RequestID]bool{}}
	g.ctx, g.stop = context.WithCancel(tab)
	if err := chromedp.Listen(g.ctx, g.paused); err != nil {
		g.stop()
		return nil, err
	}
	handleAuth := true
	_, err := chromedp.Call(tab, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{
		URLPattern:   "*",
		ResourceType: network.ResourceTypeDocument,
		RequestStage: fetch.RequestStageRequest,
	}, {
		URLPattern:   "*",
		ResourceType: network.ResourceTypeDocument,
		RequestStage: fetch.RequestStageResponse,
	}, {
		// The page's icon (isIcon), among the others of type Other.
		URLPattern:   "*",
		ResourceType: network.ResourceTypeOther,
		RequestStage: fetch.RequestStageRequest,
	}, {
		// A document a page's <link rel="prefetch"> asks for
		// (isSpeculative), of type Fetch.
		URLPattern:   "*",
		ResourceType: network.ResourceTypeFetch,
		RequestStage: fetch.RequestStageRequest,
	}}, HandleAuthRequests: &handleAuth})
	if err != nil {
		g.close()
		return nil, fmt.Errorf("intercept the tab's documents: %w", err)
	}
	return g, nil
}

// paused is the tab's listener: it runs in the loop that reads the tab's
// messages, so it only counts the paused request in and hands it to a
// goroutine (a decision may read a robots.txt, and sends commands).
func (g *navigationGate) paused(ev any) {
	// abort ends the request as a refusal does, when its decision
	// panicked.
	var decide, abort func()
	switch e := ev.(type) {
	case *fetch.EventRequestPaused:
		decide = func() { g.decide(e) }
		abort = func() { g.fail(e.RequestID) }
	case *fetch.EventAuthRequired:
		decide = func() { g.answer(e) }
		abort = func() { g.cancelAuth(e.RequestID) }
	case *network.EventResponseReceived:
		g.received(e)
		return
	case *page.EventFrameStartedLoading:
		if e.FrameID == g.frame {
			g.mu.Lock()
			if g.loaded == nil { // one that is still open stays
				g.loaded = make(chan struct{})
			}
			g.mu.Unlock()
		}
		return
	case *page.EventFrameStoppedLoading:
		if e.FrameID == g.frame {
			g.mu.Lock()
			if g.loaded != nil {
				close(g.loaded)
				g.loaded = nil
			}
			g.mu.Unlock()
		}
		return
	default:
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return // the tab closes next, and drops the request
	}
	if g.pending == 0 {
		g.idle = make(chan struct{})
	}
	g.pending++
	g.deciding.Add(1)
	go func() {
		defer g.decided()
		// A panic in the decision (in allow, a bug in reading a
		// robots.txt) fails the render with it, as a refusal does,
		// rather than the process: the request is failed (a challenge
		// cancelled), so that the tab's navigation ends now rather than
		// at the render's deadline, holding its slot.
		if err := vigil.Protect(func() error { decide(); return nil }); err != nil {
			g.mu.Lock()
			if g.refusal == nil {
				g.refusal = fmt.Errorf("decide on a navigation: %w", err)
			}
			g.mu.Unlock()
			abort()
		}
	}()
}

// answer gives the guard proxy's credentials to its challenge, once a
// request (a second challenge means they were refused: it is cancelled,
// and the request fails), and cancels any other challenge.
func (g *navigationGate) answer(e *fetch.EventAuthRequired) {
	if c := e.AuthChallenge; c != nil && c.Source == fetch.AuthChallengeSourceProxy && c.Origin == g.proxy.origin {
		g.mu.Lock()
		first := !g.answered[e.RequestID]
		g.answered[e.RequestID] = true
		g.mu.Unlock()
		if first {
			g.reply(e.RequestID, &fetch.AuthChallengeResponse{Response: fetch.AuthChallengeResponseResponseProvideCredentials,
				Username: g.proxy.user, Password: g.proxy.password})
			return
		}
	}
	g.cancelAuth(e.RequestID)
}

// cancelAuth cancels the challenge of request id: the request fails, or
// a server's page is read as the browser shows it unanswered.
func (g *navigationGate) cancelAuth(id fetch.RequestID) {
	g.reply(id, &fetch.AuthChallengeResponse{Response: fetch.AuthChallengeResponseResponseCancelAuth})
}

// reply answers the challenge of request id. It fails only when the tab
// is closing or the request is gone.
func (g *navigationGate) reply(id fetch.RequestID, r *fetch.AuthChallengeResponse) {
	chromedp.Call(g.ctx, fetch.ContinueWithAuth, fetch.ContinueWithAuthParams{RequestID: id, AuthChallengeResponse: r})
}

// decide continues or fails one paused request (a document refused, the
// page's icon, a prefetch), or its answer (limit).
func (g *navigationGate) decide(e *fetch.EventRequestPaused) {
	if e.ResponseStatusCode != 0 || e.ResponseErrorReason != "" {
		g.limit(e)
		return
	}
	if isIcon(e, g.frame) || isSpeculative(e) {
		g.fail(e.RequestID)
		return
	}
	if e.ResourceType != network.ResourceTypeDocument || e.FrameID != g.frame {
		g.resume(e.RequestID)
		return
	}
	what := "navigation to"
	if e.RedirectedRequestID != "" {
		what = "redirect to"
	}
	g.redirected(e)
	err := g.allow(g.ctx, e.Request.URL)
	if err == nil {
		g.mu.Lock()
		g.sent = append(g.sent, sentDocument{what: what, url: e.Request.URL, fragment: e.Request.URLFragment})
		g.mu.Unlock()
		g.resume(e.RequestID)
		return
	}
	if g.ctx.Err() != nil {
		return // the tab is closing (the caller gave up): no verdict
	}
	g.mu.Lock()
	if g.refusal == nil {
		g.refusal = fmt.Errorf("%s %s: %w", what, stripCredentials(e.Request.URL), err)
	}
	g.mu.Unlock()
	g.fail(e.RequestID)
}

// limit decides on e, the answer to a document paused before the browser
// reads it. An answer to the main frame's that asks its host to be left
// alone for a while (a 429's or 503's Retry-After) is kept (limited) and
// failed unread: the browser would otherwise show its page, and ask the
// host for its images, scripts and favicon at once, before the time the
// host gave, which the render is held to as the plain fetch is. Its page
// is none of the render's anyway (a status not 2xx). Any other answer is
// let through.
func (g *navigationGate) limit(e *fetch.EventRequestPaused) {
	if e.ResourceType == network.ResourceTypeDocument && e.FrameID == g.frame && e.ResponseErrorReason == "" {
		a := documentAnswer{url: e.Request.URL, status: int(e.ResponseStatusCode)}
		for _, h := range e.ResponseHeaders {
			if strings.EqualFold(h.Name, "Retry-After") {
				a.retryAfter = retryAfterValue(a.status, h.Value)
			}
		}
		if a.retryAfter > 0 {
			g.mu.Lock()
			g.limitedAnswer = &a
			g.mu.Unlock()
			g.fail(e.RequestID)
			return
		}
	}
	chromedp.Call(g.ctx, fetch.ContinueResponse, fetch.ContinueResponseParams{RequestID: e.RequestID})
}

// limited returns the answer to the main frame's document that asked its
// host to be left alone (limit), named as document names it, and whether
// there was one.
func (g *navigationGate) limited(asked string) (documentAnswer, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.limitedAnswer == nil {
		return documentAnswer{}, false
	}
	return g.named(*g.limitedAnswer, asked), true
}

// redirected records the document of e, a main-frame request, in the
// chain of its navigation (a new one unless e is a redirect), and keeps
// the first redirect back to a document a chain asked already as the
// gate's loop. It is let through: a browser may be sent back to a page
// with a cookie that changes its answer, which the plain fetch, without
// cookies, never would; one that is not follows the loop to its own cap,
// and Render names the loop (redirectLoop), where the browser says only
// net::ERR_TOO_MANY_REDIRECTS.
func (g *navigationGate) redirected(e *fetch.EventRequestPaused) {
	g.mu.Lock()
	defer g.mu.Unlock()
	var chain []string
	if e.RedirectedRequestID != "" {
		chain = g.chains[e.RedirectedRequestID]
		delete(g.chains, e.RedirectedRequestID)
	}
	if g.loop == nil && slices.Contains(chain, e.Request.URL) {
		g.loop = &redirectLoopError{chain: append(slices.Clip(chain), e.Request.URL)}
	}
	if g.chains == nil {
		g.chains = map[fetch.RequestID][]string{}
	}
	g.chains[e.RequestID] = append(slices.Clip(chain), e.Request.URL)
}

// received records the answer of e if it is to a document of the main
// frame, and an HTTP answer: a document a script made (a blob: URL, whose
// answer the browser gives itself) is no page of the site, and the tab
// that shows it shows no HTTP answer (shown).
func (g *navigationGate) received(e *network.EventResponseReceived) {
	if e.Type != network.ResourceTypeDocument || e.FrameID != g.frame || e.Response == nil {
		return
	}
	if scheme, _, _ := strings.Cut(e.Response.URL, ":"); !strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") {
		return
	}
	a := &documentAnswer{url: e.Response.URL, status: int(e.Response.Status), mime: e.Response.MimeType}
	for k, v := range e.Response.Headers {
		s, ok := v.(string)
		switch {
		case !ok:
		case strings.EqualFold(k, guardFailureHeader):
			a.failure = s
		case strings.EqualFold(k, "Retry-After"):
			a.retryAfter = retryAfterValue(a.status, s)
		case strings.EqualFold(k, "Content-Disposition"):
			kind, _, _ := strings.Cut(s, ";")
			a.attachment = strings.EqualFold(strings.TrimSpace(kind), "attachment")
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.doc = a
	if g.answers == nil {
		g.answers = map[cdp.LoaderID]*documentAnswer{}
	}
	g.answers[e.LoaderID] = a
}

// shown returns the answer to the document the tab's main frame shows
// (the one its loader received), its URL named as document names it. One
// the gate did not let through (a page prerendered, which the tab shows
// without a request of its main frame) is held to allow then, and fails
// with its refusal. A
// document that came with no HTTP answer (about:blank, where a script
// sent the tab, or a blob: URL it made) fails, naming it, wrapping
// ErrUnsupported: it is no page of the site, whose status the render
// would otherwise take from another document, the page's before the
// script left it. loader is the shown document's loader (shownLoader).
func (g *navigationGate) shown(tab context.Context, asked string) (a documentAnswer, loader cdp.LoaderID, err error) {
	tree, err := shownFrame(tab)
	if err != nil {
		return documentAnswer{}, "", err
	}
	g.mu.Lock()
	sent := false
	if tree.Frame != nil && g.answers[tree.Frame.LoaderID] != nil {
		a = *g.answers[tree.Frame.LoaderID]
		sent = slices.ContainsFunc(g.sent, func(d sentDocument) bool { return d.url == a.url })
	}
	g.mu.Unlock()
	if a.url != "" && !sent {
		// A document the gate never held (a page the tab's speculation
		// rules prerendered, shown with no request of the tab's when
		// the tab went to it): held to robots.txt now.
		if err := g.allow(tab, a.url); err != nil {
			return documentAnswer{}, "", fmt.Errorf("navigation to %s (prerendered): %w", stripCredentials(a.url), err)
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if tree.Frame == nil || g.answers[tree.Frame.LoaderID] == nil {
		shown := ""
		if tree.Frame != nil {
			// Redacted before it is cut: a cut could leave a
			// password without the "@" that marks it.
			shown = vigil.RedactURL(tree.Frame.URL)
		}
		if len(shown) > 100 {
			shown = shown[:100] + "…"
		}
		return documentAnswer{}, "", fmt.Errorf("%w: the tab shows %s, a document with no HTTP answer (not the page's)", ErrUnsupported, shown)
	}
	return g.named(*g.answers[tree.Frame.LoaderID], asked), tree.Frame.LoaderID, nil
}

// shownFrame returns the frame tree of tab's main frame, whose Frame may
// be nil (none shown).
func shownFrame(tab context.Context) (*page.FrameTree, error) {
	res, err := chromedp.Call(tab, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return nil, fmt.Errorf("read the tab's document: %w", err)
	}
	if res.FrameTree == nil {
		return &page.FrameTree{}, nil
	}
	return res.FrameTree, nil
}

// shownLoader returns the loader of the document tab's main frame shows:
// another one once a navigation commits.
func shownLoader(tab context.Context) (cdp.LoaderID, error) {
	tree, err := shownFrame(tab)
	if err != nil || tree.Frame == nil {
		return "", err
	}
	return tree.Frame.LoaderID, nil
}

// failedAtGuard returns the error of the guard proxy's own answer to the
// main frame's latest document (failure(value) gives it: the server could
// not be reached, or did not answer in time), naming it ("navigation to
// URL: dial tcp ...: connection refused"), where the browser shows the
// proxy's 502 or 504 as the page; nil if that document is a server's.
func (g *navigationGate) failedAtGuard(failure func(value, url string) error) error {
	g.mu.Lock()
	a := g.doc
	sent := slices.Clone(g.sent)
	g.mu.Unlock()
	if a == nil || a.failure == "" {
		return nil
	}
	err := failure(a.failure, a.url)
	if err == nil {
		return nil
	}
	what := "navigation to"
	for _, d := range sent {
		if d.url == a.url {
			what = d.what
		}
	}
	return fmt.Errorf("%s %s: %w", what, stripCredentials(a.url), err)
}

// document returns the answer to the main frame's latest document, its
// status 0 and URL empty if none was received. Its URL is asked, the URL
// the render was asked for, when it is the first document the gate let
// through (the page asked for, as the browser spells it: its host in
// lower case, its path "/" if empty, without its fragment), and that of
// a redirect with the fragment it was asked with (named).
func (g *navigationGate) document(asked string) documentAnswer {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.doc == nil {
		return documentAnswer{}
	}
	return g.named(*g.doc, asked)
}

// named returns a, the answer to a document of the main frame, with its
// URL as the render names it: asked when it is the first document the
// gate let through, else the URL the browser asked with its fragment, if
// it was asked with one (a redirect to /new/#prices is named so, as the
// plain fetch names it). The caller holds g.mu.
func (g *navigationGate) named(a documentAnswer, asked string) documentAnswer {
	if len(g.sent) > 0 && a.url == g.sent[0].url {
		a.url = asked
		return a
	}
	for i := len(g.sent) - 1; i > 0; i-- {
		if d := g.sent[i]; d.url == a.url {
			a.url += d.fragment
			break
		}
	}
	return a
}

// redirectLoop returns the first redirect loop of the main frame's
// documents (a redirectLoopError), if any.
func (g *navigationGate) redirectLoop() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.loop
}

// refusedByGuard returns the guard proxy's refusal of a main-frame
// document the gate let through, if refused(url) gives one, naming it
// ("redirect to URL: dial tcp: address refused: ...").
func (g *navigationGate) refusedByGuard(refused func(url string) error) error {
	g.mu.Lock()
	sent := slices.Clone(g.sent)
	g.mu.Unlock()
	for _, d := range sent {
		if err := refused(d.url); err != nil {
			return fmt.Errorf("%s %s: %w", d.what, stripCredentials(d.url), err)
		}
	}
	return nil
}

// latestSent returns failed(url) of the latest main-frame document the
// gate let through (the one the tab went to last), naming it ("navigation
// to URL: ..."), nil if it gives none or no document was let through.
func (g *navigationGate) latestSent(failed func(url string) error) error {
	g.mu.Lock()
	if len(g.sent) == 0 {
		g.mu.Unlock()
		return nil
	}
	d := g.sent[len(g.sent)-1]
	g.mu.Unlock()
	if err := failed(d.url); err != nil {
		return fmt.Errorf("%s %s: %w", d.what, stripCredentials(d.url), err)
	}
	return nil
}

// fail fails a paused request unsent (BlockedByClient). An error here
// leaves the request paused, unsent, until the tab closes: the render
// fails on the refusal all the same.
func (g *navigationGate) fail(id fetch.RequestID) {
	chromedp.Call(g.ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: id, ErrorReason: network.ErrorReasonBlockedByClient})
}

// resume lets a paused request go. It fails only when the tab is closing
// or the browser dropped the request meanwhile (another navigation
// replaced it): either way no request waits on it.
func (g *navigationGate) resume(id fetch.RequestID) {
	chromedp.Call(g.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
}

// decided counts a decision out.
func (g *navigationGate) decided() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pending--
	if g.pending == 0 {
		close(g.idle)
	}
	g.deciding.Done()
}

// settled waits until no paused document is being decided, or ctx ends,
// and returns the first document refused, if any.
func (g *navigationGate) settled(ctx context.Context) error {
	for {
		g.mu.Lock()
		if g.pending == 0 {
			defer g.mu.Unlock()
			return g.refusal
		}
		idle := g.idle
		g.mu.Unlock()
		select {
		case <-idle:
		case <-ctx.Done():
			return g.refused()
		}
	}
}

// loading returns a channel closed once the main frame stops loading,
// or nil when it is not loading: a navigation under way (one a script
// started once the page was loaded) or none.
func (g *navigationGate) loading() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.loaded
}

// refused returns the first document refused, if any.
func (g *navigationGate) refused() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.refusal
}

// close stops deciding, ends the decisions under way (their checks and
// commands are cancelled) and waits for them. The tab should close next:
// what it has paused since waits for that.
func (g *navigationGate) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.stop()
	g.deciding.Wait()
}

package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/vigil-web/vigil"
)

// render fetches a page through the Renderer, in the turn of its host. A
// PageRenderer's result names the page's main document's final URL (after
// its redirects: RenderedPage.URL), as the plain fetch's does. A page
// whose main document answered a status that is not 2xx (its
// RenderedPage.Status) fails as the plain fetch's answer does: a result
// with the status and no body, and an error wrapping ErrStatus, naming
// the redirect that led to it if any.
//
// A 429 or 503 whose Retry-After asks the host to be left alone
// (RenderedPage.RetryAfter) is taken as the plain fetch takes it
// (follow): every fetch of the host is held off until then, for at most
// the fetch's time, and the page that answered it is rendered again once
// then, in a turn of its host, if the fetch's time (TotalTimeout from
// the first turn, for both renders) allows.
func (c *Client) render(ctx context.Context, req *vigil.FetchRequest, u *url.URL) (*vigil.FetchResult, error) {
	if c.opt.Renderer == nil {
		return nil, fmt.Errorf("fetch %s: %w: rendering is not configured", vigil.RedactURL(req.URL), ErrUnsupported)
	}
	release, err := c.turn(ctx, u)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", vigil.RedactURL(req.URL), err)
	}
	start := time.Now()
	deadline := start.Add(c.opt.TotalTimeout)
	page, retried := req.URL, false
	for {
		p, asked, err := c.renderOnce(ctx, deadline, req, page)
		if err != nil {
			release()
			if !asked || errors.Is(err, ErrUnsupported) {
				// Never asked for (its host refused), or what came is
				// no page to render (a download): no result.
				return nil, err
			}
			// The browser asked for the page and none came (a refused
			// connection, a timeout, a redirect loop): the page that
			// failed and the time the fetch took, as the plain fetch
			// gives when no answer came (follow).
			return &vigil.FetchResult{URL: page, FetchedAt: start, Duration: time.Since(start)}, err
		}
		var wait time.Duration
		final, err := url.Parse(p.URL)
		if err == nil && (p.Status < 200 || p.Status > 299) {
			wait = c.retryWait(final, &statusError{status: p.Status, retryAfter: p.RetryAfter})
		}
		release()
		if wait > 0 && !retried && time.Now().Add(wait).Before(deadline) {
			// Asked again once, when the host said, if the fetch's time
			// allows: the page that answered, as the plain fetch does.
			retried = true
			page = p.URL
			if release, err = c.hopTurn(ctx, final, deadline); err != nil {
				return nil, fmt.Errorf("fetch %s: %w", vigil.RedactURL(req.URL), err)
			}
			continue
		}
		return c.renderedResult(req, p, start)
	}
}

// renderOnce renders target, req's URL or the page a retry asks again,
// by deadline: its status 200 and URL target when the Renderer is no
// PageRenderer (or tells neither). asked reports whether the Renderer
// was asked for the page (its host not refused first).
func (c *Client) renderOnce(ctx context.Context, deadline time.Time, req *vigil.FetchRequest, target string) (_ *RenderedPage, asked bool, _ error) {
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	if !c.opt.AllowPrivateNetworks {
		page, err := url.Parse(target)
		if err == nil {
			err = c.checkHost(ctx, page.Hostname())
		}
		if err != nil {
			return nil, false, fmt.Errorf("fetch %s: %w", vigil.RedactURL(req.URL), err)
		}
	}
	p := &RenderedPage{}
	if pr, ok := c.opt.Renderer.(PageRenderer); ok {
		rp, err := pr.RenderPage(ctx, target)
		if err != nil {
			return nil, true, fmt.Errorf("fetch %s: render: %w", vigil.RedactURL(req.URL), c.hintTooLarge(err))
		}
		p = rp
	} else {
		html, err := c.opt.Renderer.Render(ctx, target)
		if err != nil {
			return nil, true, fmt.Errorf("fetch %s: render: %w", vigil.RedactURL(req.URL), c.hintTooLarge(err))
		}
		p.HTML = html
	}
	if p.Status == 0 {
		p.Status = http.StatusOK
	}
	if p.URL == "" {
		p.URL = target
	}
	return p, true, nil
}

// renderedResult is the result of req's render p, started at start.
func (c *Client) renderedResult(req *vigil.FetchRequest, p *RenderedPage, start time.Time) (*vigil.FetchResult, error) {
	if p.Status < 200 || p.Status > 299 {
		// As the plain fetch's answer of that status: the status goes
		// with the error (the history records it, a crawl tells a
		// failure of the moment by it), and the page shown is none.
		res := &vigil.FetchResult{URL: p.URL, Status: p.Status, FetchedAt: start, Duration: time.Since(start)}
		err := &statusError{status: p.Status, retryAfter: p.RetryAfter}
		if p.URL != req.URL {
			return res, fmt.Errorf("fetch %s: redirect to %s: %w", vigil.RedactURL(req.URL), vigil.RedactURL(p.URL), err)
		}
		return res, fmt.Errorf("fetch %s: %w", vigil.RedactURL(req.URL), err)
	}
	if int64(len(p.HTML)) > c.opt.MaxDecodedSize {
		// A Renderer other than Chromium, which refuses it itself.
		return nil, fmt.Errorf("fetch %s: render: %w", vigil.RedactURL(req.URL), c.hintTooLarge(tooLargeRendered(c.opt.MaxDecodedSize)))
	}
	return &vigil.FetchResult{URL: p.URL, Status: p.Status, ContentType: "text/html", Charset: "utf-8",
		Body: []byte(p.HTML), FetchedAt: start, Duration: time.Since(start)}, nil
}

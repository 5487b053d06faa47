package fetch

import (
	"net/url"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/spec"
)

// MaxRefreshDelay is the longest delay, in seconds, of a meta refresh
// that a fetch follows as a redirect (refreshTarget). A page that asks to
// be left within it is a redirect that a server wrote in HTML ("moved:
// you will be taken to the new page in 5 seconds"); one that asks to be
// shown longer (a slide, a kiosk's rotation, a page that reloads every
// minute) is a page a reader reads, and is read as itself, though a
// browser would leave it in the end.
const MaxRefreshDelay = 10

// refreshTarget returns the URL that the meta refresh of res, the 2xx
// answer of u, leads to, when it is followed as a redirect: res is an
// HTML or XHTML page whose first meta refresh (markup.FindRefresh) asks
// for at most MaxRefreshDelay seconds and names an http or https URL,
// resolved against the page's base (its <base href> before the meta
// element, if http or https, else u), other than u itself (a refresh to
// the page itself, with or without a fragment, is a reload: no redirect,
// so no loop), whose host is one DNS takes (in its ASCII form,
// spec.CheckASCIIHost). nil otherwise: a page whose refresh cannot be
// followed (javascript:, a URL that does not parse) is read as itself, as
// a browser that cannot go there stays on it.
func refreshTarget(u *url.URL, res *vigil.FetchResult) *url.URL {
	if res.ContentType != "text/html" && res.ContentType != "application/xhtml+xml" {
		return nil
	}
	r, ok := markup.FindRefresh(res.Body)
	if !ok || r.URL == "" || r.Delay > MaxRefreshDelay {
		return nil
	}
	base := u
	if r.Base != "" {
		if b, err := u.Parse(r.Base); err == nil && (b.Scheme == "http" || b.Scheme == "https") {
			base = b
		}
	}
	next, err := base.Parse(r.URL)
	if err != nil || next.Scheme != "http" && next.Scheme != "https" || spec.CheckASCIIHost(next) != nil {
		return nil
	}
	next.Fragment, next.RawFragment = "", ""
	here, err1 := vigil.CanonicalURL(u.String())
	there, err2 := vigil.CanonicalURL(next.String())
	if err1 != nil || err2 != nil || here == there {
		return nil
	}
	return next
}

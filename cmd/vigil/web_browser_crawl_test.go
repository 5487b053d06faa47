package main

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// consoleErrors collects what a tab logs as an error: console.error
// calls, uncaught exceptions and the browser's own error entries (a
// resource that failed to load, a blocked one).
type consoleErrors struct {
	mu   sync.Mutex
	msgs []string
}

func watchConsoleErrors(b *browser) *consoleErrors {
	c := &consoleErrors{}
	err := chromedp.Listen(b.ctx, func(ev any) {
		var m string
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
				m = "console." + string(e.Type)
				for _, a := range e.Args {
					m += " " + string(a.Value) + a.Description
				}
			}
		case *runtime.EventExceptionThrown:
			m = "exception: " + e.ExceptionDetails.Text
			if x := e.ExceptionDetails.Exception; x != nil {
				m += " " + x.Description
			}
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError {
				m = e.Entry.Text + " " + e.Entry.URL
			}
		}
		if m != "" {
			c.mu.Lock()
			c.msgs = append(c.msgs, m)
			c.mu.Unlock()
		}
	})
	if err != nil {
		b.t.Fatal(err)
	}
	return c
}

// take returns the errors logged since the last call.
func (c *consoleErrors) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.msgs
	c.msgs = nil
	return m
}

// TestDashboardBrowserCrawl: signed in, with two sentinels that found a
// change each, chromium follows every link of the dashboard to the
// dashboard's own pages: each answers 200 (the API's and the feeds'
// downloads are fetched, not opened), has a title of its own, and logs
// no error to the console, nor does loading it log one.
func TestDashboardBrowserCrawl(t *testing.T) {
	b := newBrowser(t)
	errs := watchConsoleErrors(b)
	site := newSite(t)
	site.set("/shop", `<html><head><title>Shop</title></head><body><h1>Kettle</h1><p>Price: 25.00 EUR</p><ul><li>Blue</li><li>Red</li></ul><table><tr><th>Size</th><th>Stock</th></tr><tr><td>1 l</td><td>4</td></tr></table><p><a href="/about">About</a></p></body></html>`)
	site.setTyped("/feed.xml", "application/rss+xml", `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><link>http://x/</link><description>d</description><item><title>Opened</title><link>http://x/1</link></item></channel></rss>`)
	d := startWebDaemon(t)
	b.signIn(d.base)
	c := &apiClient{t: t, base: d.base, token: b.createToken(d.base)}
	var ids []int64
	for i, u := range []string{"/shop", "/feed.xml"} {
		var sen struct{ ID int64 }
		c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": fmt.Sprintf("Create Sentinel s%d Using ", i) + site.srv.URL + u + " Monitor any change Fetch 1 minute"}).json(t, &sen)
		ids = append(ids, sen.ID)
		resourceOf(t, c, site.srv.URL+u, 1)
	}
	site.set("/shop", `<html><head><title>Shop</title></head><body><h1>Kettle</h1><p>Price: 19.99 EUR</p><ul><li>Blue</li><li>Green</li></ul><table><tr><th>Size</th><th>Stock</th></tr><tr><td>1 l</td><td>7</td></tr></table><p><a href="/about">About us</a></p></body></html>`)
	site.setTyped("/feed.xml", "application/rss+xml", `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><link>http://x/</link><description>d</description><item><title>Sale</title><link>http://x/2</link></item><item><title>Opened</title><link>http://x/1</link></item></channel></rss>`)
	for _, id := range ids {
		c.want(200, "POST", fmt.Sprintf("/api/v1/sentinels/%d/check-now", id), nil)
		waitChanges(t, c, id, 1)
	}
	for _, m := range errs.take() {
		if !strings.Contains(m, "status of 401") { // the sign-in form answers 401
			t.Errorf("signing in, the console shows an error: %s", m)
		}
	}

	seen := map[string]bool{}
	queue := []string{"/"}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		if strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/feeds/") {
			st := runB(b, "fetch "+p, chromedp.Evaluate[int](`fetch(`+jsString(p)+`).then(r => r.status)`, chromedp.EvalAwaitPromise))
			if st != 200 {
				t.Errorf("%s answers %d", p, st)
			}
			continue
		}
		b.do("open "+p, chromedp.Navigate(d.base+p), chromedp.WaitReady(chromedp.CSS("main")), chromedp.Sleep(200*time.Millisecond))
		if st := runB(b, "status", chromedp.Evaluate[int](`performance.getEntriesByType('navigation')[0].responseStatus`)); st != 200 {
			t.Errorf("%s answers %d", p, st)
		}
		if title := runB(b, "title", chromedp.Title()); !strings.HasSuffix(title, " · Vigil") || title == "Error · Vigil" {
			t.Errorf("%s: title %q", p, title)
		}
		for _, m := range errs.take() {
			t.Errorf("%s: the console shows an error: %s", p, m)
		}
		links := runB(b, "links", chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('a[href]'), a => a.href)`))
		for _, l := range links {
			u, err := url.Parse(l)
			if err != nil {
				t.Errorf("%s: link %q: %v", p, l, err)
				continue
			}
			if "http://"+u.Host != d.base {
				continue
			}
			u.Fragment = ""
			if next := u.RequestURI(); !seen[next] {
				queue = append(queue, next)
			}
		}
	}
	// The icon, which a feed opened in a tab asks for too.
	if st := runB(b, "fetch the icon", chromedp.Evaluate[int](`fetch('/favicon.ico', {credentials: 'omit'}).then(r => r.status)`, chromedp.EvalAwaitPromise)); st != 200 {
		t.Errorf("/favicon.ico answers %d", st)
	}
	for _, want := range []string{"/sentinels/new", "/resources", "/notifications", "/tokens", "/users", fmt.Sprintf("/sentinels/%d", ids[1])} {
		if !seen[want] {
			t.Errorf("the crawl did not reach %s; it saw %d pages", want, len(seen))
		}
	}
}

// jsString quotes s as a JavaScript string.
func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

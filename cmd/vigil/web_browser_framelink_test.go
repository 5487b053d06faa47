package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// TestDashboardFrameLinkOpensTab: a plain click on a link of the watched
// page, inside the diff view's frame, opens the page it names on the
// watched site in a new tab, a normal one (its scripts run), with neither
// opener nor referrer; the dashboard's tab stays on the diff. Under a
// sandbox without allow-popups the click did nothing: only a middle or
// ctrl click opened the link.
func TestDashboardFrameLinkOpensTab(t *testing.T) {
	b := newBrowser(t)
	site := newSite(t)
	const before = `<html><head><title>Town</title></head><body><h1>Town news</h1><p><a href="/about">About the town</a></p><p>The bridge opened on Monday.</p></body></html>`
	site.set("/town", before)
	// The page opened calls home with what it knows of who opened it.
	site.set("/about", `<html><head><title>About</title></head><body><p>About the town</p>
<script>new Image().src = '/ran/' + (window.opener === null ? 'no-opener' : 'opener') + '/' + (document.referrer === '' ? 'no-referrer' : 'referrer');</script></body></html>`)
	d := startWebDaemon(t)
	b.signIn(d.base)
	c := &apiClient{t: t, base: d.base, token: b.createToken(d.base)}
	var sen struct{ ID int64 }
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": "Create Sentinel town Using " + site.srv.URL + "/town Monitor any change Fetch 1 minute"}).json(t, &sen)
	resourceOf(t, c, site.srv.URL+"/town", 1)
	site.set("/town", strings.Replace(before, "</body>", "<p>The river rose by two metres.</p></body>", 1))
	c.want(200, "POST", fmt.Sprintf("/api/v1/sentinels/%d/check-now", sen.ID), nil)
	changes := waitChanges(t, c, sen.ID, 1)
	cid := int64(changes[0]["id"].(float64))

	b.openView(d.base, cid, "inline")
	diffURL := runB(b, "location", chromedp.Location())
	about := site.srv.URL + "/about"
	x, y := b.frameLinkCenter(about)
	b.shot("framelink-before-click") // the frame drawn, as a user sees it

	// A plain left click, where the link is shown.
	b.do("click the link in the frame", chromedp.MouseClickXY(x, y))
	b.waitTab(about)
	waitFor(t, 10*time.Second, "the new tab's script to call home", func() bool {
		site.mu.Lock()
		defer site.mu.Unlock()
		for p := range site.hits {
			if strings.HasPrefix(p, "/ran/") {
				return true
			}
		}
		return false
	})
	site.mu.Lock()
	if n := site.hits["/ran/no-opener/no-referrer"]; n != 1 {
		t.Errorf("the new tab's script called home as %v; want once, with no opener and no referrer", site.hits)
	}
	site.mu.Unlock()

	// The dashboard stays on the diff, the frame showing the page.
	if loc := runB(b, "location after the click", chromedp.Location()); loc != diffURL {
		t.Errorf("after the click the dashboard is at %s, want %s", loc, diffURL)
	}
	if x2, y2 := b.frameLinkCenter(about); x2 != x || y2 != y {
		t.Errorf("after the click the frame's link moved from (%v, %v) to (%v, %v)", x, y, x2, y2)
	}
	b.shot("framelink-after-click")
}

// frameLinkCenter returns where, in the dashboard's viewport, the diff
// frame shows the link to href: the centre of the link in the frame's
// viewport, offset by the frame's content box. Chromium runs a sandboxed
// frame in a process of its own, a target of its own, so the link is
// found in that target's document.
func (b *browser) frameLinkCenter(href string) (x, y float64) {
	b.t.Helper()
	b.do("frame shown", chromedp.WaitVisible(chromedp.CSS("#diff-frame")))
	src := runB(b, "frame src", chromedp.AttributeValue(chromedp.CSS("#diff-frame"), "src"))
	var id target.ID
	waitFor(b.t, 20*time.Second, "the frame's target", func() bool {
		infos, err := chromedp.Targets(b.ctx)
		if err != nil {
			b.t.Fatal(err)
		}
		for _, info := range infos {
			if info.Type == "iframe" && strings.HasSuffix(info.URL, src.Value) {
				id = info.TargetID
				return true
			}
		}
		return false
	})
	// Detach on cancel: closing the frame's target would close the tab.
	frame, cancel := chromedp.NewContext(b.ctx, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel())
	defer cancel()
	fb := &browser{t: b.t, ctx: frame, dir: b.dir}
	link := runB(fb, "link in the frame", chromedp.Poll[[]float64](`(a => a && (r => [r.left + r.width / 2, r.top + r.height / 2])(a.getBoundingClientRect()))(document.querySelector('a[href="`+href+`"]'))`,
		chromedp.WithPollingInterval(100*time.Millisecond)))
	box := runB(b, "frame box", chromedp.Dimensions(chromedp.CSS("#diff-frame")))
	q := box.Content
	return q[0] + link[0], q[1] + link[1]
}

// waitTab waits for a tab at url. A tab opened without opener is no
// child of the dashboard's (chromedp.WaitNewTarget skips it): the
// browser's list of targets names it.
func (b *browser) waitTab(url string) {
	b.t.Helper()
	var seen []string
	deadline := time.Now().Add(10 * time.Second)
	for {
		infos, err := chromedp.Targets(b.ctx)
		if err != nil {
			b.t.Fatal(err)
		}
		seen = seen[:0]
		for _, info := range infos {
			if info.Type == "page" && info.URL == url {
				return
			}
			seen = append(seen, info.Type+" "+info.URL)
		}
		if time.Now().After(deadline) {
			b.shot("no-tab")
			b.t.Fatalf("no tab opened at %s; the browser's targets: %q", url, seen)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

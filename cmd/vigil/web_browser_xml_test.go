package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestDashboardBrowserWatchedFeed: a watched RSS feed's change shows, in
// each view of the diff page, as the feed's markup with the new item
// marked inserted. Its elements were written as HTML: the frame showed
// "dBig sale.We opened.", the items' titles and links gone and nothing
// marked.
func TestDashboardBrowserWatchedFeed(t *testing.T) {
	b := newBrowser(t)
	site := newSite(t)
	const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>Shop news</title><link>http://shop.example/</link><description>d</description>%s<item><title>Opened</title><link>http://shop.example/1</link><description>We opened.</description></item></channel></rss>`
	site.setTyped("/feed.xml", "application/rss+xml", fmt.Sprintf(rss, ""))
	d := startWebDaemon(t)
	b.signIn(d.base)
	c := &apiClient{t: t, base: d.base, token: b.createToken(d.base)}
	var sen struct{ ID int64 }
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": "Create Sentinel feed Using " + site.srv.URL + "/feed.xml Monitor any change Fetch 1 minute"}).json(t, &sen)
	resourceOf(t, c, site.srv.URL+"/feed.xml", 1)
	site.setTyped("/feed.xml", "application/rss+xml", fmt.Sprintf(rss, `<item><title>Sale</title><link>http://shop.example/2</link><description>Big sale.</description></item>`))
	c.want(200, "POST", fmt.Sprintf("/api/v1/sentinels/%d/check-now", sen.ID), nil)
	cid := int64(waitChanges(t, c, sen.ID, 1)[0]["id"].(float64))
	for _, view := range []string{"inline", "side", "changes"} {
		b.openView(d.base, cid, view)
		frame := runB(b, "frame src", chromedp.AttributeValue(chromedp.CSS("#diff-frame"), "src"))
		b.do("open the frame", chromedp.Navigate(d.base+frame.Value), chromedp.WaitReady(chromedp.CSS("body")))
		ins := runB(b, "inserted", chromedp.Evaluate[string](`Array.from(document.querySelectorAll('[data-vigil="ins"]'), e => e.innerText).join(' | ')`))
		for _, want := range []string{"<item>", "<title>Sale</title>", "<link>http://shop.example/2</link>", "Big sale."} {
			if !strings.Contains(ins, want) {
				t.Errorf("view %s: the inserted part %q lacks %q", view, ins, want)
			}
		}
		if view != "changes" {
			if text := runB(b, "text", chromedp.Text(chromedp.CSS("body"))); !strings.Contains(text, "<title>Opened</title>") {
				b.shot("feed-" + view)
				t.Errorf("view %s: the unchanged item's title is not shown:\n%s", view, text)
			}
		}
	}
}

package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestDashboardBrowserCompareAnyVersions: in chromium, a history's compare
// form compares the page's first version with its latest, typed by
// number, and leads to their diff. Its lists offered only the versions
// of the timeline's page shown, so a version of months ago could not be
// compared with today's.
func TestDashboardBrowserCompareAnyVersions(t *testing.T) {
	b := newBrowser(t)
	site := newSite(t)
	page := func(i int) string {
		return fmt.Sprintf(`<html><head><title>P</title></head><body><h1>Prices</h1><p>Price %d</p></body></html>`, i)
	}
	site.set("/p", page(0))
	d := startWebDaemon(t)
	b.signIn(d.base)
	c := &apiClient{t: t, base: d.base, token: b.createToken(d.base)}
	var sen struct{ ID int64 }
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": "Create Sentinel p Using " + site.srv.URL + "/p Monitor any change Fetch 1 day"}).json(t, &sen)
	rid := resourceOf(t, c, site.srv.URL+"/p", 1)
	for i := 1; i <= 3; i++ {
		site.set("/p", page(i))
		c.want(200, "POST", fmt.Sprintf("/api/v1/sentinels/%d/check-now", sen.ID), nil)
		waitChanges(t, c, sen.ID, i)
	}

	b.do("history", chromedp.Navigate(fmt.Sprintf("%s/resources/%d", d.base, rid)), chromedp.WaitVisible(chromedp.CSS("#compare")))
	if v := runB(b, "to", chromedp.Value(chromedp.CSS(`#compare input[name="to_version"]`))); v != "4" {
		t.Errorf("the form proposes to compare with #%s, want the latest, #4", v)
	}
	b.do("compare #1 with #4",
		chromedp.Clear(chromedp.CSS(`#compare input[name="from_version"]`)),
		chromedp.SendKeys(chromedp.CSS(`#compare input[name="from_version"]`), "1"),
		chromedp.SetValue(chromedp.CSS(`#compare select[name="view"]`), "records"),
		chromedp.Click(chromedp.CSS(`#compare button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#records")),
	)
	b.shot("compare-first-latest")
	said := runB(b, "versions", chromedp.Text(chromedp.CSS("main > p")))
	if !strings.Contains(said, "#1") || !strings.Contains(said, "#4") {
		t.Errorf("the diff page compares %q, want #1 with #4", said)
	}
	if rec := runB(b, "records", chromedp.Text(chromedp.CSS("#records"))); !strings.Contains(rec, "Price 0") || !strings.Contains(rec, "Price 3") {
		t.Errorf("the records of #1 to #4: %q", rec)
	}
}

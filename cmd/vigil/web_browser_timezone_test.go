package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestDashboardBrowserTimeZone: in chromium, the time zone form of the
// API tokens page sets the user's zone, which the page then names as
// theirs and the editor of a new sentinel reads dates in.
func TestDashboardBrowserTimeZone(t *testing.T) {
	b := newBrowser(t)
	d := startWebDaemon(t, "--tz", "UTC")
	b.signIn(d.base)
	b.do("set the zone",
		chromedp.Navigate(d.base+"/tokens"),
		chromedp.SendKeys(chromedp.CSS(`#time-zone`), "Asia/Tokyo"),
		chromedp.Click(chromedp.CSS(`form[action="/time-zone"] button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#flash-done")),
	)
	if got := runB(b, "current zone", chromedp.Text(chromedp.CSS("#time-zone-current"))); got != "Asia/Tokyo" {
		b.shot("time-zone")
		t.Errorf("the tokens page names %q as the zone, want Asia/Tokyo", got)
	}
	b.do("editor", chromedp.Navigate(d.base+"/sentinels/new"), chromedp.WaitVisible(chromedp.CSS("#timezone")))
	if got := runB(b, "editor zone", chromedp.Text(chromedp.CSS("#timezone"))); !strings.Contains(got, "Dates you write are read in Asia/Tokyo.") {
		t.Errorf("the editor says %q, want the user's zone", got)
	}
}

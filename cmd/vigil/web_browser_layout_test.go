package main

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestDashboardBrowserAlertSpacing: in chromium, the box that shows a new
// API token stands apart from the form below it; it touched the form's
// fields, as a div.alert had no margin where a p.alert has its
// paragraph's.
func TestDashboardBrowserAlertSpacing(t *testing.T) {
	b := newBrowser(t)
	d := startWebDaemon(t)
	b.signIn(d.base)
	b.createToken(d.base)
	gap := runB(b, "gap", chromedp.Evaluate[float64](`document.querySelector('form[action="/tokens"]').getBoundingClientRect().top -
		document.getElementById('new-token').closest('.alert').getBoundingClientRect().bottom`))
	if gap < 8 {
		b.shot("token-alert")
		t.Errorf("the new token's box is %.0fpx above the form, want a margin of at least 8px", gap)
	}
}

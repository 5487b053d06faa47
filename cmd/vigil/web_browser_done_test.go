package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestDashboardBrowserSaysWhatHappened: in chromium, each button of a
// sentinel's page (and the editor's Create) leads to a page that says what
// it did. They all came back to the same sentinel page as before, so a
// user could not tell a Save or a Check now from a click that did nothing.
func TestDashboardBrowserSaysWhatHappened(t *testing.T) {
	b := newBrowser(t)
	site := newSite(t)
	site.set("/p", `<html><head><title>P</title></head><body><p>one</p></body></html>`)
	d := startWebDaemon(t)
	b.signIn(d.base)

	// done takes the steps of a form and reads what the page it leads to
	// says; the page before may say something already, which is taken
	// off first.
	done := func(what, want string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		steps = append([]chromedp.Action[chromedp.Void]{void(chromedp.Evaluate[bool](`(e => { if (e) e.remove(); return true })(document.getElementById('done'))`))}, steps...)
		b.do(what, append(steps, chromedp.WaitVisible(chromedp.CSS("#done")))...)
		if got := runB(b, what+": message", chromedp.Text(chromedp.CSS("#done"))); !strings.Contains(got, want) {
			b.shot("done-" + strings.ReplaceAll(what, " ", "-"))
			t.Errorf("%s: the page says %q, want %q", what, got, want)
		}
	}
	done("create", "Created",
		chromedp.Navigate(d.base+"/sentinels/new"),
		chromedp.WaitVisible(chromedp.CSS("#source")),
		setSource("Create Sentinel p\nUsing "+site.srv.URL+"/p\nMonitor any change\nFetch 1 day"),
		chromedp.WaitVisible(chromedp.CSS("#problems p.ok")),
		chromedp.Click(chromedp.CSS(`#sentinel-form button[type="submit"]`)),
	)
	b.shot("done-created")
	done("save", "Saved",
		setSource("Create Sentinel p\nUsing "+site.srv.URL+"/p\nMonitor any change\nFetch 2 days"),
		chromedp.WaitVisible(chromedp.CSS("#problems p.ok")),
		chromedp.Click(chromedp.CSS(`#sentinel-form button[type="submit"]`)),
	)
	done("check now", "check",
		chromedp.Click(chromedp.CSS(`form[action$="/check-now"] button`)),
	)
	done("pause", "Paused",
		chromedp.Click(chromedp.CSS(`form[action$="/pause"] button`)),
	)
	done("resume", "Resumed",
		chromedp.Click(chromedp.CSS(`form[action$="/resume"] button`)),
	)
	// A reload says nothing of what was done before, and the address
	// holds no code of it: the code rode in it (?done=resumed), so a
	// reload, the history and a bookmark said it again.
	if loc := runB(b, "location", chromedp.Location()); strings.Contains(loc, "done") {
		t.Errorf("after resume the address is %s, with the message's code", loc)
	}
	b.do("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`form[action$="/pause"]`)))
	if n := runB(b, "messages after a reload", chromedp.Evaluate[int](`document.querySelectorAll('#done').length`)); n != 0 {
		t.Errorf("the sentinel's page reloaded says again what was done")
	}
	// A page opened again says nothing of what was done before either:
	// the message is the answer to the form only.
	b.do("open the page again", chromedp.Navigate(d.base+"/sentinels"), chromedp.WaitVisible(chromedp.CSS("#sentinels")))
	if n := runB(b, "messages", chromedp.Evaluate[int](`document.querySelectorAll('#done').length`)); n != 0 {
		t.Errorf("the sentinel list says %d messages before anything was done", n)
	}
}

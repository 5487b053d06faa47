package main

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestDashboardBrowserSignInAgain: in chromium, a sign-in refused for a
// wrong password comes back with the email kept and the focus in the
// password field, where the user types again; it was in the email field,
// which they had filled in already.
func TestDashboardBrowserSignInAgain(t *testing.T) {
	b := newBrowser(t)
	d := startWebDaemon(t)
	b.do("sign in with a wrong password",
		chromedp.Navigate(d.base+"/login"),
		chromedp.WaitVisible(chromedp.CSS("#email")),
		chromedp.SendKeys(chromedp.CSS("#email"), "admin@localhost"),
		chromedp.SendKeys(chromedp.CSS("#password"), "not the password"),
		chromedp.Submit(chromedp.CSS("#password")),
		chromedp.WaitVisible(chromedp.CSS(`p.alert[role="alert"]`)),
	)
	// The browser applies autofocus once it has rendered the page, which
	// may be after the alert is visible: wait for some field to have it.
	got := runB(b, "focus", chromedp.Poll[string](`document.activeElement && document.activeElement.id && document.activeElement.id + "|" + document.getElementById("email").value`,
		chromedp.WithPollingTimeout(10*time.Second)))
	if got != "password|admin@localhost" {
		b.shot("sign-in-again")
		t.Errorf("after a wrong password: focus and email %q, want password|admin@localhost", got)
	}
	if first := runB(b, "first visit", chromedp.Evaluate[string](`(async () => {
		const r = await fetch("/login");
		const doc = new DOMParser().parseFromString(await r.text(), "text/html");
		return doc.querySelector("[autofocus]").id;
	})()`, chromedp.EvalAwaitPromise)); first != "email" {
		t.Errorf("a first visit focuses %q, want email", first)
	}
}

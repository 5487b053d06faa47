package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestDashboardBrowserAddUser: in chromium, the administrator follows the
// Users link, adds a user with a generated password, reads it off the
// page, signs out, and the new user signs in with it, to a dashboard
// without the Users link.
func TestDashboardBrowserAddUser(t *testing.T) {
	b := newBrowser(t)
	d := startWebDaemon(t)
	b.signIn(d.base)
	b.do("open the Users page",
		chromedp.Click(chromedp.CSS(`nav a[href="/users"]`)),
		chromedp.WaitVisible(chromedp.CSS("#add-user")),
	)
	b.do("add a user",
		chromedp.SendKeys(chromedp.CSS(`#add-user input[name="email"]`), "fay@example.com"),
		chromedp.SendKeys(chromedp.CSS(`#add-user input[name="name"]`), "Fay"),
		chromedp.Click(chromedp.CSS(`#add-user button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#new-password")),
	)
	password := strings.TrimSpace(runB(b, "read the password", chromedp.Text(chromedp.CSS("#new-password"))))
	if len(password) != 24 {
		t.Fatalf("password on the page: %q", password)
	}
	b.do("sign out",
		chromedp.Click(chromedp.CSS(`form.logout button`)),
		chromedp.WaitVisible(chromedp.CSS("#email")),
	)
	b.do("sign in as the new user",
		chromedp.Navigate(d.base+"/sentinels"),
		chromedp.WaitVisible(chromedp.CSS("#email")),
		chromedp.SendKeys(chromedp.CSS("#email"), "fay@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		chromedp.Submit(chromedp.CSS("#password")),
		chromedp.WaitVisible(chromedp.CSS("a.button.primary")),
	)
	who := runB(b, "who is signed in", chromedp.Text(chromedp.CSS(".logout .who")))
	links := runB(b, "the Users link", chromedp.Evaluate[int](`document.querySelectorAll('nav a[href="/users"]').length`))
	if who != "fay@example.com" || links != 0 {
		b.shot("signed-in-as-fay")
		t.Errorf("signed in as %q with %d Users links; want fay@example.com and none", who, links)
	}
}

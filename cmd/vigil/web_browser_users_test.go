package main

import (
	"fmt"
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
	// A refused form keeps what was typed in it (but the password): it
	// came back empty, and the administrator typed it all again.
	b.do("add a user who is one already",
		chromedp.SendKeys(chromedp.CSS(`#add-user input[name="email"]`), "admin@localhost"),
		chromedp.SendKeys(chromedp.CSS(`#add-user input[name="name"]`), "Fay"),
		chromedp.Click(chromedp.CSS(`#add-user input[name="admin"]`)),
		chromedp.Click(chromedp.CSS(`#add-user button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#users-problem")),
	)
	kept := runB(b, "the form after the refusal", chromedp.Evaluate[string](`(f => [f.email.value, f.name.value, f.admin.checked].join("|"))(document.getElementById("add-user"))`))
	if kept != "admin@localhost|Fay|true" {
		b.shot("refused-user")
		t.Errorf("after the refusal the form holds %q, want admin@localhost|Fay|true", kept)
	}
	b.do("add a user",
		chromedp.Click(chromedp.CSS(`#add-user input[name="admin"]`)),
		void(chromedp.Evaluate[bool](`(e => { e.value = ""; return true })(document.querySelector('#add-user input[name="email"]'))`)),
		chromedp.SendKeys(chromedp.CSS(`#add-user input[name="email"]`), "fay@example.com"),
		chromedp.Click(chromedp.CSS(`#add-user button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#new-password")),
	)
	password := strings.TrimSpace(runB(b, "read the password", chromedp.Text(chromedp.CSS("#new-password"))))
	if len(password) != 24 {
		t.Fatalf("password on the page: %q", password)
	}
	// The form redirected to the page: a reload shows the page again,
	// without the password, and does not send the form again (which
	// would be refused: fay is a user already).
	b.do("reload the page", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#add-user")))
	again := runB(b, "the page reloaded", chromedp.Evaluate[string](`document.querySelector("main").textContent`))
	if strings.Contains(again, password) || strings.Contains(again, "Added fay@example.com") || strings.Contains(again, "already a user") {
		b.shot("reloaded-users")
		t.Errorf("a reload shows the password or what was done again:\n%s", again)
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

// TestDashboardBrowserRowControlNames: on the Users and API tokens pages,
// every row's controls have a name of their own, which says whose they
// are: a screen reader that lists the form controls read "Remove" and
// "New password" once a row, without the user's email.
func TestDashboardBrowserRowControlNames(t *testing.T) {
	b := newBrowser(t)
	d := startWebDaemon(t)
	b.signIn(d.base)
	b.createToken(d.base)
	b.do("a second token",
		chromedp.Navigate(d.base+"/tokens"),
		chromedp.SendKeys(chromedp.CSS(`input[name="name"]`), "backup script"),
		chromedp.Click(chromedp.CSS(`form[action="/tokens"] button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.Search(`//div[contains(., "New token backup script")]//code[@id="new-token"]`)),
	)
	b.do("the Users page", chromedp.Navigate(d.base+"/users"), chromedp.WaitVisible(chromedp.CSS("#add-user")))
	b.do("add a user",
		chromedp.SendKeys(chromedp.CSS(`#add-user input[name="email"]`), "fay@example.com"),
		chromedp.Click(chromedp.CSS(`#add-user button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#new-password")),
	)
	// A control's name: its label's text, or a button's text.
	const names = `Array.from(document.querySelectorAll(%q), e => (e.labels && e.labels.length ? e.labels[0] : e).textContent.replace(/\s+/g, ' ').trim())`
	for _, tc := range []struct {
		page, controls string
		rows           []string // what each row's names must mention
	}{
		{"/users", `#users input:not([type=hidden]), #users button`, []string{"admin@localhost", "fay@example.com"}},
		{"/tokens", `#tokens button`, []string{"browser test", "backup script"}},
	} {
		b.do("open "+tc.page, chromedp.Navigate(d.base+tc.page), chromedp.WaitReady(chromedp.CSS("main")))
		got := runB(b, "names", chromedp.Evaluate[[]string](fmt.Sprintf(names, tc.controls)))
		seen := map[string]bool{}
		for _, n := range got {
			if seen[n] {
				t.Errorf("%s: two controls are named %q", tc.page, n)
			}
			seen[n] = true
			mentions := 0
			for _, r := range tc.rows {
				if strings.Contains(n, r) {
					mentions++
				}
			}
			if mentions != 1 {
				t.Errorf("%s: control %q does not say whose it is (one of %v)", tc.page, n, tc.rows)
			}
		}
		if len(got) < len(tc.rows) {
			t.Errorf("%s: %d controls: %v", tc.page, len(got), got)
		}
	}
}

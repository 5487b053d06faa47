package main

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestWebAdminAccountRemovedStaysRemoved: the VIGIL_ADMIN_EMAIL account
// that another administrator removed on the Users page is not made again
// at the next start of vigil serve (which says so), and an existing
// account is not made an administrator again beside another: the first
// start's account is a way in, made when the store has no administrator
// who can sign in, not a role the configuration holds. The account came
// back, an administrator with VIGIL_ADMIN_PASSWORD, at every start. When
// no administrator can sign in (removed with vigil user remove --force),
// the next start makes it again.
func TestWebAdminAccountRemovedStaysRemoved(t *testing.T) {
	ctx := context.Background()
	d := startWebDaemon(t)
	cli := func(stdin string, args ...string) {
		t.Helper()
		if code, out, errOut := runVigil(t, stdin, append(append([]string{"user"}, args...), "--data", d.dir)...); code != exitOK {
			t.Fatalf("vigil user %v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
	cli("dave's long password\n", "add", "--password-stdin", "--admin", "dave@example.com")
	dave, status := signInAs(t, d.base, "dave@example.com", "dave's long password")
	if status != http.StatusSeeOther {
		t.Fatalf("dave signs in: %d", status)
	}
	st := userStore(t, d.dir)
	account := storedUser(t, d.dir, "admin@localhost")
	path := "/users/" + strconv.FormatInt(account.ID, 10) + "/remove"
	if status, page := dave.post(path, url.Values{"csrf": {dave.csrf()}}); status != http.StatusOK {
		t.Fatalf("dave removes the admin account: %d\n%s", status, page)
	}
	// restart stops the daemon and starts it again on the same data,
	// VIGIL_ADMIN_PASSWORD still set.
	restart := func() {
		t.Helper()
		d.stop(t)
		p := startDaemon(t, d.dir)
		d = &webDaemon{daemonProc: p, base: "http://" + p.addr, dir: d.dir}
	}

	// The next start: not made again.
	restart()
	if _, err := st.FindUserByEmail(ctx, "admin@localhost"); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Fatalf("the removed admin account after a start: %v; want it still removed", err)
	}
	if log := d.stderr.String(); !strings.Contains(log, "vigil user add admin@localhost --admin") {
		t.Errorf("the start does not say why the admin account was not made, nor how to make it:\n%s", log)
	}
	if _, status := signInAs(t, d.base, "admin@localhost", testAdminPassword); status == http.StatusSeeOther {
		t.Error("the removed admin account signs in")
	}

	// An account of that email that is no administrator stays one.
	cli("an account again please\n", "add", "--password-stdin", "admin@localhost")
	restart()
	if u := storedUser(t, d.dir, "admin@localhost"); u.Admin {
		t.Error("the account was made an administrator again beside dave")
	}

	// Nobody an administrator who can sign in: the next start makes the
	// account one.
	cli("", "remove", "--force", "dave@example.com")
	restart()
	if u := storedUser(t, d.dir, "admin@localhost"); !u.Admin {
		t.Error("no administrator left: the start did not make the account one")
	}
	if _, status := signInAs(t, d.base, "admin@localhost", testAdminPassword); status != http.StatusSeeOther {
		t.Errorf("the account signs in with VIGIL_ADMIN_PASSWORD: %d", status)
	}
}

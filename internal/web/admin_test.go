package web

import (
	"context"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
	"github.com/vigil-web/vigil/internal/postgres/pgtest"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestUserRules: the rules of user management that the Users page and
// vigil user share.
func TestUserRules(t *testing.T) {
	for _, tc := range []struct {
		pw, err string
	}{
		{"", "empty password"},
		{"elevenchars", "too short: 11 characters, want at least 12"},
		{"twelve chars", ""},
		{"ééééééééééé", "too short: 11 characters, want at least 12"}, // runes, not bytes
		{strings.Repeat("x", MaxPasswordBytes+1), "too long: want at most 1024 bytes"},
	} {
		if err := CheckNewPassword(tc.pw); vigil.ErrorMessage(err) != tc.err && (err != nil || tc.err != "") {
			t.Errorf("CheckNewPassword(%.20q): %v, want %q", tc.pw, err, tc.err)
		}
	}
	pw, hash, generated, err := NewPassword("")
	if err != nil || !generated || len(pw) != 24 || !CheckPassword(hash, pw) {
		t.Errorf("generated: %q %v %v", pw, generated, err)
	}
	if again, _, _, _ := NewPassword(""); again == pw {
		t.Error("two generated passwords are the same")
	}
	if pw, hash, generated, err := NewPassword("a typed password"); err != nil || generated || pw != "a typed password" || !CheckPassword(hash, pw) {
		t.Errorf("typed: %q %v %v", pw, generated, err)
	}
	if _, _, _, err := NewPassword("short"); vigil.ErrorCode(err) != vigil.EINVALID {
		t.Errorf("typed short: %v", err)
	}

	for _, tc := range []struct {
		email, name   string
		admin         bool
		want, wantErr string // want: email/name
	}{
		{" Ann@Example.ORG ", "", false, "ann@example.org/ann", ""},
		{"bob@example.org", " Bob B. ", true, "bob@example.org/Bob B.", ""},
		{"bob", "", false, "", `invalid email address "bob"`},
		{"bob@example", "", false, "", "the domain has no dot"},
		{"cy@example.org", strings.Repeat("n", 201), false, "", "user name longer than 200 bytes"},
	} {
		u, err := NewUser(tc.email, tc.name, tc.admin)
		if tc.wantErr != "" {
			if vigil.ErrorCode(err) != vigil.EINVALID || !strings.Contains(vigil.ErrorMessage(err), tc.wantErr) {
				t.Errorf("NewUser(%q, %q): %v, want %q", tc.email, tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || u.Email+"/"+u.Name != tc.want || u.Admin != tc.admin {
			t.Errorf("NewUser(%q, %q): %+v %v, want %s", tc.email, tc.name, u, err, tc.want)
		}
	}
}

// hookedStore calls beforeFindUsers, if set, as FindUsers is called, after
// it read the users: what another request does between RemoveUser's check
// of the rules and its changes.
type hookedStore struct {
	vigil.Store
	beforeFindUsers func()
}

func (h *hookedStore) FindUsers(ctx context.Context) ([]*vigil.User, error) {
	users, err := h.Store.FindUsers(ctx)
	if h.beforeFindUsers != nil {
		h.beforeFindUsers()
	}
	return users, err
}

// TestRemoveUserLastAdminRace: two removals of the last two
// administrators at once, or a removal racing a revocation, leave one
// administrator, who can still sign in: the store refuses the second
// change (SetUserAdmin, before anything else is changed), whatever the
// users read before said. On SQLite, and on PostgreSQL when
// VIGIL_TEST_POSTGRES_DSN is set.
func TestRemoveUserLastAdminRace(t *testing.T) {
	for name, open := range raceStores() {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			st := &hookedStore{Store: open(t)}
			// A user with a password beside them: the administrators'
			// rule is the one at stake.
			if err := st.CreateUser(ctx, &vigil.User{Email: "dee@example.com", Name: "n", PasswordHash: "h"}); err != nil {
				t.Fatal(err)
			}
			admins := make([]*vigil.User, 2)
			for i, email := range []string{"ann@example.com", "bob@example.com"} {
				admins[i] = &vigil.User{Email: email, Name: "n", PasswordHash: "h", Admin: true}
				if err := st.CreateUser(ctx, admins[i]); err != nil {
					t.Fatal(err)
				}
			}
			// check says which administrators are left, each with a
			// password.
			check := func(what string, errs ...error) {
				t.Helper()
				users, err := st.Store.FindUsers(ctx)
				if err != nil {
					t.Fatal(err)
				}
				n := 0
				for _, u := range users {
					if u.Admin && u.PasswordHash != "" {
						n++
					}
				}
				refused := 0
				for _, err := range errs {
					if r := errRefusal(err); r != nil && r.Reason == RefusedLastAdmin {
						refused++
					} else if err != nil {
						t.Fatalf("%s: %v", what, err)
					}
				}
				if n != 1 || refused != 1 {
					t.Fatalf("%s (%v): %d administrators who can sign in, %d refusals; want 1 and 1", what, errs, n, refused)
				}
			}

			// Both removals read the users before either changes them.
			var arrived sync.WaitGroup
			arrived.Add(2)
			var calls atomic.Int32 // a refusal reads the users again
			st.beforeFindUsers = func() {
				if calls.Add(1) <= 2 {
					arrived.Done()
					arrived.Wait()
				}
			}
			errs := make([]error, 2)
			var wg sync.WaitGroup
			for i, u := range admins {
				wg.Go(func() { _, errs[i] = RemoveUser(ctx, st, u, false, false) })
			}
			wg.Wait()
			check("two removals at once", errs...)

			// A removal, and the revocation of the other administrator
			// made after it read the users.
			left := admins[0]
			if _, err := st.FindUserByID(ctx, left.ID); err != nil {
				left = admins[1]
			}
			other := &vigil.User{Email: "cy@example.com", Name: "n", PasswordHash: "h"}
			if err := st.CreateUser(ctx, other); err != nil {
				t.Fatal(err)
			}
			if err := st.SetUserAdmin(ctx, other.ID, true); err != nil {
				t.Fatal(err)
			}
			var revoked error
			st.beforeFindUsers = func() {
				st.beforeFindUsers = nil
				revoked = SetAdmin(ctx, st, other, false)
			}
			_, removed := RemoveUser(ctx, st, left, false, false)
			if revoked != nil {
				t.Fatalf("revocation: %v", revoked)
			}
			check("a removal racing a revocation", removed)
		})
	}
}

// TestRemoveUserLastPasswordRace: two removals at once of the last two
// users with a password leave one of them, who can still sign in, and
// the other refused, unchanged: the store takes the password and the
// role away together, refusing the only user with a password in the
// same transaction (DisableUser), whatever the users read before said.
// Each removal took the password away by writing back the user it had
// read, and both went through. On SQLite, and on PostgreSQL when
// VIGIL_TEST_POSTGRES_DSN is set.
func TestRemoveUserLastPasswordRace(t *testing.T) {
	for name, open := range raceStores() {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			st := &hookedStore{Store: open(t)}
			// An administrator who cannot sign in, so that the
			// administrators' rule lets both removals go on.
			if err := st.CreateUser(ctx, &vigil.User{Email: "root@example.com", Name: "n", Admin: true}); err != nil {
				t.Fatal(err)
			}
			users := make([]*vigil.User, 2)
			for i, email := range []string{"ann@example.com", "bob@example.com"} {
				users[i] = &vigil.User{Email: email, Name: "n", PasswordHash: "h" + email, Admin: i == 0}
				if err := st.CreateUser(ctx, users[i]); err != nil {
					t.Fatal(err)
				}
			}
			var arrived sync.WaitGroup
			arrived.Add(2)
			var calls atomic.Int32 // a refusal reads the users again
			st.beforeFindUsers = func() {
				if calls.Add(1) <= 2 {
					arrived.Done()
					arrived.Wait()
				}
			}
			errs := make([]error, 2)
			var wg sync.WaitGroup
			for i, u := range users {
				wg.Go(func() { _, errs[i] = RemoveUser(ctx, st, u, false, false) })
			}
			wg.Wait()
			refused := -1
			for i, err := range errs {
				if r := errRefusal(err); r != nil && r.Reason == RefusedLastPassword {
					refused = i
				} else if err != nil {
					t.Fatalf("removal of %s: %v", users[i].Email, err)
				}
			}
			if refused < 0 {
				t.Fatalf("two removals at once of the last two users with a password: %v; want one refused", errs)
			}
			kept, err := st.Store.FindUserByID(ctx, users[refused].ID)
			if err != nil {
				t.Fatalf("the refused user: %v", err)
			}
			if kept.PasswordHash != users[refused].PasswordHash || kept.Admin != (refused == 0) {
				t.Errorf("the refused user became %+v; want them unchanged", kept)
			}
			if _, err := st.Store.FindUserByID(ctx, users[1-refused].ID); vigil.ErrorCode(err) != vigil.ENOTFOUND {
				t.Errorf("the other user: %v; want them removed", err)
			}
		})
	}
}

// raceStores opens a fresh store of each backend: SQLite, and
// PostgreSQL when VIGIL_TEST_POSTGRES_DSN is set.
func raceStores() map[string]func(t *testing.T) vigil.Store {
	return map[string]func(t *testing.T) vigil.Store{
		"sqlite": func(t *testing.T) vigil.Store {
			st, err := sqlite.Open(context.Background(), t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		},
		"postgres": func(t *testing.T) vigil.Store {
			base := os.Getenv("VIGIL_TEST_POSTGRES_DSN")
			if base == "" {
				t.Skip("VIGIL_TEST_POSTGRES_DSN not set")
			}
			dsn, _ := pgtest.Schema(t, base)
			st, err := postgres.Open(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		},
	}
}

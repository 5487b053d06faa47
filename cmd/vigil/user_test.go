package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
	"github.com/vigil-web/vigil/internal/postgres/pgtest"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/web"
)

// userStore opens the SQLite store of the data directory, as vigil serve
// does, to look at what the user commands stored.
func userStore(t *testing.T, data string) *sqlite.DB {
	t.Helper()
	st, err := sqlite.Open(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// storedUser returns the user with the email, failing the test if there is
// none.
func storedUser(t *testing.T, data, email string) *vigil.User {
	t.Helper()
	u, err := userStore(t, data).FindUserByEmail(context.Background(), email)
	if err != nil {
		t.Fatalf("user %s: %v", email, err)
	}
	return u
}

var generatedPassword = regexp.MustCompile(`(?m)^password: (\S+) \(shown only now\)$`)

func TestUserAdd(t *testing.T) {
	data := newStoreDir(t)
	for _, tc := range []struct {
		name     string
		args     []string
		stdin    string
		code     int
		email    string // the user stored, for a success
		userName string
		password string // the password set; "" for a generated one
		stderr   string // part of the error, for a failure
	}{
		{name: "generated password, email lower-cased", args: []string{"Bob@Example.COM", "--name", "Bob B."},
			email: "bob@example.com", userName: "Bob B."},
		{name: "password from stdin", args: []string{"--password-stdin", "carol@example.com"}, stdin: "carol's long password\nsecond line\n",
			email: "carol@example.com", userName: "carol", password: "carol's long password"},
		{name: "password from stdin, CRLF", args: []string{"dan@example.com", "--password-stdin"}, stdin: "dan's long password\r\n",
			email: "dan@example.com", userName: "dan", password: "dan's long password"},
		{name: "password from stdin, no newline", args: []string{"erin@example.com", "--password-stdin"}, stdin: "erin's long password",
			email: "erin@example.com", userName: "erin", password: "erin's long password"},
		{name: "bad email", args: []string{"bob"}, code: exitError, stderr: `vigil user add: invalid email address "bob"`},
		{name: "email without a dot", args: []string{"bob@example"}, code: exitError, stderr: `invalid email address "bob@example": the domain has no dot`},
		{name: "taken", args: []string{"BOB@example.com"}, code: exitError, stderr: "vigil user add: bob@example.com is already a user (vigil user passwd sets their password)"},
		{name: "short password", args: []string{"fay@example.com", "--password-stdin"}, stdin: "elevenchars\n", code: exitError,
			stderr: "vigil user add: password from standard input: too short: 11 characters, want at least 12"},
		{name: "no password on stdin", args: []string{"gus@example.com", "--password-stdin"}, stdin: "\n", code: exitError,
			stderr: "vigil user add: password from standard input: empty first line"},
		{name: "name too long", args: []string{"hal@example.com", "--name", strings.Repeat("n", 201)}, code: exitError,
			stderr: "vigil user add: user name longer than 200 bytes"},
		{name: "no email", args: nil, code: exitError, stderr: "vigil user add: want 1 argument, got 0\nUsage: vigil user add [flags] EMAIL"},
		{name: "two emails", args: []string{"ivy@example.com", "jo@example.com"}, code: exitError, stderr: "vigil user add: want 1 argument, got 2\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runVigil(t, tc.stdin, append([]string{"user", "add", "--data", data}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", code, tc.code, out, errOut)
			}
			if tc.code != exitOK {
				if !strings.Contains(errOut, tc.stderr) || !strings.HasPrefix(errOut, "vigil user add: ") || out != "" {
					t.Errorf("stdout %q, stderr %q; want %q", out, errOut, tc.stderr)
				}
				return
			}
			u := storedUser(t, data, tc.email)
			if u.Name != tc.userName {
				t.Errorf("name %q, want %q", u.Name, tc.userName)
			}
			first, rest, _ := strings.Cut(out, "\n")
			if want := "added user " + tc.email; !strings.HasPrefix(first, want+" (id ") {
				t.Errorf("first line %q, want %q (id ...)", first, want)
			}
			password := tc.password
			if password == "" {
				m := generatedPassword.FindStringSubmatch(rest)
				if m == nil {
					t.Fatalf("no generated password in %q", out)
				}
				password = m[1]
				if len(password) < 20 {
					t.Errorf("generated password %q: too short", password)
				}
			} else if rest != "" || strings.Contains(out+errOut, password) {
				t.Errorf("a password read from stdin is shown: %q %q", out, errOut)
			}
			if !web.CheckPassword(u.PasswordHash, password) {
				t.Errorf("the stored hash does not match password %q", password)
			}
		})
	}
	// Two generated passwords differ.
	_, out1, _ := runVigil(t, "", "user", "add", "--data", data, "kim@example.com")
	_, out2, _ := runVigil(t, "", "user", "add", "--data", data, "lou@example.com")
	if m1, m2 := generatedPassword.FindStringSubmatch(out1), generatedPassword.FindStringSubmatch(out2); m1 == nil || m2 == nil || m1[1] == m2[1] {
		t.Errorf("generated passwords: %q and %q", out1, out2)
	}
}

// addOwned adds the sentinels of src for owner with vigil sentinel
// add, which makes the owner a user without a password if they are new.
func addOwned(t *testing.T, data, owner, src string) {
	t.Helper()
	if code, out, errOut := runVigil(t, src, "sentinel", "add", "--data", data, "--owner", owner, "-"); code != exitOK {
		t.Fatalf("sentinel add: exit %d\n%s%s", code, out, errOut)
	}
}

func TestUserList(t *testing.T) {
	data := newStoreDir(t)
	if code, _, errOut := runVigil(t, "ann's long password\n", "user", "add", "--data", data, "--name", "Ann A.", "--password-stdin", "--admin", "ann@example.com"); code != exitOK {
		t.Fatal(errOut)
	}
	addOwned(t, data, "ann@example.com", "Create Sentinel a1 Using https://a.example/ Fetch 1 day\nCreate Sentinel a2 Using https://b.example/ Fetch 1 day\n")
	addOwned(t, data, "bob@example.com", "Create Sentinel b1 Using https://a.example/ Fetch 1 day\n")

	code, out, errOut := runVigil(t, "", "user", "list", "--data", data)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	day := time.Now().UTC().Format("2006-01-02")
	want := []*regexp.Regexp{
		regexp.MustCompile(`^ID +EMAIL +NAME +CREATED \(UTC\) +PASSWORD +ROLE +SENTINELS$`),
		regexp.MustCompile(`^1 +ann@example\.com +Ann A\. +` + day + ` \d\d:\d\d:\d\d +yes +admin +2$`),
		regexp.MustCompile(`^2 +bob@example\.com +bob +` + day + ` \d\d:\d\d:\d\d +no +user +1$`),
	}
	if len(lines) != len(want) {
		t.Fatalf("list:\n%s", out)
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("line %d %q does not match %s", i+1, lines[i], re)
		}
	}
	if strings.Contains(out, "pbkdf2") {
		t.Errorf("the list shows a password hash:\n%s", out)
	}

	_, out, _ = runVigil(t, "", "user", "list", "--data", data, "--json")
	var got []web.ListedUser
	for line := range strings.Lines(out) {
		var u web.ListedUser
		if err := json.Unmarshal([]byte(line), &u); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		got = append(got, u)
	}
	if len(got) != 2 || got[0].Email != "ann@example.com" || !got[0].Password || got[0].Sentinels != 2 || !got[0].Admin ||
		got[1].Email != "bob@example.com" || got[1].Password || got[1].Sentinels != 1 || got[1].Admin || got[0].CreatedAt.IsZero() {
		t.Errorf("list --json: %+v", got)
	}
	if strings.Contains(out, "pbkdf2") || strings.Contains(out, "passwordHash") {
		t.Errorf("the JSON list shows a password hash:\n%s", out)
	}
}

func TestUserPasswd(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	// A user made by sentinel add --owner has no password; passwd gives
	// them one.
	addOwned(t, data, "bob@example.com", "Create Sentinel b1 Using https://a.example/ Fetch 1 day\n")
	before := storedUser(t, data, "bob@example.com")
	if before.PasswordHash != "" {
		t.Fatalf("sentinel add made a user with a password")
	}
	code, out, errOut := runVigil(t, "bob's new password\n", "user", "passwd", "--data", data, "--password-stdin", "BOB@example.com")
	if code != exitOK || out != "password of bob@example.com set; their sessions are signed out\n" || errOut != "" {
		t.Fatalf("passwd: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	after := storedUser(t, data, "bob@example.com")
	if !web.CheckPassword(after.PasswordHash, "bob's new password") || !after.UpdatedAt.After(before.UpdatedAt) || after.Name != before.Name {
		t.Errorf("after passwd: %+v (before %+v)", after, before)
	}

	// A generated one, shown once.
	code, out, _ = runVigil(t, "", "user", "passwd", "--data", data, "bob@example.com")
	m := generatedPassword.FindStringSubmatch(out)
	if code != exitOK || m == nil {
		t.Fatalf("passwd without --password-stdin: exit %d, %q", code, out)
	}
	if u := storedUser(t, data, "bob@example.com"); !web.CheckPassword(u.PasswordHash, m[1]) || web.CheckPassword(u.PasswordHash, "bob's new password") {
		t.Errorf("the generated password is not the one stored")
	}

	// --revoke-tokens deletes the user's API tokens too.
	st := userStore(t, data)
	ctx := context.Background()
	if err := st.CreateToken(ctx, &vigil.Token{UserID: after.ID, Name: "laptop", Hash: vigil.HashToken("vgl_bobs_token")}); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runVigil(t, "bob's third password\n", "user", "passwd", "--data", data, "--password-stdin", "--revoke-tokens", "bob@example.com")
	if code != exitOK || out != "password of bob@example.com set; their sessions are signed out and their 1 API token revoked\n" {
		t.Errorf("passwd --revoke-tokens: exit %d, %q, %q", code, out, errOut)
	}
	if toks, err := st.FindTokens(ctx, after.ID); err != nil || len(toks) != 0 {
		t.Errorf("tokens after --revoke-tokens: %v, %v", toks, err)
	}
	// Again, with no token left: said so, not "their 0 API tokens revoked".
	code, out, errOut = runVigil(t, "bob's third password\n", "user", "passwd", "--data", data, "--password-stdin", "--revoke-tokens", "bob@example.com")
	if code != exitOK || out != "password of bob@example.com set; their sessions are signed out (they had no API token to revoke)\n" {
		t.Errorf("passwd --revoke-tokens of a user without tokens: exit %d, %q, %q", code, out, errOut)
	}

	// An owner whose address user add would refuse (no dot in its domain,
	// as vigil serve's VIGIL_ADMIN_EMAIL and sentinel add --owner take) is
	// found all the same.
	addOwned(t, data, "ops@intranet", "Create Sentinel o1 Using https://a.example/ Fetch 1 day\n")
	if code, out, errOut := runVigil(t, "ops's long password\n", "user", "passwd", "--data", data, "--password-stdin", "ops@intranet"); code != exitOK {
		t.Errorf("passwd of ops@intranet: exit %d, %q, %q", code, out, errOut)
	}
	if u := storedUser(t, data, "ops@intranet"); !web.CheckPassword(u.PasswordHash, "ops's long password") {
		t.Errorf("ops@intranet has not the password set")
	}

	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"unknown user", []string{"nobody@example.com"}, "", "vigil user passwd: no user nobody@example.com (vigil user add makes one)"},
		{"bad email", []string{"nobody"}, "", `vigil user passwd: user email "nobody" is not an address`},
		{"short password", []string{"bob@example.com", "--password-stdin"}, "short\n", "too short: 5 characters, want at least 12"},
		{"no email", nil, "", "vigil user passwd: want 1 argument, got 0\nUsage: vigil user passwd [flags] EMAIL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runVigil(t, tc.stdin, append([]string{"user", "passwd", "--data", data}, tc.args...)...)
			if code != exitError || out != "" || !strings.Contains(errOut, tc.want) || !strings.HasPrefix(errOut, "vigil user ") {
				t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, tc.want)
			}
		})
	}
	if u := storedUser(t, data, "bob@example.com"); !web.CheckPassword(u.PasswordHash, "bob's third password") {
		t.Errorf("a refused passwd changed the password")
	}
}

func TestUserRemove(t *testing.T) {
	data := newStoreDir(t)
	for _, email := range []string{"ann@example.com", "bob@example.com"} {
		if code, _, errOut := runVigil(t, "a long enough password\n", "user", "add", "--data", data, "--password-stdin", email); code != exitOK {
			t.Fatal(errOut)
		}
	}
	addOwned(t, data, "bob@example.com", "Create Sentinel b1 Using https://a.example/ Fetch 1 day\nCreate Sentinel b2 Using https://b.example/ Fetch 1 day\n")
	addOwned(t, data, "cy@example.com", "Create Sentinel c1 Using https://a.example/ Fetch 1 day\n") // no password
	st := userStore(t, data)
	ctx := context.Background()
	bob := storedUser(t, data, "bob@example.com")
	if err := st.CreateToken(ctx, &vigil.Token{UserID: bob.ID, Name: "laptop", Hash: vigil.HashToken("vgl_bobs_token")}); err != nil {
		t.Fatal(err)
	}
	sentinels := func() int {
		t.Helper()
		_, n, err := st.FindSentinels(ctx, vigil.SentinelFilter{})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"owns sentinels", []string{"bob@example.com"},
			"vigil user remove: bob@example.com owns 2 sentinels: remove them first (vigil sentinel rm), or give --with-sentinels to remove them with the user"},
		{"owns a sentinel", []string{"cy@example.com"},
			"vigil user remove: cy@example.com owns 1 sentinel: remove it first (vigil sentinel rm), or give --with-sentinels to remove it with the user"},
		{"unknown user", []string{"nobody@example.com"}, "vigil user remove: no user nobody@example.com"},
		{"bad email", []string{"nobody@"}, `vigil user remove: user email "nobody@" is not an address`},
		{"no email", nil, "vigil user remove: want 1 argument, got 0\nUsage: vigil user remove [flags] EMAIL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runVigil(t, "", append([]string{"user", "remove", "--data", data}, tc.args...)...)
			if code != exitError || out != "" || !strings.Contains(errOut, tc.want) || !strings.HasPrefix(errOut, "vigil user ") {
				t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, tc.want)
			}
		})
	}
	if n := sentinels(); n != 3 {
		t.Fatalf("%d sentinels after the refusals, want 3", n)
	}

	code, out, errOut := runVigil(t, "", "user", "remove", "--data", data, "--with-sentinels", "bob@example.com")
	if code != exitOK || out != "removed user bob@example.com with 2 sentinels and 1 API token\n" {
		t.Fatalf("remove --with-sentinels: exit %d, %q, %q", code, out, errOut)
	}
	if _, err := st.FindUserByEmail(ctx, "bob@example.com"); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("bob after remove: %v", err)
	}
	if _, err := st.FindTokenByHash(ctx, vigil.HashToken("vgl_bobs_token"), time.Now()); vigil.ErrorCode(err) != vigil.EUNAUTHORIZED {
		t.Errorf("bob's token after remove: %v", err)
	}
	if n := sentinels(); n != 1 {
		t.Errorf("%d sentinels after removing bob's, want cy's 1", n)
	}

	// Ann is now the only user with a password: removing her would leave
	// nobody able to sign in.
	code, out, errOut = runVigil(t, "", "user", "remove", "--data", data, "ann@example.com")
	if want := "vigil user remove: ann@example.com is the only user with a password: without them nobody can sign in; give --force to remove them anyway"; code != exitError || out != "" || !strings.Contains(errOut, want) {
		t.Errorf("remove of the last user with a password: exit %d, %q, %q; want %q", code, out, errOut, want)
	}
	storedUser(t, data, "ann@example.com")
	if code, out, errOut := runVigil(t, "", "user", "remove", "--data", data, "--force", "ann@example.com"); code != exitOK || out != "removed user ann@example.com\n" {
		t.Errorf("remove --force: exit %d, %q, %q", code, out, errOut)
	}
	// A user without a password, and without sentinels once --with-sentinels.
	if code, out, errOut := runVigil(t, "", "user", "remove", "--data", data, "--with-sentinels", "cy@example.com"); code != exitOK || out != "removed user cy@example.com with 1 sentinel\n" {
		t.Errorf("remove cy: exit %d, %q, %q", code, out, errOut)
	}
	if _, out, _ := runVigil(t, "", "user", "list", "--data", data); strings.Count(out, "\n") != 1 {
		t.Errorf("users left:\n%s", out)
	}
}

// TestUserMissingStore: the user commands manage the accounts of an
// installation, and refuse a data directory without a store, leaving none
// there and saying which commands make one; user add made a new, empty
// store in a mistyped --data, with a user no daemon served.
func TestUserMissingStore(t *testing.T) {
	for _, args := range [][]string{
		{"user", "add", "ann@example.com"},
		{"user", "list"},
		{"user", "passwd", "bob@example.com"},
		{"user", "remove", "bob@example.com"},
		{"user", "admin", "--on", "bob@example.com"},
		{"user", "webhook-key", "bob@example.com"},
	} {
		data := filepath.Join(t.TempDir(), "vigil-dta")
		code, out, errOut := runVigil(t, "", append(args, "--data", data)...)
		want := "no store in " + data + ": it has no vigil.db (vigil serve makes one at its first start, as vigil sentinel add and vigil import warc do; give the --data of yours, or --postgres)"
		if code != exitError || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", args, code, out, errOut, want)
		}
		if _, err := os.Stat(data); !os.IsNotExist(err) {
			t.Errorf("%q: %s was made (%v)", args, data, err)
		}
	}
}

// newStoreDir returns a data directory with an empty SQLite store in it,
// as vigil serve's first start leaves it.
func newStoreDir(t *testing.T) string {
	t.Helper()
	data := filepath.Join(t.TempDir(), "data")
	st, err := openStore(context.Background(), data, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return data
}

// TestUserHelp: vigil user lists the commands of the group, and each
// command has its help.
func TestUserHelp(t *testing.T) {
	code, out, _ := runVigil(t, "", "user", "-h")
	for _, want := range []string{"user add", "user list", "user passwd", "user remove", "user admin", "user tz", "user webhook-key"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("vigil user -h: exit %d, no %q in\n%s", code, want, out)
		}
	}
	for _, c := range []string{"add", "list", "passwd", "remove", "webhook-key"} {
		code, out, _ := runVigil(t, "", "user", c, "-h")
		if code != exitOK || !strings.Contains(out, "Usage: vigil user "+c) || !strings.Contains(out, "-data") {
			t.Errorf("vigil user %s -h: exit %d\n%s", c, code, out)
		}
	}
}

// TestUserPostgres: the user commands work on a PostgreSQL store, as vigil
// serve --postgres uses it (a schema of its own on the test server).
func TestUserPostgres(t *testing.T) {
	base := os.Getenv("VIGIL_TEST_POSTGRES_DSN")
	if base == "" {
		t.Skip("VIGIL_TEST_POSTGRES_DSN not set")
	}
	dsn, _ := pgtest.Schema(t, base)
	made, err := postgres.Open(context.Background(), dsn) // the store, as a daemon's first start makes it
	if err != nil {
		t.Fatal(err)
	}
	made.Close()
	pg := func(stdin string, args ...string) (int, string, string) {
		t.Helper()
		return runVigil(t, stdin, append(append([]string{"user"}, args...), "--postgres", dsn)...)
	}
	for _, email := range []string{"ann@example.com", "bob@example.com"} {
		if code, out, errOut := pg("a long enough password\n", "add", "--password-stdin", email); code != exitOK {
			t.Fatalf("add %s: exit %d, %q, %q", email, code, out, errOut)
		}
	}
	if code, _, errOut := pg("", "add", "ANN@example.com"); code != exitError || !strings.Contains(errOut, "ann@example.com is already a user") {
		t.Errorf("duplicate: exit %d, %q", code, errOut)
	}
	if code, out, _ := pg("another long password\n", "passwd", "--password-stdin", "bob@example.com"); code != exitOK {
		t.Errorf("passwd: exit %d, %q", code, out)
	}
	if code, out, _ := pg("", "remove", "ann@example.com"); code != exitOK || out != "removed user ann@example.com\n" {
		t.Errorf("remove: exit %d, %q", code, out)
	}
	code, out, _ := pg("", "list")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != exitOK || len(lines) != 2 || !regexp.MustCompile(`^\d+ +bob@example\.com +bob +\S+ \S+ +yes +user +0$`).MatchString(lines[1]) {
		t.Errorf("list: exit %d\n%s", code, out)
	}
	if code, out, errOut := pg("", "admin", "bob@example.com", "--on"); code != exitOK || out != "bob@example.com is now an administrator\n" {
		t.Errorf("admin --on: exit %d, %q, %q", code, out, errOut)
	}
	if code, _, errOut := pg("", "admin", "bob@example.com", "--off"); code != exitError || !strings.Contains(errOut, "bob@example.com is the only administrator") {
		t.Errorf("admin --off of the only administrator: exit %d, %q", code, errOut)
	}
	if code, out, _ := pg("", "list", "--json"); code != exitOK || !strings.Contains(out, `"admin":true`) {
		t.Errorf("list --json after admin --on: exit %d\n%s", code, out)
	}
}

// racingStore is the store of vigil user remove while the daemon serves
// the user being removed: during runs, once, at the command's first call
// of the point named by at: "tokens", when it reads the user's API
// tokens, after it has checked their sentinels; "delete", when it
// deletes the user, after it has revoked their credentials.
type racingStore struct {
	vigil.Store
	at     string
	during func()
}

func (s *racingStore) meanwhile(at string) {
	if f := s.during; f != nil && at == s.at {
		s.during = nil
		f()
	}
}

func (s *racingStore) FindTokens(ctx context.Context, userID int64) ([]*vigil.Token, error) {
	s.meanwhile("tokens")
	return s.Store.FindTokens(ctx, userID)
}

func (s *racingStore) DeleteUser(ctx context.Context, id int64) error {
	s.meanwhile("delete")
	return s.Store.DeleteUser(ctx, id)
}

func (s *racingStore) DeleteUserWithoutSentinels(ctx context.Context, id int64) error {
	s.meanwhile("delete")
	return s.Store.DeleteUserWithoutSentinels(ctx, id)
}

// TestUserRemoveRace: a sentinel the user makes while vigil user remove
// runs (through the daemon, with a token not yet revoked) is not removed
// with the user unless --with-sentinels: the command checked the
// sentinels before it revoked the user's credentials, and deleting the
// user removed whatever they owned by then (the store cascades); made
// after the second check, as the command deleted the user, it was still
// removed with them. With --with-sentinels it is removed as the others
// are, and counted.
func TestUserRemoveRace(t *testing.T) {
	const kept = "bob@example.com made 1 sentinel while being removed: kept with them (they can no longer sign in, and their API tokens are revoked); give --with-sentinels to remove them with the user"
	for _, tc := range []struct {
		name          string
		at            string // where the sentinel is made (racingStore)
		withSentinels bool
		code          int
		out, err      string
		left          int // bob's sentinels left
	}{
		{name: "without --with-sentinels", at: "tokens", code: exitError, left: 1, err: kept},
		{name: "without --with-sentinels, as the user is deleted", at: "delete", code: exitError, left: 1, err: kept},
		{name: "with --with-sentinels", at: "tokens", withSentinels: true, code: exitOK, left: 0,
			out: "removed user bob@example.com with 2 sentinels and 1 API token\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := newStoreDir(t)
			for _, email := range []string{"ann@example.com", "bob@example.com"} {
				if code, _, errOut := runVigil(t, "a long enough password\n", "user", "add", "--data", data, "--password-stdin", email); code != exitOK {
					t.Fatal(errOut)
				}
			}
			if tc.withSentinels {
				addOwned(t, data, "bob@example.com", "Create Sentinel b1 Using https://a.example/ Fetch 1 day\n")
			}
			st := userStore(t, data)
			ctx := context.Background()
			bob := storedUser(t, data, "bob@example.com")
			if err := st.CreateToken(ctx, &vigil.Token{UserID: bob.ID, Name: "laptop", Hash: vigil.HashToken("vgl_bobs_token")}); err != nil {
				t.Fatal(err)
			}
			rs := &racingStore{Store: st, at: tc.at, during: func() {
				addOwned(t, data, "bob@example.com", "Create Sentinel meanwhile Using https://b.example/ Fetch 1 day\n")
			}}
			var stdout bytes.Buffer
			env := &environment{stdin: strings.NewReader(""), stdout: &stdout, stderr: io.Discard, getenv: func(string) string { return "" }}
			code, err := removeUser(ctx, env, rs, "bob@example.com", tc.withSentinels, false)
			if code != tc.code || stdout.String() != tc.out || (err == nil) != (tc.err == "") || err != nil && vigil.ErrorMessage(err) != tc.err {
				t.Errorf("exit %d, stdout %q, error %v; want exit %d, %q, %q", code, stdout.String(), err, tc.code, tc.out, tc.err)
			}
			if rs.during != nil {
				t.Fatalf("the command never reached %q", tc.at)
			}
			_, n, err := st.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: bob.ID})
			if err != nil {
				t.Fatal(err)
			}
			if n != tc.left {
				t.Errorf("bob owns %d sentinels, want %d", n, tc.left)
			}
			if toks, err := st.FindTokens(ctx, bob.ID); err != nil || len(toks) != 0 {
				t.Errorf("bob's tokens: %v, %v; want none", toks, err)
			}
			if _, err := st.FindUserByID(ctx, bob.ID); (err == nil) != (tc.code != exitOK) {
				t.Errorf("bob after the command: %v; want him kept only if refused", err)
			}
		})
	}
}

// TestUserAdmin: user add --admin makes an administrator, user admin
// grants and revokes the role, never of the only administrator, and
// user remove keeps the only administrator unless --force.
func TestUserAdmin(t *testing.T) {
	data := newStoreDir(t)
	code, out, errOut := runVigil(t, "a long enough password\n", "user", "add", "--data", data, "--password-stdin", "--admin", "ann@example.com")
	if code != exitOK || !strings.HasPrefix(out, "added user ann@example.com (id 1, administrator)\n") {
		t.Fatalf("add --admin: exit %d, %q, %q", code, out, errOut)
	}
	if code, _, errOut := runVigil(t, "a long enough password\n", "user", "add", "--data", data, "--password-stdin", "bob@example.com"); code != exitOK {
		t.Fatal(errOut)
	}
	role := func(email string) bool {
		t.Helper()
		return storedUser(t, data, email).Admin
	}
	if !role("ann@example.com") || role("bob@example.com") {
		t.Fatalf("after add: ann admin %v, bob admin %v", role("ann@example.com"), role("bob@example.com"))
	}
	annBefore := storedUser(t, data, "ann@example.com")
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		out, err string
		ann, bob bool // the roles after
	}{
		{"revoke the only admin", []string{"ann@example.com", "--off"}, exitError, "",
			"vigil user admin: ann@example.com is the only administrator: grant the role to another user first", true, false},
		{"remove the only admin", nil, exitError, "", "", true, false}, // below
		{"neither flag", []string{"bob@example.com"}, exitError, "", "vigil user admin: give --on or --off", true, false},
		{"both flags", []string{"bob@example.com", "--on", "--off"}, exitError, "", "vigil user admin: give --on or --off", true, false},
		{"unknown", []string{"cy@example.com", "--on"}, exitError, "", "vigil user admin: no user cy@example.com", true, false},
		{"grant", []string{"BOB@example.com", "--on"}, exitOK, "bob@example.com is now an administrator\n", "", true, true},
		{"grant again", []string{"bob@example.com", "--on"}, exitOK, "bob@example.com was already an administrator\n", "", true, true},
		{"revoke", []string{"ann@example.com", "--off"}, exitOK, "ann@example.com is no longer an administrator\n", "", false, true},
		{"revoke again", []string{"ann@example.com", "--off"}, exitOK, "ann@example.com was not an administrator\n", "", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var code int
			var out, errOut string
			if tc.args == nil {
				code, out, errOut = runVigil(t, "", "user", "remove", "--data", data, "ann@example.com")
				tc.err = "vigil user remove: ann@example.com is the only administrator: without them nobody manages the users in the dashboard"
			} else {
				code, out, errOut = runVigil(t, "", append([]string{"user", "admin", "--data", data}, tc.args...)...)
			}
			if code != tc.code || out != tc.out || !strings.Contains(errOut, tc.err) || (tc.err == "") != (errOut == "") {
				t.Errorf("exit %d, %q, %q; want exit %d, %q, %q", code, out, errOut, tc.code, tc.out, tc.err)
			}
			if role("ann@example.com") != tc.ann || role("bob@example.com") != tc.bob {
				t.Errorf("roles: ann %v, bob %v; want %v, %v", role("ann@example.com"), role("bob@example.com"), tc.ann, tc.bob)
			}
		})
	}
	// A change of role ends no session: the update time is kept.
	if ann := storedUser(t, data, "ann@example.com"); !ann.UpdatedAt.Equal(annBefore.UpdatedAt) || ann.PasswordHash != annBefore.PasswordHash {
		t.Errorf("ann's update time moved from %v to %v: her sessions ended", annBefore.UpdatedAt, ann.UpdatedAt)
	}
	// The only administrator is removed with --force (ann has a password too).
	if code, out, errOut := runVigil(t, "", "user", "remove", "--data", data, "--force", "bob@example.com"); code != exitOK || out != "removed user bob@example.com\n" {
		t.Errorf("remove --force: exit %d, %q, %q", code, out, errOut)
	}
}

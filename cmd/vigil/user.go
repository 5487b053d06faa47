package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/web"
)

// The user commands manage the accounts of the store vigil serve uses:
// who may sign in to the dashboard and the API, each seeing their own
// sentinels only.
func init() {
	register(&command{name: "user add", summary: "add a user who can sign in, with a password", run: runUserAdd})
	register(&command{name: "user list", summary: "list the users in the store", run: runUserList})
	register(&command{name: "user passwd", summary: "set or reset a user's password, signing out their sessions", run: runUserPasswd})
	register(&command{name: "user remove", summary: "remove a user, with their API tokens (and sentinels)", run: runUserRemove})
	register(&command{name: "user admin", summary: "grant or revoke a user's administrator role (--on or --off)", run: runUserAdmin})
	register(&command{name: "user tz", summary: "set the time zone a user's sentinel dates are read in", run: runUserTZ})
}

// passwordHelp is the part of the help of add and passwd about the
// password.
var passwordHelp = fmt.Sprintf("Without --password-stdin a strong password is generated and printed once\n"+
	"on standard output; with it, the first line of standard input is the\n"+
	"password (its line ending stripped; vigil never prints or logs it, but a\n"+
	"terminal shows what is typed: pipe it in), at least %d characters long.", minPasswordLength)

// knownEmail returns the email argument of a command on an existing user
// lower-cased, or an error if it is no address at all. It is not as strict
// as userEmail: vigil serve's VIGIL_ADMIN_EMAIL and sentinel add --owner
// take an address without a dot in its domain (ops@intranet), whose user
// must be found.
func knownEmail(arg string) (string, error) {
	u := &vigil.User{Email: strings.ToLower(strings.TrimSpace(arg))}
	if err := u.Validate(); err != nil {
		return "", err
	}
	return u.Email, nil
}

// findUser returns the user with the email, or an error that says there is
// none and how to make one.
func findUser(ctx context.Context, st vigil.Store, email string) (*vigil.User, error) {
	u, err := st.FindUserByEmail(ctx, email)
	if vigil.ErrorCode(err) == vigil.ENOTFOUND {
		return nil, vigil.Errorf(vigil.ENOTFOUND, "no user %s (vigil user add makes one)", email)
	}
	return u, err
}

// openUserStore opens the existing store that sf names
// (openExistingStore, or openStoreToWrite for a command that writes) and
// finds the user with email in it (findUser), for a user command on that
// user, with their errors as they are. On an error the store is closed
// and none returned: the caller defers closeStore once it has the store.
func openUserStore(ctx context.Context, sf storeFlags, email string, write bool) (vigil.Store, *vigil.User, error) {
	open := openExistingStore
	if write {
		open = openStoreToWrite
	}
	st, err := open(ctx, *sf.data, *sf.postgres)
	if err != nil {
		return nil, nil, err
	}
	u, err := findUser(ctx, st, email)
	if err != nil {
		if cerr := st.Close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
		return nil, nil, err
	}
	return st, u, nil
}

func runUserAdd(ctx context.Context, env *environment, args []string) (code int, err error) {
	fs := newSentinelFlagSet(env, "user add", "EMAIL", "Add adds a user who can sign in to the dashboard and the API with EMAIL\n"+
		"(lower-cased) and a password, and see and change their own sentinels only;\n"+
		"with --admin, they also manage the users on the dashboard's Users page.\n"+
		passwordHelp)
	sf := addStoreFlags(fs, env)
	name := fs.String("name", "", "the user's name (default: the part of EMAIL before the @)")
	stdin := fs.Bool("password-stdin", false, "read the password from the first line of standard input")
	admin := fs.Bool("admin", false, "make the user an administrator, who manages the users in the dashboard")
	zone := fs.String("tz", "", userTZUsage)
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if err := wantArgs(fs, 1); err != nil {
		return exitError, err
	}
	u, err := web.NewUser(fs.Arg(0), *name, *admin)
	if err != nil {
		return exitError, err
	}
	if u.TimeZone, err = userZone(*zone); err != nil {
		return exitError, err
	}
	email := u.Email
	password, hash, generated, err := newPassword(env, *stdin)
	if err != nil {
		return exitError, err
	}
	u.PasswordHash = hash
	st, err := openStoreToWrite(ctx, *sf.data, *sf.postgres)
	if err != nil {
		return exitError, err
	}
	defer closeStore(st, &code, &err)
	if err := st.CreateUser(ctx, u); vigil.ErrorCode(err) == vigil.ECONFLICT {
		return exitError, vigil.Errorf(vigil.ECONFLICT, "%s is already a user (vigil user passwd sets their password)", email)
	} else if err != nil {
		return exitError, fmt.Errorf("add user %s: %w", email, err)
	}
	role := ""
	if u.Admin {
		role = ", administrator"
	}
	fmt.Fprintf(env.stdout, "added user %s (id %d%s)\n", u.Email, u.ID, role)
	if generated {
		showPassword(env.stdout, password)
	}
	return exitOK, nil
}

func runUserList(ctx context.Context, env *environment, args []string) (code int, err error) {
	fs := newSentinelFlagSet(env, "user list", "", "List prints the users in the store, one a line: whether each has a password\n"+
		"(a user made by vigil sentinel add --owner has none, and cannot sign in\n"+
		"until vigil user passwd gives them one), their role (admin, who manages\n"+
		"the users, or user) and how many sentinels they own.")
	sf := addStoreFlags(fs, env)
	asJSON := fs.Bool("json", false, "print each user as a line of JSON")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if err := wantArgs(fs, 0); err != nil {
		return exitError, err
	}
	st, err := openExistingStore(ctx, *sf.data, *sf.postgres)
	if err != nil {
		return exitError, err
	}
	defer closeStore(st, &code, &err)
	users, err := web.ListUsers(ctx, st)
	if err != nil {
		return exitError, err
	}
	enc := json.NewEncoder(env.stdout)
	tw := tabwriter.NewWriter(env.stdout, 0, 8, 2, ' ', 0)
	if !*asJSON {
		fmt.Fprintln(tw, "ID\tEMAIL\tNAME\tCREATED (UTC)\tPASSWORD\tROLE\tSENTINELS")
	}
	for _, l := range users {
		if *asJSON {
			if err := enc.Encode(l); err != nil {
				return exitError, err
			}
			continue
		}
		password := "no"
		if l.Password {
			password = "yes"
		}
		role := "user"
		if l.Admin {
			role = "admin"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%d\n", l.ID, l.Email, l.Name, fmtTime(l.CreatedAt), password, role, l.Sentinels)
	}
	return exitOK, tw.Flush()
}

func runUserPasswd(ctx context.Context, env *environment, args []string) (code int, err error) {
	fs := newSentinelFlagSet(env, "user passwd", "EMAIL", "Passwd sets the password of the user with EMAIL, or resets it: a user made\n"+
		"by vigil sentinel add --owner can then sign in. Every session of the user\n"+
		"ends (a signed-in browser must sign in again); their API tokens stay\n"+
		"unless --revoke-tokens.\n"+passwordHelp)
	sf := addStoreFlags(fs, env)
	stdin := fs.Bool("password-stdin", false, "read the password from the first line of standard input")
	revoke := fs.Bool("revoke-tokens", false, "delete the user's API tokens too")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if err := wantArgs(fs, 1); err != nil {
		return exitError, err
	}
	email, err := knownEmail(fs.Arg(0))
	if err != nil {
		return exitError, err
	}
	password, hash, generated, err := newPassword(env, *stdin)
	if err != nil {
		return exitError, err
	}
	st, u, err := openUserStore(ctx, sf, email, true)
	if err != nil {
		return exitError, err
	}
	defer closeStore(st, &code, &err)
	// A new hash, and a new update time: the session cookies, signed
	// with both (internal/web sessionMAC), are refused from now on. Only
	// the password is written: a rename made since u was read is kept.
	if err := st.SetUserPassword(ctx, u.ID, hash); err != nil {
		return exitError, fmt.Errorf("set the password of %s: %w", email, err)
	}
	u.PasswordHash = hash
	revoked := ""
	if *revoke {
		n, err := web.DeleteTokens(ctx, st, u)
		if err != nil {
			return exitError, err
		}
		revoked = " and their " + count(n, "API token") + " revoked"
		if n == 0 {
			revoked = " (they had no API token to revoke)"
		}
	}
	fmt.Fprintf(env.stdout, "password of %s set; their sessions are signed out%s\n", email, revoked)
	if generated {
		showPassword(env.stdout, password)
	}
	return exitOK, nil
}

func runUserRemove(ctx context.Context, env *environment, args []string) (code int, err error) {
	fs := newSentinelFlagSet(env, "user remove", "EMAIL", "Remove removes the user with EMAIL with their API tokens and their sessions.\n"+
		"A user who owns sentinels is kept unless --with-sentinels, which removes\n"+
		"their sentinels too, with their changes (their messages not yet sent are\n"+
		"given up, as vigil sentinel rm does), and then their notifications.\n"+
		"A sentinel they make while it runs (the daemon serving them) is kept,\n"+
		"and the user with it, signed out, unless --with-sentinels.\n"+
		"The only user with a password is kept unless --force: without them\n"+
		"nobody can sign in; so is the only administrator: without them nobody\n"+
		"manages the users in the dashboard. (With --force, the next start of\n"+
		"vigil serve makes the admin account an administrator again if none is\n"+
		"left with a password.)")
	sf := addStoreFlags(fs, env)
	withSentinels := fs.Bool("with-sentinels", false, "remove the user's sentinels too")
	force := fs.Bool("force", false, "remove the user even if no other user has a password or is an administrator")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if err := wantArgs(fs, 1); err != nil {
		return exitError, err
	}
	email, err := knownEmail(fs.Arg(0))
	if err != nil {
		return exitError, err
	}
	st, err := openStoreToWrite(ctx, *sf.data, *sf.postgres)
	if err != nil {
		return exitError, err
	}
	defer closeStore(st, &code, &err)
	return removeUser(ctx, env, st, email, *withSentinels, *force)
}

// removeUser removes the user with email from st, as vigil user remove
// does (withSentinels and force are its flags), beside a daemon that may
// serve the user meanwhile: by the rules of web.RemoveUser, which the
// dashboard's Users page follows too, refusals said in the command's words.
func removeUser(ctx context.Context, env *environment, st vigil.Store, email string, withSentinels, force bool) (int, error) {
	u, err := findUser(ctx, st, email)
	if err != nil {
		return exitError, err
	}
	done, err := web.RemoveUser(ctx, st, u, withSentinels, force)
	var refused *web.RemoveRefusal
	if errors.As(err, &refused) {
		return exitError, refusal(refused)
	} else if err != nil {
		return exitError, err
	}
	fmt.Fprintf(env.stdout, "removed user %s", email)
	if with := done.With(); with != "" {
		fmt.Fprintf(env.stdout, " with %s", with)
	}
	fmt.Fprintln(env.stdout)
	return exitOK, nil
}

// refusal says why vigil user remove refused, and how to go on with its
// flags.
func refusal(r *web.RemoveRefusal) error {
	switch r.Reason {
	case web.RefusedOwnsSentinels:
		them := "them"
		if r.Sentinels == 1 {
			them = "it"
		}
		return vigil.Errorf(vigil.ECONFLICT, "%s owns %s: remove %s first (vigil sentinel rm), or give --with-sentinels to remove %[3]s with the user",
			r.Email, count(r.Sentinels, "sentinel"), them)
	case web.RefusedMadeMeanwhile:
		return vigil.Errorf(vigil.ECONFLICT, "%s made %s while being removed: kept with them (they can no longer sign in, and their API tokens are revoked); give --with-sentinels to remove them with the user",
			r.Email, count(r.Sentinels, "sentinel"))
	case web.RefusedLastPassword:
		return vigil.Errorf(vigil.ECONFLICT, "%s is the only user with a password: without them nobody can sign in; give --force to remove them anyway", r.Email)
	case web.RefusedLastAdmin:
		return vigil.Errorf(vigil.ECONFLICT, "%s is the only administrator: without them nobody manages the users in the dashboard; make another one first (vigil user admin EMAIL --on), or give --force to remove them anyway", r.Email)
	}
	return r
}

func runUserAdmin(ctx context.Context, env *environment, args []string) (code int, err error) {
	fs := newSentinelFlagSet(env, "user admin", "EMAIL", "Admin grants (--on) or revokes (--off) the administrator role of the user\n"+
		"with EMAIL: an administrator manages the users on the dashboard's Users\n"+
		"page. The only administrator keeps the role: grant it to another user\n"+
		"first. The user's sessions go on.")
	sf := addStoreFlags(fs, env)
	on := fs.Bool("on", false, "grant the role")
	off := fs.Bool("off", false, "revoke the role")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if err := wantArgs(fs, 1); err != nil {
		return exitError, err
	}
	if *on == *off {
		return exitError, vigil.Errorf(vigil.EINVALID, "give --on or --off")
	}
	email, err := knownEmail(fs.Arg(0))
	if err != nil {
		return exitError, err
	}
	st, u, err := openUserStore(ctx, sf, email, true)
	if err != nil {
		return exitError, err
	}
	defer closeStore(st, &code, &err)
	was := u.Admin
	if err := web.SetAdmin(ctx, st, u, *on); err != nil {
		return exitError, err
	}
	switch {
	case was == *on && *on:
		fmt.Fprintf(env.stdout, "%s was already an administrator\n", email)
	case was == *on:
		fmt.Fprintf(env.stdout, "%s was not an administrator\n", email)
	case *on:
		fmt.Fprintf(env.stdout, "%s is now an administrator\n", email)
	default:
		fmt.Fprintf(env.stdout, "%s is no longer an administrator\n", email)
	}
	return exitOK, nil
}

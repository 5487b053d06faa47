package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/monitor"
	"github.com/vigil-web/vigil/internal/notify/chat"
	"github.com/vigil-web/vigil/internal/web"
	"github.com/vigil-web/vigil/spec"
)

// The sentinel commands that work on the store: add, list, rm.
func init() {
	register(&command{name: "sentinel add", summary: "check sentinel files and add their sentinels to the store", run: runSentinelAdd})
	register(&command{name: "sentinel list", summary: "list the sentinels in the store", run: runSentinelList})
	register(&command{name: "sentinel rm", summary: "remove sentinels (by id or name) from the store", run: runSentinelRm})
}

// defaultOwner is the user who owns sentinels added from the command line
// when --owner is not given.
const defaultOwner = "admin@localhost"

func ownerFlag(fs *flag.FlagSet, env *environment) *string {
	return statedString(fs, "owner", ownerDefault(env), "the owner's `email` address (default $VIGIL_OWNER or "+defaultOwner+"); created if new")
}

// ownerDefault is the owner of the command line's sentinels when --owner
// is not given: $VIGIL_OWNER, else defaultOwner.
func ownerDefault(env *environment) string {
	if o := env.getenv("VIGIL_OWNER"); o != "" {
		return o
	}
	return defaultOwner
}

// ensureOwner returns the user with the email, creating it.
func ensureOwner(ctx context.Context, st vigil.Store, email string) (*vigil.User, error) {
	u, err := findOwner(ctx, st, email)
	if vigil.ErrorCode(err) == vigil.ENOTFOUND {
		u = newOwner(email)
		err = st.CreateUser(ctx, u)
	}
	return u, err
}

// findOwner returns the user with the email (ENOTFOUND if none).
func findOwner(ctx context.Context, st vigil.Store, email string) (*vigil.User, error) {
	return st.FindUserByEmail(ctx, strings.ToLower(strings.TrimSpace(email)))
}

// newOwner returns the user ensureOwner creates for the email, named
// after its local part.
func newOwner(email string) *vigil.User {
	email = strings.ToLower(strings.TrimSpace(email))
	name, _, _ := strings.Cut(email, "@")
	return &vigil.User{Email: email, Name: name}
}

// storedChecker returns a checker for the owner's sentinels, knowing those
// in the store (with their run-time status and the zone each was checked
// in, deployment for one saved before sentinels kept theirs), as
// spec.Checker.Lookup wants.
func storedChecker(ctx context.Context, st vigil.Store, owner *vigil.User, now time.Time, deployment *time.Location) (*spec.Checker, error) {
	all, _, err := st.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: owner.ID})
	if err != nil {
		return nil, err
	}
	states := map[int64]json.RawMessage{}
	if cs, ok := st.(vigil.CheckStore); ok && len(all) > 0 {
		ids := make([]int64, len(all))
		for i, s := range all {
			ids[i] = s.ID
		}
		if states, err = cs.SentinelStates(ctx, ids); err != nil {
			return nil, err
		}
	}
	known := map[string]*spec.Stored{}
	for _, s := range all {
		c, err := readChecked(s)
		if err != nil {
			// Its name stays taken, and a sentinel that uses it is told
			// why it cannot.
			known[strings.ToLower(s.Name)] = &spec.Stored{Unreadable: err}
			continue
		}
		status := monitor.Lifespan(states[s.ID])
		loc := deployment
		if s.TimeZone != "" {
			if loc, err = vigil.LoadTimeZone(s.TimeZone); err != nil {
				loc = nil // not known: an edit keeps its dates as they were read
			}
		}
		known[strings.ToLower(s.Name)] = &spec.Stored{Checked: c, Started: status.Started, Ended: status.Ended, Location: loc}
	}
	return newChecker(now, owner.Email, known), nil
}

// readChecked returns the checked form of a stored sentinel, or why it
// cannot be read.
func readChecked(s *vigil.Sentinel) (*spec.Checked, error) {
	var c spec.Checked
	if err := json.Unmarshal(s.Spec, &c); err != nil {
		return nil, err
	}
	if c.Sentinel == nil {
		return nil, errors.New("no sentinel in its stored form")
	}
	return &c, nil
}

// ownerChecker returns the checker of sentinel add and sentinel check
// for the sentinels of owner (an email address), created at now: one
// that knows the owner's sentinels in st, with their run-time status
// (storedChecker), or none where st is nil or has no such owner.
func ownerChecker(ctx context.Context, st vigil.Store, owner string, now time.Time, deployment *time.Location) (*spec.Checker, error) {
	if st != nil {
		u, err := findOwner(ctx, st, owner)
		if err == nil {
			return storedChecker(ctx, st, u, now, deployment)
		}
		if vigil.ErrorCode(err) != vigil.ENOTFOUND {
			return nil, fmt.Errorf("owner %s: %w", owner, err)
		}
	}
	return newChecker(now, newOwner(owner).Email, nil), nil
}

// fileChecker returns the checker that vigil sentinel add and vigil
// sentinel check read owner's sentinel files with, alike: its Location
// the zone the dates are read in (tz.ownerLocation: --tz, else the
// owner's own, else $VIGIL_TZ or UTC), the owner's stored sentinels that
// keep no zone taken as read in the deployment's (tz.location), as vigil
// serve takes them. Its Now is the caller's to set.
func fileChecker(ctx context.Context, st vigil.Store, tz *tzFlag, owner string) (*spec.Checker, error) {
	deployment, err := tz.location()
	if err != nil {
		return nil, err
	}
	loc, err := tz.ownerLocation(ctx, st, owner)
	if err != nil {
		return nil, err
	}
	c, err := ownerChecker(ctx, st, owner, time.Time{}, deployment)
	if err != nil {
		return nil, err
	}
	c.Location = loc
	return c, nil
}

// newChecker returns a checker for the sentinels of owner (an email
// address) that knows the stored ones, by lower-case name (none: nil).
func newChecker(now time.Time, owner string, known map[string]*spec.Stored) *spec.Checker {
	return &spec.Checker{Now: now, Owner: owner, Lookup: func(name string) *spec.Stored { return known[strings.ToLower(name)] },
		CompileSelector: intent.CheckSelector, CheckChat: chat.Check}
}

func runSentinelList(ctx context.Context, env *environment, args []string) (code int, err error) {
	fs := newSentinelFlagSet(env, "sentinel list", "", "List prints the sentinels in the store, one a line. TARGET is what a sentinel\n"+
		"watches: page (a page, or pages combined with AND and OR) or site (a whole\n"+
		"site, crawled at each check); URL lists the pages, or the site's start page.\n"+
		"With --json, each line is the stored sentinel with \"target\" (page or site)\n"+
		"and, for one whose stored form cannot be read (so it is not checked), why\n"+
		"(\"unreadable\"; below the table without --json).\n"+
		"Below the table, or as \"scopeNotes\" in JSON: what a sentinel's scopes (a\n"+
		"table or list by id, In css or xpath) were found to select nothing of on its\n"+
		"pages at its last checks, where it can find no change; and, when the last\n"+
		"fetch of one of its pages failed, why and since when its fetches fail so\n"+
		"(the first failed check of the run), as the dashboard shows it (as\n"+
		"\"lastFetchError\" and \"failingSince\" in JSON).")
	sf := addStoreFlags(fs, env)
	asJSON := fs.Bool("json", false, "print each sentinel as a line of JSON")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	st, err := openExistingStore(ctx, *sf.data, *sf.postgres)
	if err != nil {
		return exitError, err
	}
	defer closeStore(st, &code, &err)
	all, _, err := st.FindSentinels(ctx, vigil.SentinelFilter{})
	if err != nil {
		return exitError, err
	}
	states, err := sentinelStates(ctx, st, all)
	if err != nil {
		return exitError, err
	}
	failed, err := lastFetchErrors(ctx, st, all, states, env.stderr)
	if err != nil {
		return exitError, err
	}
	if *asJSON {
		enc := json.NewEncoder(env.stdout)
		for i, s := range all {
			c, rerr := readChecked(s)
			l := listedSentinel{Sentinel: s, Target: targetKind(c), ScopeNotes: states[s.ID].ScopeNotes}
			if rerr != nil {
				l.Unreadable = rerr.Error()
			}
			if f := failed[i]; f != nil {
				l.LastFetchError, l.FailingSince = f.Message, f.Since
			}
			if err := enc.Encode(l); err != nil {
				return exitError, err
			}
		}
		return exitOK, nil
	}
	owners := map[int64]string{}
	tw := tabwriter.NewWriter(env.stdout, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tOWNER\tNAME\tTARGET\tSTATUS\tLAST CHECK (UTC)\tNEXT CHECK (UTC)\tURL")
	var unreadable []string
	for _, s := range all {
		// The pages of one whose stored form cannot be read are listed
		// all the same, and why it cannot be, below the table.
		url := ""
		urls, err := spec.CheckedURLs(s.Spec)
		c, rerr := readChecked(s)
		if rerr != nil {
			unreadable = append(unreadable, s.Name+": its stored form cannot be read, so it is not checked: "+rerr.Error())
		}
		if err == nil && len(urls) > 0 {
			url = strings.Join(urls, " ")
		}
		target := targetKind(c)
		owner, ok := owners[s.OwnerID]
		if !ok {
			owner = strconv.FormatInt(s.OwnerID, 10)
			if u, err := st.FindUserByID(ctx, s.OwnerID); err == nil {
				owner = u.Email
			}
			owners[s.OwnerID] = owner
		}
		status, next := string(s.Status), fmtTime(s.NextCheck)
		if s.Status == vigil.SentinelPaused {
			// Not due: the stored date is kept for its resume only.
			next = "-"
		}
		// The lifespan's phase: an ended sentinel is listed as ended, not
		// as active with a next check decades away.
		if p := states[s.ID].Lifespan; s.Status == vigil.SentinelActive && (p == "ended" || p == "pending") {
			status = p
			if p == "ended" {
				next = "-"
			}
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.ID, owner, s.Name, target, status, fmtTime(s.LastCheck), next, url)
	}
	if err := tw.Flush(); err != nil {
		return exitError, err
	}
	// Why a sentinel's stored form cannot be read, what its scopes
	// select nothing of, and why the last fetch of one of its pages
	// failed, where it finds no change: below the table, one a line.
	notes := unreadable
	for i, s := range all {
		for _, n := range states[s.ID].ScopeNotes {
			notes = append(notes, s.Name+": "+n)
		}
		if f := failed[i]; f != nil {
			notes = append(notes, s.Name+": failing since "+fmtTime(f.Since)+" UTC: "+f.Message)
		}
	}
	if len(notes) > 0 {
		fmt.Fprintf(env.stdout, "\n%s\n", strings.Join(notes, "\n"))
	}
	return exitOK, nil
}

// lastFetchErrors returns the failure of the last fetch of each sentinel
// of all (web.LastFetchError), nil for one with none, failing since when
// its state of states says (web.SentinelState.FailingSince), or the failure
// of its last check that no version records (CheckErrors). A read that fails
// for a page of one is said on stderr, a line naming the sentinel, and
// the listing goes on, as the dashboard shows the others: one unreadable
// page does not fail the command. Once ctx is done (an interrupt) it
// stops and returns ctx's error, said nowhere: no sentinel's read failed.
func lastFetchErrors(ctx context.Context, st vigil.Store, all []*vigil.Sentinel, states map[int64]web.SentinelState, stderr io.Writer) ([]*web.FetchError, error) {
	failed := make([]*web.FetchError, len(all))
	for i, s := range all {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var err error
		if failed[i], err = web.LastFetchError(ctx, st, s, states[s.ID]); err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return nil, cerr
			}
			// One line: the failed reads of its pages (joined), each
			// as the runner says an error.
			errs := []error{err}
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				errs = j.Unwrap()
			}
			texts := make([]string, len(errs))
			for k, e := range errs {
				texts[k] = errorText(e)
			}
			fmt.Fprintf(stderr, "vigil sentinel list: sentinel %s: %s\n", s.Name, strings.Join(texts, "; "))
		}
	}
	return failed, nil
}

// listedSentinel is a line of sentinel list --json: the stored sentinel and
// what it watches.
type listedSentinel struct {
	*vigil.Sentinel
	Target string `json:"target"` // "page" or "site", as targetKind says
	// ScopeNotes say what its scopes select nothing of (monitor.ScopeNotes).
	ScopeNotes []string `json:"scopeNotes,omitempty"`
	// Unreadable says why its stored form cannot be read (readChecked),
	// so that it is not checked; absent when it reads.
	Unreadable string `json:"unreadable,omitempty"`
	// LastFetchError is why the last fetch of one of its pages failed,
	// FailingSince since when its fetches fail so (web.LastFetchError);
	// absent if none did.
	LastFetchError string    `json:"lastFetchError,omitempty"`
	FailingSince   time.Time `json:"failingSince,omitzero"`
}

// targetKind returns "site" for a sentinel whose checked form (c, from
// readChecked) watches a whole site, "page" for one that watches a page or
// pages combined, and "-" when the form cannot be read (c is nil).
func targetKind(c *spec.Checked) string {
	if c == nil {
		return "-"
	}
	if c.Site != nil {
		return "site"
	}
	return "page"
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

func runSentinelRm(ctx context.Context, env *environment, args []string) (code int, err error) {
	fs := newSentinelFlagSet(env, "sentinel rm", "ID|NAME...", "Rm removes sentinels, with their changes, by id or by the owner's name for\n"+
		"them. A sentinel other sentinels use (Using it, or From or To its start or\n"+
		"end) is kept: edit or remove those first, or name them too (those named\n"+
		"are removed users first).")
	sf := addStoreFlags(fs, env)
	owner := statedString(fs, "owner", ownerDefault(env), "the `owner` whose sentinels NAME names (default $VIGIL_OWNER or "+defaultOwner+")")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitError, errUsageShown
	}
	st, err := openStoreToWrite(ctx, *sf.data, *sf.postgres)
	if err != nil {
		return exitError, err
	}
	defer closeStore(st, &code, &err)
	all, ownerID, err := sentinelsAndOwner(ctx, st, *owner)
	if err != nil {
		return exitError, err
	}
	// The sentinels named are removed in an order that leaves none of
	// them used by another: "rm a b", where b uses a, removes b and then
	// a. A sentinel is kept only when one that stays uses it (not named,
	// or not removed). The problems are told in the order of the
	// arguments.
	type removal struct {
		arg string
		s   *vigil.Sentinel
	}
	problems := make([]string, len(fs.Args()))
	pending := map[int]removal{}
	for i, arg := range fs.Args() {
		found, missing := findSentinel(ctx, st, all, ownerID, *owner, arg)
		if found == nil {
			problems[i] = missing
			continue
		}
		pending[i] = removal{arg, found}
	}
	removed := map[int64]bool{}
	for progress := true; progress; {
		progress = false
		for i := range fs.Args() {
			r, ok := pending[i]
			if !ok {
				continue
			}
			if removed[r.s.ID] {
				// Named twice ("rm a 1"): removed once.
				delete(pending, i)
				continue
			}
			if len(sentinelUsers(r.s, all)) > 0 {
				continue
			}
			delete(pending, i)
			if err := st.DeleteSentinel(ctx, r.s.ID); err != nil {
				problems[i] = fmt.Sprintf("%s: %v", r.arg, vigil.ErrorMessage(err))
				continue
			}
			fmt.Fprintf(env.stdout, "removed sentinel %d\n", r.s.ID)
			removed[r.s.ID] = true
			all = slices.DeleteFunc(all, func(s *vigil.Sentinel) bool { return s.ID == r.s.ID })
			progress = true
		}
	}
	for i, r := range pending {
		users := sentinelUsers(r.s, all)
		them := "them"
		if len(users) == 1 {
			them = "it"
		}
		problems[i] = fmt.Sprintf("%s: used by %s; edit or remove %s first", r.arg, strings.Join(users, ", "), them)
	}
	code = exitOK
	for _, p := range problems {
		if p != "" {
			fmt.Fprintf(env.stderr, "vigil sentinel rm: %s\n", p)
			code = exitChanged
		}
	}
	return code, nil
}

// sentinelUsers names the sentinels of all, of s's owner, that use s
// (Using it, or From or To its start or end).
func sentinelUsers(s *vigil.Sentinel, all []*vigil.Sentinel) []string {
	var specs [][]byte
	for _, o := range all {
		if o.OwnerID == s.OwnerID {
			specs = append(specs, o.Spec)
		}
	}
	return spec.UsedBy(s.Name, specs)
}

// sentinelsAndOwner returns every sentinel of the store and the id of the
// user with email owner (ownerIDOf), for the commands that name sentinels
// by id or by their owner's name for them (findSentinel).
func sentinelsAndOwner(ctx context.Context, st vigil.Store, owner string) ([]*vigil.Sentinel, int64, error) {
	all, _, err := st.FindSentinels(ctx, vigil.SentinelFilter{})
	if err != nil {
		return nil, 0, err
	}
	id, err := ownerIDOf(ctx, st, owner)
	return all, id, err
}

// ownerIDOf returns the id of the user with email owner, or -1 when there
// is none (then no sentinel is theirs).
func ownerIDOf(ctx context.Context, st vigil.Store, owner string) (int64, error) {
	u, err := st.FindUserByEmail(ctx, strings.ToLower(strings.TrimSpace(owner)))
	switch {
	case err == nil:
		return u.ID, nil
	case vigil.ErrorCode(err) == vigil.ENOTFOUND:
		return -1, nil
	}
	return 0, err
}

// findSentinel returns the sentinel arg names among all: by id, or by the
// name its owner (ownerID, whose email is owner) gave it; or nil and a
// message saying none is, and whose of that name there are. A name that
// several of the owner's sentinels have (a store written before the store
// refused a second, vigil.SentinelNameUsed) names none: the message lists
// their ids, by which each can be named. A name typed decomposed (NFD,
// as macOS keyboards write é) names the sentinel whose name it is
// composed, as the language keeps names (spec.CanonicalName). A number
// too large for an id is one still, not a name (a name begins with a
// letter or _): the message says it is out of range.
func findSentinel(ctx context.Context, st vigil.Store, all []*vigil.Sentinel, ownerID int64, owner, arg string) (*vigil.Sentinel, string) {
	id, err := strconv.ParseInt(arg, 10, 64)
	if err == nil {
		for _, s := range all {
			if s.ID == id {
				return s, ""
			}
		}
		return nil, fmt.Sprintf("no sentinel %d", id)
	}
	if errors.Is(err, strconv.ErrRange) {
		return nil, fmt.Sprintf("sentinel id %s is out of range: ids are 1 to %d", arg, int64(math.MaxInt64))
	}
	arg = spec.CanonicalName(arg)
	var named []*vigil.Sentinel
	for _, s := range all {
		if s.OwnerID == ownerID && vigil.SameSentinelName(s.Name, arg) {
			named = append(named, s)
		}
	}
	switch len(named) {
	case 0:
		return nil, fmt.Sprintf("%s has no sentinel %s%s", owner, arg, namedByOthers(ctx, st, all, arg))
	case 1:
		return named[0], ""
	}
	ids := make([]string, len(named))
	for i, s := range named {
		ids[i] = strconv.FormatInt(s.ID, 10)
	}
	return nil, fmt.Sprintf("%s has %d sentinels named %s (ids %s): name one by its id", owner, len(named), arg, strings.Join(ids, ", "))
}

// namedByOthers says which other owners have a sentinel named name, and
// how to remove it ("; ann@example.test has one: give its id, 2, or
// --owner ann@example.test"), or is empty.
func namedByOthers(ctx context.Context, st vigil.Store, all []*vigil.Sentinel, name string) string {
	var ids []int64
	var owners []string
	for _, s := range all {
		if !vigil.SameSentinelName(s.Name, name) {
			continue
		}
		owner := fmt.Sprintf("user %d", s.OwnerID)
		if u, err := st.FindUserByID(ctx, s.OwnerID); err == nil {
			owner = u.Email
		}
		ids, owners = append(ids, s.ID), append(owners, owner)
	}
	switch len(ids) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("; %s has one: give its id, %d, or --owner %s", owners[0], ids[0], owners[0])
	}
	each := make([]string, len(ids))
	for i := range ids {
		each[i] = fmt.Sprintf("%d of %s", ids[i], owners[i])
	}
	return "; other owners have one (" + strings.Join(each, ", ") + "): give its id, or --owner"
}

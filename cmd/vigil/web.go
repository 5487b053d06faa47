package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/monitor"
	"github.com/vigil-web/vigil/internal/notify/feed"
	"github.com/vigil-web/vigil/internal/web"
	"github.com/vigil-web/vigil/spec"
)

// The REST API, metrics and dashboard of internal/web, mounted on the mux
// of vigil serve. Their configuration comes from the environment:
//
//	VIGIL_ADMIN_EMAIL     the admin account (default admin@localhost), made an administrator on the first
//	                      start, and at a start that finds no administrator with a password only
//	VIGIL_ADMIN_PASSWORD  its password; without it a password is generated and shown once (on a terminal;
//	                      otherwise in the data directory's admin-password file, mode 0600, which a
//	                      start removes, and logs so, once its password no longer signs its account in)
//	VIGIL_METRICS_PUBLIC  "true": /metrics needs no session or token
//	VIGIL_SECURE_COOKIES  "true": cookies get Secure even on plain HTTP (behind a TLS proxy);
//	                      on by default when VIGIL_BASE_URL is https
func init() {
	mountHTTP(mountWeb)
}

// adminPasswordFile is where a generated admin password is kept when it
// cannot be shown on a terminal.
const adminPasswordFile = "admin-password"

// writeAdminPassword writes the admin's email and generated password to a
// file of the data directory that only this user can read, and returns its
// path.
func writeAdminPassword(dataDir, email, password string) (string, error) {
	path := filepath.Join(dataDir, adminPasswordFile)
	if err := os.WriteFile(path, []byte(email+"\n"+password+"\n"), 0o600); err != nil {
		return "", err
	}
	return path, os.Chmod(path, 0o600) // in case the file was there with wider rights
}

// removeStaleAdminPassword removes the data directory's admin password
// file when the password it holds no longer signs its account in: stale,
// given the email and password the file holds, says why ("" when it
// still does). It returns the file's path and stale's reason when it
// removed it, "" for both when it did not. Only a regular file of an
// email line and a password line, as writeAdminPassword writes, is read
// and removed: a symbolic link is not followed, and a FIFO or a device,
// which could block the start or fill the memory, is not read.
func removeStaleAdminPassword(dataDir string, stale func(email, password string) (string, error)) (path, reason string, err error) {
	path = filepath.Join(dataDir, adminPasswordFile)
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", nil
	} else if err != nil {
		return "", "", err
	}
	if !fi.Mode().IsRegular() {
		return "", "", nil // not the file a first start writes
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	if opened, err := f.Stat(); err != nil {
		return "", "", err
	} else if !os.SameFile(fi, opened) {
		return "", "", nil // replaced meanwhile
	}
	// The email, its newline and the password: a file longer is not ours.
	b, err := io.ReadAll(io.LimitReader(f, 4097))
	if err != nil {
		return "", "", err
	}
	email, password, ok := strings.Cut(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(b) > 4096 || !ok || email == "" || password == "" || strings.Contains(password, "\n") {
		return "", "", nil // not the file a first start writes
	}
	if reason, err = stale(email, password); err != nil || reason == "" {
		return "", "", err
	}
	if err := os.Remove(path); err != nil {
		return "", "", err
	}
	return path, reason, nil
}

// adminPasswordStale returns the stale function of
// removeStaleAdminPassword that reads the accounts of st: the password of
// an admin password file is stale when its account was removed, has no
// password, or has another.
func adminPasswordStale(ctx context.Context, st vigil.UserStore) func(email, password string) (string, error) {
	return func(email, password string) (string, error) {
		u, err := st.FindUserByEmail(ctx, email)
		if vigil.ErrorCode(err) == vigil.ENOTFOUND {
			return "no user " + email, nil
		} else if err != nil {
			return "", fmt.Errorf("find the user of the admin password file: %w", err)
		}
		if !web.CheckPassword(u.PasswordHash, password) {
			return "its password no longer signs " + email + " in", nil
		}
		return "", nil
	}
}

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func mountWeb(mux *http.ServeMux, d *daemon) {
	email := os.Getenv("VIGIL_ADMIN_EMAIL")
	if email == "" {
		email = defaultOwner
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	password := os.Getenv("VIGIL_ADMIN_PASSWORD")
	generated, err := web.EnsureAdmin(ctx, d.store, email, password)
	if vigil.ErrorCode(err) == vigil.ENOTFOUND {
		// Removed by an administrator, who can still sign in: it is not
		// made again behind their back.
		d.logger.Info("admin account not made", "reason", vigil.ErrorMessage(err))
	} else if err != nil {
		d.logger.Error("admin account", "err", err)
	}
	if err == nil || vigil.ErrorCode(err) == vigil.ENOTFOUND {
		// The password file of a first start may hold a password that
		// signs nobody in: its account removed by another administrator,
		// its password replaced (VIGIL_ADMIN_PASSWORD, vigil user
		// passwd, the dashboard). One that still signs in stays: it may
		// not have been read yet.
		if path, reason, err := removeStaleAdminPassword(d.dataDir, adminPasswordStale(ctx, d.store)); err != nil {
			d.logger.Warn("the admin password file may hold a password that no longer signs in: delete it",
				"path", filepath.Join(d.dataDir, adminPasswordFile), "err", err)
		} else if path != "" {
			d.logger.Info("removed the admin password file: its password no longer signs in", "path", path, "reason", reason)
		}
	}
	if err == nil && generated != "" {
		// Shown once: the next start finds the account with its password.
		// On a terminal it is printed; otherwise (a service manager's
		// journal, a log file) it goes to a file only this user can read.
		if isTerminal(os.Stdout) {
			fmt.Fprintf(os.Stdout, "admin account created: sign in at %s/login as %s with password %s (shown only now)\n",
				d.baseURL, strings.ToLower(email), generated)
		} else if path, err := writeAdminPassword(d.dataDir, strings.ToLower(email), generated); err != nil {
			d.logger.Error("admin account created, but its password could not be written: set VIGIL_ADMIN_PASSWORD and restart", "err", err)
		} else {
			fmt.Fprintf(os.Stdout, "admin account created: sign in at %s/login as %s; its password is in %s (readable by this user only: delete it once read)\n",
				d.baseURL, strings.ToLower(email), path)
		}
	}

	metrics := daemonMetrics(d.store)
	if d.monitor != nil {
		d.monitor.Fetcher = metrics.Fetcher(d.monitor.Fetcher)
		d.monitor.Store = countedStore{Store: d.monitor.Store, checks: metrics.CheckStore(d.monitor.Store)}
		d.monitor.Panicked = metrics.CountPanic
	}
	if d.deliverer != nil {
		d.deliverer.Panicked = metrics.CountPanic
	}
	d.countPanic = metrics.CountPanic
	s := &web.Server{
		Store:      d.store,
		Warehouse:  d.warehouse,
		Logger:     d.logger,
		Secret:     d.secret,
		Kick:       func() { kick(d.monitorKick) },
		KickOutbox: func() { kick(d.outboxKick) },
		Unsendable: d.unsendable,
		Location:   d.location,
		Checker: func(ctx context.Context, owner *vigil.User, now time.Time) (*spec.Checker, error) {
			c, err := storedChecker(ctx, d.store, owner, now, d.location)
			if err == nil && !d.email {
				// Email contacts are warned of; a sentinel with no Notify
				// clause notifies nobody (the dashboard and its feed).
				c.Unavailable = map[spec.ContactKind]string{spec.Email: "this server has no SMTP relay (vigil serve --smtp-host)"}
			}
			if c != nil {
				c.NoRender = d.noRender
			}
			return c, err
		},
		FeedPath:       func(s *vigil.Sentinel, format string) string { return feed.Path(d.secret, s, format) },
		BaseURL:        d.publicURL,
		UserWebhookKey: d.userWebhookKey(),
		Metrics:        metrics,
		PublicMetrics:  d.publicMetrics,
		SecureCookies:  d.secureCookies || servedOverTLS(d.baseURL),
	}
	if d.fetcher != nil {
		s.Unreachable = func(ctx context.Context, raw string) string { return unreachable(ctx, d.fetcher, raw) }
	}
	s.SentinelStates = func(ctx context.Context, sens []*vigil.Sentinel) (map[int64]web.SentinelState, error) {
		return sentinelStates(ctx, d.store, sens)
	}
	if d.monitor != nil {
		s.Checking = d.monitor.Checking
		// The shortest interval the monitor keeps (--min-interval; the
		// schedule's minute when unset): a shorter Fetch is warned of.
		s.MinInterval = d.monitor.Policy.MinInterval
		if s.MinInterval <= 0 {
			s.MinInterval = time.Minute
		}
	}
	s.Register(mux)
	d.notFoundPages = s.NotFoundPages
	d.recoverPanics = s.Recover
}

// countedStore is the monitor's store with its check records counted.
type countedStore struct {
	monitor.Store
	checks vigil.CheckStore
}

func (c countedStore) RecordChecks(ctx context.Context, recs []*vigil.CheckRecord) error {
	return c.checks.RecordChecks(ctx, recs)
}

// sentinelStates returns, by id, the lifespan phase, the scope notes, the
// start of each failing page's run of failures and the end of the open
// digest period (monitor.Summary) the monitor last recorded for each of
// sens that has a state, read from the store at once.
func sentinelStates(ctx context.Context, st vigil.Store, sens []*vigil.Sentinel) (map[int64]web.SentinelState, error) {
	cs, ok := st.(vigil.CheckStore)
	if !ok {
		return nil, nil
	}
	ids := make([]int64, len(sens))
	for i, s := range sens {
		ids[i] = s.ID
	}
	states, err := cs.SentinelStates(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]web.SentinelState, len(states))
	now := time.Now()
	for _, s := range sens {
		if raw, ok := states[s.ID]; ok {
			sum := monitor.Summary(raw, s)
			// An ended sentinel edited to live on is taken up by its
			// next check, due at once: not ended until then.
			life := monitor.LifespanAt(sum.Lifespan, s, now)
			out[s.ID] = web.SentinelState{Lifespan: life.Phase().String(), ScopeNotes: sum.ScopeNotes, FailingSince: sum.FailingSince,
				CheckErrors: sum.CheckErrors, NextDigest: sum.DigestDue}
		}
	}
	return out, nil
}

// servedOverTLS reports whether a base URL is an https one, its scheme in
// any case (HTTPS://vigil.example is one too).
func servedOverTLS(baseURL string) bool {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	return err == nil && u.Scheme == "https" // Parse lower-cases the scheme
}

// unreachableTimeout bounds the DNS lookup of a sentinel's host when it is
// checked (web.Server.Unreachable): a host that does not answer by then is
// not warned of, as the fetch will say what it finds.
const unreachableTimeout = 2 * time.Second

// unreachable returns why f refuses the host of the URL raw, a private,
// loopback or link-local address without --allow-private-networks, or ""
// if it does not: web.Server.Unreachable. A host DNS does not resolve now,
// or a URL that does not parse, is not refused here.
func unreachable(ctx context.Context, f *fetch.Client, raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, unreachableTimeout)
	defer cancel()
	if err := f.CheckHost(ctx, u.Hostname()); errors.Is(err, fetch.ErrRefused) {
		return err.Error()
	}
	return ""
}

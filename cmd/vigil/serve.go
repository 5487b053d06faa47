package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/monitor"
	"github.com/vigil-web/vigil/internal/notify"
	"github.com/vigil-web/vigil/internal/notify/chat"
	"github.com/vigil-web/vigil/internal/notify/email"
	"github.com/vigil-web/vigil/internal/notify/feed"
	"github.com/vigil-web/vigil/internal/notify/webhook"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/web"
	"github.com/vigil-web/vigil/internal/zstd"
)

func init() {
	register(&command{name: "serve", summary: "run the monitor: fetch, detect and notify for every sentinel; serve the dashboard, the API, feeds and /healthz", run: runServe})
}

// serveConfig is the daemon's configuration, from flags and environment.
type serveConfig struct {
	addr          string
	allowPrivate  bool
	ignoreRobots  bool
	minInterval   time.Duration
	maxInterval   time.Duration
	initInterval  time.Duration
	lease         time.Duration
	failureNotice time.Duration
	siteFresh     time.Duration
	poll          time.Duration
	workers       int
	compareMemory int // MiB; 0: no bound (a negative value is refused)
	// maxPage is --max-page-size as given (MiB); checkValues reads it
	// into maxPageSize, in bytes.
	maxPage       string
	maxPageSize   int64
	hostDelay     time.Duration
	hostConc      int
	render        string
	baseURL       string
	allowedHosts  string // --allowed-hosts, as given (web.ParseHosts)
	webhookSecret string
	smtp          email.Options
	smtpPort      string
	logLevel      string
	retryBase     time.Duration
	maxAttempts   int
	fetchTimeout  time.Duration
	proxy         *url.URL // the outbound proxy, or nil
	noProxy       []string
	publicMetrics bool // VIGIL_METRICS_PUBLIC
	secureCookies bool // VIGIL_SECURE_COOKIES
	// sharedStore says other daemons may run on the store: a PostgreSQL
	// one (a SQLite store is locked for one daemon, lockDataDir).
	sharedStore bool
	// chromiumSandbox asks for Chromium's sandbox (--chromium-sandbox),
	// which a daemon running as root cannot have.
	chromiumSandbox bool
	// location is the deployment's time zone (--tz): the one the
	// dashboard and the API read the dates of a user without their own
	// in, and the monitor runs a sentinel saved without one in.
	location *time.Location
	// notificationRetention is how long the outbox keeps a notification
	// done with (sent, or a dead letter) after it was last touched; 0
	// keeps them all (monitor.OutboxRetention).
	notificationRetention time.Duration
}

// checkBaseURL refuses a --base-url that is not an absolute http or https
// URL: every link in messages, feeds and the start's sign-in line is made
// of it, and one without its scheme (vigil.example.org) links nowhere.
func checkBaseURL(base string) error {
	if base == "" {
		return nil
	}
	u, err := url.Parse(base)
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return nil
	}
	msg := fmt.Sprintf("--base-url %q: want an absolute http or https URL", base)
	if err == nil && u.Scheme == "" && u.Host == "" && u.Path != "" {
		msg += ", such as https://" + base
	}
	return errors.New(msg)
}

func envOr(env *environment, name, def string) string {
	if v := env.getenv(name); v != "" {
		return v
	}
	return def
}

func runServe(ctx context.Context, env *environment, args []string) (code int, err error) {
	fs := flag.NewFlagSet("vigil serve", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	sf := addStoreFlags(fs, env)
	fs.Lookup("data").Usage = "data `directory` holding the SQLite store; with --postgres, this daemon's files: the copy of the store's webhook-secret for the receivers, the admin-password of a first start, the keys of an upgraded install that the store takes in (default $VIGIL_DATA or ./vigil-data)"
	// A yes-or-no variable that is neither is an error once the flags are
	// read: -h still shows the help, which says what the variables take.
	bools, envErr := envBools(env, "VIGIL_ALLOW_PRIVATE_NETWORKS", "VIGIL_METRICS_PUBLIC", "VIGIL_SECURE_COOKIES")
	sandbox, err := envBool(env, "VIGIL_CHROMIUM_SANDBOX", true)
	if envErr == nil {
		envErr = err
	}
	c := serveConfig{publicMetrics: bools["VIGIL_METRICS_PUBLIC"], secureCookies: bools["VIGIL_SECURE_COOKIES"]}
	statedStringVar(fs, &c.addr, "addr", envOr(env, "VIGIL_ADDR", "127.0.0.1:8080"), "HTTP listen `address` (the dashboard at /login, the API, feeds, /healthz); :0 picks a free port (default $VIGIL_ADDR or 127.0.0.1:8080)")
	fs.BoolVar(&c.allowPrivate, "allow-private-networks", bools["VIGIL_ALLOW_PRIVATE_NETWORKS"], "let sentinels and webhooks reach loopback, private and link-local addresses (default $VIGIL_ALLOW_PRIVATE_NETWORKS)")
	pf := addProxyFlags(fs, env, "every page fetch and robots.txt, site crawl, webhook and chat notification")
	fs.BoolVar(&c.ignoreRobots, "ignore-robots", false, "do not honour robots.txt (only for sites you own)")
	fs.DurationVar(&c.minInterval, "min-interval", time.Minute, "shortest interval between two checks of a sentinel")
	fs.DurationVar(&c.maxInterval, "max-interval", 24*time.Hour, "longest adaptive interval (Fetch on change)")
	fs.DurationVar(&c.initInterval, "initial-interval", time.Hour, "first interval of an adaptive sentinel (Fetch on change), before its page's change rate is known")
	fs.DurationVar(&c.lease, "lease", 5*time.Minute, "how long a claimed sentinel or notification stays hidden from other workers (the delay before work a crash interrupted is taken up again)")
	fs.DurationVar(&c.siteFresh, "site-fresh", 0, "how long a site's crawl serves the checks of the other sentinels watching the same site (URL, scope, match, depth, pages) after it ended, instead of crawls of their own (0: --min-interval; negative: only a crawl in flight is shared)")
	fs.DurationVar(&c.poll, "poll", time.Second, "how often to look for due sentinels and notifications when idle")
	fs.IntVar(&c.workers, "workers", 16, "pages fetched and compared at once (sites crawled on at most half of them, at least one)")
	fs.IntVar(&c.compareMemory, "compare-memory", 1024, "MiB that the comparisons running at once may hold; a large page's waits for room (0: no bound)")
	statedStringVar(fs, &c.maxPage, "max-page-size", envOr(env, "VIGIL_MAX_PAGE_SIZE", strconv.Itoa(fetch.DefaultMaxSize>>20)), fmt.Sprintf("largest page read, in `MiB`, as sent and once decoded (gzip, deflate, brotli), from 1 to %d; a larger page fails its check, naming this flag, and a compressed one is not expanded past it (default $VIGIL_MAX_PAGE_SIZE or %d)", maxPageSizeMiB, fetch.DefaultMaxSize>>20))
	fs.DurationVar(&c.hostDelay, "host-delay", time.Second, "minimum delay between two requests to one host (0: no delay; a larger robots.txt Crawl-delay wins)")
	fs.IntVar(&c.hostConc, "host-concurrency", 1, "requests at once to one host")
	fs.DurationVar(&c.fetchTimeout, "fetch-timeout", 60*time.Second, "total time allowed for one fetch, from its host's turn, the wait for the page's answer included (a page may take all of it to answer); the wait for the turn may take as long again, and a check that waits in vain is tried again a minute later")
	fs.DurationVar(&c.failureNotice, "failure-notice", 6*time.Hour, "how long a page must fail at every check before its sentinels' contacts are told (and told again when it works); 0 never tells")
	statedStringVar(fs, &c.render, "chromium", envOr(env, "VIGIL_CHROMIUM", fetch.ChromiumPath), "Chromium `binary` for sentinels that say Fetch ... render (\"\" disables rendering) (default $VIGIL_CHROMIUM or "+fetch.ChromiumPath+")")
	fs.BoolVar(&c.chromiumSandbox, "chromium-sandbox", sandbox, "render pages in Chromium's sandbox, which confines a page that exploits the browser; false renders without it, where Chromium cannot start in it (no user namespaces). As root Chromium runs without it whatever this says, and the log says so at start: run vigil serve as another user ($VIGIL_CHROMIUM_SANDBOX sets the default)")
	statedStringVar(fs, &c.baseURL, "base-url", env.getenv("VIGIL_BASE_URL"), "public `URL` of this server, for links in messages (default $VIGIL_BASE_URL or http://ADDR)")
	statedStringVar(fs, &c.allowedHosts, "allowed-hosts", env.getenv("VIGIL_ALLOWED_HOSTS"), allowedHostsUsage)
	webhookSecret := secretString(fs, "webhook-secret", env.getenv("VIGIL_WEBHOOK_SECRET"), "`key` of the webhook signatures, at least 32 bytes; on the command line it shows in the process list (ps): give it in $VIGIL_WEBHOOK_SECRET instead (default $VIGIL_WEBHOOK_SECRET, else the data directory's webhook-secret file, created on first start; on PostgreSQL the store's key, copied to that file; given on PostgreSQL, it becomes the store's key, which the daemons started without it sign with)")
	fs.StringVar(&c.smtp.Host, "smtp-host", env.getenv("VIGIL_SMTP_HOST"), "SMTP relay host; email notifications are off without it (default $VIGIL_SMTP_HOST)")
	statedStringVar(fs, &c.smtpPort, "smtp-port", env.getenv("VIGIL_SMTP_PORT"), "SMTP relay `port` (default $VIGIL_SMTP_PORT, else 587, or 465 with --smtp-tls implicit)")
	fs.StringVar(&c.smtp.Username, "smtp-user", env.getenv("VIGIL_SMTP_USER"), "SMTP user (default $VIGIL_SMTP_USER)")
	c.smtp.Password = env.getenv("VIGIL_SMTP_PASSWORD")
	statedStringVar(fs, &c.smtp.From, "smtp-from", envOr(env, "VIGIL_SMTP_FROM", "Vigil <vigil@localhost>"), "sender `address` (default $VIGIL_SMTP_FROM or Vigil <vigil@localhost>)")
	tlsMode := statedString(fs, "smtp-tls", envOr(env, "VIGIL_SMTP_TLS", "opportunistic"), "TLS `mode`: "+email.TLSModes+" (default $VIGIL_SMTP_TLS or opportunistic)")
	fs.DurationVar(&c.retryBase, "retry-base", 10*time.Second, "delay before the first retry of a failed notification, doubling after each failure")
	fs.IntVar(&c.maxAttempts, "max-attempts", 8, "attempts before a notification becomes a dead letter")
	fs.DurationVar(&c.notificationRetention, "notification-retention", monitor.DefaultNotificationRetention, "how long a sent notification or a dead letter is kept after it was last sent or tried (2160h is 90 days): until then the Notifications page and the API list it, and a dead letter may be retried; older ones are deleted at start and every hour, never one still to be sent; 0 keeps them all")
	fs.StringVar(&c.logLevel, "log-level", "info", "debug, info, warn or error")
	tz := addTZFlag(fs, env)
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "Usage: vigil serve [flags]\n\nServe runs every sentinel of the store: it fetches pages when they fall due,\n"+
			"keeps their versions, detects the changes each sentinel asks for and\n"+
			"notifies by email, webhook and chat, and serves the dashboard (sign in at\n"+
			"/login), the REST API under /api/v1, Atom/RSS feeds and /healthz.\n"+
			"With no flags it uses the SQLite store in ./vigil-data and listens on\n127.0.0.1:8080. The SMTP password is read from $VIGIL_SMTP_PASSWORD.\n\n"+
			"The dashboard and API read the environment too: VIGIL_ADMIN_EMAIL and\n"+
			"VIGIL_ADMIN_PASSWORD (the admin account made on the first start),\n"+
			"VIGIL_METRICS_PUBLIC=true (/metrics without a session or token) and\n"+
			"VIGIL_SECURE_COOKIES=true (behind a TLS proxy).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitError, errUsageShown
	}
	if envErr != nil {
		return exitError, envErr
	}
	if c.location, err = tz.location(); err != nil {
		return exitError, err
	}
	c.smtp.TLS = email.TLS(*tlsMode)
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if err := c.checkValues(func(name string) bool { return given[name] }); err != nil {
		return exitError, err
	}
	if err := checkBaseURL(c.baseURL); err != nil {
		return exitError, err
	}
	allowedHosts, err := parseAllowedHosts(c.allowedHosts, !given["allowed-hosts"])
	if err != nil {
		return exitError, err
	}
	c.webhookSecret = *webhookSecret
	if c.proxy, c.noProxy, err = pf.options(); err != nil {
		return exitError, err
	}
	if err := checkWebhookSecretFlag(c.webhookSecret); err != nil {
		return exitError, err
	}
	// Held to the rule of every password Vigil sets, before anything is
	// made; never quoted. Of a store already made, one that is the admin
	// account's password already (set before the rule) is warned of once
	// the store is open, not refused: the upgrade of a running
	// deployment would not start.
	adminPassword := env.getenv("VIGIL_ADMIN_PASSWORD")
	var weakAdmin error
	if adminPassword != "" {
		if err := web.CheckNewPassword(adminPassword); err != nil {
			weakAdmin = fmt.Errorf("VIGIL_ADMIN_PASSWORD: %s", vigil.ErrorMessage(err))
			if _, serr := os.Stat(filepath.Join(*sf.data, sqlite.FileName)); *sf.postgres == "" && serr != nil {
				return exitError, weakAdmin
			}
		}
	}

	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		// slog's own words ("level string ...: unknown name") name none.
		return exitError, fmt.Errorf("--log-level %q: want debug, info, warn or error", c.logLevel)
	}
	logger := slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: level}))

	c.sharedStore = *sf.postgres != ""
	// The data directory is taken before the daemon listens: a start on
	// one that another daemon holds, or an import, is refused without
	// binding its address, so that no client connects to a daemon that
	// will not start (a connection the system accepted before the
	// refusal was reset as it exited), and without a word of listening.
	// A start that fails before it opens the store (its address taken)
	// makes nothing: the directory made for it, and its lock, are
	// removed (unmake).
	unmake := func() error { return nil }
	if !c.sharedStore {
		// One daemon a SQLite store; several may share a PostgreSQL one.
		undo, err := makeDataDirUndone(*sf.data)
		if err != nil {
			return exitError, err
		}
		unlock, err := lockDataDir(*sf.data)
		if err != nil {
			// Its lock file is not this start's to remove.
			return exitError, errors.Join(err, undo(false))
		}
		unmake = func() error { return undo(true) }
		defer unlock()
		// An import in one transaction would hold the daemon's writes.
		if err := importHeld(*sf.data); err != nil {
			return exitError, err
		}
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		from := ""
		if !given["addr"] && env.getenv("VIGIL_ADDR") != "" {
			from = " (from $VIGIL_ADDR)"
		}
		return exitError, errors.Join(fmt.Errorf("--addr %q%s: %w", c.addr, from, err), unmake())
	}
	defer ln.Close()
	// Only the names the daemon is reached by are answered: a page of a
	// domain rebound to its address is refused (serveHosts).
	hosts, hostNames, everyInterface, err := serveHosts(allowedHosts, c.baseURL, c.addr, ln.Addr(), os.Hostname)
	if err != nil {
		return exitError, errors.Join(err, unmake())
	}
	// Answer at once, before the store is opened: a migration of a large
	// store may take minutes, and connections meanwhile get 503 and
	// Retry-After (readiness), not a wait. Every answer carries the
	// security headers, the mux's own 404 and 405 too.
	gate := &readiness{}
	srv := newHTTPServer(web.Secure(hosts.Check(gate)), logger)
	serveErr := make(chan error, 1)
	go serveHTTP(srv, ln, logger, serveErr)
	defer srv.Close() // a start that fails; a running daemon shuts it down below
	logger.Info("vigil serve listening: opening the store", "addr", ln.Addr().String())
	st, err := openStore(ctx, *sf.data, *sf.postgres)
	if err != nil {
		if ctx.Err() != nil {
			// Stopped during the migration, which is rolled back whole:
			// the next start runs it again.
			logger.Info("vigil serve stopped before the store was ready")
			return exitOK, nil
		}
		return exitError, err
	}
	// A store that does not close cleanly (SQLite's last checkpoint on a
	// full disk) fails the stop, which says why (the store's error names
	// it and where), after an error of the daemon's own too.
	defer closeStore(st, &code, &err)
	// A store this user may only read (a SQLite directory of another
	// user's, read as immutable) would fail every check's commit: the
	// daemon does not start on it.
	if ro, ok := st.(interface{ ReadOnly() bool }); ok && ro.ReadOnly() {
		return exitError, fmt.Errorf("the store in %s is read-only: this user may not write its directory; start vigil serve as the store's owner", *sf.data)
	}
	if !c.sharedStore {
		// This daemon holds the data directory's lock: the claims still
		// held in its store are a previous process's, killed or crashed,
		// and are given back now rather than when their lease ends. A
		// PostgreSQL store's may be another live daemon's.
		if oc, ok := st.(vigil.OrphanedClaimStore); ok {
			ns, nn, err := oc.ReleaseOrphanedClaims(ctx, time.Now())
			if err != nil {
				return exitError, err
			}
			if ns > 0 || nn > 0 {
				logger.Info("gave back the claims a previous vigil serve left", "sentinels", ns, "notifications", nn)
			}
		}
	}
	if weakAdmin != nil {
		if !isAdminPassword(ctx, st, env.getenv("VIGIL_ADMIN_EMAIL"), adminPassword) {
			return exitError, weakAdmin
		}
		logger.Warn("VIGIL_ADMIN_PASSWORD is held to the rule of every password Vigil sets, which it fails; it sets no password on this store (the admin account has it, or is not made): set a longer one",
			"reason", vigil.ErrorMessage(web.CheckNewPassword(adminPassword)))
	}
	logSchema(logger, st)
	d, err := newDaemon(st, *sf.data, c, logger)
	if err != nil {
		return exitError, err
	}
	defer d.close()

	if d.baseURL == "" {
		d.baseURL = "http://" + ln.Addr().String()
		if tcp, ok := ln.Addr().(*net.TCPAddr); ok && (tcp.IP == nil || tcp.IP.IsUnspecified()) {
			// --addr :8080 listens on every address and names none:
			// links to http://[::]:8080 reach nobody.
			logger.Warn("links in emails, webhooks and feeds will use the listen address "+d.baseURL+", which names no host: set --base-url (or VIGIL_BASE_URL) to the URL users reach this server at",
				"base_url", d.baseURL)
		}
	}
	if everyInterface {
		warnHosts(logger, hostNames)
	}
	d.feeds.BaseURL = d.baseURL
	gate.ready(newServeMux(d))
	fmt.Fprintf(env.stdout, "listening on %s\n", ln.Addr())
	started := []any{"addr", ln.Addr().String(), "data", *sf.data, "email", d.email, "tz", c.location.String()}
	if d.smtpRelay != "" {
		started = append(started, "smtp", d.smtpRelay)
	}
	logger.Info("vigil serve started", append(started, "allow_private_networks", c.allowPrivate, "proxy", proxyShown(c.proxy), "allowed_hosts", strings.Join(hostNames, ","))...)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		defer wg.Done()
		// On a clean stop Run gives back the sentinels it claimed and did
		// not check, so that the next start checks them at once.
		err := keepRunning(ctx, logger, d.countPanic, panicMonitor, c.poll, func() error {
			return d.monitor.Run(ctx, c.poll, d.monitorKick)
		})
		if err != nil && !errors.Is(err, context.Canceled) {
			logger.Error("stop the monitor", "error", err)
		}
	}()
	go func() {
		defer wg.Done()
		keepRunning(ctx, logger, d.countPanic, panicOutbox, c.poll, func() error {
			return d.deliverer.Run(ctx, c.poll, d.outboxKick)
		})
	}()
	go func() {
		defer wg.Done()
		keepRunning(ctx, logger, d.countPanic, panicRetention, c.poll, func() error {
			return d.retention.Run(ctx)
		})
	}()
	var runErr error
	select {
	case <-ctx.Done():
	case runErr = <-serveErr:
	}
	cancel()
	shut, done := context.WithTimeout(context.Background(), 10*time.Second)
	srv.Shutdown(shut)
	done()
	wg.Wait()
	logger.Info("vigil serve stopped")
	if runErr != nil {
		return exitError, runErr
	}
	return exitOK, nil
}

// daemon is everything vigil serve runs, wired.
type daemon struct {
	dataDir string
	store   vigil.Store
	secret  []byte
	baseURL string
	// publicURL is the --base-url given, "" if none: the dashboard's
	// links are then under the URL each page is asked at, where baseURL
	// falls back to the listen address.
	publicURL   string
	logger      *slog.Logger
	fetcher     *fetch.Client
	chromium    *fetch.Chromium
	warehouse   *warehouse.Warehouse
	monitor     *monitor.Monitor
	deliverer   *monitor.Deliverer
	retention   *monitor.OutboxRetention
	feeds       *feed.Server
	monitorKick chan struct{}
	outboxKick  chan struct{}
	// email says whether email notifications can be sent (an SMTP host is
	// configured): without, a sentinel created in the dashboard with no
	// Notify clause notifies nobody rather than the owner's address,
	// whose notifications would all fail.
	email bool
	// smtpRelay is the SMTP relay's host:port, for the start's log line.
	smtpRelay string
	// publicMetrics and secureCookies are serveConfig's, for the dashboard.
	publicMetrics, secureCookies bool
	// webhookKey is the server key webhooks are signed with (the flag's,
	// or the keyring's), from which each user's is derived for the
	// dashboard and the API (userWebhookKey).
	webhookKey []byte
	// noRender says why pages cannot be rendered, or is empty: the
	// checker warns of sentinels that say Fetch ... render.
	noRender string
	// location is the deployment's time zone (serveConfig's), which the
	// dashboard and the API check the sentinels of a user without their
	// own in.
	location *time.Location
	// notFoundPages, set by the dashboard's mount, wraps the routing
	// table so that a GET of a path it lacks gets the dashboard's Not
	// found page (web.Server.NotFoundPages); nil: mux's plain 404.
	notFoundPages func(mux *http.ServeMux) http.Handler
	// recoverPanics, set by the dashboard's mount, wraps the whole
	// routing table so that a panic of a handler (health, feeds, API,
	// dashboard, metrics) is answered 500, logged redacted and counted
	// (web.Server.Recover); nil: net/http's own recovery.
	recoverPanics func(h http.Handler) http.Handler
	// countPanic, set with the metrics (newServeMux), counts a panic the
	// daemon recovered from by where it struck (vigil_panics_total{in}).
	countPanic func(in string)
}

// newChromium returns the browser that renders pages, in its sandbox as
// --chromium-sandbox asks; what its guard proxy's server logs itself goes
// to logger, redacted.
func (c serveConfig) newChromium(logger *slog.Logger) *fetch.Chromium {
	return &fetch.Chromium{ExecPath: c.render, NoSandbox: !c.chromiumSandbox, Logger: logger,
		NoSandboxSetting: "vigil serve --chromium-sandbox=false (or VIGIL_CHROMIUM_SANDBOX=false)"}
}

// logSandbox says, once at start, that Chromium renders pages without its
// sandbox, and why, when it does.
func logSandbox(logger *slog.Logger, s fetch.Sandbox) {
	switch s {
	case fetch.SandboxOffAsRoot:
		logger.Warn("Chromium renders pages without its sandbox: vigil serve runs as root, where Chromium refuses to start in it, " +
			"so a page that exploits the browser runs unconfined as root; run vigil serve as another user to render in the sandbox")
	case fetch.SandboxOffAsked:
		logger.Warn("Chromium renders pages without its sandbox, as --chromium-sandbox=false (or VIGIL_CHROMIUM_SANDBOX=false) asks: " +
			"a page that exploits the browser runs unconfined as this user")
	}
}

// newDaemon wires the services and adapters of vigil serve.
func newDaemon(st vigil.Store, dataDir string, c serveConfig, logger *slog.Logger) (*daemon, error) {
	cs, ok := st.(vigil.CheckStore)
	if !ok {
		return nil, fmt.Errorf("this store backend does not keep the monitor's check records (vigil.CheckStore); use the SQLite store")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	keys := keyring{store: st, dataDir: dataDir, shared: c.sharedStore}
	secret, secretOrigin, err := keys.load(ctx, secretFile)
	if err != nil {
		return nil, err
	}
	keys.report(logger, secretFile, secret, secretOrigin)
	d := &daemon{dataDir: dataDir, store: st, secret: secret, baseURL: strings.TrimRight(c.baseURL, "/"), publicURL: strings.TrimRight(c.baseURL, "/"), logger: logger,
		monitorKick: make(chan struct{}, 1), outboxKick: make(chan struct{}, 1), publicMetrics: c.publicMetrics, secureCookies: c.secureCookies,
		location: c.location}
	fopt := c.fetchOptions()
	switch _, err := os.Stat(c.render); {
	case c.render == "":
		d.noRender = "rendering is off (vigil serve --chromium \"\")"
	case err != nil:
		d.noRender = "no Chromium at " + c.render + " (vigil serve --chromium PATH)"
		logger.Warn("rendering is off: sentinels that say Fetch ... render fail their checks", "chromium", c.render, "error", err)
	default:
		d.chromium = c.newChromium(logger)
		fopt.Renderer = d.chromium
		logSandbox(logger, d.chromium.Sandbox())
	}
	d.fetcher = fetch.New(fopt)
	// The chat library sends most services with net/http's default
	// transport and cannot be given another: in the daemon, every request
	// on the default transport goes through the fetcher's address guard.
	// It is put under the notifiers' redirect policy too, which only
	// requests with a body (the chat services' POSTs) meet.
	http.DefaultTransport = &notify.Transport{Base: d.fetcher.Transport()}
	d.warehouse, err = monitorWarehouse(st, warehouse.Options{Logger: logger})
	if err != nil {
		return nil, err
	}
	d.feeds = &feed.Server{Store: st, Secret: secret}
	feedLink := func(s *vigil.Sentinel) string {
		return d.baseURL + feed.Path(secret, s, "atom")
	}
	d.monitor = &monitor.Monitor{
		Store: struct {
			vigil.Store
			vigil.CheckStore
		}{st, cs},
		Warehouse:   d.warehouse,
		Fetcher:     d.fetcher,
		SharedStore: c.sharedStore,
		Location:    c.location,
		Policy:      schedule.Policy{MinInterval: c.minInterval, MaxInterval: c.maxInterval, InitialInterval: c.initInterval},
		Logger:      logger,
		Lease:       c.lease,
		Workers:     c.workers,
		SiteFresh:   c.siteFresh,
		FailureNotice: func() time.Duration {
			if c.failureNotice <= 0 {
				return -1 // never
			}
			return c.failureNotice
		}(),
		MemoryBudget: func() int64 {
			if c.compareMemory <= 0 {
				return -1
			}
			return int64(c.compareMemory) << 20
		}(),
		Delivered:   func() { kick(d.outboxKick) },
		MessageLink: feedLink,
		DashboardLink: func(id int64) string {
			return d.baseURL + "/sentinels/" + strconv.FormatInt(id, 10)
		},
	}
	whSecret := []byte(c.webhookSecret)
	if len(whSecret) == 0 {
		var origin keyOrigin
		if whSecret, origin, err = keys.load(ctx, webhookSecretFile); err != nil {
			return nil, err
		}
		signedBefore := false
		if origin == keyCreated && secretOrigin != keyCreated {
			// Before this key had a file of its own, webhooks were
			// signed with the server's secret, by a store that has
			// sent messages, or found the changes they tell of (the
			// outbox's retention may have deleted the messages since);
			// a secret file alone was made by a command run before
			// the first start (sentinel add).
			_, sent, err := st.FindNotifications(ctx, vigil.NotificationFilter{Limit: 1})
			if err != nil {
				return nil, fmt.Errorf("notifications: %w", err)
			}
			found := 0
			if sent == 0 {
				if _, found, err = st.FindChanges(ctx, vigil.ChangeFilter{Limit: 1}); err != nil {
					return nil, fmt.Errorf("changes: %w", err)
				}
			}
			signedBefore = sent > 0 || found > 0
		}
		path := filepath.Join(dataDir, webhookSecretFile)
		where := path
		if keys.shared {
			// The receivers' administrator reads the key in the data
			// directory, as on SQLite: a copy of the store's.
			written, err := keys.writeFile(webhookSecretFile, whSecret)
			if err != nil {
				return nil, fmt.Errorf("copy the webhook key to %s: %w", path, err)
			}
			if written && origin == keyFound {
				logger.Info("the store's webhook signing key copied to the data directory", "file", path)
			}
			where = "the store (copied to " + path + ")"
		}
		keys.report(logger, webhookSecretFile, whSecret, origin)
		switch {
		case origin != keyCreated:
		case signedBefore:
			// Receivers given the server's secret need the new key,
			// and the old one, which keys the feed tokens too, should
			// not stay in their hands.
			logger.Warn("webhooks are now signed with the key in "+where+": give it to webhook receivers; "+
				"if they were given the file "+secretFile+" before, replace that key with vigil keys rotate feed and restart vigil serve (feed URLs change)", "file", path)
		default:
			logger.Info("webhook signing key created", "file", path)
		}
	} else if keys.shared {
		if err := keys.setWebhookKey(ctx, logger, whSecret); err != nil {
			return nil, err
		}
	}
	d.webhookKey = whSecret
	channels := map[string]vigil.Notifier{
		"webhook": &webhook.Notifier{Secret: whSecret, Client: d.fetcher.HTTPClient()},
		"chat":    &chat.Notifier{Guard: d.fetcher.CheckHost, Transport: d.fetcher.Transport()},
	}
	d.email = c.smtp.Host != ""
	if c.smtp.Host != "" {
		mailer, err := email.New(c.smtp)
		if err != nil {
			return nil, err
		}
		channels["email"] = mailer
		d.smtpRelay = mailer.Relay()
	}
	d.deliverer = &monitor.Deliverer{Store: st, Channels: channels, Logger: logger, Lease: c.lease,
		BaseBackoff: c.retryBase, MaxAttempts: c.maxAttempts, MessageLink: feedLink, Sentinels: st}
	d.retention = &monitor.OutboxRetention{Store: st, Logger: logger, Keep: c.notificationRetention}
	return d, nil
}

// unsendable returns why the daemon cannot send notifications by a
// channel, or "" if it has a notifier for it: the dashboard and the API
// do not retry such a channel's dead letters (web.Server.Unsendable).
func (d *daemon) unsendable(channel string) string {
	if d.deliverer.Channels[channel] != nil {
		return ""
	}
	if channel == "email" {
		return "email is not configured on this server: start vigil serve with --smtp-host (or $VIGIL_SMTP_HOST) and the other SMTP settings of vigil serve -h"
	}
	return channel + " is not configured on this server"
}

// userWebhookKey returns the key of a user's webhook signatures, as the
// daemon's webhook notifier derives it to sign their deliveries, for the
// dashboard and the API to show the user (web.Server.UserWebhookKey); nil
// if the daemon sends no webhooks.
func (d *daemon) userWebhookKey() func(userID int64) string {
	if d.deliverer.Channels["webhook"] == nil || len(d.webhookKey) == 0 {
		return nil
	}
	return func(userID int64) string { return string(webhook.UserKey(d.webhookKey, userID)) }
}

// monitorWarehouse returns the warehouse the monitor writes through: the
// zstd codec, and resources answered from memory once seen.
func monitorWarehouse(st vigil.Store, opt warehouse.Options) (*warehouse.Warehouse, error) {
	codec, err := zstd.New(0)
	if err != nil {
		return nil, err
	}
	opt.Codec = codec
	return warehouse.New(monitor.CachedResources(st), opt)
}

func (d *daemon) close() {
	if d.chromium != nil {
		d.chromium.Close()
	}
}

func kick(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// isAdminPassword reports whether vigil serve would keep the admin
// account's password as it is (web.EnsureAdmin) given password: the
// account of email (VIGIL_ADMIN_EMAIL; "" for the default) has it, or the
// account is not made again, another administrator signing in.
func isAdminPassword(ctx context.Context, st vigil.Store, email, password string) bool {
	if email == "" {
		email = defaultOwner
	}
	email = strings.ToLower(strings.TrimSpace(email))
	users, err := st.FindUsers(ctx)
	if err != nil {
		return false
	}
	signsIn := false
	for _, u := range users {
		if u.Email == email {
			return u.PasswordHash != "" && web.CheckPassword(u.PasswordHash, password)
		}
		signsIn = signsIn || u.Admin && u.PasswordHash != ""
	}
	return signsIn
}

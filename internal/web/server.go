// Package web is Vigil's HTTP adapter: the REST API under /api/v1
// (documented by the OpenAPI file served at /api/v1/openapi.json, whose
// query parameters are the only ones a route takes: queryparams.go refuses
// the others), the Prometheus metrics at /metrics, and the dashboard, server-rendered with
// html/template from embedded templates and assets.
//
// Every route needs a session (the dashboard's signed cookie) or an API
// token (Authorization: Bearer), except the sign-in page, the static assets
// (and /favicon.ico) and, when configured, /metrics. The Users page
// (/users, users.go) and the JSON API of user management (/api/v1/users,
// usersapi.go, which also takes an administrator's API token) answer
// administrators only (vigil.User.Admin), by the rules of admin.go that
// cmd/vigil's user commands share. Health and feeds are mounted by the
// daemon itself, which wraps its routing table in NotFoundPages (the
// dashboard's Not found page for a path no route has, notfound.go),
// Secure and Hosts.Check (host.go: a request for a host name the daemon
// is not reached by gets 421, which defeats DNS rebinding). Failed
// sign-ins are limited per client address and per account (ratelimit.go):
// past the limit, the sign-in answers 429 with a Retry-After, even to the
// right password; the first refusals of a minute are logged one by one,
// the rest in one summary line (loginlog.go). Foreign HTML (the watched
// pages) is only ever shown sanitised, in a sandboxed iframe, under a
// Content-Security-Policy that forbids scripts; the sandbox allows only
// popups, so that a click on one of its links opens the watched site in
// a new tab.
package web

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

// Warehouse reads the versions the warehouse keeps (internal/warehouse
// implements it).
type Warehouse interface {
	// Body returns the bytes of a version; ENOTFOUND if it does not exist.
	Body(ctx context.Context, versionID int64) ([]byte, error)
	// Document returns the tree of a version with XIDs numbered afresh,
	// read as the monitor reads it (a body that does not parse as HTML or
	// XML, or served as text that is not markup, is its source text);
	// EINVALID if it cannot be read at all.
	Document(ctx context.Context, versionID int64) (*tree.Document, error)
	// ReadAsTextAll returns why each version of a list is read as its
	// source text (the parse error, in words, or "served as text/plain"),
	// or "" for one read as a page, by id (known): the reason recorded
	// with the version, the bodies of those not known read in one walk
	// down each resource's patch chain, of budget bytes at most. A version no longer kept is
	// left out, and so are one whose body cannot be read, whose error
	// failed holds, and one whose body is past the budget: not known
	// yet. Every page and answer that says why learns it through it,
	// within the request's budget (readAsTextAll).
	ReadAsTextAll(ctx context.Context, vs []*vigil.Version, budget int64) (known map[int64]string, failed map[int64]error)
	// DocumentDiff returns Document(from) and the delta from version from
	// to version to in its terms, each version's body read and parsed
	// once; EINVALID for versions of different resources.
	DocumentDiff(ctx context.Context, from, to int64) (*tree.Document, *delta.Delta, error)
}

// warehouse returns the server's warehouse, or an error (EINTERNAL,
// which the client is told) if the server was built without one: every
// route that reads versions asks it first, and a server without it
// answers them with that error, where they panicked on the nil
// warehouse. vigil serve always has one.
func (s *Server) warehouse() (Warehouse, error) {
	if s.Warehouse == nil {
		return nil, vigil.Errorf(vigil.EINTERNAL, "this server keeps no versions: it was started without a warehouse")
	}
	return s.Warehouse, nil
}

// Server serves the REST API, the metrics and the dashboard. Set the
// fields, then call Register.
type Server struct {
	Store     vigil.Store
	Warehouse Warehouse
	Logger    *slog.Logger
	// Secret keys the session cookies and CSRF tokens (at least 32 bytes).
	Secret []byte
	// Kick, if not nil, wakes the monitor (after "check now" or a new
	// sentinel).
	Kick func()
	// Checker returns the sentinel checker of an owner, knowing the owner's
	// stored sentinels and their run-time status (for lifespans that refer
	// to them) and compiling selectors as the monitor will. Required by the
	// sentinel routes; the daemon wires it.
	Checker func(ctx context.Context, owner *vigil.User, now time.Time) (*spec.Checker, error)
	// Location is the deployment's time zone (vigil serve --tz): the one
	// the dates written in sentinels are read in for a user who set no
	// zone of their own (vigil.User.TimeZone, timezone.go), and for a
	// sentinel saved before sentinels kept theirs. Nil is UTC.
	Location *time.Location
	// KickOutbox, if not nil, wakes the notification delivery (after the
	// retry of a dead letter).
	KickOutbox func()
	// Unsendable, if not nil, returns why this server cannot send
	// notifications by a channel (email, webhook, chat), or "" if it
	// can: a dead letter by such a channel is not retried, as it would
	// die again at once, and the dashboard says why instead of offering
	// the retry. cmd/vigil asks the daemon's notifiers (email needs the
	// SMTP settings). Nil: every channel can be sent on.
	Unsendable func(channel string) string
	// UserWebhookKey, if not nil, returns the key of a user's webhook
	// signatures (the X-Vigil-User-Signature-256 of the deliveries of
	// their sentinels), which GET /api/v1/me/webhook-key and the API
	// tokens page show the user: cmd/vigil derives it from the key the
	// daemon signs with. Nil: this server signs no webhooks.
	UserWebhookKey func(userID int64) string
	// FeedPath, if not nil, returns the path of a sentinel's feed, of
	// format "atom" or "rss", at the sentinel's current feed generation.
	FeedPath func(s *vigil.Sentinel, format string) string
	// BaseURL is the public URL of the server (vigil serve --base-url),
	// which the dashboard writes the absolute links it gives to be used
	// elsewhere (a sentinel's feeds) under; empty: the URL the page was
	// asked at (its host one Hosts.Check lets through), https when the
	// request came over TLS or SecureCookies says a proxy terminates it.
	BaseURL string
	// SentinelStates, if not nil, returns what the monitor last recorded
	// of each of the sentinels sens that it shows, by id: its lifespan
	// phase, its scope notes, its failing pages and the end of its open
	// digest period (SentinelState), read at once; cmd/vigil
	// reads them from the monitor's state (monitor.Summary), the notes of
	// a Monitor clause edited since left out.
	SentinelStates func(ctx context.Context, sens []*vigil.Sentinel) (map[int64]SentinelState, error)
	// Checking, if not nil, reports whether the monitor is checking a
	// sentinel now: its stored NextCheck is then the end of the check's
	// claim (vigil.SentinelStore.ClaimDueSentinels), no schedule to show.
	// cmd/vigil asks the daemon's monitor.
	Checking func(id int64) bool
	// MinInterval is the shortest interval between two checks of a
	// sentinel that the daemon's monitor keeps (vigil serve
	// --min-interval): a sentinel whose Fetch is shorter is valid, and is
	// warned of by the live check, the API's sentinel and its page
	// (fetchWarning). Zero: not known, no warning. cmd/vigil sets the
	// monitor's.
	MinInterval time.Duration
	// Unreachable, if not nil, returns why the daemon will not reach a
	// URL, a page's or a webhook's, or "" if it will: vigil serve
	// without --allow-private-networks does not reach private, loopback
	// and link-local addresses. A sentinel that names one is valid, and
	// is warned of by the live check, the API's sentinel and its page
	// (unreachable.go). It may resolve the URL's host, within ctx. Nil:
	// every URL is reached, no warning. cmd/vigil asks the fetcher.
	Unreachable func(ctx context.Context, url string) string
	// ReadAsTextBudget bounds the bytes of bodies one request parses to
	// learn why versions are read as text (DefaultReadAsTextBudget if 0).
	ReadAsTextBudget int64
	// Metrics, if not nil, are served at /metrics.
	Metrics *Metrics
	// PublicMetrics serves /metrics without authentication.
	PublicMetrics bool
	// SecureCookies sets the Secure attribute on cookies even for plain
	// HTTP requests (behind a TLS-terminating proxy). Requests over TLS
	// always get it.
	SecureCookies bool
	// Now returns the current time; time.Now if nil.
	Now func() time.Time

	// logins limits failed sign-ins (ratelimit.go); Register sets it.
	logins *loginLimiter
	// refusals logs the refused sign-ins, a flood of them in a few
	// lines (loginlog.go); Register sets it.
	refusals *refusalLog
}

func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Server) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.New(slog.DiscardHandler)
}

// Register adds every route of the API, the metrics and the dashboard to
// mux: the one routing table of the web adapter.
func (s *Server) Register(mux *http.ServeMux) {
	s.logins = newLoginLimiter()
	s.refusals = newRefusalLog(s.logger())
	dummyHash() // made now, so that the first unknown account's sign-in costs no more than the others'
	cop := http.NewCrossOriginProtection()
	query, err := apiQueryParameters(openAPI)
	if err != nil {
		panic(err) // the embedded openapi.json, which openapi_test.go reads
	}
	api := func(pattern string, h apiFunc) {
		mux.Handle(pattern, cop.Handler(s.apiHandler(documentedQuery(query, pattern, h))))
	}
	page := func(pattern string, h pageFunc) { mux.Handle(pattern, cop.Handler(s.pageHandler(h))) }
	public := func(pattern string, h http.HandlerFunc) { mux.Handle(pattern, cop.Handler(s.secure(h))) }

	// REST API.
	api("GET /api/v1/openapi.json", s.handleOpenAPI)
	api("GET /api/v1/me", s.handleMe)
	api("PATCH /api/v1/me", s.handleMeUpdate)
	api("GET /api/v1/me/webhook-key", s.handleMeWebhookKey)
	api("GET /api/v1/sentinels", s.handleSentinelList)
	api("POST /api/v1/sentinels", s.handleSentinelCreate)
	api("POST /api/v1/sentinels/check", s.handleSentinelCheck)
	api("GET /api/v1/sentinels/{id}", s.handleSentinelGet)
	api("PUT /api/v1/sentinels/{id}", s.handleSentinelUpdate)
	api("DELETE /api/v1/sentinels/{id}", s.handleSentinelDelete)
	api("POST /api/v1/sentinels/{id}/pause", s.handleSentinelPause)
	api("POST /api/v1/sentinels/{id}/resume", s.handleSentinelResume)
	api("POST /api/v1/sentinels/{id}/check-now", s.handleSentinelCheckNow)
	api("POST /api/v1/sentinels/{id}/rotate-feed", s.handleSentinelRotateFeed)
	api("GET /api/v1/sentinels/{id}/changes", s.handleSentinelChanges)
	api("GET /api/v1/resources", s.handleResourceList)
	api("GET /api/v1/resources/{id}", s.handleResourceGet)
	api("GET /api/v1/resources/{id}/versions", s.handleVersionList)
	api("GET /api/v1/resources/{id}/diff", s.handleDiff)
	api("GET /api/v1/versions/{id}", s.handleVersionGet)
	api("GET /api/v1/versions/{id}/body", s.handleVersionBody)
	api("GET /api/v1/versions/{id}/text", s.handleVersionText)
	api("GET /api/v1/changes", s.handleChangeList)
	api("GET /api/v1/changes/{id}", s.handleChangeGet)
	api("GET /api/v1/notifications", s.handleNotificationList)
	api("GET /api/v1/notifications/{id}", s.handleNotificationGet)
	api("POST /api/v1/notifications/{id}/retry", s.handleNotificationRetry)
	api("GET /api/v1/tokens", s.handleTokenList)
	api("POST /api/v1/tokens", s.handleTokenCreate)
	api("DELETE /api/v1/tokens/{id}", s.handleTokenDelete)
	api("GET /api/v1/users", s.handleUserList)
	api("POST /api/v1/users", s.handleUserCreate)
	api("GET /api/v1/users/{id}", s.handleUserGet)
	api("DELETE /api/v1/users/{id}", s.handleUserDelete)
	api("PUT /api/v1/users/{id}/admin", s.handleUserSetAdmin)
	api("POST /api/v1/users/{id}/password", s.handleUserPassword)
	mux.Handle("/api/", s.secure(s.handleAPINotFound(mux)))

	// Metrics.
	if s.Metrics != nil {
		if s.PublicMetrics {
			mux.Handle("GET /metrics", s.Metrics.Handler())
		} else {
			api("GET /metrics", func(w http.ResponseWriter, r *http.Request, _ *vigil.User) error {
				s.Metrics.Handler().ServeHTTP(w, r)
				return nil
			})
		}
	}

	// Dashboard.
	mux.Handle("GET /static/", s.secure(staticHandler()))
	mux.Handle("GET /favicon.ico", s.secure(faviconHandler()))
	public("GET /login", s.handleLoginForm)
	public("POST /login", s.handleLogin)
	page("POST /logout", s.handleLogout)
	page("GET /{$}", s.handleHome)
	page("GET /sentinels", s.handleSentinelsPage)
	page("GET /sentinels/new", s.handleSentinelNewPage)
	page("POST /sentinels", s.handleSentinelCreatePage)
	page("GET /sentinels/{id}", s.handleSentinelPage)
	page("POST /sentinels/{id}", s.handleSentinelUpdatePage)
	page("POST /sentinels/{id}/rotate-feed", s.handleSentinelRotateFeedPage)
	page("POST /sentinels/{id}/{action}", s.handleSentinelActionPage)
	page("GET /resources", s.handleResourcesPage)
	page("GET /resources/{id}", s.handleResourcePage)
	page("GET /resources/{id}/diff", s.handleDiffPage)
	page("GET /resources/{id}/diff/frame", s.handleDiffFrame)
	page("GET /changes/{id}", s.handleChangePage)
	page("GET /notifications", s.handleNotificationsPage)
	page("POST /notifications/{id}/retry", s.handleNotificationRetryPage)
	page("GET /tokens", s.handleTokensPage)
	page("POST /time-zone", s.handleTimeZonePage)
	page("POST /tokens", s.handleTokenCreatePage)
	page("POST /tokens/{id}/delete", s.handleTokenDeletePage)
	page("GET /users", s.handleUsersPage)
	page("POST /users", s.handleUserCreatePage)
	page("POST /users/{id}/password", s.handleUserPasswordPage)
	page("POST /users/{id}/admin", s.handleUserAdminPage)
	page("POST /users/{id}/remove", s.handleUserRemovePage)
}

// secure adds the headers every answer carries.
func (s *Server) secure(h http.Handler) http.Handler { return Secure(h) }

// Secure returns h with the security headers of the dashboard set on every
// answer (Content-Security-Policy, X-Frame-Options, X-Content-Type-Options,
// Referrer-Policy; h may set its own stricter ones) and request bodies
// limited to 1 MiB. The daemon wraps its whole routing table in it, so
// that the mux's own answers (404, 405, redirects) carry them too.
func Secure(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "same-origin")
		if hd.Get("Content-Security-Policy") == "" {
			hd.Set("Content-Security-Policy", dashboardCSP)
		}
		hd.Set("X-Frame-Options", "DENY")
		if r.Body != nil && r.Method != http.MethodGet && r.Method != http.MethodHead {
			r.Body = http.MaxBytesReader(w, r.Body, maxRequestBody)
		}
		h.ServeHTTP(w, r)
	})
}

// maxRequestBody is the most a request may send, form or JSON: a larger
// body is refused with 413 (ETOOLARGE) once it passes the limit.
const maxRequestBody = 1 << 20

// tooLarge returns the domain error of a body over maxRequestBody, if err
// is the error of reading one, and nil otherwise.
func tooLarge(err error) error {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return vigil.Errorf(vigil.ETOOLARGE, "the request body is over %d bytes", mb.Limit)
	}
	return nil
}

// dashboardCSP allows the dashboard's own scripts, styles and frames only.
const dashboardCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// frameCSP is the policy of a page showing foreign HTML: no script, no
// request, only inline styles, in a sandbox even if the frame's sandbox
// attribute were removed. The sandbox allows popups, and them only to
// escape it, as the iframe's sandbox attribute does (templates/diff.html):
// a click on a link of the page (target=_blank, rel="noopener
// noreferrer": rebaseFrame) opens the watched site in a new, normal tab.
// Nothing else: no script, form or top navigation, and an opaque origin,
// not Vigil's.
const frameCSP = "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; base-uri 'none'; form-action 'none'"

package main

import (
	"encoding/json"
	"log"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
)

var vigilFilterOne = vigil.SentinelFilter{Limit: 1}

// httpMounts are the routes other parts of the daemon add to its HTTP
// server (the REST API and dashboard of internal/web), registered from
// init functions with mountHTTP.
var httpMounts []func(mux *http.ServeMux, d *daemon)

// mountHTTP adds routes to the mux of vigil serve. Call it from an init
// function; f runs once when the server starts, with the wired daemon (its
// store, feeds and secret).
func mountHTTP(f func(mux *http.ServeMux, d *daemon)) {
	httpMounts = append(httpMounts, f)
}

// newServeMux builds the one routing table of vigil serve: health, feeds,
// and whatever was mounted with mountHTTP; a GET of a path none of them
// has gets the dashboard's Not found page when the dashboard is mounted
// (daemon.notFoundPages), else mux's plain 404. A panic of any of its
// handlers is answered 500, logged redacted and counted when the
// dashboard is mounted (daemon.recoverPanics), else left to net/http.
func newServeMux(d *daemon) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", d.handleHealthz)
	d.feeds.Register(mux)
	for _, f := range httpMounts {
		f(mux, d)
	}
	var h http.Handler = mux
	if d.notFoundPages != nil {
		h = d.notFoundPages(mux)
	}
	if d.recoverPanics != nil {
		h = d.recoverPanics(h)
	}
	return h
}

// handleHealthz answers 200 {"status":"ok"} when the store answers.
func (d *daemon) handleHealthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if _, _, err := d.store.FindSentinels(r.Context(), vigilFilterOne); err != nil {
		d.logger.Error("healthz", "err", err)
		w.WriteHeader(http.StatusServiceUnavailable)
		json.NewEncoder(w).Encode(map[string]string{"status": "unavailable"})
		return
	}
	json.NewEncoder(w).Encode(map[string]string{"status": "ok"})
}

// Time limits of the dashboard's connections: a request's headers must come
// within readHeaderTimeout and the whole request (bodies are at most 1 MiB)
// within readTimeout, so that a client that sends slowly cannot hold
// connections open for as long as it likes; an idle keep-alive connection
// is closed after idleTimeout. Variables, for the tests.
var (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = time.Minute
	idleTimeout       = 2 * time.Minute
)

// newHTTPServer returns the daemon's HTTP server for handler, with the
// time limits above. What net/http logs itself (a panic no handler
// recovered, a connection's error) goes to logger, redacted
// (serverErrorLog), not to the standard logger.
func newHTTPServer(handler http.Handler, logger *slog.Logger) *http.Server {
	return &http.Server{Handler: handler, ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: readTimeout, IdleTimeout: idleTimeout,
		ErrorLog: serverErrorLog(logger)}
}

// serverErrorLog is the ErrorLog of an HTTP server of the daemon: each
// line net/http writes (its text, a panic's value and stack) is logged at
// Error level on logger with its secrets hidden (vigil.RedactSecrets: the
// tokens of URLs, an Authorization header), where net/http's default,
// the standard logger, wrote it as it was to stderr.
func serverErrorLog(logger *slog.Logger) *log.Logger {
	return log.New(errorLogWriter{logger}, "", 0)
}

type errorLogWriter struct{ logger *slog.Logger }

func (w errorLogWriter) Write(p []byte) (int, error) {
	w.logger.Error("http server", "error", vigil.RedactSecrets(strings.TrimRight(string(p), "\n")))
	return len(p), nil
}

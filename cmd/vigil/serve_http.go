package main

import (
	"encoding/json"
	"net/http"
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
// time limits above.
func newHTTPServer(handler http.Handler) *http.Server {
	return &http.Server{Handler: handler, ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: readTimeout, IdleTimeout: idleTimeout}
}

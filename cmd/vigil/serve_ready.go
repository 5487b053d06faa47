package main

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync/atomic"
)

// notReadyRetry is the Retry-After, in seconds, of the answers vigil serve
// gives while its store is not ready.
const notReadyRetry = 5

// readiness is the handler of vigil serve from the moment it listens: until
// the store is opened and migrated and the daemon wired (ready), a
// migration that may take minutes on a large store, every request gets 503
// Service Unavailable with a Retry-After at once, and /healthz says why,
// instead of a connection that hangs; then the daemon's routes answer.
type readiness struct {
	handler atomic.Pointer[http.Handler]
}

// ready makes h answer every request from now on.
func (rd *readiness) ready(h http.Handler) { rd.handler.Store(&h) }

// ServeHTTP implements http.Handler.
func (rd *readiness) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h := rd.handler.Load(); h != nil {
		(*h).ServeHTTP(w, r)
		return
	}
	const why = "vigil serve is starting: the store is being opened and migrated"
	w.Header().Set("Retry-After", strconv.Itoa(notReadyRetry))
	if r.URL.Path == "/healthz" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		json.NewEncoder(w).Encode(map[string]string{"status": "starting", "detail": why})
		return
	}
	http.Error(w, why+"; try again in a few seconds", http.StatusServiceUnavailable)
}

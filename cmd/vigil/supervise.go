package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/monitor"
	"github.com/vigil-web/vigil/internal/web"
)

// Where a panic that escaped one of vigil serve's loops struck, as
// vigil_panics_total{in} counts it (beside monitor.Panics).
const (
	panicMonitor   = "monitor"   // Monitor.Run's own loop
	panicOutbox    = "outbox"    // Deliverer.Run's own loop
	panicRetention = "retention" // OutboxRetention.Run's own loop
)

// keepRunning runs run, one of the daemon's loops (the monitor's, the
// outbox's, the outbox retention's), on a goroutine of its own until it returns, and returns its
// error. The loops recover the panics of their checks and deliveries; a
// panic that escapes one (a bug in the loop itself) is logged at Error
// level with its stack and counted as in (through count, if not nil), and
// a runtime.Goexit is logged: either way the loop is started again after
// wait, unless ctx has ended, so that the daemon goes on serving and
// monitoring rather than crashing, or running without its loop.
func keepRunning(ctx context.Context, logger *slog.Logger, count func(in string), in string, wait time.Duration, run func() error) error {
	for {
		err := <-vigil.Go(run)
		var pe *vigil.PanicError
		switch {
		case errors.As(err, &pe):
			logger.Error("the "+in+" loop panicked: started again", "in", in, "panic", pe.Value, "stack", string(pe.Stack))
			if count != nil {
				count(in)
			}
		case errors.Is(err, vigil.ErrGoexit):
			logger.Error("the "+in+" loop exited: started again", "in", in, "error", err)
		default:
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// serveHTTP serves srv on ln and sends what ends it, but its Close or
// Shutdown, to serveErr: the daemon then stops. A panic of the server's
// own goroutine (its handlers' net/http recovers) is sent as its error
// and logged at Error level with its stack, not left to crash the
// process.
func serveHTTP(srv *http.Server, ln net.Listener, logger *slog.Logger, serveErr chan<- error) {
	err := <-vigil.Go(func() error { return srv.Serve(ln) })
	if err == nil || errors.Is(err, http.ErrServerClosed) {
		return
	}
	if stack := vigil.PanicStack(err); stack != nil {
		logger.Error("serve HTTP: panicked", "panic", err.Error(), "stack", string(stack))
	}
	serveErr <- err
}

// daemonMetrics returns vigil serve's metrics over st, the count of panics
// shown at 0 from the start wherever the daemon recovers them: the
// monitor's (monitor.Panics), its own loops' and the HTTP handlers'.
func daemonMetrics(st vigil.Store) *web.Metrics {
	m := web.NewMetrics(st)
	m.ShowPanics(monitor.Panics...)
	m.ShowPanics(panicMonitor, panicOutbox, panicRetention)
	return m
}

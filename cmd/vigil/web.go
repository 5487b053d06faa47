package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/monitor"
	"github.com/vigil-web/vigil/internal/notify/feed"
	"github.com/vigil-web/vigil/internal/web"
)

// The REST API, metrics and dashboard of internal/web, mounted on the mux
// of vigil serve. Their configuration comes from the environment:
//
//	VIGIL_ADMIN_EMAIL     the admin account, created on first start (default admin@localhost)
//	VIGIL_ADMIN_PASSWORD  its password; without it a password is generated and printed once
//	VIGIL_METRICS_PUBLIC  "true": /metrics needs no session or token
//	VIGIL_SECURE_COOKIES  "true": cookies get Secure even on plain HTTP (behind a TLS proxy);
//	                      on by default when VIGIL_BASE_URL is https
func init() {
	mountHTTP(mountWeb)
}

func envBool(name string) bool {
	switch strings.ToLower(os.Getenv(name)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

func mountWeb(mux *http.ServeMux, d *daemon) {
	email := os.Getenv("VIGIL_ADMIN_EMAIL")
	if email == "" {
		email = defaultOwner
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	generated, err := web.EnsureAdmin(ctx, d.store, email, os.Getenv("VIGIL_ADMIN_PASSWORD"))
	if err != nil {
		d.logger.Error("admin account", "err", err)
	} else if generated != "" {
		// Printed once: the next start finds the account with its password.
		fmt.Fprintf(os.Stdout, "admin account created: sign in at %s/login as %s with password %s (shown only now)\n",
			d.baseURL, strings.ToLower(email), generated)
	}

	metrics := web.NewMetrics(d.store)
	if d.monitor != nil {
		d.monitor.Fetcher = metrics.Fetcher(d.monitor.Fetcher)
		d.monitor.Store = countedStore{Store: d.monitor.Store, checks: metrics.CheckStore(d.monitor.Store)}
	}
	states, _ := d.store.(vigil.CheckStore)
	s := &web.Server{
		Store:         d.store,
		Warehouse:     d.warehouse,
		Logger:        d.logger,
		Secret:        d.secret,
		Kick:          func() { kick(d.monitorKick) },
		States:        states,
		FeedPath:      func(id int64) string { return feed.Path(d.secret, id, "atom") },
		Metrics:       metrics,
		PublicMetrics: envBool("VIGIL_METRICS_PUBLIC"),
		SecureCookies: envBool("VIGIL_SECURE_COOKIES") || strings.HasPrefix(d.baseURL, "https://"),
	}
	s.Register(mux)
}

// countedStore is the monitor's store with its check records counted.
type countedStore struct {
	monitor.Store
	checks vigil.CheckStore
}

func (c countedStore) RecordChecks(ctx context.Context, recs []*vigil.CheckRecord) error {
	return c.checks.RecordChecks(ctx, recs)
}

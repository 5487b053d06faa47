package web

import (
	"context"
	"net/url"
	"time"

	"github.com/vigil-web/vigil/spec"
)

// A server that does not fetch private addresses (vigil serve without
// --allow-private-networks, Server.Unreachable) takes a sentinel whose
// page or webhook is at one, as the CLI's sentinel add does, but says
// so: the live check warns at the URL (its checker asks
// Server.Unreachable), and the view of the sentinel, which the API's
// create, update and read answer and the dashboard's page shows, lists
// the warnings, so that they are seen when it is saved and not only when
// its checks fail. A save does not ask: the warnings are the server's of
// the day, and its stored checked form (the API's spec) keeps none.

// unreachableWarnings returns the warnings of the pages and webhooks of
// a stored sentinel's checked form c that this server does not reach
// (Server.Unreachable), none if c is nil (the form does not read) or the
// server reaches every URL.
func (s *Server) unreachableWarnings(ctx context.Context, c *spec.Checked) []string {
	if c == nil || s.Unreachable == nil {
		return nil
	}
	return c.UnreachableWarnings(s.reachOf(ctx))
}

// reachBudget bounds the time one request spends asking Server.Unreachable
// of its URLs: a sentinel of many pages on hosts whose DNS does not
// answer would otherwise wait for each in turn, on every view of it and
// every live check the editor sends as the user types.
const reachBudget = 3 * time.Second

// reachOf returns Server.Unreachable for one request: asked once a host
// (pages of one site, its webhook), within reachBudget in all; past it,
// the URLs not yet asked of are not warned of, as a host that does not
// answer is not.
func (s *Server) reachOf(ctx context.Context) func(raw string) string {
	deadline := time.Now().Add(reachBudget)
	seen := map[string]string{}
	return func(raw string) string {
		host := raw
		if u, err := url.Parse(raw); err == nil {
			host = u.Hostname()
		}
		if why, ok := seen[host]; ok {
			return why
		}
		why := ""
		if time.Now().Before(deadline) {
			c, cancel := context.WithDeadline(ctx, deadline)
			why = s.Unreachable(c, raw)
			cancel()
		}
		seen[host] = why
		return why
	}
}

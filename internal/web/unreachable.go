package web

import (
	"context"

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
	return c.UnreachableWarnings(func(url string) string { return s.Unreachable(ctx, url) })
}

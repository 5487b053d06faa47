package main

import (
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/vigil-web/vigil/internal/web"
	"github.com/vigil-web/vigil/spec"
)

// allowedHostsUsage is the help of --allowed-hosts.
const allowedHostsUsage = "comma-separated `names` the dashboard, API, feeds and /healthz answer to, besides --base-url's host, " +
	"IP addresses and localhost: exact names (vigil.example.org) or *.example.com for the names below it (not below a public suffix: *.com, *.co.uk); a request for another " +
	"name gets 421, which keeps a page of a domain rebound to this server's address (DNS rebinding) from reading its answers. " +
	"Listening on every interface without --base-url, this machine's name is answered too (default $VIGIL_ALLOWED_HOSTS)"

// serveHosts returns the names vigil serve answers to (web.Hosts): those
// of --allowed-hosts (allowed, as parseAllowedHosts read them), the host of --base-url, the host of --addr
// when it names one, and, when the daemon listens on every interface
// (listen is unspecified), the machine's name (hostname); IP literals and
// localhost are always answered. everyInterface reports that last case
// when neither --base-url nor --allowed-hosts names the server: the
// names users reach it by are not known, and serveHosts refuses them
// rather than answer any name, which is what a rebinding page needs; the
// start then warns once, naming the flag (warnHosts).
func serveHosts(allowed []string, baseURL, addr string, listen net.Addr, hostname func() (string, error)) (hosts *web.Hosts, names []string, everyInterface bool, err error) {
	names = slices.Clip(allowed) // the names below are appended to a copy
	given := len(names) > 0
	if u, err := url.Parse(baseURL); err == nil && u.Hostname() != "" {
		// Browsers send a Unicode name in its ASCII form.
		if err := spec.ASCIIHost(u); err != nil {
			return nil, nil, false, fmt.Errorf("--base-url %q: %w", baseURL, err)
		}
		more, err := web.ParseHosts(u.Hostname())
		if err != nil {
			return nil, nil, false, fmt.Errorf("--base-url %q: its host: %w", baseURL, err)
		}
		names = append(names, more...)
		given = true
	}
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" {
		if more, err := web.ParseHosts(host); err == nil {
			names = append(names, more...) // --addr vigil.lan:8080
		}
	}
	if tcp, ok := listen.(*net.TCPAddr); ok && (tcp.IP == nil || tcp.IP.IsUnspecified()) {
		// Every interface: users may reach it by this machine's name.
		if h, err := hostname(); err == nil {
			if more, err := web.ParseHosts(h); err == nil {
				names = append(names, more...)
			}
		}
		everyInterface = !given
	}
	hosts, err = web.NewHosts(names)
	return hosts, names, everyInterface, err
}

// warnHosts says, once at start, that requests for names other than
// those of serveHosts are refused, when the daemon listens on every
// interface and no setting names it.
func warnHosts(logger *slog.Logger, names []string) {
	answered := "this server's IP addresses and localhost"
	if len(names) > 0 {
		answered = "this server's IP addresses, localhost and " + strings.Join(names, ", ")
	}
	logger.Warn("requests for names other than "+answered+" get 421 Misdirected Request: "+
		"set --allowed-hosts (or VIGIL_ALLOWED_HOSTS) to the names users reach this server by",
		"allowed_hosts", strings.Join(names, ","))
}

// parseAllowedHosts reads --allowed-hosts (list) once, at start, and
// returns its names (web.ParseHosts) for serveHosts; it refuses an entry
// that is no host name, naming the flag, and its variable when it came
// from there.
func parseAllowedHosts(list string, fromEnv bool) ([]string, error) {
	names, err := web.ParseHosts(list)
	if err != nil {
		from := ""
		if fromEnv {
			from = " (from $VIGIL_ALLOWED_HOSTS)"
		}
		return nil, fmt.Errorf("--allowed-hosts%s: %w", from, err)
	}
	return names, nil
}

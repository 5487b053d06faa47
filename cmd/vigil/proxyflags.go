package main

import (
	"flag"
	"fmt"
	"net/url"
	"strings"

	"github.com/vigil-web/vigil/internal/fetch"
)

// proxyFlags are the outbound proxy's flags of the commands that fetch
// (vigil serve, vigil site crawl): --proxy, whose URL may hold a password
// and is never shown (secretString), and --no-proxy.
type proxyFlags struct {
	proxy, noProxy *string
}

// addProxyFlags defines --proxy and --no-proxy, defaulting to VIGIL_PROXY
// and VIGIL_NO_PROXY; sends says what the command sends through the proxy
// ("every page fetch and robots.txt"). The environment's HTTP_PROXY and
// HTTPS_PROXY are not read: they are often set for other programs, and a
// proxy reaches addresses on the fetcher's behalf.
func addProxyFlags(fs *flag.FlagSet, env *environment, sends string) proxyFlags {
	return proxyFlags{
		proxy: secretString(fs, "proxy", env.getenv("VIGIL_PROXY"), "send "+sends+" through the HTTP proxy at `URL`: "+
			"http://[user:password@]host:port or https://...; the password is never logged, but on the command line it shows in the process list (ps): "+
			"give a URL with a password in $VIGIL_PROXY instead (default $VIGIL_PROXY; HTTP_PROXY is not read)"),
		noProxy: fs.String("no-proxy", env.getenv("VIGIL_NO_PROXY"), "comma-separated `hosts` reached without --proxy: names (with their subdomains; .name and *.name alike), addresses, prefixes such as 10.0.0.0/8, a name or address with :port for that port alone, or * (default $VIGIL_NO_PROXY)"),
	}
}

// options returns the proxy and the hosts reached without it; no proxy if
// --proxy is empty. An entry of --no-proxy that fetch.ParseNoProxy
// refuses, which no host would match, is an error naming it, with or
// without --proxy. Its errors do not show the password.
func (f proxyFlags) options() (*url.URL, []string, error) {
	hosts, err := fetch.ParseNoProxy(*f.noProxy)
	if err != nil {
		return nil, nil, fmt.Errorf("--no-proxy (or VIGIL_NO_PROXY): %w", err)
	}
	if strings.TrimSpace(*f.proxy) == "" {
		return nil, hosts, nil
	}
	u, err := fetch.ParseProxy(*f.proxy)
	if err != nil {
		return nil, nil, fmt.Errorf("--proxy (or VIGIL_PROXY): %w", err)
	}
	return u, hosts, nil
}

// proxyShown is the proxy for the log: its scheme, host and port, without
// its user and password; "" without a proxy.
func proxyShown(u *url.URL) string {
	if u == nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

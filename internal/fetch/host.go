package fetch

import (
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// hostKey returns u's host as one spelling of it: its name lower-cased,
// in ASCII (an internationalised name in its punycode form, the one DNS
// and HTTP know) and without a trailing dot, as vigil.CanonicalURL writes
// it, with its port unless that is the scheme's default. It keys the
// host's turns and, with the scheme, its robots.txt, so that a host spelt
// in Unicode (a Location, a link) and in punycode (a sentinel's URL, the
// browser), with a trailing dot or with ":80" written out, is one host. A
// name IDNA refuses is kept as it is: its request fails anyway.
func hostKey(u *url.URL) string {
	name := strings.ToLower(u.Hostname())
	if !isASCII(name) {
		if ascii, err := idna.Lookup.ToASCII(name); err == nil {
			name = strings.ToLower(ascii)
		}
	}
	name = strings.TrimSuffix(name, ".")
	port, scheme := u.Port(), strings.ToLower(u.Scheme)
	if scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		port = ""
	}
	if port != "" {
		return net.JoinHostPort(name, port)
	}
	if strings.Contains(name, ":") {
		return "[" + name + "]" // IPv6
	}
	return name
}

// isASCII reports whether s holds ASCII bytes only.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

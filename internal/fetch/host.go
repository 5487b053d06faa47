package fetch

import (
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// hostKey returns u's host, with its port, lower-cased and in ASCII: an
// internationalised name in its punycode form, the one DNS and HTTP know.
// It keys the host's turns and, with the scheme, its robots.txt, so that
// a host spelt in Unicode (a Location, a link) and in punycode (a
// sentinel's URL, the browser) is one host. A name IDNA refuses is kept
// as it is: its request fails anyway.
func hostKey(u *url.URL) string {
	host := strings.ToLower(u.Host)
	name := u.Hostname()
	if isASCII(name) {
		return host
	}
	ascii, err := idna.Lookup.ToASCII(name)
	if err != nil {
		return host
	}
	ascii = strings.ToLower(ascii)
	if port := u.Port(); port != "" {
		return net.JoinHostPort(ascii, port)
	}
	return ascii
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

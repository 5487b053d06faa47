package fetch

import (
	"net"
	"net/url"
	"strings"

	"github.com/vigil-web/vigil/spec"
)

// hostKey returns u's host as one spelling of it: its name lower-cased,
// in ASCII (an internationalised name in its punycode form, spec.ASCIIHost,
// the one DNS and HTTP know) and without a trailing dot, as
// vigil.CanonicalURL writes it, with its port unless that is the scheme's
// default. It keys the host's turns and, with the scheme, its robots.txt,
// so that a host spelt in Unicode (a Location, a link) and in punycode (a
// sentinel's URL, the browser), with a trailing dot or with ":80" written
// out, is one host. A name IDNA refuses is kept as it is: its request fails
// anyway.
func hostKey(u *url.URL) string {
	ascii := *u
	if spec.ASCIIHost(&ascii) != nil {
		ascii = *u
	}
	name := strings.TrimSuffix(strings.ToLower(ascii.Hostname()), ".")
	port, scheme := ascii.Port(), strings.ToLower(ascii.Scheme)
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

package fetch

import (
	"net/url"

	"github.com/vigil-web/vigil/spec"
)

// hostKey returns u's host as one spelling of it (spec.HostKey): its name
// lower-cased, in ASCII (an internationalised name in its punycode form,
// the one DNS and HTTP know) and without its trailing dots, as
// vigil.CanonicalURL writes it, with its port unless that is the scheme's
// default. It keys the host's turns and, with the scheme, its robots.txt,
// so that a host spelt in Unicode (a Location, a link) and in punycode (a
// sentinel's URL, the browser), with a trailing dot or with ":80" written
// out, is one host. A name IDNA refuses is kept as it is: its request fails
// anyway.
func hostKey(u *url.URL) string {
	key, _ := spec.HostKey(u) // on an error, the key of the name as written
	return key
}

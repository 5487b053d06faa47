package spec

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// ASCIIHost sets the host name of u to the form DNS and HTTP know: a
// name written with non-ASCII characters ("bücher.example", or
// "b%C3%BCcher.example", which url.Parse decodes) becomes its ASCII
// (punycode) form, "xn--bcher-kva.example", by the IDNA Lookup profile
// (UTS #46 mapping: lower-cased, full-width dots read as dots); its port,
// and the rest of u, are kept. vigil.CanonicalURL takes only that form, so
// a URL read from outside (a user's, a link's href, a redirect's Location)
// goes through ASCIIHost first; the punycode form is the one every stored
// URL and key holds, so that one host has one spelling.
//
// A name that is ASCII already, an IPv6 literal and a URL without a host
// are left as they are: the IDNA rules refuse ASCII names DNS accepts (an
// underscore, "--" in the third and fourth places, a leading hyphen). A
// non-ASCII name IDNA refuses, or one percent-encoded in bytes that are
// not UTF-8, gives an error that names it, and u is left unchanged.
func ASCIIHost(u *url.URL) error {
	name := u.Hostname()
	if isASCII(name) || strings.HasPrefix(u.Host, "[") {
		return nil
	}
	if !utf8.ValidString(name) {
		// Percent-encoded bytes that are not UTF-8 ("b%FFcher"): IDNA
		// would read them as U+FFFD without an error, a letter it
		// refuses written out, and make up a name.
		return fmt.Errorf("host %s: not UTF-8", quote(name))
	}
	ascii, err := idna.Lookup.ToASCII(name)
	if err != nil {
		return fmt.Errorf("host %s: %w", quote(name), err)
	}
	ascii = strings.ToLower(ascii)
	if port := u.Port(); port != "" {
		ascii = net.JoinHostPort(ascii, port)
	} else if strings.HasSuffix(u.Host, ":") {
		ascii += ":" // an empty port, as written
	}
	u.Host = ascii
	return nil
}

package spec

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// lookup is IDNA's Lookup profile (idna.Lookup: UTS #46 mapping,
// non-transitional, hyphens, joiners and BiDi checked) without its STD3
// ASCII rules, which refuse an underscore: "my_host.bücher.example" was
// refused while "my_host.xn--bcher-kva.example", ASCII, was taken as it is.
// std3Refused and std3RefusedRune apply the rest of those rules to its
// result.
var lookup = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.Transitional(false), idna.StrictDomainName(false))

// std3Refused returns the first byte of the ASCII name ascii that IDNA's
// STD3 rules refuse and an underscore is not (a letter, a digit, a hyphen,
// an underscore and the dots between labels are taken), and whether there
// is one: without the rules, "a*b" was taken, and "⑴" and a no-break space
// were mapped to "(1)" and a space.
func std3Refused(ascii string) (byte, bool) {
	for i := 0; i < len(ascii); i++ {
		switch c := ascii[i]; {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '_', c == '.':
		default:
			return c, true
		}
	}
	return 0, false
}

// std3RefusedRune returns the first letter that is not ASCII of the name
// ascii, which lookup gave, that IDNA's Lookup profile refuses for its
// STD3 rules alone, and whether there is one: the rules refuse, beyond
// ASCII, the letters whose decompositions hold a character they refuse
// ("≠", "≮" and "≯" in the tables of Unicode 15), which lookup takes,
// as it takes them spelt in punycode ("xn--ab-miv", "a≠b"). A letter is
// tried after an "a", which both profiles take and which no rule reads
// with it otherwise: a letter either profile refuses for another rule
// (BiDi, joiners) is refused by both.
func std3RefusedRune(ascii string) (rune, bool) {
	name, err := lookup.ToUnicode(ascii)
	if err != nil {
		return 0, false // lookup took it: no label decodes worse than it did
	}
	for _, r := range name {
		if r < utf8.RuneSelf {
			continue // std3Refused
		}
		label := "a" + string(r)
		if _, err := idna.Lookup.ToASCII(label); err != nil {
			if _, err := lookup.ToASCII(label); err == nil {
				return r, true
			}
		}
	}
	return 0, false
}

// ASCIIHost sets the host name of u to the form DNS and HTTP know: a
// name written with non-ASCII characters ("bücher.example", or
// "b%C3%BCcher.example", which url.Parse decodes) becomes its ASCII
// (punycode) form, "xn--bcher-kva.example", by IDNA's Lookup profile
// (UTS #46 mapping: lower-cased, full-width dots read as dots) taking an
// underscore as an ASCII name does (see lookup); its port, and the rest of
// u, are kept. vigil.CanonicalURL takes only that form, so
// a URL read from outside (a user's, a link's href, a redirect's Location)
// goes through ASCIIHost first; the punycode form is the one every stored
// URL and key holds, so that one host has one spelling.
//
// A name that is ASCII already, an IPv6 literal and a URL without a host
// are left as they are: the IDNA rules refuse ASCII names DNS accepts ("--"
// in the third and fourth places, a leading hyphen). A
// non-ASCII name IDNA refuses, or one percent-encoded in bytes that are
// not UTF-8, gives an error that names it, and u is left unchanged. The
// lengths DNS takes are not checked: see CheckHostName.
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
	ascii, err := lookup.ToASCII(name)
	if err != nil {
		return fmt.Errorf("host %s: %w", quote(name), err)
	}
	ascii = strings.ToLower(ascii)
	if c, ok := std3Refused(ascii); ok {
		return fmt.Errorf("host %s: %q is not a letter, digit, hyphen or underscore", quote(name), c)
	}
	if r, ok := std3RefusedRune(ascii); ok {
		return fmt.Errorf("host %s: %U is not taken by IDNA's STD3 rules", quote(name), r)
	}
	if port := u.Port(); port != "" {
		ascii = net.JoinHostPort(ascii, port)
	} else if strings.HasSuffix(u.Host, ":") {
		ascii += ":" // an empty port, as written
	}
	u.Host = ascii
	return nil
}

// The lengths DNS takes (RFC 1035 section 2.3.4, RFC 1123 section 2.1),
// in bytes of a name's ASCII form.
const (
	maxHostLabel = 63  // a label
	maxHostName  = 253 // a name, without the trailing dot of an absolute name
)

// CheckHostName returns an error naming the host of u if no fetch can
// reach it by that name: one ASCIIHost refuses, or one whose ASCII form
// DNS refuses, with an empty label ("a..example", ".example",
// "example.."), a label longer than 63 bytes or a name longer than 253.
// The trailing dot of an absolute name ("example.") is no empty label and
// is not counted. A name spelt in Unicode is measured in its punycode
// form, the one DNS is asked for. An IP literal (IPv4, or IPv6 in
// brackets) and a URL without a host pass; u is not changed.
//
// It is the one rule of what DNS takes, for every part of Vigil:
// NormalizeURL holds a URL typed by a user to it, and so do the fetcher
// (a page asked for, a redirect of a page or of robots.txt, a rendered
// page's main frame: refused, naming the host), link extraction (a link
// left out: a crawl neither queues nor fetches it) and the stores (no
// resource is stored under such a host). ASCIIHost does not. HostKey and
// vigil.CanonicalURL, which key a host rather than judge it, trim every
// trailing dot: "a.example..", refused here as a name with an empty
// label, would be keyed as "a.example"; the domain cannot call this
// function (it imports the standard library alone), so CanonicalURL's
// callers call it first. A link in a page to such a host is still a link
// of the page to intent's change detection, which reports what the page
// says and fetches nothing.
func CheckHostName(u *url.URL) error {
	ascii := *u
	return CheckASCIIHost(&ascii)
}

// CheckASCIIHost is CheckHostName and then ASCIIHost, in one IDNA
// conversion where calling both made two: if CheckHostName takes the host
// of u, it sets it to its ASCII (punycode) form, as ASCIIHost does;
// otherwise it returns CheckHostName's error, word for word, and leaves u
// unchanged. It is for a caller that refuses a host no fetch can reach and
// goes on with the form every stored URL holds (a link, a redirect's
// Location, a URL or host a user asks for).
func CheckASCIIHost(u *url.URL) error {
	ascii := *u
	if err := ASCIIHost(&ascii); err != nil {
		return err
	}
	if err := checkDNSName(&ascii, u.Hostname()); err != nil {
		return err
	}
	u.Host = ascii.Host
	return nil
}

// checkDNSName returns an error naming the host as written, name, if the
// host of u, its ASCII form (ASCIIHost), breaks the rules of
// CheckHostName.
func checkDNSName(u *url.URL, name string) error {
	ascii := u.Hostname()
	if ascii == "" || strings.HasPrefix(u.Host, "[") || net.ParseIP(ascii) != nil {
		return nil
	}
	form := "" // how the lengths are measured, for a name not in ASCII
	if !isASCII(name) {
		form = " in punycode"
	}
	ascii = strings.TrimSuffix(ascii, ".") // an absolute name
	for label := range strings.SplitSeq(ascii, ".") {
		switch {
		case label == "":
			return fmt.Errorf("host %s has an empty label", quote(name))
		case len(label) > maxHostLabel:
			in := form // an ASCII label of a Unicode name is as written
			if !strings.HasPrefix(label, "xn--") {
				in = ""
			}
			return fmt.Errorf("host %s has a label of %d bytes%s: DNS takes at most %d", quote(name), len(label), in, maxHostLabel)
		}
	}
	if len(ascii) > maxHostName {
		return fmt.Errorf("host %s is %d bytes long%s: DNS takes at most %d", quote(name), len(ascii), form, maxHostName)
	}
	return nil
}

// HostKey returns the key of u's host: one spelling of each host, however
// u spells it, for comparing hosts and keying what is kept per host. The
// name is in ASCII (a Unicode or percent-encoded name in its punycode form,
// ASCIIHost), in lower case and without its trailing dots (a DNS
// absolute name, "example.com.", is the host "example.com"; every dot is
// trimmed, as vigil.CanonicalURL trims them from the URLs it stores); the
// port follows it unless it is empty or the default of u's scheme (80 for
// http, 443 for https); an IPv6 literal keeps its brackets: "bücher.example.:80",
// "XN--BCHER-KVA.example" and "xn--bcher-kva.example" in http URLs have the
// key "xn--bcher-kva.example", "[2001:db8::1]:8080" the key
// "[2001:db8::1]:8080". u is not changed: HostKey keys a host, and how a
// URL is written stays the caller's.
//
// A name ASCIIHost refuses, and a URL without a host name, give an error,
// with the key of the name as written (in lower case, without trailing
// dots or the default port), for a caller that keys such a host all the
// same: a request to it fails anyway.
func HostKey(u *url.URL) (string, error) {
	ascii := *u
	err := ASCIIHost(&ascii)
	if err != nil {
		ascii = *u
	}
	name := strings.TrimRight(strings.ToLower(ascii.Hostname()), ".")
	port, scheme := ascii.Port(), strings.ToLower(ascii.Scheme)
	if port == defaultPorts[scheme] {
		port = ""
	}
	key := name
	switch {
	case port != "":
		key = net.JoinHostPort(name, port)
	case strings.Contains(name, ":"):
		key = "[" + name + "]" // IPv6
	}
	if err == nil && name == "" {
		err = fmt.Errorf("url %s: no host", quote(u.Redacted()))
	}
	return key, err
}

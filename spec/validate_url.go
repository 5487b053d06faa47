package spec

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// URLs as a sentinel may name them: normalised for storage and
// comparison, checked, and shown in errors without their passwords.

// MaxURL is the longest URL, in bytes, a sentinel may watch or scope a
// site with, or notify (a webhook's, a chat service's): RFC 9110 section 4.1 asks every sender and recipient to
// support URIs of at least 8 000 octets, so a longer one may be refused
// by the server it names, and it was stored, shown and fetched whatever
// its length (a URL of 30 MB passed vigil sentinel check). A sentinel
// stored before the limit loads as it is.
const MaxURL = 8000

// NormalizeURL returns the absolute http(s) URL of a target as written:
// "www.uta.edu/x" becomes "http://www.uta.edu/x"; the scheme and host are
// lower-cased, the scheme's default port (80 for http, 443 for https) is
// dropped, an empty path becomes "/", and dot segments are resolved
// ("/a/./b/../c" is "/a/c"), so that the spellings of one page have one
// normal form ("HTTP://A.example:80" is "http://a.example/"). It
// rejects other schemes (also those written without "//", as in
// "mailto:a@b.example", "data:" or "tel:", which are not read as a host
// and a password), a host followed by a colon and a word that is not a
// port ("intranet:abc", told as the scheme left out, not as a scheme
// intranet), URLs without a host, ports outside 1 to 65535,
// and "http:/a.example" or "https//a.example", whose mistyped scheme
// would otherwise be read as a host named http; a host no fetch can
// reach by its name (CheckHostName: an empty label, as in "a..example", a
// label longer than 63 bytes or a name longer than 253, in punycode for a
// Unicode name; a trailing dot is taken); and credentials ("user:pass@"),
// with an error that shows the password as "xxxxx", as every error of
// NormalizeURL does.
//
// Sentinels checked before the port and the path were normalised keep
// "http://a.example" in Checked.URLs; NormalizeURL of a stored URL gives
// its present normal form, and the monitor matches the two by
// vigil.CanonicalURL.
func NormalizeURL(raw string) (string, error) {
	return normalizeURL(raw, true)
}

// normalizeURL is NormalizeURL; not strict, it leaves out the rules added
// after sentinels were stored with URLs they break (a port outside 1 to
// 65535, a mistyped "http:/a.example", a host DNS refuses): a stored
// sentinel was checked when it was stored, and loads as it ran then, its
// fetches failing as they did.
func normalizeURL(raw string, strict bool) (string, error) {
	s := strings.TrimSpace(raw)
	shown := hidePassword(raw) // in messages
	if s == "" {
		return "", fmt.Errorf("invalid URL: empty")
	}
	if !strings.Contains(s, "://") && strict {
		// "http:/a.example" or "https//a.example" is a scheme
		// mistyped, not a host named http.
		lower := strings.ToLower(s)
		for _, scheme := range []string{"https", "http"} {
			if strings.HasPrefix(lower, scheme+":") || strings.HasPrefix(lower, scheme+"/") {
				return "", fmt.Errorf("invalid URL %s: write the scheme as %s:// before the host", quote(shown), scheme)
			}
		}
	}
	if !strings.Contains(s, "://") {
		if port, ok := notAPort(s); ok {
			// "intranet:abc" is a host without its scheme and a
			// mistyped port, more likely than an unknown scheme.
			return "", fmt.Errorf("invalid URL %s: no http:// or https:// before the host, and %s is not a port", quote(shown), short(port))
		}
		if scheme, ok := opaqueScheme(s); ok {
			// "mailto:a@b.example" is not a host mailto with a
			// user a: say its scheme, not its credentials.
			return "", fmt.Errorf("invalid URL %s: scheme %s: only http and https pages can be watched", quote(shown), short(scheme))
		}
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		if shown != raw {
			// url.Parse's detail may quote the password, cut at
			// a "/", "?" or "#" in it (`invalid port ":pa"`).
			return "", fmt.Errorf("invalid URL %s: it does not parse (a password must be percent-encoded)", quote(shown))
		}
		return "", fmt.Errorf("invalid URL %s: %v", quote(shown), unwrapURLError(err))
	}
	if err := checkPort(u); err != nil && strict {
		return "", fmt.Errorf("invalid URL %s: %v", quote(shown), err)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("invalid URL %s: scheme %s: only http and https pages can be watched", quote(shown), short(u.Scheme))
	}
	if u.Host == "" || u.Hostname() == "" {
		return "", fmt.Errorf("invalid URL %s: no host", quote(shown))
	}
	if u.User != nil {
		return "", fmt.Errorf("invalid URL %s: credentials in URLs are not accepted", quote(shown))
	}
	// An internationalised host is written as its ASCII (punycode) form,
	// the one DNS and HTTP know: url.URL.String would percent-escape it,
	// a host no fetch can reach.
	name := u.Hostname()
	if err := ASCIIHost(u); err != nil {
		return "", fmt.Errorf("invalid URL %s: %v", quote(shown), err)
	}
	// A name DNS refuses (CheckHostName): no fetch can reach it.
	if err := checkDNSName(u, name); err != nil && strict {
		return "", fmt.Errorf("invalid URL %s: %v", quote(shown), err)
	}
	u.Host = strings.ToLower(u.Host)
	if port := u.Port(); port == "" || port == defaultPorts[u.Scheme] {
		// also "a.example:", an empty port, which is the default
		u.Host = strings.TrimSuffix(strings.TrimSuffix(u.Host, port), ":")
	}
	if u.Path == "" && u.RawPath == "" {
		u.Path = "/"
	}
	// "/a/./b/../c" is "/a/c", as vigil.CanonicalURL keys its resource:
	// one page, one normal form (the fragment stays as written; no
	// fetch sends it, and the monitor drops it).
	if escaped := u.EscapedPath(); removeDotSegments(escaped) != escaped {
		clean := removeDotSegments(escaped)
		if decoded, err := url.PathUnescape(clean); err == nil {
			u.Path, u.RawPath = decoded, clean
		}
	}
	return u.String(), nil
}

// notAPort returns what follows the colon of s, a URL without "://", up to
// its path, query or fragment, when s is a host ("intranet", "a.example")
// and, after a colon, a word that is not a port ("intranet:abc/x" gives
// abc): neither digits, nor empty, nor holding a colon or user information
// ("@"); and the host neither http nor https (a mistyped scheme) nor one
// of opaqueSchemes ("mailto:a@b.example"), nor followed by a path alone
// ("urn:/x").
func notAPort(s string) (string, bool) {
	colon := strings.IndexByte(s, ':')
	if colon <= 0 || strings.ContainsAny(s[:colon], "/?#@[] \t") {
		return "", false
	}
	host := strings.ToLower(s[:colon])
	if host == "http" || host == "https" || opaqueSchemes[host] {
		return "", false
	}
	rest := s[colon+1:]
	port := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		port = rest[:i]
	}
	if port == "" || strings.Contains(rest, "@") || strings.Contains(port, ":") || strings.Trim(port, "0123456789") == "" {
		return "", false
	}
	return port, true
}

// opaqueSchemes are schemes written without "//" ("mailto:a@b.example"):
// what follows their colon is never a port, nor a password.
var opaqueSchemes = map[string]bool{
	"mailto": true, "data": true, "javascript": true, "vbscript": true,
	"tel": true, "sms": true, "fax": true, "callto": true, "sip": true,
	"sips": true, "xmpp": true, "urn": true, "about": true, "blob": true,
	"news": true, "magnet": true, "geo": true, "file": true, "ftp": true,
	"skype": true, "spotify": true, "bitcoin": true, "webcal": true,
}

// opaqueScheme returns the scheme, lower-cased, of s, a URL without "://",
// when it has one NormalizeURL must not read as a host: one of
// opaqueSchemes, or any scheme ([a-z][a-z0-9+.-]*, without a dot, so not
// a host) followed by neither a port (digits, or nothing) nor user
// information (an "@"): "a.example:8080", "localhost:8080" and
// "user:pw@a.example" are a host and a port or credentials. http and
// https are left to the checks of a mistyped scheme.
func opaqueScheme(s string) (string, bool) {
	colon := strings.IndexByte(s, ':')
	if colon <= 0 {
		return "", false
	}
	scheme := strings.ToLower(s[:colon])
	for i, r := range scheme {
		letter := r >= 'a' && r <= 'z'
		if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '+' || r == '-')) {
			return "", false
		}
	}
	if scheme == "http" || scheme == "https" {
		return "", false
	}
	if opaqueSchemes[scheme] {
		return scheme, true
	}
	rest := s[colon+1:]
	if rest == "" || rest[0] >= '0' && rest[0] <= '9' || strings.Contains(rest, "@") {
		return "", false
	}
	return scheme, true
}

// hidePassword returns raw with the password of its user information, if
// it has one, written "xxxxx" (as url.URL.Redacted writes it), for a
// message: the rest is kept as written, so that the user knows the URL.
// The user information is what stands between the "://" (or a leading
// "//", or the start of raw) and the last "@" before the first "/", "?"
// or "#" after it, or, if url.Parse fails (a password holding an
// unescaped "/", "?" or "#"), the last "@" before the first "/", "?" or
// "#" after the first "@"; a mailto: URL is kept whole. It is the rule of
// vigil.RedactURL, which the domain and the adapters call: a library may
// not import the domain, nor the domain a library, so each keeps its
// copy, both tested on the table of testdata/redacturl.json at the root.
func hidePassword(raw string) string {
	start := 0
	if i := strings.Index(raw, "://"); i >= 0 {
		start = i + len("://")
	} else if strings.HasPrefix(raw, "//") {
		start = len("//")
	} else if len(raw) >= len("mailto:") && strings.EqualFold(raw[:len("mailto:")], "mailto:") {
		return raw // an address, no password: "mailto:a@example.com"
	}
	end := len(raw)
	if i := strings.IndexAny(raw[start:], "/?#"); i >= 0 {
		end = start + i
	}
	at := strings.LastIndexByte(raw[start:end], '@')
	if at < 0 {
		// "http://user:pa/ss@host/": a password holding an unescaped
		// "/", "?" or "#" ends the host at it, with a port that is not
		// digits, and url.Parse fails. The user information then runs
		// to the last "@" before the first "/", "?" or "#" after the
		// first "@".
		first := strings.IndexByte(raw[start:], '@')
		if first < 0 {
			return raw
		}
		if _, err := url.Parse(strings.TrimSpace(raw)); err == nil {
			return raw // "http://a.example:8080/@user": an "@" in the path
		}
		end = len(raw)
		if i := strings.IndexAny(raw[start+first:], "/?#"); i >= 0 {
			end = start + first + i
		}
		at = strings.LastIndexByte(raw[start:end], '@')
	}
	colon := strings.IndexByte(raw[start:start+at], ':')
	if colon < 0 {
		return raw
	}
	return raw[:start+colon] + ":xxxxx" + raw[start+at:]
}

// checkPort reports a port outside 1 to 65535, which url.Parse takes (it
// checks only that a port is digits) and no fetch can dial.
func checkPort(u *url.URL) error {
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("port %s out of range (1 to 65535)", port)
		}
	}
	return nil
}

// defaultPorts are the ports NormalizeURL and HostKey drop, by scheme.
var defaultPorts = map[string]string{"http": "80", "https": "443"}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// unwrapURLError returns the error inside a *url.Error, whose own message
// repeats the URL (and would show its password).
func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

// checkSpace returns an error naming the first white space in raw, a URL
// trimmed of the spaces around it, and what it follows: a URL holds none
// (RFC 3986), and net/url takes one in a path or a query, which a fetch
// would send encoded, or as it is, or a receiver read as two words; one
// pasted with its link text, or two URLs in one string, is a mistake to
// tell. The password before it is hidden.
func checkSpace(raw string) error {
	i := strings.IndexFunc(raw, unicode.IsSpace)
	if i < 0 {
		return nil
	}
	what := "a space"
	if r := []rune(raw[i:])[0]; r != ' ' {
		what = fmt.Sprintf("a space (%U)", r)
	}
	return fmt.Errorf("%s after %s (a URL holds none: write %%20 for a space in its path or query)", what, quote(hidePassword(raw[:i])))
}

// HideAddressPassword returns address, an email contact as written, for a
// message: as written, but for the password of a URL given as an address
// (smtp://u:pw@h.example, mailto:u:pw@y.org, u:pw@h.example), written
// "xxxxx" as the checker's messages hide a URL's (its rule is
// vigil.RedactURL's). Unlike a URL's rule, a mailto: URL's password is
// hidden: an address's local part holds no unquoted colon.
//
// The "@" is the last one outside a comment in parentheses:
// "u:pw@y.org (me@home)". A quoted local part before it ("x:y"@y.org,
// "a@b:c"@y.org, a quoted string that opens the address or follows a "<"
// or a space and closes just before the "@") is kept as written. Where
// every "@" is in a comment, or a "(" is left open, the "@" is the last
// one, and no quoted local part is kept. Otherwise the password runs from the first
// colon before the "@" not followed by white space, nor in a quoted string
// closed before it, to the "@", spaces, quotes and all: "u:pa ss@y.org"
// is "u:xxxxx@y.org", `"Bob" <bob:pw@y.org>` is `"Bob" <bob:xxxxx@y.org>`.
// A colon followed by white space ends a display name, as RFC 5322's
// group syntax writes it, and is kept with the name: "Bob: x@y.org" and
// `"Bob: x" <x@y.org>` are named as written, where the rule for URLs read
// "Bob" as a user and " x" as a password ("Bob:xxxxx@y.org"). Where the
// "@" or the colon is in doubt (a password holding "(", a quote, "<", a
// "(" left open before the address), more is hidden rather than less.
func HideAddressPassword(address string) string {
	if strings.Contains(address, "://") || strings.HasPrefix(address, "//") {
		return hidePassword(address)
	}
	prefix, rest := "", address
	if len(address) >= len("mailto:") && strings.EqualFold(address[:len("mailto:")], "mailto:") {
		prefix, rest = address[:len("mailto:")], address[len("mailto:"):]
	}
	at, doubt := addressAt(rest)
	if at < 0 || !doubt && quotedLocalPart(rest[:at]) {
		return address
	}
	colon := passwordColon(rest[:at])
	if last := strings.LastIndexByte(rest, '@'); colon < 0 && last != at {
		// No password before the "@" outside parentheses: one in a
		// "(" left open ("@( <u:pw@y.org>") may be the address's.
		at, colon = last, passwordColon(rest[:last])
	}
	if colon < 0 {
		return address
	}
	return prefix + rest[:colon] + ":xxxxx" + rest[at:]
}

// addressAt returns the index of the "@" of an address as written: the
// last one outside parentheses (a comment, "me@home"), or, if there is
// none, or a "(" is left open (a password holding "("), the last one of
// all, and then doubt; -1 if there is none.
func addressAt(s string) (at int, doubt bool) {
	depth := 0
	at = -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth = max(depth-1, 0)
		case '@':
			if depth == 0 {
				at = i
			}
		}
	}
	if at < 0 || depth > 0 {
		return strings.LastIndexByte(s, '@'), true
	}
	return at, false
}

// quotedLocalPart reports whether local, the text before an address's
// "@", ends in a quoted local part: a quoted string closing just before
// the "@" that opens local, or follows a "<" or white space.
func quotedLocalPart(local string) bool {
	open, last := -1, -1 // the quoted string open, the last one's opening
	for i := 0; i < len(local); i++ {
		switch c := local[i]; {
		case c == '\\' && open >= 0:
			i++ // a quoted pair
		case c == '"' && open < 0:
			open = i
		case c == '"':
			if i == len(local)-1 {
				last = open
			}
			open = -1
		}
	}
	if last < 0 {
		return false
	}
	if last == 0 || local[last-1] == '<' {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(local[:last])
	return unicode.IsSpace(r)
}

// passwordColon returns the index in local, the text before an address's
// "@", of the colon that opens a password, -1 if there is none: the
// first colon not followed by white space (a display name's, "Bob: x")
// nor in a quoted string that closes before the "@" (`"Bob:x" <x@y.org>`);
// one in a quoted string left open, as the sentinel file's quotes around
// the address are, or closed inside a word, counts.
func passwordColon(local string) int {
	first, open, firstOpen := -1, -1, -1 // firstOpen: the first colon in the quoted string open
	for i := 0; i < len(local); i++ {
		switch c := local[i]; {
		case c == '\\' && open >= 0:
			i++ // a quoted pair
		case c == '"' && open < 0:
			open, firstOpen = i, -1
		case c == '"':
			if r, _ := utf8.DecodeRuneInString(local[i+1:]); i+1 < len(local) && r != '<' && !unicode.IsSpace(r) && firstOpen >= 0 && (first < 0 || firstOpen < first) {
				// Closed in a word, not a display name's nor a
				// quoted local part's ("u:p"w@y.org): in doubt.
				first = firstOpen
			}
			open = -1
		case c == ':':
			if r, _ := utf8.DecodeRuneInString(local[i+1:]); i+1 < len(local) && unicode.IsSpace(r) {
				continue
			}
			if open >= 0 && firstOpen < 0 {
				firstOpen = i
			} else if open < 0 && first < 0 {
				first = i
			}
		}
	}
	if open >= 0 && firstOpen >= 0 && (first < 0 || firstOpen < first) {
		return firstOpen
	}
	return first
}

// hideTargetPasswords returns t for a message: t itself when none of its
// URLs has a password, else a copy whose URLs have theirs written "xxxxx"
// (hidePassword), with the position of each of t's nodes.
func hideTargetPasswords(t Target) Target {
	switch t := t.(type) {
	case *URLTarget:
		if shown := hidePassword(t.URL); shown != t.URL {
			return &URLTarget{URLPos: t.URLPos, URL: shown}
		}
	case *SiteTarget:
		c := *t
		c.URL = hidePassword(t.URL)
		c.Scope = make([]*Lit, len(t.Scope))
		changed := c.URL != t.URL
		for k, s := range t.Scope {
			c.Scope[k] = s
			if s != nil && hidePassword(s.Value) != s.Value {
				c.Scope[k] = &Lit{ValuePos: s.ValuePos, Value: hidePassword(s.Value)}
				changed = true
			}
		}
		if changed {
			return &c
		}
	case *BinaryTarget:
		x, y := hideTargetPasswords(t.X), hideTargetPasswords(t.Y)
		if x != t.X || y != t.Y {
			return &BinaryTarget{X: x, OpPos: t.OpPos, Op: t.Op, Y: y}
		}
	}
	return t
}

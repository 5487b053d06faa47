package vigil

import (
	"net"
	"net/url"
	"strings"
)

// CanonicalURL returns the canonical form of an absolute http or https URL,
// the key of a Resource. The rules, in order:
//
//   - the scheme and the host are lower-cased; trailing dots on the host are
//     removed; IPv6 literals keep their brackets;
//   - the default port (80 for http, 443 for https) is dropped;
//   - the fragment is removed (a fragment names a place inside a document,
//     not another document: links to one are "interior" links);
//   - user information is kept as given (it selects a different document on
//     some servers);
//   - percent-encoding is normalised (unreserved characters decoded, hex
//     digits upper-case), then the path is cleaned of "." and ".." segments
//     (RFC 3986 section 5.2.4), "%2e" ones included; an empty path becomes
//     "/"; a trailing slash is kept (it is significant to servers);
//   - the query is kept in its order: servers may treat the order of
//     parameters as significant, so sorting could merge distinct
//     documents. Its percent-encoding is normalised as the path's is
//     (RFC 3986 section 6.2.2: "?a=%7e", "?a=%7E" and "?a=~" are one
//     page), which leaves every reserved character as it is: "%26",
//     "%3D" and "%2B" stay encoded (upper-cased), "&", "=" and "+" stay
//     themselves. White space, control and non-ASCII bytes in it are
//     percent-encoded (a space before a fragment, "?q= #f", ended the URL
//     and was trimmed by a second call). A lone "?" with nothing after is
//     dropped. (Before, the query's percent-encoding was kept as given,
//     and "?a=%7e" and "?a=~" were two resources: the stores' migrations
//     rekey the resources stored so.)
//
// Internationalised host names must be given in their ASCII (punycode) form:
// the domain package has no IDNA tables, so a host with non-ASCII letters is
// rejected with EINVALID. Whatever reads a URL from outside converts it with
// spec.ASCIIHost first, the one conversion (IDNA's Lookup profile) used
// everywhere: user input (spec.NormalizeURL, the command line), the
// Location of a redirect (the fetcher) and the hrefs of a fetched page
// (link extraction).
//
// Nor does it judge whether DNS takes the host's name: an empty label
// ("a..example"; every trailing dot is trimmed, so "a.example.." is keyed
// as "a.example"), a label longer than 63 bytes or a name longer than 253
// pass. The rule is spec.CheckHostName's, and only there: the domain
// imports the standard library alone and spec, a library, never imports
// the domain, so neither can call the other, and a copy here would be two
// rules to keep in step. Whatever keys or fetches a URL read from outside
// calls spec.CheckHostName first and refuses such a host with EINVALID
// naming it: the stores' EnsureResource (no resource is stored under such
// a host), link extraction (warehouse.ExtractLinks, ExtractTextLinks
// and a crawl's frames: the link is left out), the fetcher (a page, a
// redirect), the monitor (a page that fails), the API's filters and
// import warc (a bad record).
//
// It returns EINVALID if raw is not an absolute http or https URL with a
// host, naming raw with its password hidden (RedactURL).
func CanonicalURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		if !strings.Contains(raw, "://") {
			// "127.0.0.1:8080/docs": a scheme left out, which made
			// the colon of the port one in the first path segment.
			return "", invalidURL(raw, "url %q: scheme must be http or https")
		}
		return "", invalidURL(raw, "invalid url %q")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", invalidURL(raw, "url %q: scheme must be http or https")
	}
	if u.Opaque != "" {
		return "", invalidURL(raw, "url %q is not hierarchical")
	}
	host := strings.ToLower(u.Hostname())
	host = strings.TrimRight(host, ".")
	if strings.Trim(host, "[]") == "" {
		return "", invalidURL(raw, "url %q has no host")
	}
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			return "", invalidURL(raw, "url %q: host must be ASCII (punycode)")
		}
	}
	port := u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host = net.JoinHostPort(strings.Trim(host, "[]"), port)
	}
	u.Host = host
	u.Fragment, u.RawFragment = "", ""
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	// Set the path directly: parsing "//x" as a URL would read a host.
	// Percent-encoding is normalised first (RFC 3986 section 6.2.2), so
	// that "%2e" and "%2E" segments are dot segments by the time they are
	// removed: the other order left "/a/%2e/b" as "/a/./b", which a second
	// call changed to "/a/b".
	escaped := removeDotSegments(normalizePercent(p))
	decoded, err := url.PathUnescape(escaped)
	if err != nil {
		return "", invalidURL(raw, "url %q: invalid path")
	}
	u.Path, u.RawPath = decoded, escaped
	u.ForceQuery = false
	u.RawQuery = escapeQueryBytes(normalizePercent(u.RawQuery))
	return u.String(), nil
}

// invalidURL returns the EINVALID error of CanonicalURL for raw: format
// holds one %q, raw with its password hidden (RedactURL), which is worked
// out only for an error, as most URLs are canonical.
func invalidURL(raw, format string) error {
	return Errorf(EINVALID, format, RedactURL(raw))
}

// escapeQueryBytes percent-encodes the white space, control and non-ASCII
// bytes of a raw query, which a URL cannot hold as they are, and leaves
// the rest as it is.
func escapeQueryBytes(q string) string {
	const hex = "0123456789ABCDEF"
	plain := func(c byte) bool { return c > ' ' && c < 0x7f }
	i := 0
	for i < len(q) && plain(q[i]) {
		i++
	}
	if i == len(q) {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 8)
	b.WriteString(q[:i])
	for ; i < len(q); i++ {
		if c := q[i]; plain(c) {
			b.WriteByte(c)
		} else {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// HostOf returns the lower-case host name of a canonical URL, without port
// or brackets.
func HostOf(canonical string) string {
	u, err := url.Parse(canonical)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// removeDotSegments is RFC 3986 section 5.2.4 on an absolute path; unlike
// path.Clean it keeps empty segments ("a//b") and a trailing slash.
func removeDotSegments(p string) string {
	in := strings.Split(p, "/")[1:]
	out := make([]string, 0, len(in))
	for i, seg := range in {
		last := i == len(in)-1
		switch seg {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, seg)
		}
	}
	return "/" + strings.Join(out, "/")
}

// normalizePercent decodes percent-encoded unreserved characters and
// upper-cases the hex digits of the others (RFC 3986 section 6.2.2).
func normalizePercent(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 <= len(s)-1 && isHex(s[i+1]) && isHex(s[i+2]) {
			c := unhex(s[i+1])<<4 | unhex(s[i+2])
			if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~", c) >= 0) {
				b.WriteByte(c)
			} else {
				b.WriteString(strings.ToUpper(s[i : i+3]))
			}
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

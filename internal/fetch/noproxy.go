package fetch

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/vigil-web/vigil/spec"
)

// noProxyWanted is what ParseNoProxy wants of an entry, for its errors.
const noProxyWanted = "want a host name, .suffix or *.suffix, an IP address, an IP prefix such as 10.0.0.0/8 (each but a prefix with :port or not), or *"

// ParseNoProxy reads a comma-separated list of the hosts reached without
// the proxy (Options.NoProxy), as Go's golang.org/x/net/http/httpproxy
// reads NO_PROXY, and returns its entries, trimmed, without the empty
// ones. An entry is one of:
//
//   - a host name, which matches it and its subdomains ("example.com"
//     matches www.example.com); ".example.com" and "*.example.com" match
//     the same (unlike httpproxy, whose suffixes leave out example.com
//     itself); a name in Unicode matches its ASCII (IDNA) form;
//   - an IP address, IPv6 in brackets or not ("192.0.2.7", "2001:db8::1",
//     "[2001:db8::1]"), which matches it, an IPv4-mapped IPv6 address
//     alike; a number the URL standard reads as an IPv4 address ("127.1")
//     is that address, as the fetcher reads a host;
//   - an IP prefix ("10.0.0.0/8", "fd00::/8"), which matches the
//     addresses within it, an IPv4-mapped one ("::ffff:10.0.0.0/104")
//     the IPv4 addresses it maps;
//   - any of the first two with a port ("example.com:8080",
//     "[2001:db8::1]:8443"), which matches that port alone;
//   - "*", which matches every host.
//
// Any other entry (a URL, a path, a bad port or prefix, a name DNS
// refuses, one that ends in a number but is no address, or an address
// as a suffix, ".10.0.0.1") gives an error
// naming it: it would match nothing. The matching is bypass's, over the
// same reading (parseNoProxyEntry), so that what is taken is what is
// matched.
func ParseNoProxy(list string) ([]string, error) {
	var entries []string
	for e := range strings.SplitSeq(list, ",") {
		if e = strings.TrimSpace(e); e == "" {
			continue
		}
		if _, err := parseNoProxyEntry(e); err != nil {
			return nil, err
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// noProxyRule is an entry of NoProxy as read by parseNoProxyEntry.
type noProxyRule struct {
	all    bool         // "*"
	prefix netip.Prefix // an address or a prefix; not valid for a name
	name   string       // in ASCII, lower case, without dots at the ends
	port   string       // "" for every port
}

// noProxyRules reads entries, leaving out those ParseNoProxy refuses,
// which would match nothing.
func noProxyRules(entries []string) []noProxyRule {
	var rules []noProxyRule
	for _, e := range entries {
		if e = strings.TrimSpace(e); e == "" {
			continue
		}
		if r, err := parseNoProxyEntry(e); err == nil {
			rules = append(rules, r)
		}
	}
	return rules
}

// parseNoProxyEntry reads one trimmed, non-empty entry of NoProxy
// (ParseNoProxy); its error names the entry.
func parseNoProxyEntry(entry string) (noProxyRule, error) {
	bad := func(why string) (noProxyRule, error) {
		return noProxyRule{}, fmt.Errorf("entry %q: %s", entry, why)
	}
	e := strings.ToLower(entry)
	if e == "*" {
		return noProxyRule{all: true}, nil
	}
	if strings.Contains(e, "://") {
		return bad("a URL; " + noProxyWanted)
	}
	if addr, bits, ok := strings.Cut(e, "/"); ok {
		if _, err := netip.ParseAddr(addr); err != nil {
			return bad(noProxyWanted)
		}
		p, err := netip.ParsePrefix(e)
		if err != nil {
			return bad(fmt.Sprintf("bad prefix length %q", bits))
		}
		if p.Addr().Is4In6() && p.Bits() >= 96 {
			// The hosts matched are unmapped (bypass): ::ffff:10.0.0.0/104
			// is 10.0.0.0/8, as httpproxy reads it.
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		return noProxyRule{prefix: p.Masked()}, nil
	}
	host, port := e, ""
	bracketed := strings.HasPrefix(e, "[")
	if bracketed || strings.Count(e, ":") == 1 {
		h, p, err := net.SplitHostPort(e)
		switch {
		case err == nil:
			n, err := strconv.ParseUint(p, 10, 16)
			if err != nil || n == 0 {
				return bad(fmt.Sprintf("bad port %q; want 1 to 65535", p))
			}
			host, port = h, strconv.FormatUint(n, 10)
		case bracketed && strings.HasSuffix(e, "]"):
			host = e[1 : len(e)-1]
		default:
			return bad(noProxyWanted)
		}
	}
	if a, err := netip.ParseAddr(host); err == nil {
		switch {
		case bracketed && !a.Is6():
			return bad("only an IPv6 address is written in brackets")
		case a.Zone() != "":
			return bad("an address with a zone; " + noProxyWanted)
		}
		return noProxyRule{prefix: netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()), port: port}, nil
	}
	if bracketed {
		return bad("not an IPv6 address in brackets")
	}
	name := strings.TrimSuffix(host, ".")
	suffix := false
	if s, ok := strings.CutPrefix(name, "*."); ok {
		name, suffix = s, true
	} else if s, ok := strings.CutPrefix(name, "."); ok {
		name, suffix = s, true
	}
	if name == "" {
		return bad("no host name; " + noProxyWanted)
	}
	for _, c := range []byte(name) {
		if c < 0x80 && !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return bad(fmt.Sprintf("%q is not in a host name; %s", c, noProxyWanted))
		}
	}
	u := &url.URL{Host: name}
	if err := spec.CheckASCIIHost(u); err != nil {
		return bad(err.Error())
	}
	name = u.Host
	if a, numeric, err := numericIPv4(name); numeric {
		switch {
		case err != nil:
			return bad(err.Error())
		case suffix:
			return bad("an address has no subdomains; " + noProxyWanted)
		}
		return noProxyRule{prefix: netip.PrefixFrom(a, 32), port: port}, nil
	}
	return noProxyRule{name: name, port: port}, nil
}

// matches reports whether the rule matches a host on port: name, in
// ASCII, lower case, without its trailing dot, or addr if the host is an
// address (isAddr).
func (r noProxyRule) matches(name string, addr netip.Addr, isAddr bool, port string) bool {
	switch {
	case r.all:
		return true
	case r.port != "" && r.port != port:
		return false
	case r.prefix.IsValid():
		return isAddr && r.prefix.Contains(addr)
	default:
		return !isAddr && (name == r.name || strings.HasSuffix(name, "."+r.name))
	}
}

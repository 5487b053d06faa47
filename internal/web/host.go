package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// Hosts is the set of names the daemon answers to: its defence against
// DNS rebinding. A page of a domain its owner rebinds to the daemon's
// address (127.0.0.1, or one of a private network) is of the same origin
// as its own domain, so the browser lets its scripts read the daemon's
// answers (health, a feed whose token the page guesses or learnt, the
// sign-in page); but the browser sends the attacker's name as the Host,
// which no one configured, and Check refuses it.
//
// Allowed, port aside:
//
//   - an IP literal (127.0.0.1, [::1], 192.0.2.7): an origin named by an
//     address cannot be rebound, so the listen address is always allowed,
//     and whatever address a load balancer's health check or a user
//     reaches the daemon at;
//   - an empty Host: HTTP/1.0 clients (a load balancer's check) may send
//     none, and a browser always sends one;
//   - localhost, which the browser resolves itself and no attacker can
//     rebind (an SSH tunnel to the daemon's port opens it so);
//   - the names given to NewHosts: exact ones (vigil.example.org), and
//     patterns *.example.com, any name below example.com (at any depth)
//     but not example.com itself.
//
// /healthz gets no exemption: the checks of load balancers send an IP
// literal, no Host or a configured name, all allowed, and the answer
// tells a rebinding page whether a daemon runs there.
type Hosts struct {
	names    map[string]bool
	suffixes []string // ".example.com" of "*.example.com"
}

// NewHosts returns the Hosts that allow names, as ParseHosts returns them
// (lower-case, without a port or a final dot); an IP literal among them
// is allowed anyway.
func NewHosts(names []string) (*Hosts, error) {
	h := &Hosts{names: map[string]bool{"localhost": true}}
	for _, n := range names {
		name, err := parseHost(n)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", n, err)
		}
		if suffix, ok := strings.CutPrefix(name, "*"); ok {
			h.suffixes = append(h.suffixes, suffix)
		} else {
			h.names[name] = true
		}
	}
	return h, nil
}

// ParseHosts reads a comma-separated list of host names and patterns
// *.example.com (--allowed-hosts), in any case, a final dot dropped; empty
// entries are skipped. An entry that is no host name (a port, a URL, a *
// anywhere but as the whole first label, a * over a public suffix: *.com)
// is refused, naming it.
func ParseHosts(list string) ([]string, error) {
	var names []string
	for _, e := range strings.Split(list, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		name, err := parseHost(e)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", e, err)
		}
		names = append(names, name)
	}
	return names, nil
}

// parseHost returns an entry of the allowed hosts in its canonical form
// (lower case, no final dot, an IPv6 literal without its brackets).
func parseHost(e string) (string, error) {
	if strings.Contains(e, "://") || strings.Contains(e, "/") {
		return "", errors.New("want a host name, not a URL")
	}
	if ip, ok := ipLiteral(e); ok {
		return ip.String(), nil
	}
	name := strings.TrimSuffix(strings.ToLower(e), ".")
	if strings.Contains(name, ":") {
		return "", errors.New("want a host name without a port (the port is not checked)")
	}
	rest, wild := strings.CutPrefix(name, "*.")
	switch {
	case name == "*" || name == "*.":
		return "", errors.New(`want a host name or *.name: "*" would answer every name, as DNS rebinding needs`)
	case strings.Contains(rest, "*"):
		return "", errors.New("want a host name or *.name: a * only as the whole first label")
	}
	if err := checkHostName(rest); err != nil {
		return "", err
	}
	if wild {
		if publicSuffix(rest) {
			return "", fmt.Errorf("want a host name or *.name under a domain of your own: %q is a public suffix, whose names anyone may register and point at this daemon, as DNS rebinding needs", rest)
		}
		return "*." + rest, nil
	}
	return name, nil
}

// publicSuffix reports whether name is a public suffix under which
// anyone may register a name ("com", "co.uk", "github.io"), from the
// Public Suffix List. A single label the list does not hold ("lan",
// "internal", a name of an intranet) is none: the list's default rule
// makes every unknown top-level label a suffix, which would refuse
// *.lan.
func publicSuffix(name string) bool {
	ps, icann := publicsuffix.PublicSuffix(name)
	return ps == name && (icann || strings.Contains(ps, "."))
}

// checkHostName refuses a name that is not made of DNS labels of
// letters, digits, hyphens and underscores (which browsers send, and
// spec.ASCIIHost takes).
func checkHostName(name string) error {
	if len(name) > 253 {
		return errors.New("want a host name: it is over 253 characters")
	}
	for _, label := range strings.Split(name, ".") {
		switch {
		case label == "":
			return errors.New("want a host name: an empty label")
		case len(label) > 63:
			return errors.New("want a host name: a label is over 63 characters")
		case label[0] == '-' || label[len(label)-1] == '-':
			return errors.New("want a host name: a label starts or ends with a hyphen")
		}
		for _, c := range []byte(label) {
			switch {
			case c >= 0x80:
				return errors.New("want a host name in its ASCII form (xn--...)")
			case c != '-' && c != '_' && !('a' <= c && c <= 'z') && !('0' <= c && c <= '9'):
				return errors.New("want a host name: letters, digits, hyphens, underscores and dots")
			}
		}
	}
	return nil
}

// ipLiteral returns the address of an IP literal, an IPv6 one in
// brackets or not (without a zone).
func ipLiteral(s string) (netip.Addr, bool) {
	if inner, ok := strings.CutPrefix(s, "["); ok {
		inner, ok = strings.CutSuffix(inner, "]")
		if !ok {
			return netip.Addr{}, false
		}
		ip, err := netip.ParseAddr(inner)
		return ip, err == nil && ip.Is6() && ip.Zone() == ""
	}
	ip, err := netip.ParseAddr(s)
	return ip, err == nil && ip.Zone() == ""
}

// Allow reports whether a request's Host header, port aside, is one the
// daemon answers to.
func (h *Hosts) Allow(host string) bool {
	if host == "" {
		return true
	}
	if _, ok := ipLiteral(host); ok {
		return true // an IPv6 literal in brackets, without a port
	}
	name := host
	if strings.HasPrefix(host, "[") {
		end := strings.LastIndex(host, "]")
		if end < 0 || (end+1 < len(host) && host[end+1] != ':') {
			return false
		}
		_, ok := ipLiteral(host[:end+1])
		return ok && (end+1 == len(host) || isPort(host[end+2:]))
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 {
		if !isPort(host[i+1:]) {
			return false // "127.0.0.1:80.evil.example" names no host of ours
		}
		name = host[:i]
	}
	if _, ok := ipLiteral(name); ok {
		return true
	}
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	if h.names[name] {
		return true
	}
	for _, s := range h.suffixes {
		if len(name) > len(s) && strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// isPort reports whether s, what follows a Host header's last colon, is
// a port: a number from 1 to 65535 in digits, or none (a colon with no
// port after it, which URLs allow). A link built from the header carries
// it as it is: "localhost:99999" or ":0" would name no port to follow.
func isPort(s string) bool {
	if s == "" {
		return true
	}
	if len(s) > 5 {
		return false
	}
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n >= 1 && n <= 65535
}

// misdirected is the answer to a request whose Host is not allowed: it
// names the setting, not the name, which the request sent.
const misdirected = "421 Misdirected Request: this server does not answer to this host name; " +
	"its administrator can allow the name with vigil serve --allowed-hosts."

// Check returns h answering only requests whose Host header Allow takes;
// the others get 421 Misdirected Request and a short plain message.
func (h *Hosts) Check(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !h.Allow(r.Host) {
			w.Header().Set("Cache-Control", "no-store")
			http.Error(w, misdirected, http.StatusMisdirectedRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}

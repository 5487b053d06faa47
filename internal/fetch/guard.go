package fetch

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// privateReason returns why an address may not be fetched without
// AllowPrivateNetworks ("loopback", "private"...), or "" if it may.
//
// A zone does not change where an address leads, but it keeps the address
// out of every netip.Prefix (Contains is false for a zoned address) and
// from matching the interface addresses, which have none: it is dropped
// first.
func privateReason(a netip.Addr) string {
	a = a.Unmap().WithZone("")
	switch {
	case !a.IsValid():
		return "invalid"
	case a.IsLoopback():
		return "loopback"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return "link-local"
	case a.IsPrivate():
		return "private"
	case a.IsMulticast(), a.IsInterfaceLocalMulticast():
		return "multicast"
	}
	for _, p := range reserved {
		if p.Contains(a) {
			return "reserved"
		}
	}
	if v4, ok := embeddedIPv4(a); ok {
		if why := privateReason(v4); why != "" {
			return why + " (embedded in " + a.String() + ")"
		}
	}
	if ownAddrs.contains(a) {
		return "this host's own"
	}
	return ""
}

// ownAddrs are the addresses of this host's interfaces, read again at most
// once a minute: a public address of the host reaches every service bound
// to all interfaces (0.0.0.0), as loopback would.
var ownAddrs = &hostAddrs{read: interfaceAddrs}

type hostAddrs struct {
	read func() []netip.Addr

	mu    sync.Mutex
	at    time.Time
	addrs []netip.Addr
}

func (h *hostAddrs) contains(a netip.Addr) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if now := time.Now(); now.Sub(h.at) > time.Minute {
		h.addrs, h.at = h.read(), now
	}
	return slices.Contains(h.addrs, a)
}

// interfaceAddrs returns the addresses of the host's interfaces; none if
// they cannot be read.
func interfaceAddrs() []netip.Addr {
	ifas, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []netip.Addr
	for _, ifa := range ifas {
		if p, err := netip.ParsePrefix(ifa.String()); err == nil {
			out = append(out, p.Addr().Unmap().WithZone(""))
		}
	}
	return out
}

// Prefixes of IPv6 addresses that carry an IPv4 address a gateway may
// forward to: the well-known NAT64 prefix and SIIT's IPv4-translated
// addresses (the IPv4 address in the last 32 bits), 6to4 (in bits 16-47)
// and the deprecated IPv4-compatible form.
var (
	nat64      = netip.MustParsePrefix("64:ff9b::/96")
	translated = netip.MustParsePrefix("::ffff:0:0:0/96")
	sixToFour  = netip.MustParsePrefix("2002::/16")
	compatible = netip.MustParsePrefix("::/96")
)

// embeddedIPv4 returns the IPv4 address an IPv6 address of one of those
// prefixes carries: [64:ff9b::7f00:1] reaches 127.0.0.1 through a NAT64
// gateway.
func embeddedIPv4(a netip.Addr) (netip.Addr, bool) {
	if !a.Is6() {
		return netip.Addr{}, false
	}
	b := a.As16()
	switch {
	case nat64.Contains(a), translated.Contains(a), compatible.Contains(a):
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case sixToFour.Contains(a):
		return netip.AddrFrom4([4]byte(b[2:6])), true
	}
	return netip.Addr{}, false
}

// reserved are the ranges besides the standard library's predicates that
// do not lead to the public internet (RFC 6890 and its updates):
// carrier-grade NAT, the IETF, documentation and benchmarking ranges, "this
// network", the old 6to4 relays, broadcast, NAT64 of private space, the
// discard prefix, Teredo, the old site-local addresses, and the metadata
// address of some clouds on IPv6. Networks that use documentation ranges
// inside (labs, some virtual machines) are private by their own choice.
var reserved = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("192.88.99.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("255.255.255.255/32"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("100::/64"),
	netip.MustParsePrefix("2001::/32"), // Teredo: its IPv4 addresses are obfuscated
	netip.MustParsePrefix("2001:db8::/32"),
	netip.MustParsePrefix("fec0::/10"),
	netip.MustParsePrefix("fd00:ec2::254/128"),
}

// refusePrivate is the dialer's Control function: it sees the address
// about to be connected, after DNS resolution, for the first request and
// for every redirect.
// permit, when not nil, exempts addresses (tests use it to reach their
// loopback server while refusing other private addresses).
func refusePrivate(permit func(netip.Addr) bool) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("%w: cannot parse dialled address %q", ErrRefused, address)
		}
		if permit != nil && permit(ap.Addr().Unmap()) {
			return nil
		}
		return checkAddr(ap.Addr())
	}
}

func checkAddr(a netip.Addr) error {
	if reason := privateReason(a); reason != "" {
		return fmt.Errorf("%w: %s is %s address (vigil serve --allow-private-networks fetches it)", ErrRefused, a.Unmap(), article(reason))
	}
	return nil
}

// article returns reason with the article it reads with: "a loopback",
// "an invalid", "this host's own".
func article(reason string) string {
	switch {
	case strings.HasPrefix(reason, "this "):
		return reason
	case strings.IndexByte("aeiou", reason[0]) >= 0:
		return "an " + reason
	}
	return "a " + reason
}

// refuseLiteral refuses a host that is an IP literal in private space, so
// that a redirect to one fails with a clear message before any dialling.
// A host the URL standard reads as an IPv4 address (numericIPv4:
// 2130706433, 127.1) is refused as that address, and one that ends in a
// number but is no address is refused: a proxy may dial what it reads.
// localhost and its subdomains, in any case and with trailing dots, are
// refused as 127.0.0.1, the address RFC 6761 gives them whatever DNS
// answers, and browsers too.
func refuseLiteral(host string, permit func(netip.Addr) bool) error {
	host = strings.Trim(host, "[]")
	if isLocalhost(host) {
		if permit != nil && permit(netip.AddrFrom4([4]byte{127, 0, 0, 1})) {
			return nil
		}
		return fmt.Errorf("%w: %s is a loopback name (vigil serve --allow-private-networks fetches it)", ErrRefused, host)
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		var numeric bool
		if a, numeric, err = numericIPv4(host); !numeric {
			return nil
		} else if err != nil {
			return fmt.Errorf("%w: host %s %v", ErrRefused, host, err)
		}
	}
	if permit != nil && permit(a.Unmap()) {
		return nil
	}
	return checkAddr(a)
}

// isLocalhost reports whether host is localhost or one of its
// subdomains, in any case, with trailing dots or without.
func isLocalhost(host string) bool {
	host = strings.ToLower(strings.TrimRight(host, "."))
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}

// guardDial returns dial with the checks of a host made before any DNS
// lookup (refuseLiteral): a host the URL standard reads as an IPv4
// address is refused as that address, where the resolver would look it up
// as a name ("no such host", or a search domain's answer), and a localhost
// name as loopback. The dialer's Control (refusePrivate) then checks each
// address dialled. A page, a webhook, a redirect and the rendering
// browser's requests all dial through it.
func guardDial(dial func(ctx context.Context, network, addr string) (net.Conn, error), permit func(netip.Addr) bool) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if host, _, err := net.SplitHostPort(addr); err == nil {
			if err := refuseLiteral(host, permit); err != nil {
				return nil, &net.OpError{Op: "dial", Net: network, Err: err}
			}
		}
		return dial(ctx, network, addr)
	}
}

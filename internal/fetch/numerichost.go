package fetch

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"
)

// errNotIPv4 is numericIPv4's error for a host that ends in a number but
// is no address.
var errNotIPv4 = errors.New("ends in a number but is not an IPv4 address")

// numericIPv4 reads host as the URL standard's IPv4 parser does when the
// host ends in a number (its last label, a trailing dot aside, is decimal
// digits or 0x and hex digits): "2130706433", "0x7f.1", "127.1" and
// "0177.0.0.1" are all 127.0.0.1 to a browser and to many proxies, which
// read them so, though netip does not. It reports whether host ends in a
// number, and, if it does, the address, or an error if it is not one
// ("1.2.3.4.5", "256.1.1.1", "example.123"). A host that does not end in
// a number is a name: false, no error.
//
// Through a proxy (Options.Proxy), such a host would otherwise be checked
// by a DNS lookup here, which finds nothing or, through a search domain,
// some name's address, while the proxy dials the address it reads.
func numericIPv4(host string) (netip.Addr, bool, error) {
	labels := strings.Split(host, ".")
	if len(labels) > 1 && labels[len(labels)-1] == "" {
		labels = labels[:len(labels)-1]
	}
	last := labels[len(labels)-1]
	if last == "" || !isDecimal(last) && !isHexNumber(last) {
		return netip.Addr{}, false, nil
	}
	if len(labels) > 4 {
		return netip.Addr{}, true, errNotIPv4
	}
	var v uint64
	for i, label := range labels {
		n, err := ipv4Number(label)
		if err != nil {
			return netip.Addr{}, true, errNotIPv4
		}
		if i < len(labels)-1 {
			if n > 255 {
				return netip.Addr{}, true, errNotIPv4
			}
			v = v<<8 | n
			continue
		}
		// The last number fills the bytes the others left.
		bits := 8 * uint(5-len(labels))
		if n >= 1<<bits {
			return netip.Addr{}, true, errNotIPv4
		}
		v = v<<bits | n
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true, nil
}

// ipv4Number reads one label of an IPv4 host as the URL standard does:
// hexadecimal after 0x (nothing after it is 0), octal after a leading
// 0, else decimal.
func ipv4Number(s string) (uint64, error) {
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
		if s == "" {
			return 0, nil
		}
	case len(s) >= 2 && s[0] == '0':
		s, base = s[1:], 8
	}
	if s == "" || strings.ContainsAny(s, "+-_") {
		return 0, strconv.ErrSyntax
	}
	return strconv.ParseUint(s, base, 32)
}

func isDecimal(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isHexNumber(s string) bool {
	if len(s) < 2 || s[0] != '0' || s[1] != 'x' && s[1] != 'X' {
		return false
	}
	for i := 2; i < len(s); i++ {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(s[i])) {
			return false
		}
	}
	return true
}

package fetch

import (
	"net/netip"
	"slices"
	"strings"
	"testing"
)

// FuzzParseNoProxy: any list is read without a panic; what it takes reads
// again as the same entries, each of which parses on its own, and the
// rules built from them match hosts without a panic.
func FuzzParseNoProxy(f *testing.F) {
	for _, s := range []string{
		"example.com, .example.org,*.example.net", "10.0.0.0/8,::ffff:10.0.0.0/104,[2001:db8::1]:8443",
		"127.1, localhost:08080, *", "http://x/, a.example:99999, .10.0.0.1", "bücher.example,,  ,:80",
		"fe80::1%eth0", "[::1", "a..b", "1.2.3.4/33",
	} {
		f.Add(s)
	}
	hosts := []struct {
		name string
		port string
	}{{"www.example.com", "443"}, {"10.1.2.3", "80"}, {"2001:db8::1", "8443"}, {"localhost", "8080"}}
	f.Fuzz(func(t *testing.T, list string) {
		entries, err := ParseNoProxy(list)
		if err != nil {
			if !strings.Contains(err.Error(), "entry") {
				t.Fatalf("ParseNoProxy(%q): error %q names no entry", list, err)
			}
			return
		}
		again, err := ParseNoProxy(strings.Join(entries, ","))
		if err != nil || !slices.Equal(again, entries) {
			t.Fatalf("ParseNoProxy(%q) = %q, which reads again as %q, %v", list, entries, again, err)
		}
		for _, e := range entries {
			if _, err := parseNoProxyEntry(e); err != nil {
				t.Fatalf("entry %q taken from %q does not parse alone: %v", e, list, err)
			}
		}
		for _, r := range noProxyRules(entries) {
			for _, h := range hosts {
				addr, perr := netip.ParseAddr(h.name)
				r.matches(h.name, addr, perr == nil, h.port)
			}
		}
	})
}

package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

func TestPrivateReason(t *testing.T) {
	for _, tc := range []struct {
		addr    string
		refused bool
	}{
		{"93.184.215.14", false},
		{"2606:2800:21f:cb07:6820:80da:af6b:8b2c", false},
		{"127.0.0.1", true},
		{"::1", true},
		{"::ffff:127.0.0.1", true},
		{"10.0.0.1", true},
		{"169.254.169.254", true},
		{"fd00:ec2::254", true},
		// IPv4 addresses inside IPv6 ones that a gateway forwards to.
		{"64:ff9b::7f00:1", true},                      // NAT64 of 127.0.0.1
		{"64:ff9b::a9fe:a9fe", true},                   // NAT64 of 169.254.169.254
		{"64:ff9b::a00:1", true},                       // NAT64 of 10.0.0.1
		{"64:ff9b::5db8:d70e", false},                  // NAT64 of a public address
		{"2002:7f00:1::", true},                        // 6to4 of 127.0.0.1
		{"2002:c0a8:101::1", true},                     // 6to4 of 192.168.1.1
		{"2002:5db8:d70e::1", false},                   // 6to4 of a public address
		{"::7f00:1", true},                             // IPv4-compatible 127.0.0.1
		{"2001:0:4136:e378:8000:63bf:3fff:fdd2", true}, // Teredo
		{"::ffff:0:7f00:1", true},                      // SIIT's IPv4-translated 127.0.0.1
		// Documentation, relay, discard and old site-local ranges.
		{"192.0.2.2", true},
		{"198.51.100.7", true},
		{"203.0.113.9", true},
		{"192.88.99.1", true},
		{"2001:db8::1", true},
		{"100::1", true},
		{"fec0::1", true},
	} {
		a := netip.MustParseAddr(tc.addr)
		why := privateReason(a)
		if (why != "") != tc.refused {
			t.Errorf("privateReason(%s) = %q, want refused %v", tc.addr, why, tc.refused)
		}
		// A zone changes nothing about where an address leads
		// (http://[64:ff9b::7f00:1%25eth0]/ is dialled), but no prefix
		// contains a zoned address.
		if a.Is6() {
			if why := privateReason(a.WithZone("eth0")); (why != "") != tc.refused {
				t.Errorf("privateReason(%s%%eth0) = %q, want refused %v", tc.addr, why, tc.refused)
			}
		}
	}
}

// TestOwnAddressRefused: a public address of the host's own interfaces
// reaches its services bound to all interfaces, and is refused as
// loopback is.
func TestOwnAddressRefused(t *testing.T) {
	saved := ownAddrs
	defer func() { ownAddrs = saved }()
	own := netip.MustParseAddr("93.184.215.14")
	ownAddrs = &hostAddrs{read: func() []netip.Addr { return []netip.Addr{own} }}
	if why := privateReason(own); why != "this host's own" {
		t.Errorf("privateReason(own address) = %q", why)
	}
	if why := privateReason(netip.MustParseAddr("::ffff:93.184.215.14")); why != "this host's own" {
		t.Errorf("privateReason(own address, mapped) = %q", why)
	}
	// A zone changes nothing about where a global address leads: it is
	// dialled as it is without one (http://[2606:...%25eth0]/).
	own6 := netip.MustParseAddr("2606:2800:21f:cb07:6820:80da:af6b:8b2c")
	ownAddrs = &hostAddrs{read: func() []netip.Addr { return []netip.Addr{own, own6} }}
	if why := privateReason(own6.WithZone("eth0")); why != "this host's own" {
		t.Errorf("privateReason(own IPv6 address with a zone) = %q", why)
	}
	if why := privateReason(netip.MustParseAddr("93.184.215.15")); why != "" {
		t.Errorf("privateReason(another address) = %q", why)
	}
	if len(interfaceAddrs()) == 0 {
		t.Error("no interface addresses read: loopback at least should be there")
	}
}

// TestRobotsURLWithZone: the robots.txt URL of a page on a link-local IPv6
// address with a zone is a URL that parses (the zone escaped), so that
// such a page can be fetched at all where it is allowed.
func TestRobotsURLWithZone(t *testing.T) {
	page, err := url.Parse("http://[fe80::1%25lo]:8080/page")
	if err != nil {
		t.Fatal(err)
	}
	var asked string
	c := newRobotsCache(time.Minute)
	c.get(context.Background(), page, func(_ context.Context, u string) (*robotsRules, error) {
		asked = u
		return &robotsRules{fetched: time.Now()}, nil
	})
	if u, err := url.Parse(asked); err != nil || u.Hostname() != "fe80::1%lo" || u.Path != "/robots.txt" {
		t.Errorf("robots URL %q: %v", asked, err)
	}
}

// refuseResolverEnv names, in the environment of a child test process,
// the resolver TestRefuseSpellings runs under there (netdns: go or cgo).
const refuseResolverEnv = "VIGIL_TEST_REFUSE_RESOLVER"

// TestRefuseSpellings: a loopback or private address in any spelling a
// user may type reaches nothing, under the Go resolver and under the C
// one, each in a child process (GODEBUG=netdns=go, netdns=cgo: a process
// chooses its resolver once). Those that parse as addresses (mapped IPv6,
// ULA, link-local with a zone, unspecified, CGNAT, metadata) are refused
// by the guard; the inet_aton spellings (decimal, octal, hex, short),
// no address to Go, which the Go resolver would look up as names and the
// C resolver reads as 127.0.0.1, are read as the URL standard reads them
// and refused before any lookup (guardDial).
// Either way the loopback server gets no request, and neither does a
// proxy named by HTTP_PROXY (on an address the client may reach): the
// client dials itself, where the guard stands.
func TestRefuseSpellings(t *testing.T) {
	resolver := os.Getenv(refuseResolverEnv)
	if resolver == "" {
		for _, r := range []string{"go", "cgo"} {
			cmd := exec.Command(os.Args[0], "-test.run=^TestRefuseSpellings$", "-test.v")
			cmd.Env = append(os.Environ(), refuseResolverEnv+"="+r, "GODEBUG=netdns="+r)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("under the %s resolver: %v\n%s", r, err, out)
			} else if !strings.Contains(string(out), "--- PASS: TestRefuseSpellings") {
				t.Logf("under the %s resolver:\n%s", r, out) // skipped
			}
		}
		return
	}
	// The C resolver reads the inet_aton spellings as addresses, so the
	// dialler's guard refuses them too; without cgo, netdns=cgo is Go's.
	cResolver := false
	if resolver == "cgo" {
		addrs, err := net.DefaultResolver.LookupNetIP(context.Background(), "ip4", "127.1")
		if err != nil || len(addrs) == 0 {
			t.Skipf("no C resolver in this build: 127.1 is %v, %v", addrs, err)
		}
		cResolver = true
	}
	var reached, proxied atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		fmt.Fprint(w, "<p>reached</p>")
	}))
	defer srv.Close()
	// The proxy listens on an address the client may dial, so that a
	// client that took it from the environment would reach it.
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("cannot listen on 127.0.0.2: %v", err)
	}
	proxy := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Add(1)
		fmt.Fprint(w, "<p>proxied</p>")
	}))
	proxy.Listener = ln
	proxy.Start()
	defer proxy.Close()
	proxyAddr := netip.MustParseAddr("127.0.0.2")
	for _, name := range []string{"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"} {
		t.Setenv(name, proxy.URL)
	}
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	c := New(Options{IgnoreRobots: true, TotalTimeout: 3 * time.Second, permit: func(a netip.Addr) bool { return a == proxyAddr }})
	for _, tc := range []struct {
		host    string
		refused bool // refused by the guard, whatever the resolver (else by the C resolver's only)
	}{
		{"127.0.0.1", true},
		{"[::ffff:127.0.0.1]", true},
		{"[::ffff:7f00:1]", true},
		{"[::1]", true},
		{"[0:0:0:0:0:0:0:1]", true},
		{"[::]", true},
		{"0.0.0.0", true},
		{"localhost", true},
		{"[fd00::1]", true},
		{"[fe80::1%25lo]", true},
		{"100.64.0.1", true},
		{"169.254.169.254", true},
		{"[64:ff9b::7f00:1]", true},
		{"①②⑦.0.0.1", true}, // IDNA maps it to 127.0.0.1
		{"2130706433", true},
		{"0177.0.0.1", true},
		{"0x7f.0.0.1", true},
		{"0x7f000001", true},
		{"127.1", true},
		{"017700000001", true},
	} {
		u := "http://" + tc.host + ":" + port + "/"
		_, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: u})
		if err == nil || (tc.refused || cResolver) && !errors.Is(err, ErrRefused) {
			t.Errorf("%s: %v, want a refusal", u, err)
		}
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("the loopback server got %d requests", n)
	}
	if n := proxied.Load(); n != 0 {
		t.Errorf("the proxy of the environment got %d requests", n)
	}
}

// TestRefuseByDefault: the spellings of a loopback or private address a
// user may type are refused by the address guard of a client with the
// defaults, whatever the resolver makes of them, as a page (Fetch), as a
// webhook (HTTPClient) and as a rendered page: IPv6 forms, the URL
// standard's numbers (which the Go resolver looked up as names, failing
// with "no such host", and a search domain could answer), localhost and
// its subdomains with a trailing dot (RFC 6761: loopback, whatever DNS
// says), and the unspecified address. The loopback server gets nothing.
func TestRefuseByDefault(t *testing.T) {
	var reached atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		fmt.Fprint(w, "<p>reached</p>")
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	c := New(Options{IgnoreRobots: true, TotalTimeout: 3 * time.Second, Renderer: refusingRenderer{}})
	for _, host := range []string{
		"[::ffff:127.0.0.1]", "[::1]", "[fc00::1]", "[fd12:3456::1]", "[fe80::1]", "[febf::1]",
		"2130706433", "0x7f.1", "0x7f000001", "0177.0.0.1", "127.1", "127.0.0.1.", "0",
		"localhost", "localhost.", "LOCALHOST.", "a.localhost", "a.localhost.",
		"0.0.0.0", "[::]",
	} {
		u := "http://" + host + ":" + port + "/"
		wantRefused(t, c, u)
		if _, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: u, Render: true}); !errors.Is(err, ErrRefused) {
			t.Errorf("render %s: %v, want a refusal", u, err)
		}
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("the loopback server got %d requests", n)
	}
}

// refusingRenderer fails a test that renders: the client's check of the
// host must refuse it first.
type refusingRenderer struct{}

func (refusingRenderer) Render(ctx context.Context, url string) (string, error) {
	return "", fmt.Errorf("rendered %s", url)
}

package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestParseHosts: the list of --allowed-hosts is read into lower-case
// names and "*.name" patterns; an entry that is no host name is refused,
// naming it and what is wanted.
func TestParseHosts(t *testing.T) {
	for _, tc := range []struct {
		list string
		want []string
		err  string
	}{
		{"", nil, ""},
		{" , ,", nil, ""},
		{"vigil.example.org", []string{"vigil.example.org"}, ""},
		{"Vigil.Example.ORG., *.Example.com", []string{"vigil.example.org", "*.example.com"}, ""},
		{"a.example,b.example", []string{"a.example", "b.example"}, ""},
		{"intranet", []string{"intranet"}, ""},
		{"*.lan", []string{"*.lan"}, ""},
		{"*.vigil.co.uk", []string{"*.vigil.co.uk"}, ""},
		{"*.com", nil, `"*.com": want a host name or *.name under a domain of your own: "com" is a public suffix, whose names anyone may register and point at this daemon, as DNS rebinding needs`},
		{"a.example,*.CO.UK.", nil, `"*.CO.UK.": want a host name or *.name under a domain of your own: "co.uk" is a public suffix, whose names anyone may register and point at this daemon, as DNS rebinding needs`},
		{"*.github.io", nil, `"*.github.io": want a host name or *.name under a domain of your own: "github.io" is a public suffix, whose names anyone may register and point at this daemon, as DNS rebinding needs`},
		{"192.0.2.1,[2001:db8::1],2001:db8::2", []string{"192.0.2.1", "2001:db8::1", "2001:db8::2"}, ""},
		{"*", nil, `"*": want a host name or *.name: "*" would answer every name, as DNS rebinding needs`},
		{"vigil.example.org:8443", nil, `"vigil.example.org:8443": want a host name without a port (the port is not checked)`},
		{"https://vigil.example.org/", nil, `"https://vigil.example.org/": want a host name, not a URL`},
		{"a.*.example", nil, `"a.*.example": want a host name or *.name: a * only as the whole first label`},
		{"*example.com", nil, `"*example.com": want a host name or *.name: a * only as the whole first label`},
		{"*.", nil, `"*.": want a host name or *.name: "*" would answer every name, as DNS rebinding needs`},
		{"vigil..example", nil, `"vigil..example": want a host name: an empty label`},
		{"-vigil.example", nil, `"-vigil.example": want a host name: a label starts or ends with a hyphen`},
		{"vigil_x.example", []string{"vigil_x.example"}, ""},
		{"vigil x.example", nil, `"vigil x.example": want a host name: letters, digits, hyphens, underscores and dots`},
		{"vïgil.example", nil, `"vïgil.example": want a host name in its ASCII form (xn--...)`},
		{strings.Repeat("a", 64) + ".example", nil, `"` + strings.Repeat("a", 64) + `.example": want a host name: a label is over 63 characters`},
	} {
		got, err := ParseHosts(tc.list)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("ParseHosts(%q): %v, want error %q", tc.list, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("ParseHosts(%q): %v", tc.list, err)
		case tc.err == "" && strings.Join(got, "|") != strings.Join(tc.want, "|"):
			t.Errorf("ParseHosts(%q) = %q, want %q", tc.list, got, tc.want)
		}
	}
}

// TestHostsAllow: a Host header (port aside) is allowed when it is an IP
// literal, empty (an HTTP/1.0 client), localhost, or one of the names or
// patterns; any other name is refused, as a page of a domain rebound to
// this server's address sends its own.
func TestHostsAllow(t *testing.T) {
	h, err := NewHosts([]string{"vigil.example.org", "*.corp.example"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		host string
		want bool
	}{
		{"vigil.example.org", true},
		{"VIGIL.example.org:8080", true},
		{"vigil.example.org.", true},
		{"vigil.example.org.:443", true},
		{"a.corp.example", true},
		{"a.b.corp.example:8080", true},
		{"corp.example", false},
		{"xcorp.example", false},
		{"localhost", true},
		{"localhost:8080", true},
		{"LOCALHOST.", true},
		{"127.0.0.1:8080", true},
		{"127.0.0.1", true},
		{"[::1]:8080", true},
		{"[::1]", true},
		{"192.0.2.7:8080", true},
		{"[2001:db8::1]:80", true},
		{"", true},
		{"attacker.example", false},
		{"attacker.example:8080", false},
		{"vigil.example.org.attacker.example", false},
		{"evil-vigil.example.org", false},
		// A port is digits: what follows the last colon is no name.
		{"127.0.0.1:80.evil.example", false},
		{"vigil.example.org:80.evil.example", false},
		{"[::1]:80.evil.example", false},
		{"localhost:8080x", false},
		{"localhost:123456", false},
		// and a port: one to 65535. A link built from the header names it.
		{"localhost:99999", false},
		{"[::1]:65536", false},
		{"vigil.example.org:0", false},
		{"localhost:65535", true},
		{"[::1]:1", true},
		{"localhost:", true},
		{"127.0.0.1.nip.io:8080", false},
		{"localhost.attacker.example", false},
		{"[::1", false},
		{"[attacker.example]:80", false},
		{"0x7f000001", false},
	} {
		if got := h.Allow(tc.host); got != tc.want {
			t.Errorf("Allow(%q) = %v, want %v", tc.host, got, tc.want)
		}
	}
}

// TestCheckHost: through a real server on loopback, a request whose Host
// is not allowed gets 421 with a short plain message that does not repeat
// the name, and never reaches the handler; an allowed one does.
func TestCheckHost(t *testing.T) {
	h, err := NewHosts([]string{"vigil.example.org"})
	if err != nil {
		t.Fatal(err)
	}
	reached := 0
	srv := httptest.NewServer(Secure(h.Check(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached++
		io.WriteString(w, "ok")
	}))))
	defer srv.Close()
	for _, tc := range []struct {
		host   string
		status int
	}{
		{"", http.StatusOK}, // the URL's own: 127.0.0.1:PORT
		{"vigil.example.org", http.StatusOK},
		{"localhost:1234", http.StatusOK},
		{"pwned.attacker.example", http.StatusMisdirectedRequest},
		{"pwned.attacker.example:80", http.StatusMisdirectedRequest},
	} {
		for _, path := range []string{"/", "/healthz", "/login"} {
			req, err := http.NewRequest("GET", srv.URL+path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.host != "" {
				req.Host = tc.host
			}
			before := reached
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Errorf("Host %q %s: %d %q, want %d", tc.host, path, resp.StatusCode, b, tc.status)
			}
			if tc.status != http.StatusOK {
				if reached != before {
					t.Errorf("Host %q %s: the handler ran", tc.host, path)
				}
				if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
					t.Errorf("Host %q %s: Content-Type %q, want text/plain", tc.host, path, ct)
				}
				if !strings.Contains(string(b), "does not answer to this host name") || strings.Contains(string(b), "pwned") {
					t.Errorf("Host %q %s: body %q: want the refusal, without the name", tc.host, path, b)
				}
				if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
					t.Errorf("Host %q %s: the refusal lacks the security headers", tc.host, path)
				}
			}
		}
	}
}

// FuzzParseHosts: any list is read or refused without a panic, and every
// name it gives is allowed by the Hosts made of it (a pattern's names
// below it).
func FuzzParseHosts(f *testing.F) {
	for _, s := range []string{"", "vigil.example.org", "*.example.com, a.b", "[::1],127.0.0.1", "*", "a:1", "x..y", "\xff", "*.", ",,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		names, err := ParseHosts(list)
		if err != nil {
			return
		}
		h, err := NewHosts(names)
		if err != nil {
			t.Fatalf("NewHosts(%q) of ParseHosts(%q): %v", names, list, err)
		}
		for _, n := range names {
			if p, ok := strings.CutPrefix(n, "*."); ok {
				n = "x." + p
			}
			if strings.Contains(n, ":") {
				n = "[" + n + "]"
			}
			if !h.Allow(n) || !h.Allow(n+":8080") {
				t.Errorf("ParseHosts(%q) gave %q, which its Hosts refuses", list, n)
			}
		}
	})
}

package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/web"
)

// TestServeHostCheck: a page of a domain rebound to the daemon's address
// sends its own name as the Host, and the daemon answered it (health,
// feeds, the sign-in page) without a sign-in; now such a request gets 421
// on every route, while the names the daemon is reached by (its address,
// localhost, --base-url's host, --allowed-hosts and $VIGIL_ALLOWED_HOSTS,
// the machine's name when it listens on every interface) are answered.
func TestServeHostCheck(t *testing.T) {
	hostname, _ := os.Hostname()
	hostname = strings.ToLower(hostname)
	if _, err := web.ParseHosts(hostname); err != nil || hostname == "" {
		hostname = "ADDR" // a name no browser sends: not allowed, not tested
	}
	for _, tc := range []struct {
		name    string
		env     string // $VIGIL_ALLOWED_HOSTS
		args    []string
		allowed []string // Host headers answered; "ADDR" is the listen address
		refused []string
		warn    bool // the start warns that names are refused, naming the flag
	}{
		{"loopback", "", nil,
			[]string{"ADDR", "localhost", "LOCALHOST:8080", "127.0.0.1", "[::1]:8080"},
			[]string{"attacker.example", "attacker.example:8080", "vigil.example.org", "127.0.0.1.nip.io"}, false},
		{"base url", "", []string{"--base-url", "https://Vigil.Example.org/vigil"},
			[]string{"ADDR", "vigil.example.org", "vigil.example.org:443", "localhost"},
			[]string{"attacker.example", "example.org", "a.vigil.example.org"}, false},
		{"unicode base url", "", []string{"--base-url", "https://Bücher.example"},
			[]string{"ADDR", "xn--bcher-kva.example", "localhost"},
			[]string{"attacker.example", "bucher.example"}, false},
		{"flag", "", []string{"--allowed-hosts", "vigil.example.org, *.corp.example"},
			[]string{"ADDR", "vigil.example.org", "a.corp.example", "x.y.corp.example:8080"},
			[]string{"corp.example", "attacker.example"}, false},
		{"variable", "*.corp.example", nil,
			[]string{"ADDR", "a.corp.example"},
			[]string{"corp.example", "attacker.example"}, false},
		{"every interface", "", []string{"--addr", ":0"},
			append([]string{"ADDR", "127.0.0.1", "192.0.2.7:8080", "localhost"}, hostname),
			[]string{"attacker.example", "vigil.example.org"}, true},
		{"every interface with a name", "", []string{"--addr", ":0", "--base-url", "https://vigil.example.org"},
			[]string{"ADDR", "vigil.example.org"},
			[]string{"attacker.example"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("VIGIL_ALLOWED_HOSTS", tc.env)
			d := startDaemon(t, filepath.Join(t.TempDir(), "data"), tc.args...)
			get := func(host, path string) (int, string) {
				t.Helper()
				req, err := http.NewRequest("GET", "http://"+d.addr+path, nil)
				if err != nil {
					t.Fatal(err)
				}
				if host == "ADDR" {
					host = d.addr
				}
				req.Host = host
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				return resp.StatusCode, string(b)
			}
			for _, host := range tc.allowed {
				if code, body := get(host, "/healthz"); code != http.StatusOK || !strings.Contains(body, `"ok"`) {
					t.Errorf("Host %q: /healthz %d %s, want 200 ok", host, code, body)
				}
				if code, _ := get(host, "/login"); code != http.StatusOK {
					t.Errorf("Host %q: /login %d, want 200", host, code)
				}
			}
			for _, host := range tc.refused {
				for _, path := range []string{"/healthz", "/login", "/api/v1/me", "/feeds/1/token/atom.xml", "/static/app.css"} {
					code, body := get(host, path)
					if code != http.StatusMisdirectedRequest || !strings.Contains(body, "--allowed-hosts") {
						t.Errorf("Host %q: %s %d %q, want 421 naming --allowed-hosts", host, path, code, body)
					}
				}
			}
			d.stop(t)
			log := d.stderr.String()
			n := strings.Count(log, "set --allowed-hosts (or VIGIL_ALLOWED_HOSTS)")
			if tc.warn && n != 1 || !tc.warn && n != 0 {
				t.Errorf("%d warnings about the names refused, want %v:\n%s", n, tc.warn, log)
			}
		})
	}
}

// TestServeAllowedHostsRefused: an entry of --allowed-hosts (or
// $VIGIL_ALLOWED_HOSTS) that is no host name stops vigil serve, naming
// the flag, the entry and what is wanted.
func TestServeAllowedHostsRefused(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{nil, []string{"--allowed-hosts", "vigil.example.org,*"}, `vigil serve: --allowed-hosts: "*": want a host name or *.name: "*" would answer every name, as DNS rebinding needs`},
		{nil, []string{"--allowed-hosts", "vigil.example.org:8443"}, `vigil serve: --allowed-hosts: "vigil.example.org:8443": want a host name without a port`},
		{map[string]string{"VIGIL_ALLOWED_HOSTS": "https://vigil.example.org"}, nil, `vigil serve: --allowed-hosts (from $VIGIL_ALLOWED_HOSTS): "https://vigil.example.org": want a host name, not a URL`},
	} {
		code, _, stderr := runVigilEnv(t, tc.env, append([]string{"serve", "--data", filepath.Join(t.TempDir(), "data"), "--addr", "127.0.0.1:0"}, tc.args...)...)
		if code != exitError || !strings.HasPrefix(stderr, tc.want) {
			t.Errorf("%v %v: exit %d, stderr %q; want 2 and %q", tc.env, tc.args, code, stderr, tc.want)
		}
	}
}

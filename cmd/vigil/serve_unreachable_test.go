package main

import (
	"net/http"
	"strings"
	"testing"
)

// TestServeUnreachableWarned: vigil serve without
// --allow-private-networks checks a sentinel whose page or webhook is at
// a loopback or private address as valid, as sentinel add does, but
// warns of each, saying why and what flag reaches it; the sentinel
// created says it too. It was taken without a word, and its checks
// failed afterwards. With the flag, nothing is said.
func TestServeUnreachableWarned(t *testing.T) {
	src := "Create Sentinel local\nUsing http://127.0.0.1:9/p\nMonitor any change\nNotify By webhook http://10.0.0.5/hook\n"
	for _, tc := range []struct {
		name  string
		extra []string
		want  []string
	}{
		{"refused", nil, []string{
			"this server does not fetch http://127.0.0.1:9/p: address refused: 127.0.0.1 is a loopback address (vigil serve --allow-private-networks fetches it)",
			"this server does not call webhook http://10.0.0.5/hook: address refused: 10.0.0.5 is a private address (vigil serve --allow-private-networks fetches it)",
		}},
		{"allowed", []string{"--allow-private-networks"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("VIGIL_ALLOW_PRIVATE_NETWORKS", "")
			dir := t.TempDir()
			d := &webDaemon{daemonProc: startDaemon(t, dir, append([]string{"--poll", "100ms"}, tc.extra...)...), dir: dir}
			d.base = "http://" + d.addr
			c := &apiClient{t: t, base: d.base, token: d.addUser(t, "ann@example.com", "a password of ann")}

			a := c.do("POST", "/api/v1/sentinels/check", map[string]string{"source": src})
			var res struct {
				Valid    bool
				Warnings []struct {
					Line, Column int
					Message      string
				}
			}
			a.json(t, &res)
			var got []string
			for _, w := range res.Warnings {
				got = append(got, w.Message)
			}
			if a.status != http.StatusOK || !res.Valid || strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("check: %d valid %v, warnings %q; want valid, %q", a.status, res.Valid, got, tc.want)
			}

			a = c.do("POST", "/api/v1/sentinels", map[string]string{"source": src})
			var view struct{ Warnings []string }
			a.json(t, &view)
			if a.status != http.StatusCreated || strings.Join(view.Warnings, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("create: %d, warnings %q; want %q", a.status, view.Warnings, tc.want)
			}
		})
	}
}

package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestServeBaseURLWarning: vigil serve --addr :PORT without --base-url
// puts http://[::]:PORT links in messages and feeds, which reach nobody; it
// says so once at start. A --base-url, or an address that names a host,
// is not warned about.
func TestServeBaseURLWarning(t *testing.T) {
	for _, tc := range []struct {
		args []string
		warn bool
	}{
		{[]string{"--addr", ":0"}, true},
		{[]string{"--addr", "0.0.0.0:0"}, true},
		{[]string{"--addr", ":0", "--base-url", "https://vigil.example.org"}, false},
		{[]string{"--addr", "127.0.0.1:0"}, false},
	} {
		d := startDaemon(t, filepath.Join(t.TempDir(), "data"), tc.args...)
		d.stop(t)
		log := d.stderr.String()
		n := strings.Count(log, "which names no host: set --base-url (or VIGIL_BASE_URL) to the URL users reach this server at")
		warning := `level=WARN msg="links in emails, webhooks and feeds will use the listen address http://` + d.addr + `, which names no host`
		switch {
		case tc.warn && (n != 1 || !strings.Contains(log, warning)):
			t.Errorf("%v: want one warning about the links' address, got %d:\n%s", tc.args, n, log)
		case !tc.warn && n != 0:
			t.Errorf("%v: warned about the links' address:\n%s", tc.args, log)
		}
	}
}

// TestServeBaseURLRefused: a --base-url (or VIGIL_BASE_URL) that is not an
// absolute http or https URL stops vigil serve, naming it; one without its
// scheme, vigil.example.org, was taken, and every message linked to
// "vigil.example.org/sentinels/1", which no mail client opens.
func TestServeBaseURLRefused(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{nil, []string{"--base-url", "vigil.example.org"}, `vigil serve: --base-url "vigil.example.org": want an absolute http or https URL, such as https://vigil.example.org`},
		{nil, []string{"--base-url", "ftp://vigil.example.org/"}, `vigil serve: --base-url "ftp://vigil.example.org/": want an absolute http or https URL`},
		{nil, []string{"--base-url", "https://"}, `vigil serve: --base-url "https://": want an absolute http or https URL`},
		{map[string]string{"VIGIL_BASE_URL": "vigil.example.org"}, nil, `vigil serve: --base-url "vigil.example.org": want an absolute http or https URL`},
	} {
		code, _, stderr := runVigilEnv(t, tc.env, append([]string{"serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0"}, tc.args...)...)
		if code != exitError || !strings.HasPrefix(stderr, tc.want) {
			t.Errorf("%v %v: exit %d, stderr %q; want 2 and %q", tc.env, tc.args, code, stderr, tc.want)
		}
	}
}

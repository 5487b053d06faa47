package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestServeSMTPPort: without --smtp-port, the relay's port follows the TLS
// mode, 465 for implicit TLS and 587 otherwise, as the email package
// chooses it; the flag's own default, 587, sent implicit TLS to the
// submission port, where a relay speaks plain text first. The start says
// where mail goes.
func TestServeSMTPPort(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--smtp-host", "127.0.0.1"}, "smtp=127.0.0.1:587"},
		{[]string{"--smtp-host", "127.0.0.1", "--smtp-tls", "implicit"}, "smtp=127.0.0.1:465"},
		{[]string{"--smtp-host", "127.0.0.1", "--smtp-tls", "implicit", "--smtp-port", "2465"}, "smtp=127.0.0.1:2465"},
	} {
		d := startDaemon(t, filepath.Join(t.TempDir(), "data"), tc.args...)
		d.stop(t)
		if log := d.stderr.String(); !strings.Contains(log, tc.want) {
			t.Errorf("%v: the start does not say %s:\n%s", tc.args, tc.want, log)
		}
	}
}

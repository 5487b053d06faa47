package main

import (
	"strings"
	"testing"
)

// TestErrorsShowTheirMessage: a command that fails on a domain error says
// its message, after the command's name and the context it adds; it
// printed the error's log form ("vigil: code=ENOTFOUND message=...").
func TestErrorsShowTheirMessage(t *testing.T) {
	data := t.TempDir()
	src := "Create Sentinel news Using https://example.com/ Monitor any change Fetch 1 day\n"
	if code, _, errOut := runVigil(t, src, "sentinel", "add", "--data", data, "-"); code != exitOK {
		t.Fatalf("sentinel add: exit %d, %s", code, errOut)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "warc", "--resource", "http://nowhere.example/"}, "vigil export warc: no resource has url http://nowhere.example/\n"},
		{[]string{"sentinel", "add", "--owner", "not-an-email", "-"}, `vigil sentinel add: owner not-an-email: user email "not-an-email" is not an address` + "\n"},
	} {
		code, _, errOut := runVigil(t, src, append(tc.args, "--data", data)...)
		if code != exitError || errOut != tc.want || strings.Contains(errOut, "code=") {
			t.Errorf("%q: exit %d, stderr %q, want %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestServeHelpNamesTheDashboard: the command list and vigil serve -h say
// that serve's address serves the dashboard and the API; they named only
// the feeds and /healthz, so that a newcomer could not tell where to sign
// in.
func TestServeHelpNamesTheDashboard(t *testing.T) {
	_, stdout, stderr := runVigil(t, "", "help")
	list := stdout + stderr
	var line string
	for _, l := range strings.Split(list, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "serve ") {
			line = l
		}
	}
	if !strings.Contains(line, "dashboard") {
		t.Errorf("vigil help: serve's line %q does not name the dashboard", line)
	}
	_, stdout, stderr = runVigil(t, "", "serve", "-h")
	help := stdout + stderr
	i := strings.Index(help, "  -addr")
	if i < 0 {
		t.Fatalf("serve -h has no -addr:\n%s", help)
	}
	addr, _, _ := strings.Cut(help[i:], "\n  -allow")
	if !strings.Contains(addr, "dashboard") {
		t.Errorf("serve -h: -addr %q does not name the dashboard", addr)
	}
	if !strings.Contains(help[:i], "dashboard") || strings.Contains(help[:i], "serves Atom/RSS feeds and /healthz.") {
		t.Errorf("serve -h: its text does not say that it serves the dashboard:\n%s", help[:i])
	}
}

// TestExportWARCSaysWhatIsWrong: export warc without --resource or --all,
// with both, or with an argument, says which before its usage; it printed
// the usage alone.
func TestExportWARCSaysWhatIsWrong(t *testing.T) {
	data := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "vigil export warc: give --resource URL or --all\n"},
		{[]string{"--all", "--resource", "http://example.com/"}, "vigil export warc: give --resource URL or --all, not both\n"},
		{[]string{"http://example.com/"}, `vigil export warc: unexpected argument "http://example.com/" (the URL follows --resource)` + "\n"},
	} {
		code, _, errOut := runVigil(t, "", append([]string{"export", "warc", "--data", data}, tc.args...)...)
		if code != exitError || !strings.HasPrefix(errOut, tc.want) || !strings.Contains(errOut, "Usage: vigil export warc") {
			t.Errorf("%q: exit %d, stderr %q, want 2 and %q before the usage", tc.args, code, errOut, tc.want)
		}
	}
}

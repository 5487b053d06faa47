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

package spec

import (
	"net/url"
	"strings"
	"testing"
)

// TestUnreachable: on a server that does not reach some addresses
// (Checker.Unreachable), a sentinel whose page, site or webhook is at one
// is valid, with a warning at the URL saying why; its stored form's
// UnreachableWarnings says the same of its pages and webhooks, inherited
// ones included. Other URLs, and contacts of other kinds, are not asked
// about.
func TestUnreachable(t *testing.T) {
	var asked []string
	unreachable := func(raw string) string {
		asked = append(asked, raw)
		if u, err := url.Parse(raw); err == nil && u.Hostname() == "127.0.0.1" {
			return "127.0.0.1 is a loopback address"
		}
		return ""
	}
	c := &Checker{Now: date(2026, 1, 1, 0, 0), Unreachable: unreachable}
	for _, tc := range []struct {
		name, src string
		want      []string // line:col: message
	}{
		{"page", "Create Sentinel p Using http://127.0.0.1:8080/x", []string{
			"1:25: this server does not fetch http://127.0.0.1:8080/x: 127.0.0.1 is a loopback address"}},
		{"page without a scheme", "Create Sentinel p Using 127.0.0.1/x", []string{
			"1:25: this server does not fetch http://127.0.0.1/x: 127.0.0.1 is a loopback address"}},
		{"AND of pages", "Create Sentinel p Using http://a.example/ AND http://127.0.0.1/y", []string{
			"1:47: this server does not fetch http://127.0.0.1/y: 127.0.0.1 is a loopback address"}},
		{"site", "Create Sentinel p Using site http://127.0.0.1/ depth 1", []string{
			"1:30: this server does not fetch http://127.0.0.1/: 127.0.0.1 is a loopback address"}},
		{"webhook", "Create Sentinel p Using http://a.example/\nNotify By email a@example.org, webhook http://u:secret@127.0.0.1/hook", []string{
			"2:40: this server does not call webhook http://u:xxxxx@127.0.0.1/hook: 127.0.0.1 is a loopback address"}},
		{"public", "Create Sentinel p Using http://a.example/\nNotify By webhook https://hooks.example/h", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asked = nil
			ch, err := c.Check(mustParse(t, tc.src).Sentinels[0])
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range ch.Warnings {
				if !strings.HasPrefix(w.Msg, "this server") {
					continue // "no scheme"
				}
				got = append(got, w.Pos.String()+": "+w.Msg)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			for _, a := range asked {
				if strings.Contains(a, "@example.org") {
					t.Errorf("asked about the email address %q", a)
				}
			}
			// The stored form says the same, without the places.
			var msgs []string
			for _, w := range tc.want {
				msgs = append(msgs, w[strings.Index(w, ": ")+2:])
			}
			if got := ch.UnreachableWarnings(unreachable); strings.Join(got, "\n") != strings.Join(msgs, "\n") {
				t.Errorf("UnreachableWarnings %q, want %q", got, msgs)
			}
		})
	}
}

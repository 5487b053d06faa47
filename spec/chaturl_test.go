package spec

import (
	"net/url"
	"strings"
	"testing"
)

// TestShownChatURL: a chat URL is named with its secrets hidden; one that
// does not parse is its scheme and ***, or *** alone where what comes
// before its first ":" is no scheme, and a query's pairs are split on
// ";" as on "&". "x?token=abc#%zz:" was named "x?token=abc#%zz://***",
// and "?a=1;token=SECRET" kept the token.
func TestShownChatURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"discord://SeCrEt@123/raw", "discord://***@123/***"},
		{"ntfy://h.example/tpc?token=SeCrEt&title=x", "ntfy://h.example/***?token=***&title=x"},
		{"ntfy://h.example/tpc?a=1;token=SeCrEt", "ntfy://h.example/***?a=1;token=***"},
		{"ntfy://h.example/tpc?token=SeCrEt;a=1&password=SeCrEt2", "ntfy://h.example/***?token=***;a=1&password=***"},
		{"discord://SeCrEt@123/%zz", "discord://***"},
		{"Gotify.X+1-2://h.example/SeCrEt%zz", "Gotify.X+1-2://***"},
		{"x?token=SeCrEt#%zz:", "***"},
		{"1ntfy://SeCrEt@h/%zz", "***"},
		{"nt fy://SeCrEt@h/%zz", "***"},
		{"://SeCrEt@h/%zz", "***"},
		{"discord:SeCrEt", "discord:***"},
		{"ntfy://h.example/tpc?SeCrEt&title=x", "ntfy://h.example/***?***&title=x"},
	} {
		if got := ShownChatURL(tc.in); got != tc.want || strings.Contains(got, "SeCrEt") {
			t.Errorf("ShownChatURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzShownChatURL: whatever the URL, ShownChatURL does not panic and
// shows neither its password nor a token= value, but where its host,
// which it shows, holds them; a URL that does not parse is shown as its
// scheme and *** or as *** alone.
func FuzzShownChatURL(f *testing.F) {
	for _, s := range []string{"ntfy://bob:pw9@ntfy.example.org/tpc?token=tk1", "discord://SeCrEt@123/%zz", "x?token=abc#%zz:", "ntfy://h.example/t?a=1;token=SeCrEt", "gotify://h.example/AbC?token=x&password="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, target string) {
		shown := ShownChatURL(target)
		u, err := url.Parse(target)
		if err != nil {
			if scheme, ok := strings.CutSuffix(shown, "://"+secretMark); shown != secretMark && (!ok || !isScheme(scheme) || !strings.HasPrefix(target, scheme+":")) {
				t.Errorf("ShownChatURL(%q) = %q: want its scheme and %s, or %s", target, shown, secretMark, secretMark)
			}
			return
		}
		var secrets []string
		if p, ok := u.User.Password(); ok {
			secrets = append(secrets, p, u.User.Username())
		}
		for _, kv := range strings.FieldsFunc(u.RawQuery, func(r rune) bool { return r == '&' || r == ';' }) {
			if k, v, ok := strings.Cut(kv, "="); ok && queryUnescape(k) == "token" {
				secrets = append(secrets, v)
			}
		}
		for _, s := range secrets {
			if len(s) < 3 || strings.Count(target, s) > 1 || strings.ContainsAny(s, "*/?#&;=@:") || strings.Contains(strings.ToLower(u.Scheme+"://"+u.Host), strings.ToLower(s)) {
				continue // too short to tell from the rest, or shown as the host
			}
			if strings.Contains(shown, s) {
				t.Errorf("ShownChatURL(%q) = %q shows %q", target, shown, s)
			}
		}
	})
}

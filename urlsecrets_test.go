package vigil_test

import (
	"slices"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestURLSecrets: the parts of a URL that may be secret are its user
// information, path segments, query values (pairs split on "&" and ";")
// and fragment, as written and decoded, the longest first, but those its
// host holds; of a URL that does not parse, the URL and what follows its
// first ":". The cases where the rules of RedactTarget and of the chat
// notifier's refusals differed before they became this one are marked.
func TestURLSecrets(t *testing.T) {
	type s = vigil.URLSecret
	for name, tc := range map[string]struct {
		target string
		want   []s
	}{
		"all parts": {"ntfy://bob:pw9@ntfy.example.org/tpc/sub?token=tk1&password=p4&tags=a#frag",
			[]s{{"frag", ""}, {"bob", ""}, {"pw9", ""}, {"tpc", ""}, {"sub", ""}, {"tk1", "token"}, {"p4", "password"}}},
		"written and decoded": {"https://u%40x:p%2Fw@h.example/a%20b?k%3D=v%20w",
			[]s{{"u%40x", ""}, {"p%2Fw", ""}, {"a%20b", ""}, {"v%20w", "k="}, {"u@x", ""}, {"p/w", ""}, {"a b", ""}, {"v w", "k="}}},
		"parts the host holds": {"https://monitoring:S3cret@monitoring.example.org/example/TOKEN0123",
			[]s{{"TOKEN0123", ""}, {"S3cret", ""}}},
		// RedactTarget took nothing from a URL that does not parse.
		"does not parse": {"gotify://g.example/ASECRET%zz",
			[]s{{"gotify://g.example/ASECRET%zz", ""}, {"g.example/ASECRET%zz", ""}}},
		// The refusals took what follows the first ":" only where a
		// scheme stands before it.
		"does not parse, no scheme": {"a b:SECRET%zz", []s{{"a b:SECRET%zz", ""}, {"SECRET%zz", ""}}},
		// RedactTarget split a query on "&" alone, and url.Query drops
		// a pair that holds ";".
		"pairs split on semicolons": {"https://h.example/?a=1;token=SECRETtk0123&b=22",
			[]s{{"SECRETtk0123", "token"}, {"22", "b"}, {"1", "a"}}},
		// RedactTarget took the fragment decoded only.
		"fragment as written": {"https://h.example/#Secret%20Frag1", []s{{"Secret%20Frag1", ""}, {"Secret Frag1", ""}}},
		// The refusals took the user information as written only after
		// a "://".
		"no scheme, user information as written": {"//u:p%40ss@h.example/", []s{{"p%40ss", ""}, {"p@ss", ""}, {"u", ""}}},
		// The refusals took the values of secret parameters only
		// (token=, password=): the value of any other is taken too, with
		// its key, and the refusals leave it, as they show it.
		"every query value": {"https://h.example/?title=HelloWorld&token=t", []s{{"HelloWorld", "title"}, {"t", "token"}}},
		"same text twice":   {"https://h.example/abc/abc?x=abc", []s{{"abc", ""}, {"abc", "x"}}},
		"nothing secret":    {"https://h.example/", nil},
		// Neither rule took what an opaque URL (no "//") holds, which
		// ShownChatURL hides.
		"opaque": {"discord:SECRETTOKEN123@99999", []s{{"SECRETTOKEN123@99999", ""}, {"SECRETTOKEN123", ""}, {"99999", ""}}},
		// An item without "=" was no part of either rule.
		"a query item alone": {"https://h.example/hook?SECRETTOKEN1&a=b", []s{{"SECRETTOKEN1", ""}, {"hook", ""}, {"b", "a"}}},
	} {
		t.Run(name, func(t *testing.T) {
			if got := vigil.URLSecrets(tc.target); !slices.Equal(got, tc.want) {
				t.Errorf("URLSecrets(%q)\n = %q\nwant %q", tc.target, got, tc.want)
			}
		})
	}
}

package vigil

import (
	"net/url"
	"slices"
	"strings"
)

// URLSecret is a part of a URL that may be secret (URLSecrets).
type URLSecret struct {
	// Text is the part, as the URL writes it or decoded.
	Text string
	// Key is the name, decoded, of the query parameter whose value Text
	// is; "" for a part that is no query value.
	Key string
}

// URLSecrets returns the parts of target, a URL a message may be about
// (a delivery's target, a chat URL), that may be secret, for a message to
// hide wherever it quotes them: its user name and password, the segments
// of its path (of an opaque URL without "//", what follows its scheme,
// whole and split on "/", "@" and ":"), the values of its query (its
// pairs split on "&" and on
// ";", as a server may split them) and its items without "=" (a token
// alone: ?SECRETTOKEN), and its fragment, each as written and
// decoded, since a library may quote either ("p%40ss" or "p@ss"). Its
// host is kept: it names the server, and a part that the host holds (a
// user "monitoring" of monitoring.example.org) is left out, so that the
// host is never hidden. Of a target that does not parse, whose parts are
// not known, they are the target whole and what follows its first ":"
// and the slashes after it. The parts are distinct, none empty, the
// longest first, so that a part holding another is hidden whole.
//
// What is secret is decided here once; how much of it a message hides is
// its caller's: RedactTarget hides the parts of minSecret bytes or more,
// wherever they stand; the chat notifier's refusals hide every part as a
// word, but for the values of the query parameters that spec.ShownChatURL
// shows in the same message. spec.ShownChatURL, which may not import the
// domain, writes the same parts of a chat URL as ***.
func URLSecrets(target string) []URLSecret {
	u, err := url.Parse(target)
	if err != nil {
		parts := []URLSecret{{Text: target}}
		if _, rest, ok := strings.Cut(target, ":"); ok {
			if rest = strings.TrimLeft(rest, "/"); rest != "" && rest != target {
				parts = append(parts, URLSecret{Text: rest})
			}
		}
		return parts
	}
	var parts []URLSecret
	add := func(key string, texts ...string) {
		for _, t := range texts {
			parts = append(parts, URLSecret{Text: t, Key: key})
		}
	}
	if u.User != nil {
		password, _ := u.User.Password()
		add("", u.User.Username(), password)
		// As written too: "p%40ss" is quoted so, not "p@ss".
		rawUser, rawPassword, _ := strings.Cut(rawUserinfo(target), ":")
		add("", rawUser, rawPassword)
	}
	if u.Opaque != "" {
		// "discord:TOKEN@ID", "gotify:host/TOKEN": without "//" a URL
		// is opaque, its parts unknown; ShownChatURL hides it whole.
		// It is taken whole and split on "/", "@" and ":".
		add("", u.Opaque, queryUnescape(u.Opaque))
		for _, f := range strings.FieldsFunc(u.Opaque, func(r rune) bool { return r == '/' || r == '@' || r == ':' }) {
			add("", f, queryUnescape(f))
		}
	}
	add("", strings.Split(u.Path, "/")...)
	add("", strings.Split(u.EscapedPath(), "/")...)
	for _, kv := range strings.FieldsFunc(u.RawQuery, func(r rune) bool { return r == '&' || r == ';' }) {
		if k, v, ok := strings.Cut(kv, "="); ok {
			add(queryUnescape(k), v, queryUnescape(v))
		} else {
			// An item without "=" (?SECRETTOKEN) may be a token alone.
			add("", kv, queryUnescape(kv))
		}
	}
	add("", u.Fragment, u.EscapedFragment())

	host := strings.ToLower(u.Host)
	var out []URLSecret
	for _, p := range parts {
		if p.Text != "" && !strings.Contains(host, strings.ToLower(p.Text)) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b URLSecret) int { return len(b.Text) - len(a.Text) })
	return out
}

// queryUnescape returns a query's key or value decoded, as written if it
// does not decode.
func queryUnescape(s string) string {
	if d, err := url.QueryUnescape(s); err == nil {
		return d
	}
	return s
}

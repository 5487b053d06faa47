package spec

import (
	"net/url"
	"strings"
)

// secretMark stands for a secret of a chat URL in a message.
const secretMark = "***"

// ShownChatURL returns target, a chat URL, as a message names it: its
// scheme and host as written, its user information, each segment of its
// path, the value of a secret query parameter (SecretQueryKey), a query
// item without "=" (a token alone) and its fragment written *** (the token of Discord's and Slack's URLs is their
// user information, Gotify's and Mattermost's the last segment of their
// path, an ntfy topic its path), the rest of its query as written, its
// pairs split on "&" and ";". A URL that does not parse is its scheme and
// *** (discord://***), or *** alone where what stands before its first
// ":" is no scheme (RFC 3986: a letter, then letters, digits, "+", "-"
// and "."), which may be a secret ("x?token=abc#%zz:"). The checker's
// messages and the chat notifier's refusals name a chat URL so: a
// password alone hidden, as a page's or a webhook's URL's is, would show
// a token.
func ShownChatURL(target string) string {
	u, err := url.Parse(target)
	if err != nil {
		if scheme, _, ok := strings.Cut(target, ":"); ok && isScheme(scheme) {
			return scheme + "://" + secretMark
		}
		return secretMark
	}
	var b strings.Builder
	b.WriteString(u.Scheme + ":")
	if u.Opaque != "" {
		b.WriteString(secretMark)
		return b.String()
	}
	b.WriteString("//")
	if u.User != nil {
		if u.User.String() != "" {
			b.WriteString(secretMark)
		}
		b.WriteString("@")
	}
	b.WriteString(u.Host)
	segs := strings.Split(u.EscapedPath(), "/")
	for i, s := range segs {
		if s != "" {
			segs[i] = secretMark
		}
	}
	b.WriteString(strings.Join(segs, "/"))
	if u.RawQuery != "" || u.ForceQuery {
		b.WriteString("?")
		for q := u.RawQuery; ; {
			kv, sep := q, ""
			if i := strings.IndexAny(q, "&;"); i >= 0 {
				kv, sep, q = q[:i], q[i:i+1], q[i+1:]
			}
			if k, v, ok := strings.Cut(kv, "="); ok && v != "" && SecretQueryKey(queryUnescape(k)) {
				kv = k + "=" + secretMark
			} else if !ok && kv != "" {
				kv = secretMark // an item alone (?SECRETTOKEN) may be a token
			}
			b.WriteString(kv + sep)
			if sep == "" {
				break
			}
		}
	}
	if u.Fragment != "" {
		b.WriteString("#" + secretMark)
	}
	return b.String()
}

// SecretQueryKey reports whether a query parameter named key, decoded,
// holds a secret (token=, password=, apikey=...), which ShownChatURL
// hides whatever its length.
func SecretQueryKey(key string) bool {
	k := strings.ToLower(key)
	for _, s := range []string{"token", "pass", "secret", "key", "auth", "sig", "credential"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

// isChatURL reports whether s is written as a chat URL: a chat service's
// scheme (IsChatScheme), in any case, then "://".
func isChatURL(s string) bool {
	scheme, _, ok := strings.Cut(s, "://")
	return ok && IsChatScheme(strings.ToLower(scheme))
}

// isScheme reports whether s is a URL scheme as RFC 3986 section 3.1
// writes one: a letter, then letters, digits, "+", "-" and ".".
func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return s != ""
}

// queryUnescape returns a query's key or value decoded, as written if it
// does not decode.
func queryUnescape(s string) string {
	if d, err := url.QueryUnescape(s); err == nil {
		return d
	}
	return s
}

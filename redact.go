package vigil

import (
	"bytes"
	"encoding/base64"
	"net/url"
	"regexp"
	"strings"
)

// RedactURL returns raw, a URL as a user or a page wrote it, for a message
// or a log: the password of its user information, if it has one, is
// written "xxxxx", as url.URL.Redacted writes it, and the rest is kept as
// written, so that the reader still knows the URL. A URL may carry a
// password (https://user:secret@host/), and errors that name a URL go to
// logs, to the versions the API and the dashboard show, and to
// notifications: every error or log record of the domain and the
// adapters that names a URL names it through RedactURL. What is stored
// and fetched, and a resource's own URL on the dashboard (a link to it),
// is the URL as given: never pass those through it.
//
// raw need not parse: the user information is what stands between the
// "://" (or a leading "//", or the start of raw when it has neither) and
// the last "@" before the first "/", "?" or "#" after it, as url.Parse
// reads it. A password holding an unescaped "/", "?" or "#" ends the host
// there and url.Parse fails: then the user information runs to the last
// "@" before the first "/", "?" or "#" after the first "@", and is hidden
// too (only a password whose part before that character is all digits,
// which url.Parse reads as a port, still shows). A user name alone is
// kept, as url.URL.Redacted keeps it. A mailto: URL is kept whole: what
// stands before its "@" is an address's local part, no password.
//
// spec, a library that may not import the domain, has its own copy of
// this rule for its errors (spec.NormalizeURL, webhook URLs); the domain
// imports the standard library only, so neither can call the other. Both
// are tested on the one table of testdata/redacturl.json.
func RedactURL(raw string) string {
	start := 0
	if i := strings.Index(raw, "://"); i >= 0 {
		start = i + len("://")
	} else if strings.HasPrefix(raw, "//") {
		start = len("//")
	} else if len(raw) >= len("mailto:") && strings.EqualFold(raw[:len("mailto:")], "mailto:") {
		return raw // an address, no password: "mailto:a@example.com"
	}
	end := len(raw)
	if i := strings.IndexAny(raw[start:], "/?#"); i >= 0 {
		end = start + i
	}
	at := strings.LastIndexByte(raw[start:end], '@')
	if at < 0 {
		// "http://user:pa/ss@host/": a password holding an unescaped
		// "/", "?" or "#" ends the host at it, with a port that is not
		// digits, and url.Parse fails. The user information then runs
		// to the last "@" before the first "/", "?" or "#" after the
		// first "@".
		first := strings.IndexByte(raw[start:], '@')
		if first < 0 {
			return raw
		}
		if _, err := url.Parse(strings.TrimSpace(raw)); err == nil {
			return raw // "http://a.example:8080/@user": an "@" in the path
		}
		end = len(raw)
		if i := strings.IndexAny(raw[start+first:], "/?#"); i >= 0 {
			end = start + first + i
		}
		at = strings.LastIndexByte(raw[start:end], '@')
	}
	colon := strings.IndexByte(raw[start:start+at], ':')
	if colon < 0 {
		return raw
	}
	return raw[:start+colon] + ":xxxxx" + raw[start+at:]
}

// urlPattern finds the URLs in an error's text: a scheme, "://", and
// everything up to white space or a quote.
var urlPattern = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s"'<>]+`)

// RedactURLs returns an error's text with each URL in it cut to its scheme
// and host. Delivery errors quote the URL they failed on, and chat services
// and webhooks carry their secrets in it: a Discord or Slack webhook's path,
// a Telegram bot token, a ?token= query, a user's password. The outbox logs
// and stores the redacted text only, and a recovered panic's value is
// written through it (PanicError).
//
// A URL with a password keeps its user name as the text writes it, and its
// password is written "xxxxx", as RedactURL writes it
// (http://user:xxxxx@host/…); a user name alone is cut with the path, as
// it may be the secret (shoutrrr's discord://TOKEN@ID). The user
// information need not parse: RedactTarget may have written "…" in it,
// which url.Parse refuses in a user name, and the host is kept all the
// same. A closing bracket or parenthesis after a URL is the message's when
// the URL opens none (an IPv6 host keeps its "]").
//
// It finds what looks like a URL with a scheme: a secret quoted without
// one can still show, and so can a password whose part before an
// unescaped "/" is all digits (url.Parse reads it as a port, RedactURL).
func RedactURLs(s string) string {
	return urlPattern.ReplaceAllStringFunc(s, func(raw string) string {
		trimmed := trimURLTail(raw)
		tail := raw[len(trimmed):]
		// The password is hidden as written first, a password holding
		// "/", "?" or "#" too, then the user information is taken off
		// before the rest is parsed.
		red := RedactURL(trimmed)
		start := strings.Index(red, "://") + len("://")
		end := len(red)
		if i := strings.IndexAny(red[start:], "/?#"); i >= 0 {
			end = start + i
		}
		var userinfo string
		hasUser := false
		if at := strings.LastIndexByte(red[start:end], '@'); at >= 0 {
			userinfo, hasUser = red[start:start+at], true
			red = red[:start] + red[start+at+1:]
		}
		u, err := url.Parse(red)
		if err != nil || u.Host == "" {
			return "[URL]" + tail
		}
		out := u.Scheme + "://"
		if user, _, ok := strings.Cut(userinfo, ":"); ok {
			out += user + ":xxxxx@"
		}
		out += u.Host
		if hasUser && !strings.Contains(userinfo, ":") || u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.Fragment != "" {
			out += "/…"
		}
		return out + tail
	})
}

// trimURLTail returns raw, a URL as urlPattern found it in a text, without
// the punctuation after it that ends a sentence or a clause: ".", ",",
// ":", ";", and a ")" or "]" that closes no "(" or "[" of the URL.
func trimURLTail(raw string) string {
	for raw != "" {
		switch c := raw[len(raw)-1]; c {
		case '.', ',', ':', ';':
		case ')':
			if strings.Count(raw, ")") <= strings.Count(raw, "(") {
				return raw
			}
		case ']':
			if strings.Count(raw, "]") <= strings.Count(raw, "[") {
				return raw
			}
		default:
			return raw
		}
		raw = raw[:len(raw)-1]
	}
	return raw
}

// minSecret is the length from which a part of a target is taken for a
// secret (RedactTarget): tokens are longer, and shorter parts are words
// ("send", "api") that an error's text needs.
const minSecret = 8

// RedactTarget returns an error's text with the parts of target, the URL
// a delivery went to, that may be secret (URLSecrets: its user name and
// password, its path segments, its query values and its fragment, as
// written and decoded; of a target that does not parse, the target and
// what follows its scheme) replaced by "…" wherever they occur, those of
// minSecret bytes at least. A service's error may quote one of them
// alone, without the URL around it (shoutrrr's Gotify says `invalid
// gotify token: "..."`), which RedactURLs cannot find. Its host is kept:
// it names the server, and a part that the host holds (a user
// "monitoring" of monitoring.example.org) is no secret and is left, so
// that the host is never cut. "…" may so stand in a URL's user
// information, where url.Parse refuses it: RedactURLs, which the text
// goes through next, reads it all the same.
func RedactTarget(s, target string) string {
	for _, p := range URLSecrets(target) {
		if len(p.Text) >= minSecret {
			s = strings.ReplaceAll(s, p.Text, "…")
		}
	}
	return s
}

// rawUserinfo returns the user information of target, a URL that parses,
// as written: what stands between its "://" (or leading "//") and the
// last "@" before the first "/", "?" or "#" after it, as url.Parse reads
// it; "" if it has none.
func rawUserinfo(target string) string {
	start := 0
	if i := strings.Index(target, "://"); i >= 0 {
		start = i + len("://")
	} else if strings.HasPrefix(target, "//") {
		start = len("//")
	}
	end := len(target)
	if i := strings.IndexAny(target[start:], "/?#"); i >= 0 {
		end = start + i
	}
	at := strings.LastIndexByte(target[start:end], '@')
	if at < 0 {
		return ""
	}
	return target[start : start+at]
}

// credentialHeader finds the value of a header that carries credentials
// as a log line may show it: sent ("Authorization: Bearer x"), in a
// printed http.Header ("Authorization:[Bearer x]") or in JSON
// (`"authorization": "Bearer x"`); the value runs to the end of the
// line, a closing bracket or a quote.
var credentialHeader = regexp.MustCompile(`(?i)\b((?:proxy-)?authorization|cookie|set-cookie|x-api-key)("?\s*[:=]\s*[\["]?)[^\]"\r\n]+`)

// bearerToken finds a token after the word of its scheme, where no
// header names it: "Bearer x", "Basic x".
var bearerToken = regexp.MustCompile(`\b(Bearer|Basic) ([A-Za-z0-9._~+/-]+=*)`)

// RedactSecrets returns a line bound for a log, of a server's own (net/http's
// ErrorLog: a panic's value, a connection's error), with the secrets it may
// hold hidden: its URLs cut to their scheme and host (RedactURLs: a token in
// a path or a query), the values of the headers that carry credentials
// (Authorization, Proxy-Authorization, Cookie, Set-Cookie, X-Api-Key) and
// a bearer token or basic credentials (base64 of "user:password")
// replaced by "…". A secret written otherwise (a password alone) can
// still show.
func RedactSecrets(s string) string {
	s = RedactURLs(s)
	s = credentialHeader.ReplaceAllString(s, "$1$2…")
	return bearerToken.ReplaceAllStringFunc(s, func(m string) string {
		scheme, token, _ := strings.Cut(m, " ")
		if scheme == "Basic" {
			// "Basic authentication": a word, not credentials.
			if b, err := base64.StdEncoding.DecodeString(token); err != nil || !bytes.Contains(b, []byte(":")) {
				return m
			}
		}
		return scheme + " …"
	})
}

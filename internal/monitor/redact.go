package monitor

import (
	"net/url"
	"slices"
	"strings"
)

// minSecret is the length from which a part of a target is taken for a
// secret: tokens are longer, and shorter parts are words ("send", "api")
// that an error's text needs.
const minSecret = 8

// redactTarget returns an error's text with the parts of target that may
// be secret replaced by "…" wherever they occur: its user name and
// password, its path segments, its query values and its fragment, as
// written and decoded (minSecret bytes at least). A service's error may quote one of them alone, without
// the URL around it: shoutrrr's Gotify says `invalid gotify token: "..."`.
func redactTarget(s, target string) string {
	u, err := url.Parse(target)
	if err != nil {
		return s
	}
	var parts []string
	if u.User != nil {
		parts = append(parts, u.User.Username())
		if p, ok := u.User.Password(); ok {
			parts = append(parts, p)
		}
	}
	parts = append(parts, strings.Split(u.Path, "/")...)
	parts = append(parts, strings.Split(u.EscapedPath(), "/")...)
	for _, vs := range u.Query() {
		parts = append(parts, vs...)
	}
	for _, kv := range strings.Split(u.RawQuery, "&") {
		_, v, _ := strings.Cut(kv, "=")
		parts = append(parts, v)
	}
	parts = append(parts, u.Fragment)
	// Longest first, so that a part holding another is replaced whole.
	slices.SortFunc(parts, func(a, b string) int { return len(b) - len(a) })
	for _, p := range parts {
		if len(p) >= minSecret {
			s = strings.ReplaceAll(s, p, "…")
		}
	}
	return s
}

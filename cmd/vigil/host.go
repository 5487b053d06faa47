package main

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/vigil-web/vigil/spec"
)

// asciiHost returns raw with its host name, if written in another script
// than ASCII or percent-encoded in UTF-8, in its ASCII (punycode) form
// (spec.ASCIIHost), as a sentinel's URL is (spec.NormalizeURL):
// vigil.CanonicalURL takes only that. The rest of raw is kept as written.
// A host IDNA refuses is an error that names it. Anything else, and a URL
// it cannot read, is returned as it is, for CanonicalURL to judge.
func asciiHost(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return raw, nil
	}
	ascii := *u
	if err := spec.ASCIIHost(&ascii); err != nil {
		return "", fmt.Errorf("url %q: %w", raw, err)
	}
	if ascii.Host == u.Host {
		return raw, nil
	}
	// The host as written, which u.Host holds decoded: the authority
	// after the scheme's "//" up to the path, the query or the fragment,
	// past the user information, as url.Parse cuts it.
	start := strings.Index(raw, "//") + len("//")
	end := len(raw)
	if i := strings.IndexAny(raw[start:], "/?#"); i >= 0 {
		end = start + i
	}
	if at := strings.LastIndexByte(raw[start:end], '@'); at >= 0 {
		start += at + 1
	}
	return raw[:start] + ascii.Host + raw[end:], nil
}

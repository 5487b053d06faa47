package main

import (
	"strings"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// urlArg reads a URL given to a command (site crawl's start and scope,
// export warc --resource) as a sentinel's URL and import warc's target URI
// are read, by spec.NormalizeURL: a host spelt in Unicode or percent-encoded
// in UTF-8 in its punycode form, so that it names the page they name; a
// host IDNA refuses or DNS refuses (spec.CheckHostName: an empty label, a
// label or a name too long), a port out of range and credentials
// (user:pass@, which a fetch would send and a snapshot would record)
// refused with an error saying so, its password shown as xxxxx. Unlike a sentinel's URL, its
// scheme is asked for: "docs/" is no host named docs. NormalizeURL judges
// it first, so that one written without its scheme but with credentials
// is refused for them, not quoted with its password.
func urlArg(raw string) (string, error) {
	u, err := spec.NormalizeURL(raw)
	if err != nil {
		return "", err
	}
	if !strings.Contains(raw, "://") {
		return "", vigil.Errorf(vigil.EINVALID, "url %q: scheme must be http or https", vigil.RedactURL(raw))
	}
	return u, nil
}

package web

import (
	"mime"
	"net/http"
	"strings"

	"github.com/vigil-web/vigil"
)

// jsonContentType returns nil if r says its body is JSON: a Content-Type
// of application/json, or of a type of JSON's structured syntax suffix
// (application/merge-patch+json), in any case and with any parameters
// (charset=utf-8). Anything else, or no Content-Type at all, is
// EUNSUPPORTEDMEDIA (415) naming what came: every client of the API's
// bodies, the dashboard's script included, says it sends JSON, and a
// cross-site page cannot say so without the browser asking first (a
// CORS preflight), where an HTML form sends its urlencoded or text/plain
// body unasked.
func jsonContentType(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if strings.TrimSpace(ct) == "" {
		return vigil.Errorf(vigil.EUNSUPPORTEDMEDIA, "the request has no Content-Type: send the body as application/json")
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json")) {
		return nil
	}
	return vigil.Errorf(vigil.EUNSUPPORTEDMEDIA, "unsupported Content-Type %q: send the body as application/json", ct)
}

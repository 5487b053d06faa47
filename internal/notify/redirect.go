// Package notify holds what the notifiers under it share: the policy on
// redirects of a delivery, whose request carries the message in its body,
// and the cap on the size of a receiver's answer.
package notify

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/vigil-web/vigil"
)

// Transport carries a delivery's requests through Base (net/http's default
// transport if nil) under the redirect policy of every notifier:
//
//   - A redirect that would repeat the request as a GET without its body
//     (301, 302 and 303 to a POST, PUT or PATCH) is a failed delivery: Go's
//     client follows it, the receiver answers the empty GET with a 200, and
//     the message, never delivered, was reported sent. The error names the
//     status and where it leads, so that the URL can be corrected
//     (redirectTarget: its path only as the delivery's own).
//   - The redirects that repeat the request with its body (307, 308) are
//     followed, without the Referer Go's client adds: it holds the URL the
//     request was sent to, whose path or query often carries a secret.
//   - A redirect to a Location that does not parse fails naming it with
//     its password hidden (vigil.RedactURL).
//   - An answer's body is read up to MaxAnswer bytes (answer.go): the
//     read past it fails with an AnswerTooLargeError.
//
// It is a transport rather than a client's CheckRedirect so that it can be
// put under the clients a library builds for itself.
type Transport struct {
	Base http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	if req.Header.Get("Referer") != "" {
		// Only a followed redirect sets it: the notifiers never do.
		req = req.Clone(req.Context())
		req.Header.Del("Referer")
	}
	resp, err := base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	switch resp.StatusCode {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther:
		switch req.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch:
			// Told against the URL the delivery was sent to, before a
			// 307 or 308 led here.
			first := req
			for first.Response != nil && first.Response.Request != nil {
				first = first.Response.Request
			}
			where := redirectTarget(first.URL, resp)
			resp.Body.Close()
			return nil, fmt.Errorf("redirected by status %d, which would send the message as a GET without its body: give the URL it redirects to (%s)",
				resp.StatusCode, where)
		}
	}
	if isRedirect(resp.StatusCode) && resp.Header.Get("Location") != "" {
		if _, err := resp.Location(); err != nil {
			// Go's client would quote it as given, and url.Parse's
			// detail the head of a password cut at a "/", "?" or
			// "#" in it (`invalid port ":pa"`).
			resp.Body.Close()
			return nil, fmt.Errorf("redirected by status %d to a Location that does not parse (%s)",
				resp.StatusCode, vigil.RedactURL(resp.Header.Get("Location")))
		}
	}
	resp.Body = &cappedAnswer{body: resp.Body, left: MaxAnswer, limit: MaxAnswer}
	return resp, nil
}

// redirectTarget names where resp redirects a delivery first sent to
// from, for the error that asks for that URL. The error is logged and
// stored, and a delivery's URL carries its secret in its path or query (a
// Slack or Discord webhook's token, ?token=): the outbox cuts every URL of
// the text to its scheme and host (vigil.RedactURLs), and a Location's
// path, the same token or a new one the receiver gave, is no safer. So the
// target is named cut so, its password hidden, and its path and query are
// told in words, only where that shows nothing from's own URL does not:
// from's path and query (a move to https, or to another host or port, the
// common case, which the message alone lets the user correct), or that
// path with a "/" added or taken off its end. Another path or query is
// said to be one, and where to read it: the answer's Location, which the
// owner, who holds the delivery's URL, can ask for (curl -i -X POST URL).
func redirectTarget(from *url.URL, resp *http.Response) string {
	loc, err := resp.Location()
	switch {
	case resp.Header.Get("Location") == "":
		return "the answer names none"
	case err != nil:
		// Named with its password hidden.
		return vigil.RedactURL(resp.Header.Get("Location"))
	}
	where := loc.Scheme + ":…" // mailto:, urn:: no host to name
	if loc.Host != "" {
		where = vigil.RedactURLs(loc.String())
	}
	path, own := loc.EscapedPath(), from.EscapedPath()
	if path == "" {
		path = "/"
	}
	if own == "" {
		own = "/"
	}
	switch {
	case loc.RawQuery != from.RawQuery:
	case path == own:
		return where + ", the path and query the delivery was sent to"
	case path == own+"/":
		return where + `, the path the delivery was sent to with a "/" added, and its query`
	case path+"/" == own:
		return where + `, the path the delivery was sent to without its last "/", and its query`
	}
	return where + ", another path or query, not shown as it may hold a secret: the answer's Location header names it"
}

// isRedirect reports whether Go's client follows a response of status
// code to its Location.
func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

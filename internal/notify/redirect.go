// Package notify holds what the notifiers under it share: the policy on
// redirects of a delivery, whose request carries the message in its body,
// and the cap on the size of a receiver's answer.
package notify

import (
	"fmt"
	"net/http"

	"github.com/vigil-web/vigil"
)

// Transport carries a delivery's requests through Base (net/http's default
// transport if nil) under the redirect policy of every notifier:
//
//   - A redirect that would repeat the request as a GET without its body
//     (301, 302 and 303 to a POST, PUT or PATCH) is a failed delivery: Go's
//     client follows it, the receiver answers the empty GET with a 200, and
//     the message, never delivered, was reported sent. The error names the
//     status and where it leads, so that the URL can be corrected.
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
			// Named with its password hidden, one that does not
			// parse too.
			where := vigil.RedactURL(resp.Header.Get("Location"))
			if loc, err := resp.Location(); err == nil {
				where = vigil.RedactURL(loc.String())
			}
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

package crawl

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"syscall"

	"github.com/vigil-web/vigil"
)

// momentary reports whether a fetch that failed with err (and the answer
// res, nil if none came) failed for a moment, so that the same request
// may well succeed at the next crawl: an HTTP 5xx answer or 429 Too Many
// Requests (a deploy, an overloaded server, a rate limit), a timeout, a
// connection refused, reset or cut short, or a page that had a body
// answering an empty one (vigil.EmptyBodyError: the fetcher that stores
// the pages tells it), or a robots.txt that answered 5xx, which disallows
// every page until it works (vigil.ErrRobotsUnavailable). A page that fails so may be
// carried over from the previous crawl (Carry). Every other failure is
// the page's answer, not a moment's: a 4xx status but 429 (404 and 410
// say the page is gone, 403 that it is closed), a host name DNS does not
// know, a body too large, a charset or an encoding the fetcher refuses, a
// URL robots.txt disallows (by its rules) or an address the fetcher refuses.
func momentary(res *vigil.FetchResult, err error) bool {
	if err == nil {
		return false
	}
	var empty *vigil.EmptyBodyError
	if errors.As(err, &empty) {
		return true
	}
	if res != nil && res.Status != 0 && res.Status/100 != 2 {
		return res.Status/100 == 5 || res.Status == http.StatusTooManyRequests
	}
	if errors.Is(err, vigil.ErrDisallowed) {
		// robots.txt answered a server error, which disallows every
		// page until it works (RFC 9309): a moment's refusal.
		return errors.Is(err, vigil.ErrRobotsUnavailable)
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		// A name that does not exist is the link's fault; a resolver
		// that did not answer in time is a moment's.
		return !dns.IsNotFound && (dns.IsTimeout || dns.IsTemporary)
	}
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return true
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		// Refused (a server restarting), or closed before or while it
		// answered.
		return true
	}
	return false
}

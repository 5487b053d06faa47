package vigil

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// FetchRequest asks for one page. ETag and LastModified, when set, make
// the request for ValidatorsURL conditional (If-None-Match,
// If-Modified-Since): the request of URL, or of the page a redirect of
// URL leads to when that is ValidatorsURL. Every other page on the way
// is asked for without them, since its answer to another page's
// validators says nothing of either page.
type FetchRequest struct {
	URL          string
	ETag         string
	LastModified time.Time
	// ValidatorsURL is the page whose validators ETag and LastModified
	// are: "" for URL itself. A page watched through a redirect keeps the
	// validators of the page the redirect led to (its version's URL),
	// which are sent with the request of that page when a redirect lands
	// there again (the same page as CanonicalURL has it), not with the
	// redirect's: a 304 from it is the page not modified, where its body
	// would be downloaded in full at every check.
	ValidatorsURL string
	// Render asks for the page as a headless browser shows it after its
	// scripts ran (the sentinel language's "Fetch ... render").
	Render bool
	// CheckRedirect, when set, is asked before each redirect is followed
	// (an HTML page's meta refresh that the fetcher follows as one too),
	// with the absolute URL it leads to, its host in ASCII (punycode)
	// form as CanonicalURL takes it, however the Location spelt it. An error from it ends the fetch
	// there, unsent: Fetch returns an error wrapping it and a result whose
	// URL is that target, without status. (A crawler refuses so the
	// redirects that leave its scope.) A rendered fetch does not call it:
	// the browser follows its redirects itself.
	CheckRedirect func(url string) error
	// DigestBinary, when set, identifies a binary body: the body of an
	// answer refused as not text (a 2xx answer of a type that is not
	// text: an image, a PDF) is given to it, decoded, with its media type,
	// before the body is dropped, and the result holds what it returns
	// (BinaryDigest) and the body's size. A crawl versions a site's binary
	// leaves so; a page sentinel, which refuses them, leaves it nil. It
	// must not keep the body.
	DigestBinary func(mediaType string, body []byte) string
}

// FetchResult is the answer to a FetchRequest. A 304 answer has
// NotModified set and no body: it records a check, not a version.
type FetchResult struct {
	URL         string // final URL, after redirects (an HTML page's meta refresh among them); an internationalised host in its ASCII (punycode) form
	Status      int
	NotModified bool
	// ETag is the server's as it sent it, which may be no text a store
	// keeps (the warehouse stores such an ETag as none); a 304 that
	// sends none carries the request's.
	ETag         string
	LastModified time.Time
	ContentType  string // media type without parameters
	Charset      string // the charset the body was declared or detected in; the body is UTF-8
	Body         []byte // decoded (no content encoding), UTF-8
	// BinaryDigest and BinarySize identify the body of an answer refused
	// as not text, when the request's DigestBinary asked: what it
	// returned, and the body's length in bytes, decoded. Empty otherwise.
	BinaryDigest string
	BinarySize   int64
	// FetchedAt is when the request was sent, after any wait for the
	// host's turn; Duration is how long it took from then, to the answer
	// read or to the failure (a failed fetch's result has them too, when
	// the request was sent; when the host gave no answer to its
	// robots.txt, read before the turn, from when that was asked).
	FetchedAt time.Time
	Duration  time.Duration
}

// Fetcher fetches pages. internal/fetch implements it over net/http (and
// optionally headless Chromium). Fetch returns an error for every failure
// that left no usable body (refused address, timeout, size caps, robots.txt,
// HTTP status other than 2xx and 304...); the error's text is what the
// version history shows. With an error, the result is nil or holds what
// the answer said (final URL, status, content type, Last-Modified) and no
// body; when a redirect was refused (robots.txt, the address guard,
// CheckRedirect), the result's URL is where it led; when no answer came
// (a connection refused, a name that does not resolve, a timeout before
// the answer, redirects that loop or pass the cap, a rendered page that
// did not come), the result holds the URL of the page that failed, no
// status, and the time spent (FetchedAt, Duration), which its failed
// version keeps. An error wrapping
// ErrHostBusy is not the page's: it (or the page a redirect led to) was
// never requested.
type Fetcher interface {
	Fetch(ctx context.Context, req *FetchRequest) (*FetchResult, error)
}

// ErrHostBusy is wrapped by the error of a fetch whose request was never
// sent: the page's host (or the host of a page its redirect led to) did
// not give it a turn in the time allowed (other requests to the host, slow
// ones, held it). It says nothing about the page, so it is not part of
// its history; the page is fetched again later.
var ErrHostBusy = errors.New("host busy")

// ErrDisallowed is wrapped by the error of a fetch that robots.txt
// refused: the page asked for (or the page a redirect led to, when the
// result holds its URL) was not requested.
var ErrDisallowed = errors.New("disallowed by robots.txt")

// ErrRobotsUnavailable is wrapped, with ErrDisallowed, by the error of a
// fetch refused because its host's robots.txt answered a server error
// (5xx), which disallows every page until it answers again (RFC 9309
// §2.3.1.4): a refusal of the moment, which says nothing lasting of the
// page, so that a crawl takes it as a failure that passes, not as a page
// robots.txt disallows.
var ErrRobotsUnavailable = errors.New("robots.txt unavailable")

// EmptyBodyError is the failure of a page that had a body and answered
// with an empty or white space one (a 200 with nothing: a deploy in
// progress, a cache that lost the page). The monitor takes such an answer
// as the page's failure, not as its new content, whether the page is
// watched or reached by a site's crawl: the page is not told emptied,
// then filled again. A site's crawl takes it as a failure of the moment,
// whose page is carried over from the previous crawl.
type EmptyBodyError struct {
	// Status is the HTTP status of the answer.
	Status int
}

// Error says what the page answered: "the page answered 200 with an
// empty body".
func (e *EmptyBodyError) Error() string {
	return fmt.Sprintf("the page answered %d with an empty body", e.Status)
}

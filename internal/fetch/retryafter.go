package fetch

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// statusError is the error of an answer whose status is not 2xx: it wraps
// ErrStatus, and holds how long the server asked to be left alone, if it
// did (retryAfter).
type statusError struct {
	status     int
	retryAfter time.Duration
}

func (e *statusError) Error() string {
	return fmt.Sprintf("%v %d %s", ErrStatus, e.status, http.StatusText(e.status))
}

func (e *statusError) Unwrap() error { return ErrStatus }

// retryAfter returns how long the Retry-After header of a 429 (Too Many
// Requests) or 503 (Service Unavailable) answer asks the client to wait
// (RFC 9110 section 10.2.3: seconds, or an HTTP date), at most
// maxRetryAfter, and 0 for another answer, or one without it or with a
// value that does not parse or asks for no wait (a date past).
func retryAfter(resp *http.Response) time.Duration {
	return retryAfterValue(resp.StatusCode, resp.Header.Get("Retry-After"))
}

// retryAfterValue is retryAfter of an answer of status whose Retry-After
// header is v ("" if none): a rendered page's main document's, as the
// browser received it, is read as a plain fetch's answer is.
func retryAfterValue(status int, v string) time.Duration {
	if status != http.StatusTooManyRequests && status != http.StatusServiceUnavailable {
		return 0
	}
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 64)
	switch {
	case err == nil && n <= 0:
		return 0
	case err == nil:
		return time.Duration(min(n, int64(maxRetryAfter/time.Second))) * time.Second
	case errors.Is(err, strconv.ErrRange) && n > 0:
		// More seconds than an int64 holds: the longest wait, not none.
		return maxRetryAfter
	}
	if at, err := http.ParseTime(v); err == nil {
		return min(max(time.Until(at), 0), maxRetryAfter)
	}
	return 0
}

// maxRetryAfter is the longest wait a Retry-After is read as: a day.
const maxRetryAfter = 24 * time.Hour

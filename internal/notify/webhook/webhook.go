// Package webhook delivers notifications as HTTP POSTs of their JSON
// message (change records and deltas), signed with HMAC-SHA256 so that the
// receiver can check they come from this Vigil, and recently.
//
// Headers: Content-Type application/json, X-Vigil-Event ("change",
// "digest", "failure" for the notice that a page fails or works again, or
// "ended" for the notice that a sentinel's lifespan ended),
// X-Vigil-Delivery (an id stable across retries of one entry,
// for deduplication on the receiver's side), X-Vigil-Timestamp (the Unix
// time in seconds of this attempt), and X-Vigil-Signature-256: "sha256="
// and the lower-case hex HMAC-SHA256, under the shared secret (the server
// key), of the timestamp, the delivery id and the event, each followed by
// a full stop, then the body: "1800000000.42.change.{...}".
//
// A delivery whose notification has an owner (a user's sentinel) also
// carries X-Vigil-User-Signature-256: "sha256=" and the HMAC-SHA256 of
// the same string under that user's key, so that a user's receiver checks
// the delivery is theirs, and no other user, who holds only their own key,
// can sign one it accepts. A user's key is derived from the server key,
// never stored (UserKey): the 64 characters of the lower-case hex
// HMAC-SHA256, under the server key, of "vigil webhook user key/" and the
// user's id in decimal ("vigil webhook user key/7"); those 64 ASCII
// characters are the HMAC key of the user's signature, as the 64 hex
// digits of the webhook-secret file are the server key's. A new server key
// (vigil keys rotate webhook) makes every user's key new. The server key's
// header stays, for the operator's receivers, which check every delivery.
//
// A receiver recomputes the signature over those headers and the body as
// received, compares it in constant time, and refuses a timestamp more than
// a few minutes from its clock (Verify, and VerifyUser for the user's
// signature, do all three, with Tolerance).
// Every header it reads is signed: a request captured on the way cannot be
// replayed later, nor within the tolerance under another delivery id, so
// one replayed then carries an X-Vigil-Delivery already seen.
package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/notify"
)

// Header names.
const (
	SignatureHeader = "X-Vigil-Signature-256"
	// UserSignatureHeader carries the signature under the key of the
	// notification's owner (UserKey), on the deliveries that have one.
	UserSignatureHeader = "X-Vigil-User-Signature-256"
	TimestampHeader     = "X-Vigil-Timestamp"
	EventHeader         = "X-Vigil-Event"
	DeliveryHeader      = "X-Vigil-Delivery"
)

// Tolerance is how far from the receiver's clock Verify accepts a
// request's timestamp, either way: the time a delivery takes, and clocks
// a little apart.
const Tolerance = 5 * time.Minute

// Notifier posts messages to webhook URLs.
type Notifier struct {
	// Secret keys the HMAC signature.
	Secret []byte
	// Client sends the requests; cmd/vigil gives it the fetcher's guarded
	// transport, so that webhooks cannot reach private networks either.
	Client *http.Client
	// Now gives the time each request is signed at; time.Now when nil.
	Now func() time.Time
}

var _ vigil.Notifier = (*Notifier)(nil)

// Sign returns the signature header value of a request with the given
// timestamp, delivery and event headers and body, under secret.
func Sign(secret []byte, timestamp, delivery, event string, body []byte) string {
	m := hmac.New(sha256.New, secret)
	for _, h := range []string{timestamp, delivery, event} {
		m.Write([]byte(h))
		m.Write([]byte{'.'})
	}
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// userKeyLabel begins the message whose HMAC under the server key is a
// user's key (UserKey).
const userKeyLabel = "vigil webhook user key/"

// UserKey returns the webhook key of the user userID under serverKey: the
// lower-case hex HMAC-SHA256, under serverKey, of "vigil webhook user
// key/" followed by userID in decimal, as 64 ASCII characters, which are
// the key of the user's signature (X-Vigil-User-Signature-256). It is
// derived each time, never stored: a new server key gives every user a
// new one.
func UserKey(serverKey []byte, userID int64) []byte {
	m := hmac.New(sha256.New, serverKey)
	m.Write([]byte(userKeyLabel + strconv.FormatInt(userID, 10)))
	return []byte(hex.EncodeToString(m.Sum(nil)))
}

// Verify checks a received request's headers and body under secret, as a
// receiver should: the signature matches (compared in constant time), and
// the signed timestamp is within Tolerance of now. The error says which
// check failed.
func Verify(secret []byte, h http.Header, body []byte, now time.Time) error {
	return verify(secret, SignatureHeader, h, body, now)
}

// VerifyUser is Verify of the user's signature (UserSignatureHeader) under
// userKey, the key UserKey gives the receiving user: it checks the
// delivery was made for that user's sentinel.
func VerifyUser(userKey []byte, h http.Header, body []byte, now time.Time) error {
	return verify(userKey, UserSignatureHeader, h, body, now)
}

// verify is Verify of the signature in the header called header.
func verify(secret []byte, header string, h http.Header, body []byte, now time.Time) error {
	ts, sig := h.Get(TimestampHeader), h.Get(header)
	switch {
	case sig == "":
		return fmt.Errorf("webhook: no %s header", header)
	case ts == "":
		return fmt.Errorf("webhook: no %s header", TimestampHeader)
	}
	if !hmac.Equal([]byte(Sign(secret, ts, h.Get(DeliveryHeader), h.Get(EventHeader), body)), []byte(sig)) {
		return fmt.Errorf("webhook: the %s does not match the body, timestamp, delivery and event", header)
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("webhook: %s %q is not a Unix time in seconds", TimestampHeader, ts)
	}
	if d := now.Sub(time.Unix(sec, 0)); d > Tolerance || d < -Tolerance {
		return fmt.Errorf("webhook: signed at %s, %s from now (tolerance %s): a replay, or a clock that is off",
			time.Unix(sec, 0).UTC().Format(time.RFC3339), d.Round(time.Second).Abs(), Tolerance)
	}
	return nil
}

// keepPost returns a copy of client whose requests go under the
// notifiers' redirect policy (notify.Transport): only the redirects that
// repeat the POST with its body (307 and 308) are followed, without a
// Referer; those that turn it into a GET without a body (301, 302 and 303)
// are refused: followed, the message was lost while its delivery was
// reported done.
func keepPost(client *http.Client) *http.Client {
	c := *client
	c.Transport = &notify.Transport{Base: client.Transport}
	return &c
}

// redirected reports whether failed, the URL a request to target failed
// on (url.Error.URL, its password masked by net/http), is another than
// target: a redirect led there.
func redirected(target *url.URL, failed string) bool {
	f, err := url.Parse(failed)
	if err != nil {
		return true
	}
	t := *target
	t.User, f.User = nil, nil
	return t.String() != f.String()
}

// Notify implements vigil.Notifier. Its errors name target once, with its
// password hidden (vigil.RedactURL), then why the delivery failed.
func (n *Notifier) Notify(ctx context.Context, target string, m *vigil.Message) error {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return vigil.Errorf(vigil.EINVALID, "webhook target %q is not an http(s) URL", vigil.RedactURL(target))
	}
	body, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("webhook: encode: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return vigil.Errorf(vigil.EINVALID, "webhook target %q: %v", vigil.RedactURL(target), err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Vigil-Webhook/1.0")
	event := "change"
	switch {
	case m.Digest:
		event = "digest"
	case m.Failure != nil:
		event = "failure" // a page fails, or works again: no change
	case !m.Ended.IsZero():
		event = "ended" // the sentinel's lifespan is over: no change
	}
	req.Header.Set(EventHeader, event)
	delivery, ok := vigil.DeliveryID(ctx)
	if ok {
		req.Header.Set(DeliveryHeader, delivery)
	}
	now := time.Now
	if n.Now != nil {
		now = n.Now
	}
	ts := strconv.FormatInt(now().Unix(), 10)
	req.Header.Set(TimestampHeader, ts)
	req.Header.Set(SignatureHeader, Sign(n.Secret, ts, delivery, event, body))
	if owner, ok := vigil.DeliveryUser(ctx); ok {
		req.Header.Set(UserSignatureHeader, Sign(UserKey(n.Secret, owner), ts, delivery, event, body))
	}
	client := n.Client
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := keepPost(client).Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			// Its text names the target again, after the method
			// (`Post "URL": dial tcp ...`): the cause alone, which
			// still tells a timeout (net.Error); or, where a 307 or a
			// 308 led elsewhere, the URL it failed on, then the cause.
			if redirected(u, ue.URL) {
				err = fmt.Errorf("redirect to %s: %w", vigil.RedactURL(ue.URL), ue.Err)
			} else {
				err = ue.Err
			}
		}
		return fmt.Errorf("webhook %s: %w", vigil.RedactURL(target), err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("webhook %s: status %d", vigil.RedactURL(target), resp.StatusCode)
	}
	return nil
}

// Package webhook delivers notifications as HTTP POSTs of their JSON
// message (change records and deltas), signed with HMAC-SHA256 over the
// body so that the receiver can check they come from this Vigil.
//
// Headers: Content-Type application/json, X-Vigil-Event ("change" or
// "digest"), X-Vigil-Delivery (an id stable across retries of one entry,
// for deduplication on the receiver's side), and X-Vigil-Signature-256:
// "sha256=" and the lower-case hex HMAC-SHA256 of the body under the
// shared secret.
package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/notify"
)

// Header names.
const (
	SignatureHeader = "X-Vigil-Signature-256"
	EventHeader     = "X-Vigil-Event"
	DeliveryHeader  = "X-Vigil-Delivery"
)

// Notifier posts messages to webhook URLs.
type Notifier struct {
	// Secret keys the HMAC signature.
	Secret []byte
	// Client sends the requests; cmd/vigil gives it the fetcher's guarded
	// transport, so that webhooks cannot reach private networks either.
	Client *http.Client
}

var _ vigil.Notifier = (*Notifier)(nil)

// Sign returns the signature header value of body under secret.
func Sign(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Verify reports whether signature is body's signature under secret, in
// constant time.
func Verify(secret, body []byte, signature string) bool {
	return hmac.Equal([]byte(Sign(secret, body)), []byte(signature))
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

// Notify implements vigil.Notifier.
func (n *Notifier) Notify(ctx context.Context, target string, m *vigil.Message) error {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return vigil.Errorf(vigil.EINVALID, "webhook target %q is not an http(s) URL", target)
	}
	body, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("webhook: encode: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return vigil.Errorf(vigil.EINVALID, "webhook target %q: %v", target, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Vigil-Webhook/1.0")
	event := "change"
	if m.Digest {
		event = "digest"
	}
	req.Header.Set(EventHeader, event)
	req.Header.Set(SignatureHeader, Sign(n.Secret, body))
	if id, ok := vigil.DeliveryID(ctx); ok {
		req.Header.Set(DeliveryHeader, id)
	}
	client := n.Client
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := keepPost(client).Do(req)
	if err != nil {
		return fmt.Errorf("webhook %s: %w", u.Redacted(), err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("webhook %s: status %d", u.Redacted(), resp.StatusCode)
	}
	return nil
}

// Package chat delivers notifications to chat and push services named by a
// URL (slack://, discord://, telegram://, ntfy://... as the sentinel
// language's "Notify By chat <url>" writes them) through the maintained
// multi-service library github.com/nicholas-fedor/shoutrrr, but Telegram,
// which is sent here (telegram.go: the library reports a failed request as
// sent).
//
// The address guard. A chat URL is typed by a user, and a self-hosted
// service's URL names the server to post to, so a chat URL must not reach a
// private network any more than a watched page may. Shoutrrr takes no HTTP
// client, so Notifier.Transport, the fetcher's guarded transport, is put in
// its place wherever the library can be reached: the services that build a
// client of their own with a transport of their own (ntfy, gotify,
// mattermost) are given one with the guarded transport; all the others send
// with net/http's default transport, which the daemon replaces with the
// guarded one at start (cmd/vigil serve), and Notify refuses to send when
// it has not.
//
// Redirects. Every request goes under the notifiers' redirect policy
// (notify.Transport): a 301, 302 or 303, which Go's client follows with a
// GET without the message, fails the delivery instead of reporting it
// sent. The services with a client of their own have it on their
// transport; those on net/http's default transport have it because the
// daemon's default transport is a notify.Transport over the guarded one,
// which Notify checks. The guard checks each connection's address after DNS
// resolution, for the first request and every redirect, so neither DNS
// rebinding nor a redirect gets past it. Notifier.Guard, in addition,
// checks the host of a self-hosted service's URL before anything is built,
// for a clear error early.
//
// Markup. A message's text quotes the watched pages, which whoever writes
// them chooses; Slack, Discord and Mattermost are sent it written so that
// they show it as written (markup.go), with no link a label disguises and
// no mention of a whole channel.
//
// Refusals. Check, which the checker calls on every chat URL a sentinel
// names, tells what the library refuses in Vigil's words (refusal.go):
// the URL named with its secrets written *** (its user information, its
// path's segments, a token= or password= value), then the part at fault
// and the form the service wants (`chat URL "discord://***@123": the
// webhook token is missing (discord://TOKEN@WEBHOOK_ID)`), where the
// library's own words quoted a token or a query value. An error the
// library words in a way refusal.go does not know keeps its words, with
// every secret of the URL in them hidden.
//
// The operator's proxy. The transport cmd/vigil gives as Transport is the
// fetcher's, with its proxy (vigil serve --proxy) and the hosts reached
// without it (--no-proxy): every service sent to, on a client of its own,
// on net/http's default transport, or Telegram's here, goes through that
// proxy, by a CONNECT tunnel for https.
package chat

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/nicholas-fedor/shoutrrr/pkg/router"
	"github.com/nicholas-fedor/shoutrrr/pkg/services/push/ntfy"
	"github.com/nicholas-fedor/shoutrrr/pkg/types"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/notify"
)

// Notifier sends the text of messages to service URLs.
type Notifier struct {
	// Timeout bounds one delivery (30s if zero).
	Timeout time.Duration
	// MaxText truncates long texts (4000 runes if zero): chat services cap
	// message sizes.
	MaxText int
	// Guard, if not nil, vets the host of a self-hosted service (ntfy,
	// generic webhooks, gotify...) before anything is sent to it, so that a
	// chat URL is refused with a clear error when it names a private
	// network; cmd/vigil gives it the fetcher's address check.
	Guard func(ctx context.Context, host string) error
	// Transport, if not nil, carries every request: see the package
	// documentation. When it is set, a service that would send through
	// net/http's default transport is refused unless http.DefaultTransport
	// is Transport.
	Transport *http.Transport

	// telegramAPI replaces the Bot API's base URL in tests, retryDelay
	// the wait before a Telegram chat is tried again.
	telegramAPI string
	retryDelay  time.Duration
}

var _ vigil.Notifier = (*Notifier)(nil)

// Notify implements vigil.Notifier.
func (n *Notifier) Notify(ctx context.Context, target string, m *vigil.Message) error {
	name := service(target)
	if name == "smtp" {
		return vigil.Errorf(vigil.EINVALID, "chat target: smtp is not a chat service (write Notify By email)")
	}
	if n.Guard != nil && selfHosted[name] {
		u, err := url.Parse(target)
		if err != nil || u.Hostname() == "" {
			return vigil.Errorf(vigil.EINVALID, "chat target: no host")
		}
		if err := n.Guard(ctx, u.Hostname()); err != nil {
			return vigil.Errorf(vigil.EINVALID, "chat target: %v", err)
		}
	}
	timeout := n.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	if d, ok := ctx.Deadline(); ok && time.Until(d) < timeout {
		timeout = time.Until(d)
	}
	if timeout <= 0 { // a client timeout of 0 would be none
		return fmt.Errorf("chat %s: %w", server(name, target), context.DeadlineExceeded)
	}
	limit := n.MaxText
	if limit <= 0 {
		limit = 4000
	}
	text := clip(name, plainText(name, m.Subject+"\n\n"+m.Text), limit)
	if name == "telegram" {
		return n.sendTelegram(ctx, target, text, timeout)
	}
	sr, err := router.New(nil)
	if err != nil {
		return fmt.Errorf("chat: %w", err)
	}
	svc, err := sr.Locate(target)
	if err != nil {
		// The library quotes the URL it could not read, secrets and all.
		return vigil.Errorf(vigil.EINVALID, "chat target: %s", redact(err, target))
	}
	where := server(name, target)
	// Slack reads the title as it reads the text; Discord's embed
	// titles show no link or mention, and Mattermost's message has none.
	title := m.Subject
	if name == "slack" {
		title = plainText(name, title)
	}
	// What the service refuses before a request leaves (a Gotify token
	// of the wrong form, in a sentinel saved before Check read it), it
	// refuses at every attempt: a permanent error, which the outbox does
	// not retry. A panic is left to the send, which reports it.
	if err := dryRun(sr, target, text, title); err != nil {
		if pe := (*vigil.PanicError)(nil); !errors.As(err, &pe) {
			return vigil.Errorf(vigil.EINVALID, "chat %s: %s", where, redact(err, target))
		}
	}
	own, err := n.route(svc, name, timeout) // the service's own transport, if it was given one
	if err != nil {
		return vigil.Errorf(vigil.EINVALID, "chat %s: %s", where, redact(err, target))
	}
	// Shoutrrr takes no context: the send runs on its own and is given
	// up on at the timeout (the guarded transport's own timeouts end it).
	// A panic in the library fails the delivery (a *vigil.PanicError, its
	// value's URLs redacted), which the outbox retries, rather than the
	// process.
	sent := vigil.Go(func() error {
		if own != nil {
			defer own.CloseIdleConnections() // the clone serves this message only
		}
		return send(svc, text, &types.Params{"title": title})
	})
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case err = <-sent:
	case <-timer.C:
		err = fmt.Errorf("no answer after %v", timeout)
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		if vigil.ErrorCode(err) == vigil.EINVALID {
			// Its message, which the API may show, is the redacted one.
			return vigil.Errorf(vigil.EINVALID, "chat %s: %s", where, redact(err, target))
		}
		return &deliveryError{msg: "chat " + where + ": " + redact(err, target), err: err}
	}
	return nil
}

// server names where a delivery to target, a URL of service name, goes,
// for its errors: the service and, of a self-hosted one, the server the
// URL names (its host and port, "ntfy at ntfy.example.org"); a service
// that posts to its vendor's API is named alone ("slack"), its URL's host
// being no server (a token, a channel's id).
func server(name, target string) string {
	if !selfHosted[name] {
		return name
	}
	u, err := url.Parse(target)
	if err != nil || u.Host == "" {
		return name
	}
	return name + " at " + u.Host
}

// redact returns the text of err, an error of the library about target,
// without target's secrets: its password, its path's and query's tokens
// (vigil.RedactTarget: the library quotes one alone too, "invalid gotify
// token"), and every URL cut to its scheme and host (vigil.RedactURLs: the
// library quotes the URL it posted to, the token in its path).
func redact(err error, target string) string {
	return vigil.RedactURLs(vigil.RedactTarget(err.Error(), target))
}

// deliveryError is a failed delivery named with its service and server,
// its text redacted (redact), which unwraps to the library's error (a
// context's deadline, a panic) for errors.Is and errors.As.
type deliveryError struct {
	msg string
	err error
}

func (e *deliveryError) Error() string { return e.msg }
func (e *deliveryError) Unwrap() error { return e.err }

// send sends text through svc: a variable, so that a test may make it
// panic as a bug in the library would.
var send = func(svc types.Service, text string, params *types.Params) error { return svc.Send(text, params) }

// route puts n.Transport, under the notifiers' redirect policy
// (notify.Transport), beneath svc's requests; it returns the transport it
// gave the service, if it made one. Without n.Transport, a service with a
// client of its own is given the policy on a transport of its own, and one
// on net/http's default transport is sent as it is.
func (n *Notifier) route(svc types.Service, name string, timeout time.Duration) (*http.Transport, error) {
	base := n.Transport
	if base == nil {
		base = &http.Transport{Proxy: http.ProxyFromEnvironment, ForceAttemptHTTP2: true}
	}
	switch s := svc.(type) {
	case *ntfy.Service:
		t := base.Clone()
		if s.Config != nil && s.Config.DisableTLSVerification {
			// The URL asked for it (disabletlsverification=yes).
			t.TLSClientConfig = &tls.Config{InsecureSkipVerify: true, MinVersion: tls.VersionTLS12}
		}
		s.SetHTTPClient(&http.Client{Transport: &notify.Transport{Base: t}, Timeout: timeout})
		return t, nil
	case interface{ GetHTTPClient() *http.Client }: // gotify, mattermost
		c := s.GetHTTPClient()
		if c == nil {
			return nil, errors.New("the service has no HTTP client to guard")
		}
		t := base.Clone()
		if own, ok := c.Transport.(*http.Transport); ok && own.TLSClientConfig != nil {
			t.TLSClientConfig = own.TLSClientConfig.Clone() // what the URL asked (insecureskipverify)
		}
		c.Transport, c.Timeout = &notify.Transport{Base: t}, timeout
		return t, nil
	}
	if n.Transport == nil {
		return nil, nil
	}
	if !onDefaultTransport[name] {
		return nil, errors.New("not sent: Vigil cannot put its address guard under this service's requests")
	}
	if dt, ok := http.DefaultTransport.(*notify.Transport); !ok || dt.Base != http.RoundTripper(n.Transport) {
		return nil, errors.New("not sent: it would go through net/http's default transport, which is not the guarded one under the notifiers' redirect policy")
	}
	return nil, nil
}

// onDefaultTransport are the services known (in the Shoutrrr version of
// go.mod) to send with net/http's default transport: clients of their own
// with no transport set, or http.DefaultClient. A service not listed here
// nor handled in route is refused rather than sent unguarded, so that a
// library upgrade giving one a transport of its own cannot open a gap.
var onDefaultTransport = map[string]bool{"slack": true, "discord": true, "generic": true}

// selfHosted are the services whose URL host is the server Shoutrrr
// contacts (the others post to their vendor's public API).
var selfHosted = map[string]bool{"ntfy": true, "generic": true, "gotify": true, "mattermost": true, "rocketchat": true,
	"zulip": true, "matrix": true, "bark": true, "lark": true, "signal": true}

// service returns the service a URL names, as Shoutrrr reads it: the
// scheme, lower-cased, up to a '+' (generic+https://host/...).
func service(u string) string {
	s, _, _ := strings.Cut(u, ":")
	s, _, _ = strings.Cut(s, "+")
	return strings.ToLower(s)
}

// Package chat delivers notifications to chat and push services named by a
// URL (slack://, discord://, telegram://, ntfy://... as the sentinel
// language's "Notify By chat <url>" writes them) through the maintained
// multi-service library github.com/nicholas-fedor/shoutrrr.
//
// Limitation: shoutrrr builds its own HTTP clients, which cannot be given
// the fetcher's guarded dialer. The host of a self-hosted service is
// resolved and checked (Notifier.Guard) just before sending, but shoutrrr
// resolves it again and follows redirects on its own, so a name that
// changes its address in between (DNS rebinding), or a server that
// redirects, could still make it post a notification's text to a private
// address. Nothing of the answer comes back to the user. Webhooks have no
// such gap: they are sent with the guarded client (package webhook).
package chat

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/nicholas-fedor/shoutrrr/pkg/router"
	"github.com/nicholas-fedor/shoutrrr/pkg/types"

	"github.com/vigil-web/vigil"
)

// Notifier sends the text of messages to service URLs.
type Notifier struct {
	// Timeout bounds one delivery (30s if zero); shoutrrr takes no context.
	Timeout time.Duration
	// MaxText truncates long texts (4000 runes if zero): chat services cap
	// message sizes.
	MaxText int
	// Guard, if not nil, vets the host of a self-hosted service (ntfy,
	// generic webhooks, gotify...) before anything is sent to it, so that a
	// chat URL cannot reach private networks; cmd/vigil gives it the
	// fetcher's address check.
	Guard func(ctx context.Context, host string) error
}

var _ vigil.Notifier = (*Notifier)(nil)

// Notify implements vigil.Notifier.
func (n *Notifier) Notify(ctx context.Context, target string, m *vigil.Message) error {
	sr, err := router.New(nil, target)
	if err != nil {
		return vigil.Errorf(vigil.EINVALID, "chat target: %v", err)
	}
	if n.Guard != nil && selfHosted[strings.ToLower(scheme(target))] {
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
	sr.Timeout = timeout
	limit := n.MaxText
	if limit <= 0 {
		limit = 4000
	}
	text := m.Subject + "\n\n" + m.Text
	if r := []rune(text); len(r) > limit {
		text = string(r[:limit-1]) + "…"
	}
	errs := sr.Send(text, &types.Params{"title": m.Subject})
	var all []error
	for _, e := range errs {
		if e != nil {
			all = append(all, e)
		}
	}
	if len(all) > 0 {
		return fmt.Errorf("chat %s: %w", scheme(target), errors.Join(all...))
	}
	return nil
}

// selfHosted are the services whose URL host is the server Shoutrrr
// contacts (the others post to their vendor's public API).
var selfHosted = map[string]bool{"ntfy": true, "generic": true, "gotify": true, "mattermost": true, "rocketchat": true,
	"zulip": true, "matrix": true, "bark": true, "lark": true}

func scheme(u string) string {
	s, _, _ := strings.Cut(u, ":")
	return s
}

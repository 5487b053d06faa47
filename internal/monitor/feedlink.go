package monitor

import (
	"context"
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// footerSeparator separates the links of a message's footer in HTML.
const footerSeparator = " · "

// feedLine is the line of a message's text footer that links to the feed
// of the sentinel named name.
func feedLine(name, feed string) string {
	return fmt.Sprintf("All changes of %s, as a feed: %s\n", name, feed)
}

// feedAnchor is the link of a message's HTML footer to the feed of the
// sentinel named name.
func feedAnchor(name, feed string) string {
	return fmt.Sprintf("<a href=\"%s\">All changes of %s (feed)</a>", html.EscapeString(feed), html.EscapeString(name))
}

// SentinelFinder reads a sentinel as it is stored now.
type SentinelFinder interface {
	// FindSentinelByID returns ENOTFOUND if the sentinel does not exist.
	FindSentinelByID(ctx context.Context, id int64) (*vigil.Sentinel, error)
}

// relink gives message msg of entry n, about to be delivered, the feed
// link of its sentinel as the sentinel is now (Message.FeedLink): its
// owner may have replaced the link, revoking the one msg was written
// with, while msg waited in the outbox (for its first attempt, a retry,
// or as a dead letter retried since). As the monitor does when it writes
// a message (Monitor.links), a replaced link is not handed to a target
// the sentinel no longer notifies on n's channel (the replacement may
// have been made to revoke what that target knew): msg then loses its
// feed link, as it does if its sentinel is gone. The revoked link is left
// nowhere in msg. The returned error is a store failure: msg is not to be
// delivered now.
func (d *Deliverer) relink(ctx context.Context, n *vigil.Notification, msg *vigil.Message) error {
	if msg.FeedLink == "" || d.MessageLink == nil || d.Sentinels == nil {
		return nil
	}
	s, err := d.Sentinels.FindSentinelByID(ctx, msg.SentinelID)
	if err != nil && vigil.ErrorCode(err) != vigil.ENOTFOUND {
		return fmt.Errorf("notification %d: read sentinel %d for its feed link: %w", n.ID, msg.SentinelID, err)
	}
	cur := ""
	if err == nil {
		cur = d.MessageLink(s)
		if cur == msg.FeedLink {
			return nil
		}
		if !notifiesAt(s, n.Channel, n.Target) {
			cur = ""
		}
	}
	replaceFeedLink(msg, cur)
	return nil
}

// notifiesAt reports whether sentinel s, as stored, notifies target on
// channel.
func notifiesAt(s *vigil.Sentinel, channel, target string) bool {
	p, err := decodePlan(s)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(p.contacts, func(c *spec.Contact) bool {
		return c.Kind.Channel() == channel && c.Address == target
	})
}

// replaceFeedLink puts feed, the link to msg's sentinel's feed now, in
// place of the one msg carries, in its text, its HTML and its FeedLink;
// feed "" removes the feed's line and link from the footer. Whatever the
// footer's shape, no copy of the old link is left.
func replaceFeedLink(msg *vigil.Message, feed string) {
	old := msg.FeedLink
	if feed != "" {
		msg.Text = strings.ReplaceAll(msg.Text, old, feed)
		msg.HTML = strings.ReplaceAll(msg.HTML, html.EscapeString(old), html.EscapeString(feed))
	} else {
		msg.Text = strings.Replace(msg.Text, feedLine(msg.SentinelName, old), "", 1)
		a := feedAnchor(msg.SentinelName, old)
		for _, cut := range []string{footerSeparator + a, "<p>" + a + "</p>\n", a} {
			if strings.Contains(msg.HTML, cut) {
				msg.HTML = strings.Replace(msg.HTML, cut, "", 1)
				break
			}
		}
		msg.Text = strings.ReplaceAll(msg.Text, old, "")
		msg.HTML = strings.ReplaceAll(msg.HTML, html.EscapeString(old), "")
		msg.HTML = strings.ReplaceAll(msg.HTML, old, "")
	}
	msg.FeedLink = feed
}

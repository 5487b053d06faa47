package spec

import "fmt"

// A server may not reach every URL a sentinel names: one that does not
// fetch private addresses (vigil serve without --allow-private-networks)
// fails each check of a page at 127.0.0.1, and each delivery to a
// webhook there. The checker asks it (Checker.Unreachable) and warns
// where the URL is written, so that the user learns it when saving.

// reach warns of the page at the canonical URL u, written raw at n, if
// the server will not fetch it (Checker.Unreachable).
func (v *validator) reach(n Node, raw, u string) {
	if v.unreachable == nil || v.warn == nil {
		return
	}
	if why := v.unreachable(u); why != "" {
		v.warn(n, raw, fmt.Sprintf("this server does not fetch %s: %s", hidePassword(u), why))
	}
}

// addressPos returns the position of the contact's address, or of the
// contact where it is not known (a contact not parsed from source).
func (x *Contact) addressPos() Pos {
	if x.addr.IsValid() {
		return x.addr
	}
	return x.ContactPos
}

// UnreachableWarnings returns the warnings the checker gives of the
// pages and webhooks of c that unreachable says this server will not
// reach (Checker.Unreachable), in the checker's words: its pages in the
// order of URLs, then its webhooks, inherited ones included. A server
// shows them of a stored sentinel, whose warnings were those of the
// server that checked it.
func (c *Checked) UnreachableWarnings(unreachable func(url string) string) []string {
	var out []string
	v := &validator{unreachable: unreachable, warn: func(_ Node, _, msg string) { out = append(out, msg) }}
	for _, u := range c.URLs {
		v.reach(nil, u, u)
	}
	if c.Sentinel != nil && c.Sentinel.Notify != nil {
		for _, ct := range c.Sentinel.Notify.Contacts {
			v.reachWebhook(ct)
		}
	}
	return out
}

// reachWebhook warns of the contact c if it is a webhook the server will
// not call (Checker.Unreachable).
func (v *validator) reachWebhook(c *Contact) {
	if c == nil || c.Kind != Webhook || v.unreachable == nil || v.warn == nil {
		return
	}
	if why := v.unreachable(c.Address); why != "" {
		v.warn(urlAt{c.addressPos()}, c.Address, fmt.Sprintf("this server does not call webhook %s: %s", hidePassword(c.Address), why))
	}
}

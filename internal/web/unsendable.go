package web

import (
	"fmt"

	"github.com/vigil-web/vigil/spec"
)

// unsendableWarnings returns the warnings of the channels of a stored
// sentinel's Notify clause that this server cannot send on
// (Server.Unsendable: email without an SMTP relay), as its checked form c
// has them, one a channel: the live check warns of them, and so must the
// sentinel once saved, where its owner looks later, as the sentinel
// would otherwise stay silent with nothing said of why. None if c is nil
// (the form does not read) or the server sends on every channel, and none
// for an interactive sentinel, which sends nothing on any channel (its
// check warns of that).
func (s *Server) unsendableWarnings(c *spec.Checked) []string {
	if s.Unsendable == nil || c == nil || c.Sentinel == nil || c.Sentinel.Notify == nil {
		return nil
	}
	if e := c.Sentinel.Every; e != nil && e.Mode == spec.Interactive {
		return nil
	}
	var out []string
	seen := map[spec.ContactKind]bool{}
	for _, contact := range c.Sentinel.Notify.Contacts {
		channel := contact.Kind.Channel()
		if seen[contact.Kind] || channel == "" { // fax and PDA: the checker's
			continue
		}
		seen[contact.Kind] = true
		if why := s.Unsendable(channel); why != "" {
			out = append(out, fmt.Sprintf("notifications by %s will not be sent: %s", contact.Kind, why))
		}
	}
	return out
}

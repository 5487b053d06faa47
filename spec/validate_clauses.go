package spec

import (
	"fmt"
	"net/mail"
	"net/url"
	"strings"
)

// Checking the other clauses: Fetch and its intervals, Notify and its
// contacts.

func (v *validator) interval(iv *Interval, what string) bool {
	if iv == nil {
		v.report(nil, "", what+": missing interval")
		return false
	}
	if iv.Unit < Second || iv.Unit > Month {
		v.report(iv, "", what+": unknown time unit")
		return false
	}
	if iv.N <= 0 {
		v.report(iv, iv.found(), fmt.Sprintf("%s %s: interval must be greater than 0", what, iv.Duration))
		return false
	}
	if v.countable && !iv.fitsStd() {
		v.report(iv, iv.found(), fmt.Sprintf("%s %s is longer than Vigil can count (about 292 years)", what, iv.Duration))
		return false
	}
	return true
}

// fixedInterval also rejects months: a period that is repeated must have a
// fixed length (the seed allows minutes to weeks; Vigil also seconds).
func (v *validator) fixedInterval(iv *Interval, what string) {
	if v.interval(iv, what) && !iv.Fixed() {
		v.report(iv, iv.found(), fmt.Sprintf("%s %s: unit not allowed here: use second, minute, hour, day or week", what, iv.Duration))
	}
}

func (v *validator) fetch(f *FetchClause) {
	switch {
	case f.OnChange && f.Interval != nil:
		v.report(f, "", "Fetch takes an interval or on change, not both")
	case f.OnChange:
	default:
		v.fixedInterval(f.Interval, "Fetch")
	}
}

// contactKey returns what two contacts of one Notify clause share when
// they reach the same receiver: an email address in lower case; a
// webhook URL's normal form without its fragment, which is not sent
// (NormalizeURL: its scheme and host in lower case, a default port
// dropped), its path and query as written, in their case, which a
// receiver tells apart (https://h/Team and https://h/team are two); a
// chat URL as written, its scheme in lower case.
func contactKey(c *Contact) string {
	a := c.Address
	switch c.Kind {
	case Email:
		a = strings.ToLower(a)
	case Webhook:
		if u, err := NormalizeURL(a); err == nil {
			a = withoutFragment(u)
		}
	default:
		if scheme, rest, ok := strings.Cut(a, "://"); ok {
			a = strings.ToLower(scheme) + "://" + rest
		}
	}
	return c.Kind.String() + " " + a
}

func (v *validator) notify(n *NotifyClause) {
	if len(n.Contacts) == 0 {
		v.report(n, "", "Notify By needs at least one contact")
	}
	seen := map[string]*Contact{}
	for _, c := range n.Contacts {
		if c == nil {
			continue
		}
		if err := validateContact(c.Kind, c.Address, !v.stored); err != nil {
			v.report(c, c.Address, err.Error())
			continue
		}
		if c.Kind == Chat && v.checkChat != nil {
			if err := v.checkChat(c.Address); err != nil {
				// Told as the hook words it: it names the URL with
				// its secrets hidden, and the part at fault.
				msg := err.Error()
				if !v.stored {
					v.report(c, c.Address, msg)
					continue
				}
				// Stored when the hook accepted it (it reads more of
				// a URL as the notifier learns what fails at send):
				// its deliveries fail, but an edit of a sentinel it
				// uses is not refused for it.
				v.warn(c, c.Address, msg)
			}
		}
		k := contactKey(c)
		if first, ok := seen[k]; ok {
			msg := "duplicate contact " + shownContact(c)
			if v.stored && !strings.EqualFold(first.Address, c.Address) {
				// Stored before webhook URLs were compared in their
				// normal form: loaded as it ran, warned.
				if v.warn != nil {
					v.warn(c, c.Address, msg)
				}
			} else {
				v.report(c, c.Address, msg)
			}
		} else {
			seen[k] = c
		}
		if why, ok := v.unavailable[c.Kind]; ok && v.warn != nil && !v.interactive {
			v.warn(c, c.Address, fmt.Sprintf("notifications by %s will not be sent: %s", c.Kind, why))
		} else {
			v.reachWebhook(c)
		}
	}
}

// shownContact returns the address of c for a message: an email address
// as written, a password of a URL given as one hidden
// (HideAddressPassword), a chat URL with its secrets hidden
// (ShownChatURL), a webhook's URL with its password hidden
// (hidePassword).
func shownContact(c *Contact) string {
	switch c.Kind {
	case Email:
		return HideAddressPassword(c.Address)
	case Chat:
		return ShownChatURL(c.Address)
	}
	return hidePassword(c.Address)
}

// ValidateContact reports whether address is a valid destination for a
// contact of the given kind: a plain email address, an http(s) webhook URL,
// or a URL of a supported chat service. Fax and PDA, which the seed names,
// are reported as unsupported.
func ValidateContact(kind ContactKind, address string) error {
	return validateContact(kind, address, true)
}

// validateContact is ValidateContact; not strict, it takes a webhook's
// port outside 1 to 65535, a webhook URL without a host name and a host
// name IDNA or DNS refuses (CheckHostName), the rules added after
// sentinels were stored with them (see normalizeURL).
func validateContact(kind ContactKind, address string, strict bool) error {
	switch kind {
	case Email:
		a, err := mail.ParseAddress(address)
		// Named as written, a display name and all (Bob: x@y.org), with
		// the password of a URL given as an address hidden (email
		// https://u:pw@h.example, mailto:u:pw@y.org), as a webhook's
		// is below: HideAddressPassword.
		shown := HideAddressPassword(address)
		if err != nil || a.Address != address || a.Name != "" {
			return fmt.Errorf("invalid email address %s", quote(shown))
		}
		if _, domain, _ := strings.Cut(address, "@"); !strings.Contains(domain, ".") && domain != "localhost" {
			return fmt.Errorf("invalid email address %s: the domain has no dot", quote(shown))
		}
	case Webhook:
		if n := len(strings.TrimSpace(address)); n > MaxURL && strict {
			return fmt.Errorf("webhook URL of %d bytes: want at most %d", n, MaxURL)
		}
		// Messages hide a password the URL carries, as a page's URL's do.
		shown := quote(hidePassword(address))
		u, err := url.Parse(address)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("invalid webhook URL %s: want an absolute http or https URL", shown)
		}
		if !strict {
			break
		}
		if u.Hostname() == "" {
			// "https://:8080/x": a port and no host name, which no
			// delivery can reach.
			return fmt.Errorf("invalid webhook URL %s: no host", shown)
		}
		if err := checkPort(u); err != nil {
			return fmt.Errorf("invalid webhook URL %s: %v", shown, err)
		}
		if err := checkSpace(strings.TrimSpace(address)); err != nil {
			return fmt.Errorf("invalid webhook URL %s: %v", shown, err)
		}
		if err := CheckHostName(u); err != nil {
			return fmt.Errorf("invalid webhook URL %s: %v", shown, err)
		}
	case Chat:
		if n := len(strings.TrimSpace(address)); n > MaxURL && strict {
			return fmt.Errorf("chat URL of %d bytes: want at most %d", n, MaxURL)
		}
		// Named with its secrets hidden, a token as a password
		// (ShownChatURL), as the chat notifier names it.
		shown := quote(ShownChatURL(address))
		scheme, rest, ok := strings.Cut(address, "://")
		if !ok || !IsChatScheme(strings.ToLower(scheme)) {
			return fmt.Errorf("invalid chat URL %s: want slack://, discord://, telegram://, ntfy://, gotify:// or mattermost://", shown)
		}
		if _, err := url.Parse(address); err != nil || strings.Trim(rest, "/") == "" {
			return fmt.Errorf("invalid %s URL %s", strings.ToLower(scheme), shown)
		}
	case Fax, PDA:
		return fmt.Errorf("notification by %s is not supported: use email, webhook or a chat URL", kind)
	default:
		return fmt.Errorf("unknown contact kind")
	}
	return nil
}

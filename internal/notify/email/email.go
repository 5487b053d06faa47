// Package email delivers notifications by SMTP (github.com/wneessen/go-mail)
// as multipart/alternative mail: a plain-text part and an HTML part in which
// inserted text is green and deleted text red and struck through. A
// delivery's Message-ID is the same at each of its attempts (messageID),
// so that mail systems drop the copy a retry sends after an attempt
// whose answer was lost.
package email

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// TLS is how the connection to the relay is secured.
type TLS string

// The TLS modes.
const (
	TLSOpportunistic TLS = "opportunistic" // STARTTLS when offered (default)
	TLSMandatory     TLS = "mandatory"     // STARTTLS required
	TLSImplicit      TLS = "implicit"      // TLS from the first byte (port 465)
	TLSNone          TLS = "none"          // plain text (local relays, tests)
)

// TLSModes lists the modes, for a message that refuses another.
const TLSModes = "opportunistic, mandatory, implicit or none"

// Known reports whether t is one of the modes, or empty (the default,
// TLSOpportunistic), a mode New takes.
func (t TLS) Known() bool {
	switch t {
	case "", TLSOpportunistic, TLSMandatory, TLSImplicit, TLSNone:
		return true
	}
	return false
}

// Options configure the SMTP relay.
type Options struct {
	Host     string
	Port     int // 587 if zero (465 with TLSImplicit)
	Username string
	Password string
	From     string // sender address, "Vigil <vigil@example.com>"
	TLS      TLS
	Timeout  time.Duration // 30s if zero
}

// Notifier sends messages by mail.
type Notifier struct {
	opt Options
}

var _ vigil.Notifier = (*Notifier)(nil)

// New checks the options and returns a notifier.
func New(opt Options) (*Notifier, error) {
	if opt.Host == "" {
		return nil, vigil.Errorf(vigil.EINVALID, "email: SMTP host required")
	}
	if _, err := mail.ParseAddress(opt.From); err != nil {
		return nil, vigil.Errorf(vigil.EINVALID, "email: sender %q: %v", opt.From, err)
	}
	if !opt.TLS.Known() {
		// Not taken for the default: a mistyped "mandatory" would send
		// the password in the clear to a relay that offers no STARTTLS.
		return nil, vigil.Errorf(vigil.EINVALID, "email: TLS mode %q: want %s", opt.TLS, TLSModes)
	}
	if opt.TLS == "" {
		opt.TLS = TLSOpportunistic
	}
	if opt.Port == 0 {
		opt.Port = 587
		if opt.TLS == TLSImplicit {
			opt.Port = 465
		}
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 30 * time.Second
	}
	return &Notifier{opt: opt}, nil
}

// Relay returns the relay's host and port, as the notifier dials them
// (the port chosen by the TLS mode when Options left it zero).
func (n *Notifier) Relay() string {
	return net.JoinHostPort(n.opt.Host, strconv.Itoa(n.opt.Port))
}

// Notify implements vigil.Notifier.
func (n *Notifier) Notify(ctx context.Context, target string, m *vigil.Message) error {
	if _, err := mail.ParseAddress(target); err != nil {
		// Named as written, with the password of a URL given as an
		// address hidden, as the checker names it, and without
		// net/mail's words, which quote the input past the first
		// address ("expected single address, got %q"), a password
		// and all.
		return vigil.Errorf(vigil.EINVALID, "email: recipient %q is not an email address", spec.HideAddressPassword(target))
	}
	msg := gomail.NewMsg()
	if err := msg.From(n.opt.From); err != nil {
		return vigil.Errorf(vigil.EINVALID, "email: sender: %v", err)
	}
	if err := msg.To(target); err != nil {
		// go-mail's words quote the address as written.
		return vigil.Errorf(vigil.EINVALID, "email: recipient %q is not an address the mail library takes", spec.HideAddressPassword(target))
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	id, ok := vigil.DeliveryID(ctx)
	msg.SetMessageIDWithValue(n.messageID(id, ok, target, m))
	if ok {
		msg.SetGenHeader("X-Vigil-Delivery", id)
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	html := m.HTML
	if html == "" {
		html = "<pre>" + escape(m.Text) + "</pre>"
	}
	msg.AddAlternativeString(gomail.TypeTextHTML, page(m.Subject, html))

	opts := []gomail.Option{gomail.WithPort(n.opt.Port), gomail.WithTimeout(n.opt.Timeout)}
	switch n.opt.TLS {
	case TLSNone:
		opts = append(opts, gomail.WithTLSPortPolicy(gomail.NoTLS))
	case TLSMandatory:
		opts = append(opts, gomail.WithTLSPortPolicy(gomail.TLSMandatory))
	case TLSImplicit:
		opts = append(opts, gomail.WithSSLPort(false))
	default:
		opts = append(opts, gomail.WithTLSPortPolicy(gomail.TLSOpportunistic))
	}
	if n.opt.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(n.opt.Username), gomail.WithPassword(n.opt.Password))
	}
	c, err := gomail.NewClient(n.opt.Host, opts...)
	if err != nil {
		return vigil.Errorf(vigil.EINVALID, "email: client: %v", err)
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		if refused(err) {
			return vigil.Errorf(vigil.EINVALID, "email to %s via %s:%d: refused for good: %v", spec.HideAddressPassword(target), n.opt.Host, n.opt.Port, err)
		}
		return fmt.Errorf("email to %s via %s:%d: %w", spec.HideAddressPassword(target), n.opt.Host, n.opt.Port, err)
	}
	return nil
}

// refused reports whether err is the relay's permanent refusal (a 5xx
// reply) of this message: of its recipient (550 no such mailbox) or of
// its content (554 refused as spam). Sent again, it would be refused
// again, eight times before the outbox gave up; the delivery is a dead
// letter at once (EINVALID), its reason in the outbox. A 5xx reply to
// the connection, the login or the sender is the relay's setting, not
// the message's: the administrator may fix it while the retries wait,
// so those stay temporary.
func refused(err error) bool {
	var se *gomail.SendError
	if !errors.As(err, &se) || se.IsTemp() || se.ErrorCode() < 500 || se.ErrorCode() > 599 {
		return false
	}
	switch se.Reason {
	case gomail.ErrSMTPRcptTo, gomail.ErrSMTPData, gomail.ErrSMTPDataClose:
		return true
	}
	return false
}

// messageID returns the Message-ID of message m to target, without its
// angle brackets, on the sender's domain. A delivery (id, when ok) has
// the same one at every attempt: an attempt whose answer was lost after
// the relay took the mail is retried, and mail systems drop a second
// copy by its Message-ID (each attempt had a random one, and the user got
// both). It holds a hash of the message and its recipient too, so that a
// delivery id used again (a store started afresh) makes another. Without
// a delivery id, it is random.
func (n *Notifier) messageID(id string, ok bool, target string, m *vigil.Message) string {
	domain := "vigil.invalid"
	if a, err := mail.ParseAddress(n.opt.From); err == nil {
		if i := strings.LastIndexByte(a.Address, '@'); i >= 0 && i+1 < len(a.Address) {
			domain = a.Address[i+1:]
		}
	}
	if !ok || id == "" {
		return "vigil." + rand.Text() + "@" + domain
	}
	h := sha256.New()
	for _, s := range []string{id, target, m.Subject, m.Text, m.HTML} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return "vigil." + messageIDPart(id) + "." + hex.EncodeToString(h.Sum(nil)[:16]) + "@" + domain
}

// messageIDPart returns s with every byte a Message-ID's dot-atom does not
// take as "-" (a delivery id is a number, but a context may carry any).
func messageIDPart(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 && (r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return r
		}
		return '-'
	}, s)
}

func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// page wraps the message's HTML in a document with the highlighting styles
// (mail clients keep inline and head styles; both are given).
func page(title, body string) string {
	return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>` + escape(title) + `</title>
<style>ins{background:#e6ffec;color:#116329;text-decoration:none}del{background:#ffebe9;color:#82071e}</style>
</head><body style="font-family:sans-serif">` + body + `</body></html>`
}

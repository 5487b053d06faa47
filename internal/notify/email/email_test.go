package email

import (
	"context"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/vigil-web/vigil"
)

// mailbox is a real SMTP server (emersion/go-smtp) on loopback that keeps
// what it receives.
type mailbox struct {
	mu   sync.Mutex
	msgs []received
	fail int // number of next transactions to refuse
	// refuse is the reply to RCPT TO of an address that starts with
	// "nobody", and to DATA of a message holding "SPAM", if not nil.
	refuse *smtp.SMTPError
}

type received struct {
	from string
	to   []string
	data string
}

func (b *mailbox) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{box: b}, nil }

type session struct {
	box  *mailbox
	from string
	to   []string
}

func (s *session) Reset()        { s.from, s.to = "", nil }
func (s *session) Logout() error { return nil }
func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.box.mu.Lock()
	defer s.box.mu.Unlock()
	if s.box.fail > 0 {
		s.box.fail--
		return &smtp.SMTPError{Code: 451, Message: "try again later"}
	}
	s.from = from
	return nil
}
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.box.mu.Lock()
	defer s.box.mu.Unlock()
	if s.box.refuse != nil && strings.HasPrefix(to, "nobody") {
		return s.box.refuse
	}
	s.to = append(s.to, to)
	return nil
}
func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.box.mu.Lock()
	if s.box.refuse != nil && strings.Contains(string(b), "SPAM") {
		s.box.mu.Unlock()
		return s.box.refuse
	}
	s.box.msgs = append(s.box.msgs, received{from: s.from, to: s.to, data: string(b)})
	s.box.mu.Unlock()
	return nil
}

func startSMTP(t *testing.T) (*mailbox, string, int) {
	box := &mailbox{}
	srv := smtp.NewServer(box)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	host, port, _ := net.SplitHostPort(l.Addr().String())
	p, _ := strconv.Atoi(port)
	return box, host, p
}

func TestSend(t *testing.T) {
	box, host, port := startSMTP(t)
	n, err := New(Options{Host: host, Port: port, From: "Vigil <vigil@example.test>", TLS: TLSNone, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	m := &vigil.Message{SentinelID: 1, SentinelName: "s1", Subject: "s1: keyword 5331 appeared",
		Text: "+ 5331", HTML: "<p><ins>5331</ins> <del>4331</del></p>"}
	if err := n.Notify(context.Background(), "jill@example.test", m); err != nil {
		t.Fatal(err)
	}
	box.mu.Lock()
	defer box.mu.Unlock()
	if len(box.msgs) != 1 {
		t.Fatalf("%d messages received", len(box.msgs))
	}
	got := box.msgs[0]
	for _, want := range []string{"Subject: s1: keyword 5331 appeared", "multipart/alternative", "text/plain", "text/html", "<ins>5331</ins>"} {
		if !strings.Contains(got.data, want) {
			t.Errorf("mail lacks %q:\n%s", want, got.data)
		}
	}
	if got.from != "vigil@example.test" || len(got.to) != 1 || got.to[0] != "jill@example.test" {
		t.Errorf("envelope %q -> %q", got.from, got.to)
	}
}

func TestErrors(t *testing.T) {
	box, host, port := startSMTP(t)
	n, _ := New(Options{Host: host, Port: port, From: "vigil@example.test", TLS: TLSNone, Timeout: 5 * time.Second})
	m := &vigil.Message{Subject: "x", Text: "x"}
	if err := n.Notify(context.Background(), "not an address", m); vigil.ErrorCode(err) != vigil.EINVALID {
		t.Errorf("bad recipient: %v, want EINVALID (permanent)", err)
	}
	box.mu.Lock()
	box.fail = 1
	box.mu.Unlock()
	if err := n.Notify(context.Background(), "jill@example.test", m); err == nil || vigil.ErrorCode(err) == vigil.EINVALID {
		t.Errorf("451 from the server: %v, want a temporary error", err)
	}
	if _, err := New(Options{From: "x@y"}); err == nil {
		t.Error("New without host succeeded")
	}
}

// TestTLSModes: New takes the four TLS modes (and none given, the
// default) and refuses any other; a mistyped one ("Mandatory",
// "starttls") was taken for opportunistic, which sends the password in the
// clear to a relay that offers no STARTTLS.
func TestTLSModes(t *testing.T) {
	for _, tc := range []struct {
		tls TLS
		ok  bool
	}{
		{"", true},
		{TLSOpportunistic, true},
		{TLSMandatory, true},
		{TLSImplicit, true},
		{TLSNone, true},
		{"Mandatory", false},
		{"starttls", false},
		{"tls", false},
	} {
		_, err := New(Options{Host: "relay.example.test", From: "vigil@example.test", TLS: tc.tls})
		if tc.ok && err != nil {
			t.Errorf("TLS %q: %v", tc.tls, err)
		}
		if !tc.ok && (vigil.ErrorCode(err) != vigil.EINVALID || !strings.Contains(vigil.ErrorMessage(err), fmt.Sprintf("%q", tc.tls))) {
			t.Errorf("TLS %q: %v, want EINVALID naming the mode", tc.tls, err)
		}
	}
}

// TestTLSKnown: the four modes are known, the empty one (the default,
// opportunistic) too, and nothing else: vigil serve refuses a mode that
// New would refuse, with the same list.
func TestTLSKnown(t *testing.T) {
	for _, c := range []struct {
		mode TLS
		want bool
	}{{"", true}, {TLSOpportunistic, true}, {TLSMandatory, true}, {TLSImplicit, true}, {TLSNone, true}, {"mandatroy", false}, {"Mandatory", false}} {
		if got := c.mode.Known(); got != c.want {
			t.Errorf("TLS(%q).Known() = %v, want %v", c.mode, got, c.want)
		}
	}
}

// TestRecipientErrorsNameAddress: a recipient refused is named as
// written, a display name and all, with the password of a URL given as
// an address hidden (spec.HideAddressPassword, the checker's rule), and
// said to be no email address, without net/mail's words, which quote the
// input past the first address ("expected single address, got
// \"mailto:u:pw@y.org\""); the password of smtp://u:pw@h and
// mailto:u:pw@h was quoted.
func TestRecipientErrorsNameAddress(t *testing.T) {
	n, _ := New(Options{Host: "127.0.0.1", Port: 9, From: "vigil@example.test", TLS: TLSNone, Timeout: time.Second})
	m := &vigil.Message{Subject: "x", Text: "x"}
	for _, tc := range []struct{ target, want string }{
		{"Bob: x@y.org", `"Bob: x@y.org"`},
		{"smtp://u:s3cret@h.example/?to=x@y.org", `"smtp://u:xxxxx@h.example/?to=x@y.org"`},
		{"mailto:u:s3cret@y.org", `"mailto:u:xxxxx@y.org"`},
		// A quoted display name, a comment holding an "@", a password
		// holding a space: hidden all the same.
		{`"Bob" <bob:s3cret@y.org>`, `"\"Bob\" <bob:xxxxx@y.org>"`},
		{"u:s3cret@y.org (me@home)", `"u:xxxxx@y.org (me@home)"`},
		{"u:s3cret pw@y.org", `"u:xxxxx@y.org"`},
		// net/mail quotes what follows the first address.
		{"a@b.org mailto:u:s3cret@y.org", `"a@b.org mailto:xxxxx@y.org"`},
		{"a@b.org, u:s3cret@y.org", `"a@b.org, u:xxxxx@y.org"`},
	} {
		err := n.Notify(context.Background(), tc.target, m)
		if vigil.ErrorCode(err) != vigil.EINVALID || strings.Contains(err.Error(), "s3cret") || !strings.HasSuffix(err.Error(), "recipient "+tc.want+" is not an email address") {
			t.Errorf("Notify(%s): %v; want a permanent error naming recipient %s", tc.target, err, tc.want)
		}
	}
}

// TestPermanentRefusals: a relay's 5xx reply to a recipient (no such
// mailbox) or to a message's content is permanent (EINVALID: a dead
// letter at once, where it was retried eight times); a 4xx reply to them
// and a 5xx reply to the sender stay temporary.
func TestPermanentRefusals(t *testing.T) {
	box, host, port := startSMTP(t)
	n, _ := New(Options{Host: host, Port: port, From: "vigil@example.test", TLS: TLSNone, Timeout: 5 * time.Second})
	for _, tc := range []struct {
		name      string
		reply     *smtp.SMTPError
		target    string
		text      string
		fail      int
		permanent bool
	}{
		{"no such mailbox", &smtp.SMTPError{Code: 550, Message: "no such user"}, "nobody@example.test", "x", 0, true},
		{"content refused", &smtp.SMTPError{Code: 554, Message: "looks like spam"}, "jill@example.test", "SPAM", 0, true},
		{"mailbox busy", &smtp.SMTPError{Code: 450, Message: "mailbox busy"}, "nobody@example.test", "x", 0, false},
		{"content deferred", &smtp.SMTPError{Code: 451, Message: "try later"}, "jill@example.test", "SPAM", 0, false},
		{"sender refused for now", nil, "jill@example.test", "x", 1, false},
	} {
		box.mu.Lock()
		box.refuse, box.fail = tc.reply, tc.fail
		box.mu.Unlock()
		err := n.Notify(context.Background(), tc.target, &vigil.Message{Subject: "s", Text: tc.text})
		if err == nil {
			t.Errorf("%s: sent", tc.name)
			continue
		}
		if got := vigil.ErrorCode(err) == vigil.EINVALID; got != tc.permanent {
			t.Errorf("%s: %v; permanent %v, want %v", tc.name, err, got, tc.permanent)
		}
	}
}

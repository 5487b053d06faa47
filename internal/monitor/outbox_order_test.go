package monitor

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/notify/email"
)

// orderMailbox is a real SMTP server (emersion/go-smtp) on loopback that
// keeps the subjects it receives, by recipient, in the order their
// messages came whole. The message whose subject is slow takes a while
// to receive, as a large message on a slow link does; the first fail
// messages to refused are refused (451).
type orderMailbox struct {
	mu      sync.Mutex
	got     map[string][]string
	slow    string
	refused string
	fail    int
}

func (b *orderMailbox) NewSession(*smtp.Conn) (smtp.Session, error) {
	return &orderSession{box: b}, nil
}

type orderSession struct {
	box *orderMailbox
	to  []string
}

func (s *orderSession) Reset()                               { s.to = nil }
func (s *orderSession) Logout() error                        { return nil }
func (s *orderSession) Mail(string, *smtp.MailOptions) error { return nil }
func (s *orderSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.box.mu.Lock()
	defer s.box.mu.Unlock()
	if to == s.box.refused && s.box.fail > 0 {
		s.box.fail--
		return &smtp.SMTPError{Code: 451, Message: "try again later"}
	}
	s.to = append(s.to, to)
	return nil
}

var subjectHeader = regexp.MustCompile(`(?m)^Subject: (.*?)\r?$`)

func (s *orderSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	subject := ""
	if m := subjectHeader.FindSubmatch(b); m != nil {
		subject = string(m[1])
	}
	s.box.mu.Lock()
	slow := subject == s.box.slow
	s.box.mu.Unlock()
	if slow {
		time.Sleep(300 * time.Millisecond)
	}
	s.box.mu.Lock()
	defer s.box.mu.Unlock()
	for _, to := range s.to {
		s.box.got[to] = append(s.box.got[to], subject)
	}
	return nil
}

func (b *orderMailbox) of(to string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.got[to])
}

// startOrderSMTP starts an orderMailbox and returns the email notifier
// that sends to it.
func startOrderSMTP(t *testing.T) (*orderMailbox, *email.Notifier) {
	t.Helper()
	box := &orderMailbox{got: map[string][]string{}}
	srv := smtp.NewServer(box)
	srv.Domain = "localhost"
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	host, port, _ := net.SplitHostPort(l.Addr().String())
	p, _ := strconv.Atoi(port)
	n, err := email.New(email.Options{Host: host, Port: p, From: "vigil@example.test", TLS: email.TLSNone, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return box, n
}

// TestDelivererKeepsOrder: the notices of one check to one address
// arrive in the order the check found them, though the deliverer sends
// several messages at once (to other addresses meanwhile), and though
// the first is slow to send or fails and is retried: the ones after it
// wait for it. They were sent by workers at once, and the first, slow or
// retried, came last.
func TestDelivererKeepsOrder(t *testing.T) {
	for _, tc := range []struct {
		name string
		slow string // the subject slow to send
		fail int    // jill's messages refused first
	}{
		{"slow first", "s: change 1", 0},
		{"first retried", "", 1},
		{"first retried twice, slow", "s: change 1", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			db, _, u := testStore(t)
			box, mailer := startOrderSMTP(t)
			box.slow, box.refused, box.fail = tc.slow, "jill@example.test", tc.fail
			now := time.Now().UTC().Truncate(time.Second)
			enqueue := func(to, subject string) {
				payload, _ := json.Marshal(&vigil.Message{SentinelName: "s", Subject: subject, Text: subject})
				if err := db.EnqueueNotification(ctx, &vigil.Notification{UserID: u.ID, Channel: "email", Target: to, Payload: payload, NextAttempt: now}); err != nil {
					t.Fatal(err)
				}
			}
			// One check's notices, as the monitor queues them: each
			// message to each contact in turn.
			var want []string
			for i := 1; i <= 4; i++ {
				subject := fmt.Sprintf("s: change %d", i)
				want = append(want, subject)
				enqueue("jill@example.test", subject)
				enqueue("other@example.test", "other: "+subject)
			}
			d := &Deliverer{Store: db, Channels: map[string]vigil.Notifier{"email": mailer}, Workers: 4,
				BaseBackoff: time.Second, MaxBackoff: time.Second, Now: func() time.Time { return now }}
			for range 6 {
				if _, err := d.RunOnce(ctx); err != nil {
					t.Fatal(err)
				}
				now = now.Add(2 * time.Second)
			}
			if got := box.of("jill@example.test"); !slices.Equal(got, want) {
				t.Errorf("jill received\n%q\nwant, in the order found,\n%q", got, want)
			}
			if got := box.of("other@example.test"); len(got) != 4 {
				t.Errorf("the other address received %q, want 4 messages", got)
			}
		})
	}
}

package email

import (
	"context"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestMessageIDStableAcrossRetries: a delivery retried (its first
// attempt's answer lost after the relay took the mail) carries the same
// Message-ID, by which mail systems drop the second copy; another
// delivery, or the same id with another message (a store whose ids began
// again), carries another. Each attempt had a random one, and a user got
// the retried notice twice.
func TestMessageIDStableAcrossRetries(t *testing.T) {
	box, host, port := startSMTP(t)
	n, err := New(Options{Host: host, Port: port, From: "Vigil <vigil@example.test>", TLS: TLSNone, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	m := &vigil.Message{SentinelID: 1, SentinelName: "s1", Subject: "s1: keyword 5331 appeared", Text: "+ 5331"}
	other := &vigil.Message{SentinelID: 1, SentinelName: "s1", Subject: "s1: keyword 6000 appeared", Text: "+ 6000"}
	for _, d := range []struct {
		id string
		m  *vigil.Message
	}{{"42", m}, {"42", m}, {"43", m}, {"42", other}} {
		if err := n.Notify(vigil.WithDeliveryID(context.Background(), d.id), "jill@example.test", d.m); err != nil {
			t.Fatal(err)
		}
	}
	box.mu.Lock()
	defer box.mu.Unlock()
	var ids []string
	for _, r := range box.msgs {
		msg, err := mail.ReadMessage(strings.NewReader(r.data))
		if err != nil {
			t.Fatal(err)
		}
		id := msg.Header.Get("Message-Id")
		if !strings.HasPrefix(id, "<") || !strings.HasSuffix(id, "@example.test>") {
			t.Errorf("Message-ID %q, want <...@example.test>", id)
		}
		ids = append(ids, id)
	}
	if len(ids) != 4 {
		t.Fatalf("%d messages received, want 4", len(ids))
	}
	if ids[0] != ids[1] {
		t.Errorf("a retried delivery: Message-ID %s, then %s; want the same", ids[0], ids[1])
	}
	if ids[2] == ids[0] || ids[3] == ids[0] || ids[2] == ids[3] {
		t.Errorf("other deliveries share a Message-ID: %q", ids)
	}
}

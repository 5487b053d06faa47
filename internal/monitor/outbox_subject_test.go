package monitor

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/vigil-web/vigil"
)

// TestDelivererCapsSubject: a message queued with a subject longer than
// maxSubject (by a Vigil older than the cap, whose outbox a newer one
// delivers) is delivered with its subject capped, as every subject made
// now is.
func TestDelivererCapsSubject(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_000_000, 0)
	store := newMemOutbox()
	var subject string
	ch := vigil.NotifierFunc(func(ctx context.Context, target string, m *vigil.Message) error {
		subject = m.Subject
		return nil
	})
	d := &Deliverer{Store: store, Channels: map[string]vigil.Notifier{"test": ch}, Workers: 1,
		MaxAttempts: 4, BaseBackoff: time.Second, MaxBackoff: 8 * time.Second, Now: func() time.Time { return now }}
	long := "[Vigil] shop: " + strings.Repeat("any change: 1 text changed; ", 40)
	payload, err := json.Marshal(map[string]string{"subject": long})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.EnqueueNotification(ctx, &vigil.Notification{Channel: "test", Target: "t", Payload: payload}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCountInString(subject); n == 0 || n > maxSubject || !strings.HasPrefix(subject, "[Vigil] shop: any change") || !strings.HasSuffix(subject, "…") {
		t.Errorf("delivered subject (%d characters) %q; want it capped at %d, ending with …", n, subject, maxSubject)
	}
}

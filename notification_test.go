package vigil_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestNotificationSentinelID: a letter's sentinel is the one its message
// names, 0 for a payload that names none or does not read as a message.
func TestNotificationSentinelID(t *testing.T) {
	for name, tc := range map[string]struct {
		payload string
		want    int64
	}{
		"a change's":    {`{"sentinelId":7,"sentinel":"s","subject":"x","text":"t","changes":[{"change":{"id":0}}]}`, 7},
		"a digest":      {`{"sentinelId":8,"sentinel":"s","subject":"x","text":"t","digest":true,"changes":[]}`, 8},
		"names none":    {`{"subject":"x"}`, 0},
		"not an object": {`[1]`, 0},
		"a string id":   {`{"sentinelId":"7"}`, 0},
	} {
		n := &vigil.Notification{Payload: json.RawMessage(tc.payload)}
		if got := n.SentinelID(); got != tc.want {
			t.Errorf("%s: %d, want %d", name, got, tc.want)
		}
	}
}

// TestRetryDuplicateMessage: the refusal of a retry that would send a
// target the message twice says that the letter's own target is notified
// no more, which target is meant, and what to do; it said the target
// notified now was "in place of this letter's", which read as if the
// sentinel's owner had replaced the target, where it had been there all
// along.
func TestRetryDuplicateMessage(t *testing.T) {
	for _, c := range []struct {
		name    string
		sibling vigil.Notification
		want    []string
	}{
		{"sent", vigil.Notification{ID: 1, ChangeID: 7, Channel: "webhook", State: vigil.NotificationSent}, []string{
			"notification 2 is not retried: its sentinel notifies by webhook no more at this letter's target;",
			"the webhook target it notifies now has been sent this change already, by its own letter (notification 1); a retry would send it twice"}},
		{"dead digest", vigil.Notification{ID: 5, Channel: "email", State: vigil.NotificationDead}, []string{
			"by email no more at this letter's target;",
			"the email target it notifies now already has its own letter for this message, notification 5, a dead letter too: retry that one"}},
		{"pending", vigil.Notification{ID: 6, ChangeID: 7, Channel: "slack", State: vigil.NotificationPending}, []string{
			"the slack target it notifies now already has its own letter for this change, notification 6, not sent yet (pending)"}},
	} {
		err := vigil.RetryDuplicate(2, &c.sibling)
		if vigil.ErrorCode(err) != vigil.ECONFLICT {
			t.Errorf("%s: code %q, want %q", c.name, vigil.ErrorCode(err), vigil.ECONFLICT)
		}
		msg := vigil.ErrorMessage(err)
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q\nlacks %q", c.name, msg, w)
			}
		}
		if strings.Contains(msg, "in place of") {
			t.Errorf("%s: %q says the target is in place of the letter's", c.name, msg)
		}
	}
}

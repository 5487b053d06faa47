package vigil_test

import (
	"encoding/json"
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

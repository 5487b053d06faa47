package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestServeWebhookKeyNotice: the first start of vigil serve on a data
// directory that a command made before it (vigil sentinel add writes the
// store and its secret file) makes the webhook key and says so; it warned
// that webhooks "are now signed" with a new key, as to a store whose
// webhooks an older version signed with the secret file, and asked the
// newcomer to replace that file. A store that has sent messages and has
// no webhook key file yet still gets the warning, and so does one whose
// messages the outbox's retention deleted, which holds the changes they
// told of.
func TestServeWebhookKeyNotice(t *testing.T) {
	const warning = "webhooks are now signed with the key in"
	const created = "webhook signing key created"
	src := "Create Sentinel news Using https://example.com/ Monitor any change Fetch 1 day\n"
	for _, tc := range []struct {
		name string
		// sent is whether the store holds a message sent before the
		// daemon starts (by an older version, which signed webhooks
		// with the secret file); found, a change.
		sent, found bool
		want        string
	}{
		{"sentinel add before the first start", false, false, created},
		{"a store that sent messages, without a webhook key", true, false, warning},
		{"a store whose sent messages were deleted", false, true, warning},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := t.TempDir()
			if code, _, errOut := runVigil(t, src, "sentinel", "add", "--data", data, "-"); code != exitOK {
				t.Fatalf("sentinel add: exit %d, %s", code, errOut)
			}
			if tc.sent {
				enqueueSentLetter(t, data)
			}
			if tc.found {
				recordChange(t, data)
			}
			if _, err := os.Stat(filepath.Join(data, webhookSecretFile)); err == nil {
				t.Fatalf("%s made before the first start", webhookSecretFile)
			}
			d := startDaemon(t, data)
			d.stop(t)
			log := d.stderr.String()
			if !strings.Contains(log, tc.want) {
				t.Errorf("the log does not say %q:\n%s", tc.want, log)
			}
			if tc.want == warning && !strings.Contains(log, "vigil keys rotate feed") {
				t.Errorf("the warning does not say how to replace the key the receivers may hold:\n%s", log)
			}
			for _, other := range []string{warning, created} {
				if other != tc.want && strings.Contains(log, other) {
					t.Errorf("the log says %q:\n%s", other, log)
				}
			}
		})
	}
}

// enqueueSentLetter stores a webhook message, sent, in the store of data.
func enqueueSentLetter(t *testing.T, data string) {
	t.Helper()
	ctx := context.Background()
	st, err := openStore(ctx, data, "")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	n := &vigil.Notification{Channel: "webhook", Target: "https://hooks.example.com/vigil", Payload: []byte(`{}`)}
	if err := st.EnqueueNotification(ctx, n); err != nil {
		t.Fatal(err)
	}
	if err := st.MarkNotificationSent(ctx, n.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
}

// recordChange stores a change of the first sentinel of the store of data,
// on a version of its page.
func recordChange(t *testing.T, data string) {
	t.Helper()
	ctx := context.Background()
	st, err := openStore(ctx, data, "")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sentinels, _, err := st.FindSentinels(ctx, vigil.SentinelFilter{Limit: 1})
	if err != nil || len(sentinels) == 0 {
		t.Fatalf("the sentinel of sentinel add: %v, %v", sentinels, err)
	}
	wh, err := openWarehouse(st, warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := wh.Put(ctx, &warehouse.Fetch{URL: "https://example.com/", FetchedAt: time.Now(), Status: 200,
		ContentType: "text/html", Charset: "utf-8", Body: []byte("<html><body><p>news</p></body></html>")})
	if err != nil {
		t.Fatal(err)
	}
	c := &vigil.Change{SentinelID: sentinels[0].ID, ResourceID: v.ResourceID, ToVersion: v.ID, DetectedAt: time.Now(), Summary: "first sighting"}
	if err := st.CreateChange(ctx, c); err != nil {
		t.Fatal(err)
	}
}

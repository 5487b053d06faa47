package webhook

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestNotifyEvent: X-Vigil-Event names what the message is: "change",
// "digest", "failure" for the notice that a page fails or works again
// (failure set, changes empty), which went as "change", so that a receiver
// routing by the event took it for a change with nothing in it, or "ended"
// for the notice that a sentinel's lifespan ended.
func TestNotifyEvent(t *testing.T) {
	var event string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		event = r.Header.Get(EventHeader)
	}))
	defer srv.Close()
	n := &Notifier{Secret: []byte("s3cret")}
	since := time.Unix(1_800_000_000, 0)
	for _, tc := range []struct {
		name string
		m    *vigil.Message
		want string
	}{
		{"change", &vigil.Message{Subject: "s changed", Changes: []*vigil.MessageItem{{Change: &vigil.Change{ID: 1}}}}, "change"},
		{"digest", &vigil.Message{Subject: "digest", Digest: true, Changes: []*vigil.MessageItem{{Change: &vigil.Change{ID: 1}}}}, "digest"},
		{"failing", &vigil.Message{Subject: "fails", Failure: &vigil.PageFailure{URL: "http://example.org/", Since: since, Error: "404"}}, "failure"},
		{"recovered", &vigil.Message{Subject: "works", Failure: &vigil.PageFailure{URL: "http://example.org/", Since: since, Recovered: true}}, "failure"},
		{"ended", &vigil.Message{Subject: "ended", Ended: since}, "ended"},
	} {
		event = ""
		if err := n.Notify(vigil.WithDeliveryID(context.Background(), "1"), srv.URL, tc.m); err != nil {
			t.Fatal(err)
		}
		if event != tc.want {
			t.Errorf("%s: %s %q, want %q", tc.name, EventHeader, event, tc.want)
		}
	}
}

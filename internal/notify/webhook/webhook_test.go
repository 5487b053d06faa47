package webhook

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/vigil-web/vigil"
)

func TestNotify(t *testing.T) {
	secret := []byte("s3cret")
	var got vigil.Message
	var sig, delivery string
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		sig, delivery = r.Header.Get(SignatureHeader), r.Header.Get(DeliveryHeader)
		json.Unmarshal(body, &got)
		if r.URL.Path == "/fail" {
			http.Error(w, "no", 503)
		}
	}))
	defer srv.Close()
	n := &Notifier{Secret: secret}
	m := &vigil.Message{SentinelID: 7, SentinelName: "s2", Subject: "s2 changed",
		Changes: []*vigil.MessageItem{{Change: &vigil.Change{ID: 3, Summary: "any change", Records: json.RawMessage(`[{"op":"insert"}]`)}, Delta: json.RawMessage(`{"ops":[]}`)}}}
	ctx := vigil.WithDeliveryID(context.Background(), "42")
	if err := n.Notify(ctx, srv.URL+"/hook", m); err != nil {
		t.Fatal(err)
	}
	if !Verify(secret, body, sig) {
		t.Errorf("signature %q does not verify", sig)
	}
	if Verify([]byte("other"), body, sig) {
		t.Error("signature verifies under another secret")
	}
	if delivery != "42" || got.SentinelName != "s2" || len(got.Changes) != 1 || string(got.Changes[0].Delta) != `{"ops":[]}` {
		t.Errorf("received %+v delivery %q", got, delivery)
	}
	if err := n.Notify(ctx, srv.URL+"/fail", m); err == nil || vigil.ErrorCode(err) == vigil.EINVALID {
		t.Errorf("503: %v, want a temporary error", err)
	}
	if err := n.Notify(ctx, "ftp://x/y", m); vigil.ErrorCode(err) != vigil.EINVALID {
		t.Errorf("bad URL: %v, want EINVALID", err)
	}
}

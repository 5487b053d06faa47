package webhook

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestUserKey: a user's key is the lower-case hex HMAC-SHA256, under the
// server key, of "vigil webhook user key/" and the user's id in decimal,
// as the package's doc says for receivers in other languages (the values
// below were computed apart, with Python's hmac), and each user's differs.
func TestUserKey(t *testing.T) {
	server := []byte("0123456789abcdef0123456789abcdef")
	for _, tc := range []struct {
		user int64
		want string
	}{
		{7, "6e9aa3c45f1c7d876ed305a5aa3fcb9f1c32f0cc547f1e6a4f844e444a56a115"},
		{8, "c04eb10dc5019a76fd4349e3e8a467b472a2a1f186580d7465b70457fe769cbb"},
	} {
		if got := string(UserKey(server, tc.user)); got != tc.want {
			t.Errorf("UserKey(server, %d) = %s, want %s", tc.user, got, tc.want)
		}
	}
	if string(UserKey([]byte("another server key, 32 bytes lon"), 7)) == string(UserKey(server, 7)) {
		t.Error("a user's key is the same under another server key: rotating the server key would not change it")
	}
}

// deliver sends m through n with the delivery id 42 and, if owner is not
// 0, the owner in the context as the outbox passes them, and returns the
// headers and body the receiver got.
func deliver(t *testing.T, n *Notifier, owner int64, m *vigil.Message) (http.Header, []byte) {
	t.Helper()
	var header http.Header
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		header = r.Header.Clone()
	}))
	defer srv.Close()
	ctx := vigil.WithDeliveryID(context.Background(), "42")
	if owner != 0 {
		ctx = vigil.WithDeliveryUser(ctx, owner)
	}
	if err := n.Notify(ctx, srv.URL+"/hook", m); err != nil {
		t.Fatal(err)
	}
	return header, body
}

// TestNotifyUserSignature: a delivery whose notification has an owner
// carries X-Vigil-User-Signature-256, which verifies under that owner's
// key only, not another user's nor the server key, beside the server
// key's X-Vigil-Signature-256, unchanged; one without an owner carries
// the server key's alone.
func TestNotifyUserSignature(t *testing.T) {
	server := []byte("0123456789abcdef0123456789abcdef")
	sent := time.Unix(1_800_000_000, 0)
	n := &Notifier{Secret: server, Now: func() time.Time { return sent }}
	m := &vigil.Message{SentinelID: 7, SentinelName: "prices", Subject: "prices changed"}

	header, body := deliver(t, n, 3, m)
	if got, want := header.Get(SignatureHeader), Sign(server, "1800000000", "42", "change", body); got != want {
		t.Errorf("%s %q, want %q: the server key's signature as before", SignatureHeader, got, want)
	}
	if err := Verify(server, header, body, sent); err != nil {
		t.Errorf("the server key's signature: %v", err)
	}
	if got, want := header.Get(UserSignatureHeader), Sign(UserKey(server, 3), "1800000000", "42", "change", body); got != want {
		t.Errorf("%s %q, want %q", UserSignatureHeader, got, want)
	}
	for _, tc := range []struct {
		name string
		key  []byte
		want string // in the error; "" for none
	}{
		{"the owner's key", UserKey(server, 3), ""},
		{"another user's key", UserKey(server, 4), "does not match"},
		{"the server key", server, "does not match"},
		{"the owner's key under another server key", UserKey([]byte("another server key, 32 bytes lon"), 3), "does not match"},
	} {
		err := VerifyUser(tc.key, header, body, sent.Add(time.Minute))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
	if err := VerifyUser(UserKey(server, 3), header, body, sent.Add(Tolerance+time.Second)); err == nil || !strings.Contains(err.Error(), "a replay") {
		t.Errorf("the owner's signature past the tolerance: %v, want a replay refused", err)
	}
	if err := VerifyUser(UserKey(server, 3), header, []byte(`{"subject":"prices unchanged"}`), sent); err == nil {
		t.Error("the owner's signature verifies over another body")
	}

	header, body = deliver(t, n, 0, m)
	if got := header.Get(UserSignatureHeader); got != "" {
		t.Errorf("without an owner: %s %q, want none", UserSignatureHeader, got)
	}
	if err := Verify(server, header, body, sent); err != nil {
		t.Errorf("without an owner, the server key's signature: %v", err)
	}
	if err := VerifyUser(UserKey(server, 3), header, body, sent); err == nil || !strings.Contains(err.Error(), "no "+UserSignatureHeader) {
		t.Errorf("without an owner, VerifyUser: %v, want an error naming the missing header", err)
	}
}

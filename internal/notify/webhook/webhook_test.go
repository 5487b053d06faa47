package webhook

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

func TestNotify(t *testing.T) {
	secret := []byte("s3cret")
	var got vigil.Message
	var header http.Header
	var delivery string
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		header, delivery = r.Header.Clone(), r.Header.Get(DeliveryHeader)
		json.Unmarshal(body, &got)
		if r.URL.Path == "/fail" {
			http.Error(w, "no", http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	sent := time.Unix(1_800_000_000, 0)
	n := &Notifier{Secret: secret, Now: func() time.Time { return sent }}
	m := &vigil.Message{SentinelID: 7, SentinelName: "s2", Subject: "s2 changed",
		Changes: []*vigil.MessageItem{{Change: &vigil.Change{ID: 3, Summary: "any change", Records: json.RawMessage(`[{"op":"insert"}]`)}, Delta: json.RawMessage(`{"ops":[]}`)}}}
	ctx := vigil.WithDeliveryID(context.Background(), "42")
	if err := n.Notify(ctx, srv.URL+"/hook", m); err != nil {
		t.Fatal(err)
	}
	if got := header.Get(TimestampHeader); got != "1800000000" {
		t.Errorf("%s %q, want the time of sending, 1800000000", TimestampHeader, got)
	}
	if err := Verify(secret, header, body, sent.Add(time.Minute)); err != nil {
		t.Errorf("signature %q: %v", header.Get(SignatureHeader), err)
	}
	if err := Verify([]byte("other"), header, body, sent); err == nil {
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

// TestNotifyRedirects: a redirect that repeats the POST (307, 308)
// delivers the message where it leads; one that would turn it into a GET
// without its body (301, 302, 303) is an error. Followed, it reached the
// receiver as an empty GET, and the delivery was reported done.
func TestNotifyRedirects(t *testing.T) {
	secret := []byte("s3cret")
	var method string
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/moved" {
			http.Redirect(w, r, "/hook", map[string]int{"301": 301, "302": 302, "303": 303, "307": 307, "308": 308}[r.URL.Query().Get("status")])
			return
		}
		method = r.Method
		body, _ = io.ReadAll(r.Body)
	}))
	defer srv.Close()
	n := &Notifier{Secret: secret}
	m := &vigil.Message{SentinelID: 7, SentinelName: "s2", Subject: "s2 changed"}
	for _, tc := range []struct {
		status    string
		delivered bool
	}{
		{"307", true},
		{"308", true},
		{"301", false},
		{"302", false},
		{"303", false},
	} {
		method, body = "", nil
		err := n.Notify(context.Background(), srv.URL+"/moved?status="+tc.status, m)
		var got vigil.Message
		json.Unmarshal(body, &got)
		switch {
		case tc.delivered && (err != nil || method != http.MethodPost || got.SentinelName != "s2"):
			t.Errorf("%s: %v; the receiver had a %s of %q", tc.status, err, method, body)
		case !tc.delivered && (err == nil || vigil.ErrorCode(err) == vigil.EINVALID || !strings.Contains(err.Error(), "redirected by status "+tc.status)):
			t.Errorf("%s: %v, want a temporary error naming the redirect (the receiver had a %q %q)", tc.status, err, method, body)
		case !tc.delivered && method != "":
			t.Errorf("%s: the redirect was followed: the receiver had a %s of %q", tc.status, method, body)
		}
	}
}

// TestNotifyRedirectReferer: a redirect's target is not sent the webhook
// URL, whose path or query holds its secret, as the Referer; Go's client
// sends it, query included.
func TestNotifyRedirectReferer(t *testing.T) {
	referer := "unset"
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		referer = r.Header.Get("Referer")
	}))
	defer target.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/hook", http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	n := &Notifier{Secret: []byte("s3cret")}
	if err := n.Notify(context.Background(), srv.URL+"/hook?token=T0PSECRET", &vigil.Message{Subject: "x"}); err != nil {
		t.Fatal(err)
	}
	if referer != "" {
		t.Errorf("the redirect's target had the Referer %q", referer)
	}
}

// TestVerify: a receiver's check refuses a body or any signed header
// changed on the way (a request replayed within the tolerance under a new
// delivery id passed: the id was not signed), a request replayed after the
// tolerance (or dated ahead of it), one signed as before, over the body
// alone, and one without the headers, saying which.
func TestVerify(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	body := []byte(`{"subject":"prices changed"}`)
	sent := time.Unix(1_800_000_000, 0)
	signed := func(ts string, b []byte) http.Header {
		h := http.Header{}
		h.Set(TimestampHeader, ts)
		h.Set(DeliveryHeader, "42")
		h.Set(EventHeader, "change")
		h.Set(SignatureHeader, Sign(secret, ts, "42", "change", b))
		return h
	}
	good := signed("1800000000", body)
	with := func(name, value string) http.Header {
		h := good.Clone()
		if value == "" {
			h.Del(name)
		} else {
			h.Set(name, value)
		}
		return h
	}
	bodyOnly := hmac.New(sha256.New, secret)
	bodyOnly.Write(body)
	for _, tc := range []struct {
		name   string
		header http.Header
		body   []byte
		now    time.Time
		want   string // in the error; "" for none
	}{
		{"as sent", good, body, sent, ""},
		{"within the tolerance", good, body, sent.Add(Tolerance), ""},
		{"clock behind", good, body, sent.Add(-Tolerance), ""},
		{"replayed later", good, body, sent.Add(Tolerance + time.Second), "a replay"},
		{"dated ahead", good, body, sent.Add(-Tolerance - time.Second), "a replay"},
		{"body changed", good, []byte(`{"subject":"prices unchanged"}`), sent, "does not match"},
		{"timestamp changed", with(TimestampHeader, "1800000200"), body, sent, "does not match"},
		{"replayed under a new delivery id", with(DeliveryHeader, "43"), body, sent, "does not match"},
		{"delivery id dropped", with(DeliveryHeader, ""), body, sent, "does not match"},
		{"event changed", with(EventHeader, "digest"), body, sent, "does not match"},
		{"signature without timestamp", with(TimestampHeader, ""), body, sent, "no X-Vigil-Timestamp"},
		{"signature over the body alone", with(SignatureHeader, "sha256="+hex.EncodeToString(bodyOnly.Sum(nil))), body, sent, "does not match"},
		{"timestamp not a number", func() http.Header {
			h := good.Clone()
			h.Set(TimestampHeader, "soon")
			h.Set(SignatureHeader, Sign(secret, "soon", "42", "change", body))
			return h
		}(), body, sent, "not a Unix time"},
	} {
		err := Verify(secret, tc.header, tc.body, tc.now)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}

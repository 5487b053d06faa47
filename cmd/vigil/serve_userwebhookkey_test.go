package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/notify/webhook"
)

// signedDelivery is a webhook request as its receiver got it.
type signedDelivery struct {
	header http.Header
	body   []byte
}

// TestServeUserWebhookSignature: vigil serve signs each user's webhook
// deliveries under that user's key too (X-Vigil-User-Signature-256),
// the key vigil user webhook-key prints for the user and that
// GET /api/v1/me/webhook-key answers them; another user's key does not
// verify them, and the server key's X-Vigil-Signature-256 still does.
func TestServeUserWebhookSignature(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	var mu sync.Mutex
	got := map[string][]signedDelivery{} // by the receiver's path: the user
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		got[strings.TrimPrefix(r.URL.Path, "/")] = append(got[strings.TrimPrefix(r.URL.Path, "/")], signedDelivery{r.Header.Clone(), body})
	}))
	defer receiver.Close()
	deliveries := func(user string) []signedDelivery {
		mu.Lock()
		defer mu.Unlock()
		return append([]signedDelivery(nil), got[user]...)
	}
	site := newSite(t)
	site.set("/prices", "<html><body><p>Tea 4 €</p></body></html>")

	d := startWebDaemon(t)
	users := []string{"ada", "bob"}
	type sentinel struct {
		ID        int64     `json:"id"`
		LastCheck time.Time `json:"lastCheck"`
	}
	clients := map[string]*apiClient{}
	sentinels := map[string]sentinel{}
	for _, name := range users {
		c := &apiClient{t: t, base: d.base, token: d.addUser(t, name+"@example.test", name+"'s long enough password")}
		clients[name] = c
		var s sentinel
		c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": "Create Sentinel prices Using " + site.srv.URL + "/prices" +
			" Monitor any change Fetch 1 day Notify By webhook " + receiver.URL + "/" + name}).json(t, &s)
		sentinels[name] = s
	}
	for _, name := range users {
		waitFor(t, 60*time.Second, name+"'s first check", func() bool {
			var s sentinel
			clients[name].want(200, "GET", fmt.Sprintf("/api/v1/sentinels/%d", sentinels[name].ID), nil).json(t, &s)
			return !s.LastCheck.IsZero()
		})
	}
	site.set("/prices", "<html><body><p>Tea 5 €</p></body></html>")
	for _, name := range users {
		clients[name].want(200, "POST", fmt.Sprintf("/api/v1/sentinels/%d/check-now", sentinels[name].ID), nil)
	}
	for _, name := range users {
		waitFor(t, 60*time.Second, name+"'s webhook", func() bool { return len(deliveries(name)) > 0 })
	}

	serverKey := []byte(keyFile(t, d.dir, webhookSecretFile))
	keys := map[string][]byte{}
	for _, name := range users {
		out := runBinary(t, "user", "webhook-key", "--data", d.dir, name+"@example.test")
		keys[name] = []byte(strings.TrimSuffix(out, "\n"))
		var answer struct{ Key, Header string }
		clients[name].want(200, "GET", "/api/v1/me/webhook-key", nil).json(t, &answer)
		if answer.Key != string(keys[name]) || answer.Header != webhook.UserSignatureHeader {
			t.Errorf("%s: the API answers %+v, vigil user webhook-key printed %q; want that key and %s", name, answer, keys[name], webhook.UserSignatureHeader)
		}
	}
	if string(keys["ada"]) == string(keys["bob"]) {
		t.Fatalf("ada and bob have the same key %q", keys["ada"])
	}
	for _, name := range users {
		for _, dl := range deliveries(name) {
			now := time.Now()
			if err := webhook.VerifyUser(keys[name], dl.header, dl.body, now); err != nil {
				t.Errorf("%s's delivery under the key vigil user webhook-key printed: %v", name, err)
			}
			if err := webhook.Verify(serverKey, dl.header, dl.body, now); err != nil {
				t.Errorf("%s's delivery under the server key: %v", name, err)
			}
			for _, other := range users {
				if other != name && webhook.VerifyUser(keys[other], dl.header, dl.body, now) == nil {
					t.Errorf("%s's delivery verifies under %s's key", name, other)
				}
			}
		}
	}
}

package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/fetch/proxytest"
	"github.com/vigil-web/vigil/internal/notify"
	"github.com/vigil-web/vigil/internal/notify/chat"
)

// TestChatThroughProxy sends to every chat kind Vigil delivers to (the
// vendors' Slack, Discord and Telegram APIs over https, and self-hosted
// ntfy, gotify, mattermost and generic webhooks over http) with the
// transports vigil serve gives the chat notifier (newDaemon): the
// fetcher's, with the operator's proxy (fetch.Options.Proxy), as the
// Notifier's Transport and, under notify.Transport, as net/http's default
// one. It is here, where the fetcher and the chat adapter are wired, as
// an adapter imports no other. Each message goes through a real
// forwarding proxy on loopback, with its credentials (a CONNECT tunnel for
// https, an absolute-URI request for http), and reaches a fake endpoint
// only the proxy can lead to: the vendors' names and the public address
// are sent there by the proxy alone.
func TestChatThroughProxy(t *testing.T) {
	const public = "93.184.215.14:8081" // a public address the test cannot reach
	var mu sync.Mutex
	var got []string
	endpoint := func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.Host+r.URL.Path+" "+string(b))
		mu.Unlock()
		switch {
		case r.Host == "hooks.slack.com":
			io.WriteString(w, "ok")
		case r.Host == "discord.com":
			w.WriteHeader(http.StatusNoContent)
		default:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"ok":true,"result":{},"id":1,"time":1,"event":"message","topic":"vigil"}`)
		}
	}
	vendors := httptest.NewUnstartedServer(http.HandlerFunc(endpoint))
	cert, roots := vendorCert(t, "hooks.slack.com", "discord.com", "api.telegram.org")
	vendors.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	vendors.StartTLS()
	defer vendors.Close()
	selfHosted := httptest.NewServer(http.HandlerFunc(endpoint))
	defer selfHosted.Close()
	p := proxytest.Start(t, map[string]string{
		"hooks.slack.com:443":  vendors.Listener.Addr().String(),
		"discord.com:443":      vendors.Listener.Addr().String(),
		"api.telegram.org:443": vendors.Listener.Addr().String(),
		public:                 selfHosted.Listener.Addr().String(),
	})

	// AllowPrivateNetworks: the vendors' names are not looked up here (the
	// test may have no DNS); the proxy dials them.
	f := fetch.New(fetch.Options{Proxy: p.URL("ops", "pr0xy-pw"), AllowPrivateNetworks: true, TotalTimeout: 10 * time.Second})
	tr := f.Transport().Clone() // the fetcher's proxy, trusting the fake vendors' certificate
	tr.TLSClientConfig = &tls.Config{RootCAs: roots}
	defer tr.CloseIdleConnections()
	defaultTransport := http.DefaultTransport
	http.DefaultTransport = &notify.Transport{Base: tr} // as vigil serve sets it
	defer func() { http.DefaultTransport = defaultTransport }()
	n := &chat.Notifier{Timeout: 10 * time.Second, Transport: tr}

	m := &vigil.Message{Subject: "s1 changed", Text: "keyword 5331 appeared"}
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte("ops:pr0xy-pw"))
	for _, tc := range []struct {
		target, asked, reached string
	}{
		{"slack://hook:AAAAAAAAA-BBBBBBBBB-123456789123456789123456@webhook", "CONNECT hooks.slack.com:443",
			"hooks.slack.com/services/AAAAAAAAA/BBBBBBBBB/123456789123456789123456"},
		{"discord://token@123456789012345678", "CONNECT discord.com:443", "discord.com/api/webhooks/123456789012345678/token"},
		{"telegram://123456:S3CRET@telegram?chats=@news", "CONNECT api.telegram.org:443", "api.telegram.org/bot123456:S3CRET/sendMessage"},
		{"ntfy://" + public + "/vigil?scheme=http", "POST http://" + public + "/vigil", public + "/vigil"},
		{"gotify://" + public + "/Aaaaaaaaaaaaaaa?disabletls=yes", "POST http://" + public + "/message", public + "/message"},
		{"mattermost://" + public + "/token?disabletls=yes", "POST http://" + public + "/hooks/token", public + "/hooks/token"},
		{"generic://" + public + "/hook?disabletls=yes", "POST http://" + public + "/hook", public + "/hook"},
	} {
		mu.Lock()
		got = nil
		mu.Unlock()
		before := len(p.Requests())
		if err := n.Notify(context.Background(), tc.target, m); err != nil {
			t.Errorf("%s: %v", tc.target, err)
			continue
		}
		var asked []string
		for _, a := range p.Requests()[before:] {
			asked = append(asked, a.Method+" "+strings.TrimSuffix(a.Target, "?"))
			if a.Auth != auth {
				t.Errorf("%s: the proxy was asked %s %s with Proxy-Authorization %q, want %q", tc.target, a.Method, a.Target, a.Auth, auth)
			}
		}
		if len(asked) == 0 || !strings.HasPrefix(asked[0], tc.asked) {
			t.Errorf("%s: the proxy was asked %q, want %q", tc.target, asked, tc.asked)
		}
		mu.Lock()
		reached := got
		mu.Unlock()
		if len(reached) != 1 || !strings.HasPrefix(reached[0], tc.reached+" ") || !strings.Contains(reached[0], "keyword 5331 appeared") {
			t.Errorf("%s: the endpoint got %q, want the message at %s", tc.target, reached, tc.reached)
		}
	}
}

// vendorCert returns a certificate for the names, self-signed, and a pool
// that trusts it.
func vendorCert(t *testing.T, names ...string) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: names[0]},
		DNSNames:              names,
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, roots
}

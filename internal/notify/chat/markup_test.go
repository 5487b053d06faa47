package chat

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/notify"
)

// hostileText is what a watched page's text, which whoever writes the page
// chooses, may hold: a link whose label names another URL, in Slack's
// syntax and in Markdown's, and the mentions that notify a whole channel.
const hostileText = "text added: <https://evil.example/login|https://shop.example.org/account> " +
	"[https://shop.example.org/account](https://evil.example/login) <!channel> <!here> <@U0123> " +
	"@channel @all @here @everyone"

// TestForeignTextIsNotMarkup: the text of a message (a page's words) is
// shown as written by the services that read markup in it: it makes no
// link that a label disguises and notifies no whole channel. Telegram,
// ntfy and gotify read none (TestTelegram, TestNtfy).
func TestForeignTextIsNotMarkup(t *testing.T) {
	var mu sync.Mutex
	var got []string
	receive := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, string(b))
		mu.Unlock()
		io.WriteString(w, "ok") // as Slack's webhooks answer; the others read no answer
	})
	srv := httptest.NewTLSServer(receive) // Slack's and Discord's, which are https
	defer srv.Close()
	selfHosted := httptest.NewServer(receive)
	defer selfHosted.Close()
	// Every request to hooks.slack.com or discord.com reaches srv.
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if strings.HasSuffix(addr, ":443") {
				addr = srv.Listener.Addr().String()
			}
			return dialer.DialContext(ctx, network, addr)
		},
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true},
	}
	defer tr.CloseIdleConnections()
	defaultTransport := http.DefaultTransport
	http.DefaultTransport = &notify.Transport{Base: tr}
	defer func() { http.DefaultTransport = defaultTransport }()

	n := &Notifier{Timeout: 5 * time.Second, Transport: tr}
	m := &vigil.Message{Subject: "[Vigil] s1 <!channel>: 1 change", Text: hostileText}
	for _, tt := range []struct {
		target string
		// live is what the payload must not hold: the markup as
		// written, JSON-encoded as the service receives it.
		live []string
	}{
		{"slack://hook:T00000000-B00000000-XXXXXXXXXXXXXXXXXXXXXXXX@webhook", []string{
			`\u003chttps://evil.example/login|`, `\u003c!channel\u003e`, `\u003c!here\u003e`, `\u003c@U0123\u003e`,
		}},
		{"discord://token@123456789012345678", []string{
			`[https://shop.example.org/account](https://evil.example/login)`, "@everyone", "@here",
		}},
		{"mattermost://" + strings.TrimPrefix(selfHosted.URL, "http://") + "/hookid12345?disabletls=yes", []string{
			`[https://shop.example.org/account](https://evil.example/login)`, "@channel", "@all", "@here",
		}},
	} {
		mu.Lock()
		got = nil
		mu.Unlock()
		if err := n.Notify(context.Background(), tt.target, m); err != nil {
			t.Errorf("%s: %v", service(tt.target), err)
			continue
		}
		mu.Lock()
		payload := strings.Join(got, "\n")
		mu.Unlock()
		if !json.Valid([]byte(strings.TrimSpace(payload))) {
			t.Errorf("%s: the payload is not one JSON value: %s", service(tt.target), payload)
			continue
		}
		if !strings.Contains(payload, "evil.example/login") || !strings.Contains(payload, "shop.example.org/account") {
			t.Errorf("%s: the page's words are not all in the message: %s", service(tt.target), payload)
		}
		for _, live := range tt.live {
			if strings.Contains(payload, live) {
				t.Errorf("%s: the message holds %s as markup: %s", service(tt.target), live, payload)
			}
		}
	}
}

// TestPlainText writes each service's text as it shows it as written.
func TestPlainText(t *testing.T) {
	for _, tt := range []struct {
		name, service, in, want string
	}{
		{"slack link", "slack", "<https://evil|https://shop> & co", "&lt;https://evil|https://shop&gt; &amp; co"},
		{"slack mention", "slack", "<!channel> <@U0123>", "&lt;!channel&gt; &lt;@U0123&gt;"},
		{"slack plain @", "slack", "@channel", "@channel"}, // Slack reads no bare mention
		{"discord link", "discord", "[a](https://evil) \\[", `\[a\](https://evil) \\\[`},
		{"discord mentions", "discord", "@everyone, (@here) @Bob", "@\u200beveryone, (@\u200bhere) @\u200bBob"},
		{"mattermost mentions", "mattermost", "@channel @all", "@\u200bchannel @\u200ball"},
		{"address kept", "mattermost", "write to sales@example.org or @ 5", "write to sales@example.org or @ 5"},
		{"telegram plain", "telegram", "[a](b) <!here> @all", "[a](b) <!here> @all"},
		{"ntfy plain", "ntfy", "[a](b) <!here> @all", "[a](b) <!here> @all"},
	} {
		if got := plainText(tt.service, tt.in); got != tt.want {
			t.Errorf("%s: plainText(%q, %q) = %q, want %q", tt.name, tt.service, tt.in, got, tt.want)
		}
	}
}

// TestClip cuts a text without cutting an escape, or a character as a
// reader sees it, in two.
func TestClip(t *testing.T) {
	for _, tt := range []struct {
		name, service, in string
		limit             int
		want              string
	}{
		{"short", "slack", "a &lt; b", 20, "a &lt; b"},
		{"entity cut", "slack", "ab &lt; c", 6, "ab …"},
		{"entity whole", "slack", "ab &lt; c", 8, "ab &lt;…"},
		{"escape cut", "discord", `ab \[c`, 5, "ab …"},
		{"escaped backslash whole", "discord", `ab \\cd`, 6, `ab \\…`},
		{"other services cut anywhere", "ntfy", "ab &lt; c", 6, "ab &l…"},
		{"accent whole", "ntfy", "ab" + "e\u0301" + "cd", 4, "ab…"},
		{"skin tone whole", "ntfy", "ab👍🏽c", 4, "ab…"},
		{"family whole", "ntfy", "ab👨\u200d👩\u200d👧c", 5, "ab…"},
		{"flag whole", "ntfy", "a🇫🇷🇩🇪", 3, "a…"},
		{"between flags", "ntfy", "a🇫🇷🇩🇪", 4, "a🇫🇷…"},
		{"escape whole before a cluster", "discord", `ab \\e` + "\u0301x", 6, `ab \\…`},
		{"conjunct whole", "ntfy", "ab\u0915\u094d\u0937c", 5, "ab…"},
		{"a letter under dozens of marks whole", "ntfy", "ab" + "a" + strings.Repeat("\u0301", 40), 10, "ab…"},
	} {
		if got := clip(tt.service, tt.in, tt.limit); got != tt.want {
			t.Errorf("%s: clip(%q, %q, %d) = %q, want %q", tt.name, tt.service, tt.in, tt.limit, got, tt.want)
		}
	}
}

// TestClipUTF16Clusters: a Telegram message is cut within its UTF-16
// units at the edge of a character as a reader sees it.
func TestClipUTF16Clusters(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		max      int
		want     string
	}{
		{"ascii", "abcdef", 4, "abc…"},
		{"skin tone whole", "ab👍🏽c", 5, "ab…"},
		{"accent whole", "e\u0301e\u0301x", 4, "e\u0301…"},
		{"accented letter kept", "e\u0301e\u0301x", 3, "e\u0301…"},
		{"flag whole", "a🇫🇷🇩🇪", 5, "a…"},
		{"between flags", "a🇫🇷🇩🇪", 6, "a🇫🇷…"},
		{"invalid bytes count as one, dropped", "a\xff\xffe\u0301x", 5, "a…"},
		{"conjunct whole", "ab\u0915\u094d\u0937c", 5, "ab…"},
		{"Hangul in jamo whole", "a\u1100\u1161\u11a8b", 4, "a…"},
	} {
		if got := clipUTF16(tc.in, tc.max); got != tc.want {
			t.Errorf("%s: clipUTF16(%+q, %d) = %+q, want %+q", tc.name, tc.in, tc.max, got, tc.want)
		}
	}
}

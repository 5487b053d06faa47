package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestServeSecretsNotLogged runs the daemon with an SMTP password, a
// webhook signing key and an admin password, on a sentinel whose every
// notification fails: by email through an SMTP server that refuses to
// authenticate, by a webhook whose URL carries a token in its path and
// query, and by ntfy, gotify and mattermost targets carrying a password
// or a token, whose servers answer 500. No secret is in what the daemon
// logged (at debug level), in a notification's stored error, or in what
// vigil sentinel list prints, while each target was tried.
func TestServeSecretsNotLogged(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	const (
		smtpPassword  = "smtp-pw-Quinoa8817"
		webhookKey    = "webhook-key-Turnip-0123456789abcdefghij"
		adminPassword = "admin-pw-Radish5521"
		hookPath      = "hookpathSecret77"
		hookQuery     = "hookquerySecret88"
		ntfyPassword  = "ntfyPassSecret99"
		gotifyToken   = "AGotifySecret15" // Shoutrrr's form: 15 characters from an A
		mattermostTok = "mattermostTokenSecret42"
	)
	secrets := []string{smtpPassword, webhookKey, adminPassword, hookPath, hookQuery, ntfyPassword, gotifyToken, mattermostTok}

	var mu sync.Mutex
	tried := map[string]bool{}
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/robots.txt":
			http.NotFound(w, r)
		case r.Method == http.MethodGet:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, "<html><body><p>version %d</p></body></html>", n.Add(1))
		default:
			mu.Lock()
			tried[strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")[0]] = true
			mu.Unlock()
			http.Error(w, "broken", http.StatusInternalServerError)
		}
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	smtpAddr := refusingSMTP(t, func() {
		mu.Lock()
		tried["smtp"] = true
		mu.Unlock()
	})
	smtpHost, smtpPort, _ := net.SplitHostPort(smtpAddr)

	data := t.TempDir()
	targets := []string{
		"email ops@example.test",
		"webhook " + srv.URL + "/hook/" + hookPath + "?token=" + hookQuery,
		"ntfy://vigil:" + ntfyPassword + "@" + host + "/ntfy?scheme=http",
		"gotify://" + host + "/gotify/" + gotifyToken + "?disabletls=yes",
		"mattermost://vigil@" + host + "/" + mattermostTok + "?disabletls=yes",
	}
	addSentinels(t, data, "Create Sentinel sec Using "+srv.URL+"/page Monitor any change Fetch 1 second Notify By "+
		strings.Join(targets, ", ")+"\n")
	t.Setenv("VIGIL_SMTP_PASSWORD", smtpPassword)
	t.Setenv("VIGIL_WEBHOOK_SECRET", webhookKey)
	t.Setenv("VIGIL_ADMIN_PASSWORD", adminPassword)
	d := startDaemon(t, data, "--allow-private-networks", "--min-interval", "1s", "--host-delay", "0", "--poll", "50ms",
		"--retry-base", "50ms", "--max-attempts", "2", "--smtp-host", smtpHost, "--smtp-port", smtpPort,
		"--smtp-user", "vigil", "--smtp-tls", "none")
	db := openData(t, data)
	ctx := context.Background()
	var dead []*vigil.Notification
	waitFor(t, 60*time.Second, "a dead letter for every target", func() bool {
		ns, _, err := db.FindNotifications(ctx, vigil.NotificationFilter{})
		if err != nil {
			t.Fatal(err)
		}
		dead = nil
		seen := map[string]bool{}
		for _, n := range ns {
			if n.State == vigil.NotificationDead {
				dead = append(dead, n)
				seen[n.Channel+" "+n.Target] = true
			}
		}
		return len(seen) == len(targets)
	})
	d.stop(t)
	list := runBinary(t, "sentinel", "list", "--data", data)

	mu.Lock()
	// Mattermost posts to /hooks/TOKEN.
	for what, path := range map[string]string{"email": "smtp", "webhook": "hook", "ntfy": "ntfy", "gotify": "gotify", "mattermost": "hooks"} {
		if !tried[path] {
			t.Errorf("%s was never tried", what)
		}
	}
	mu.Unlock()
	shown := map[string]string{"log": d.stderr.String(), "sentinel list": list}
	for _, n := range dead {
		shown["stored error of "+n.Channel] += n.LastError + "\n"
	}
	for what, text := range shown {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("the secret %q is in the %s:\n%s", s, what, text)
			}
		}
	}
}

// refusingSMTP starts an SMTP server on loopback that offers to
// authenticate and refuses every attempt (535), calling tried at each
// connection; it returns its address.
func refusingSMTP(t *testing.T, tried func()) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				tried()
				c.SetDeadline(time.Now().Add(30 * time.Second))
				r := bufio.NewReader(c)
				fmt.Fprint(c, "220 refusing ESMTP\r\n")
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					switch cmd := strings.ToUpper(strings.TrimSpace(line)); {
					case strings.HasPrefix(cmd, "EHLO"):
						fmt.Fprint(c, "250-refusing\r\n250-AUTH CRAM-MD5 PLAIN LOGIN\r\n250 8BITMIME\r\n")
					case strings.HasPrefix(cmd, "AUTH"):
						fmt.Fprint(c, "535 5.7.8 Authentication credentials invalid\r\n")
					case strings.HasPrefix(cmd, "QUIT"):
						fmt.Fprint(c, "221 bye\r\n")
						return
					default:
						fmt.Fprint(c, "250 ok\r\n")
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nicholas-fedor/shoutrrr/pkg/types"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/notify"
)

// TestNtfy delivers to a local ntfy-compatible receiver over plain HTTP.
func TestNtfy(t *testing.T) {
	var path, body, title string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		path, body, title = r.URL.Path, string(b), r.Header.Get("Title")
		if title == "" {
			title = r.Header.Get("X-Title")
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"x","time":1,"event":"message","topic":"vigil"}`)
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	n := &Notifier{}
	m := &vigil.Message{Subject: "s1 changed", Text: "keyword 5331 appeared"}
	if err := n.Notify(context.Background(), "ntfy://"+host+"/vigil?scheme=http", m); err != nil {
		t.Fatal(err)
	}
	if path != "/vigil" || !strings.Contains(body, "keyword 5331 appeared") {
		t.Errorf("received %s %q (title %q)", path, body, title)
	}
	guarded := &Notifier{Guard: func(ctx context.Context, host string) error { return errors.New(host + " is private") }}
	if err := guarded.Notify(context.Background(), "ntfy://"+host+"/vigil?scheme=http", m); vigil.ErrorCode(err) != vigil.EINVALID {
		t.Errorf("guarded ntfy on loopback: %v, want a refusal", err)
	}
	if err := n.Notify(context.Background(), "nosuchservice://x", m); vigil.ErrorCode(err) != vigil.EINVALID {
		t.Errorf("unknown service: %v, want EINVALID", err)
	}
}

// TestGuardedTransport sends to self-hosted services whose server
// redirects to a refused address (127.0.0.2 here, standing for a private
// network): with the guarded transport, nothing reaches it, whether the
// service builds its own client (ntfy, gotify, mattermost) or sends with
// net/http's default transport (generic). Without it, every one does.
func TestGuardedTransport(t *testing.T) {
	refused := netip.MustParseAddr("127.0.0.2")
	dialer := &net.Dialer{Timeout: 5 * time.Second, Control: func(network, address string, _ syscall.RawConn) error {
		if ap, err := netip.ParseAddrPort(address); err != nil || ap.Addr().Unmap() == refused {
			return fmt.Errorf("address refused: %s", address)
		}
		return nil
	}}
	guarded := &http.Transport{DialContext: dialer.DialContext}

	l, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("cannot listen on 127.0.0.2: %v", err)
	}
	var mu sync.Mutex
	var reached []string
	private := &httptest.Server{Listener: l, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		reached = append(reached, r.URL.Path)
		mu.Unlock()
	})}}
	private.Start()
	defer private.Close()
	public := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, private.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer public.Close()
	host := strings.TrimPrefix(public.URL, "http://")
	targets := []string{
		"ntfy://" + host + "/vigil?scheme=http",
		"gotify://" + host + "/Aaaaaaaaaaaaaaa?disabletls=yes",
		"mattermost://" + host + "/token?disabletls=yes",
		"generic://" + host + "/hook?disabletls=yes",
	}
	m := &vigil.Message{Subject: "s1 changed", Text: "keyword 5331 appeared"}
	send := func(n *Notifier) (errs []error, got []string) {
		mu.Lock()
		reached = nil
		mu.Unlock()
		for _, target := range targets {
			errs = append(errs, n.Notify(context.Background(), target, m))
		}
		mu.Lock()
		defer mu.Unlock()
		return errs, reached
	}

	// The premise: the library follows the redirect.
	if _, got := send(&Notifier{Timeout: 5 * time.Second}); len(got) != len(targets) {
		t.Fatalf("unguarded, the redirect target got %d requests (%v), want %d", len(got), got, len(targets))
	}

	// Guarded, but net/http's default transport is not: generic is refused.
	errs, got := send(&Notifier{Timeout: 5 * time.Second, Transport: guarded})
	if len(got) != 0 {
		t.Errorf("guarded: the refused address got requests %v", got)
	}
	if err := errs[3]; err == nil || !strings.Contains(err.Error(), "default transport") {
		t.Errorf("generic with an unguarded default transport: %v, want a refusal", err)
	}

	defaultTransport := http.DefaultTransport
	http.DefaultTransport = &notify.Transport{Base: guarded}
	defer func() { http.DefaultTransport = defaultTransport }()
	errs, got = send(&Notifier{Timeout: 5 * time.Second, Transport: guarded})
	if len(got) != 0 {
		t.Errorf("guarded: the refused address got requests %v", got)
	}
	for i, err := range errs {
		if err == nil || !strings.Contains(err.Error(), "address refused") {
			t.Errorf("%s: %v, want the guard's refusal", targets[i], err)
		}
	}
	// A service not known to send on the default transport is refused.
	n := &Notifier{Timeout: 5 * time.Second, Transport: guarded}
	if err := n.Notify(context.Background(), "rocketchat://"+host+"/token/channel", m); err == nil || !strings.Contains(err.Error(), "cannot put its address guard") {
		t.Errorf("rocketchat: %v, want a refusal", err)
	}
	mu.Lock()
	if len(reached) != 0 {
		t.Errorf("the refused address got requests %v", reached)
	}
	mu.Unlock()
	// A context whose deadline has passed sends nothing.
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	if err := n.Notify(ctx, targets[0], m); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("past deadline: %v, want context.DeadlineExceeded", err)
	}
}

// TestRedirectDropsMessage: a self-hosted service's server that answers
// 301 sends the library's client on to a GET without the message, which
// the receiver answered with a 200, and the message was reported sent.
// Now the delivery fails, naming the redirect, and the URL it led to
// receives nothing, whether the service builds its own client (ntfy,
// gotify, mattermost) or sends with net/http's default transport (generic,
// as the daemon sets it up).
func TestRedirectDropsMessage(t *testing.T) {
	var mu sync.Mutex
	var received []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/new/") {
			http.Redirect(w, r, "/new"+r.URL.Path, http.StatusMovedPermanently)
			return
		}
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		received = append(received, r.Method+" "+r.URL.Path+" "+string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":1,"time":1,"event":"message","topic":"vigil"}`)
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	plain := &http.Transport{}
	defer plain.CloseIdleConnections()
	defaultTransport := http.DefaultTransport
	http.DefaultTransport = &notify.Transport{Base: plain}
	defer func() { http.DefaultTransport = defaultTransport }()
	m := &vigil.Message{Subject: "s1 changed", Text: "keyword 5331 appeared"}
	for _, n := range []*Notifier{{Timeout: 5 * time.Second}, {Timeout: 5 * time.Second, Transport: plain}} {
		for _, target := range []string{
			"ntfy://" + host + "/vigil?scheme=http",
			"gotify://" + host + "/Aaaaaaaaaaaaaaa?disabletls=yes",
			"mattermost://" + host + "/token?disabletls=yes",
			"generic://" + host + "/hook?disabletls=yes",
		} {
			mu.Lock()
			received = nil
			mu.Unlock()
			err := n.Notify(context.Background(), target, m)
			mu.Lock()
			got := received
			mu.Unlock()
			if err == nil || vigil.ErrorCode(err) == vigil.EINVALID || !strings.Contains(err.Error(), "redirected by status 301") {
				t.Errorf("%s (guarded %v): %v, want a temporary error naming the redirect (the receiver had %q)", target, n.Transport != nil, err, got)
			}
			if len(got) != 0 {
				t.Errorf("%s (guarded %v): the redirect was followed: the receiver had %q", target, n.Transport != nil, got)
			}
		}
	}
}

// TestServiceName reads the service of a URL as Shoutrrr does.
func TestServiceName(t *testing.T) {
	for in, want := range map[string]string{
		"ntfy://h/t": "ntfy", "Generic+https://h/p": "generic", "SMTP://h": "smtp", "x": "x",
	} {
		if got := service(in); got != want {
			t.Errorf("service(%q) = %q, want %q", in, got, want)
		}
	}
	n := &Notifier{Guard: func(ctx context.Context, host string) error { return errors.New(host + " is private") }}
	m := &vigil.Message{Subject: "s", Text: "t"}
	if err := n.Notify(context.Background(), "generic+http://10.0.0.1/hook", m); vigil.ErrorCode(err) != vigil.EINVALID || !strings.Contains(err.Error(), "10.0.0.1 is private") {
		t.Errorf("generic+http to a private host: %v, want the guard's refusal", err)
	}
	if err := n.Notify(context.Background(), "smtp://mail.example.com:25/?from=a@b.example&to=c@d.example", m); vigil.ErrorCode(err) != vigil.EINVALID {
		t.Errorf("smtp: %v, want EINVALID", err)
	}
}

// TestTelegram sends through a local stand-in for the Bot API: a message
// is sent when the API says ok for every chat, and an API that answers
// no, or not at all, is an error (Shoutrrr's own Telegram service
// reported success when the request failed).
func TestTelegram(t *testing.T) {
	var mu sync.Mutex
	var got []string
	answer := `{"ok":true,"result":{}}`
	status := 200
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var msg struct {
			ChatID string `json:"chat_id"`
			Text   string `json:"text"`
		}
		if err := json.NewDecoder(r.Body).Decode(&msg); err != nil {
			t.Error(err)
		}
		mu.Lock()
		got = append(got, r.URL.Path+" "+msg.ChatID+" "+msg.Text)
		mu.Unlock()
		w.WriteHeader(status)
		io.WriteString(w, answer)
	}))
	n := &Notifier{telegramAPI: srv.URL}
	m := &vigil.Message{Subject: "s1 changed", Text: "keyword 5331 appeared"}
	target := "telegram://123456:S3CRET@telegram?chats=@news,42"
	if err := n.Notify(context.Background(), target, m); err != nil {
		t.Fatal(err)
	}
	want := []string{"/bot123456:S3CRET/sendMessage @news s1 changed\n\nkeyword 5331 appeared",
		"/bot123456:S3CRET/sendMessage 42 s1 changed\n\nkeyword 5331 appeared"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the API received %q, want %q", got, want)
	}

	status, answer = 400, `{"ok":false,"error_code":400,"description":"Bad Request: chat not found"}`
	err := n.Notify(context.Background(), target, m)
	if vigil.ErrorCode(err) != vigil.EINVALID || !strings.Contains(err.Error(), "chat not found") {
		t.Errorf("chat not found: %v, want EINVALID saying so", err)
	}
	status, answer = 502, `bad gateway`
	if err := n.Notify(context.Background(), target, m); err == nil || vigil.ErrorCode(err) == vigil.EINVALID {
		t.Errorf("a failing API: %v, want an error to retry", err)
	}
	srv.Close()
	err = n.Notify(context.Background(), target, m)
	if err == nil || vigil.ErrorCode(err) == vigil.EINVALID {
		t.Errorf("an unreachable API: %v, want an error to retry", err)
	} else if strings.Contains(err.Error(), "S3CRET") {
		t.Errorf("the error shows the bot's token: %v", err)
	}
	for _, bad := range []string{"telegram://telegram?chats=@news", "telegram://123456:S3CRET@telegram"} {
		if err := n.Notify(context.Background(), bad, m); vigil.ErrorCode(err) != vigil.EINVALID {
			t.Errorf("%s: %v, want EINVALID", bad, err)
		}
	}
}

// TestCheck reads chat URLs as Notify will, without sending: the ones it
// could not use are refused when the sentinel is saved.
func TestCheck(t *testing.T) {
	for url, ok := range map[string]bool{
		"ntfy://ntfy.example.org/vigil":                   true,
		"telegram://123456:S3CRET@telegram?chats=@news":   true,
		"telegram://123456:S3CRET@telegram":               false, // no chat
		"slack://xoxb-SLACKSECRETTOKEN@C0123456":          false, // shoutrrr cannot build it
		"smtp://mail.example.org:587/?to=a@example.org":   false,
		"nosuchservice://example.org":                     false,
		"discord://token@123456789012345678":              true,
		"gotify://gotify.example.org/AbCdEfGhIjKlMnO":     true,
		"mattermost://mattermost.example.org/hookid12345": true,
	} {
		if err := Check(url); (err == nil) != ok {
			t.Errorf("Check(%s) = %v, want ok %v", url, err, ok)
		}
	}
}

// TestTelegramOptions: a chat that fails while another got the message is a
// dead letter naming both, not a retry that repeats the message; the URL's
// options are sent or refused, never ignored; a long text is cut to what
// Telegram takes, counted as Telegram counts (an emoji is two).
func TestTelegramOptions(t *testing.T) {
	var mu sync.Mutex
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var msg map[string]any
		json.NewDecoder(r.Body).Decode(&msg)
		mu.Lock()
		bodies = append(bodies, msg)
		mu.Unlock()
		if msg["chat_id"] == "42" {
			w.WriteHeader(502)
			io.WriteString(w, `bad gateway`)
			return
		}
		io.WriteString(w, `{"ok":true}`)
	}))
	defer srv.Close()
	n := &Notifier{telegramAPI: srv.URL, retryDelay: time.Millisecond}
	long := &vigil.Message{Subject: "s", Text: strings.Repeat("😀", 3000)}
	err := n.Notify(context.Background(), "telegram://1:T@telegram?chats=@news,42&preview=no&notification=no", long)
	if vigil.ErrorCode(err) != vigil.EINVALID || !strings.Contains(err.Error(), "sent to chats @news; not to 42") {
		t.Errorf("one chat of two failing: %v, want a dead letter naming them", err)
	}
	// @news once; 42 tried three times, alone.
	if len(bodies) != 4 || bodies[0]["chat_id"] != "@news" || bodies[3]["chat_id"] != "42" ||
		bodies[0]["disable_web_page_preview"] != true || bodies[0]["disable_notification"] != true {
		t.Fatalf("sent %d messages", len(bodies))
	}
	text := bodies[0]["text"].(string)
	units := 0
	for _, r := range text {
		units++
		if r >= 0x10000 {
			units++
		}
	}
	if units > 4096 || !strings.HasSuffix(text, "…") {
		t.Errorf("text of %d UTF-16 units, want at most 4096 and cut", units)
	}
	if err := n.Notify(context.Background(), "telegram://1:T@telegram?chats=@news&silent=yes", long); vigil.ErrorCode(err) != vigil.EINVALID || !strings.Contains(err.Error(), `"silent"`) {
		t.Errorf("an unknown parameter: %v", err)
	}
	// Shoutrrr's spellings: keys in any case, 0 for off.
	bodies = nil
	if err := n.Notify(context.Background(), "telegram://1:T@telegram?Chats=@news&Preview=0", &vigil.Message{Subject: "s"}); err != nil || len(bodies) != 1 || bodies[0]["disable_web_page_preview"] != true {
		t.Errorf("Chats and Preview=0: %v, %v", err, bodies)
	}
	for _, tc := range []struct {
		in    string
		units int
	}{{strings.Repeat("a", 4095) + "😀", 4096}, {strings.Repeat("a", 4095) + "\xff" + "b", 4096}, {strings.Repeat("a", 4096), 4096}} {
		out := clipUTF16(tc.in, 4096)
		units := 0
		for _, r := range out {
			units++
			if r >= 0x10000 {
				units++
			}
		}
		if units > tc.units {
			t.Errorf("clipUTF16 of %d bytes: %d units", len(tc.in), units)
		}
	}
}

// TestCheckSaysWhy: a chat URL that cannot be used is refused saying what
// it lacks, as the service reads it; Shoutrrr's router says only "ntfy:
// failed to initialize service".
func TestCheckSaysWhy(t *testing.T) {
	for url, want := range map[string]string{
		"ntfy://ntfy.example.org":     "the topic is missing",
		"discord://x":                 "the webhook token is missing",
		"mattermost://mm.example.org": "the webhook token is missing",
		"slack://hooks.slack.com":     "token",
	} {
		err := Check(url)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Check(%s) = %v, want it to say %q", url, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "failed to initialize service") {
			t.Errorf("Check(%s) = %v: Shoutrrr's word, not why", url, err)
		}
	}
}

// TestSendPanics makes the library panic on the goroutine that sends, with
// the service's URL, token and all, in the panic's value: the delivery
// fails with the panic, its URL redacted and its stack kept for the log,
// and the process goes on.
func TestSendPanics(t *testing.T) {
	const token = "tk_0123456789SECRET"
	target := "ntfy://127.0.0.1:9/" + token + "?scheme=http"
	defer func(s func(types.Service, string, *types.Params) error) { send = s }(send)
	send = func(types.Service, string, *types.Params) error {
		panic(fmt.Sprintf("post %s: nil map", strings.Replace(target, "ntfy://", "http://", 1)))
	}
	err := (&Notifier{}).Notify(context.Background(), target, &vigil.Message{Subject: "s", Text: "t"})
	var pe *vigil.PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v, want a *vigil.PanicError", err)
	}
	if want := "chat ntfy at 127.0.0.1:9: panic: post http://127.0.0.1:9/…: nil map"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if strings.Contains(err.Error(), token) {
		t.Errorf("the token shows: %v", err)
	}
	if !strings.Contains(string(pe.Stack), "TestSendPanics") {
		t.Errorf("the stack does not say where it panicked:\n%s", pe.Stack)
	}
	if vigil.ErrorCode(err) == vigil.EINVALID {
		t.Errorf("a panic is a permanent error: the outbox would not retry it")
	}
}

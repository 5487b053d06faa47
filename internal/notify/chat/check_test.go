package chat

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestCheckAsSent: Check refuses what a service would refuse only when it
// sends (Gotify's token and priority, Discord's webhook URL, a Mattermost
// hook no request can be made to, an ntfy scheme or header net/http
// refuses), saying why, and accepts what it would send. want is "" for a
// URL that can be used, else what the refusal says.
func TestCheckAsSent(t *testing.T) {
	for name, tc := range map[string]struct{ url, want string }{
		"gotify":                    {"gotify://gotify.example.org/AbCdEfGhIjKlMnO", ""},
		"gotify subpath":            {"gotify://gotify.example.org/sub/AbCdEfGhIjKlMnO", ""},
		"gotify header":             {"gotify://gotify.example.org/AbCdEfGhIjKlMnO?useheader=yes&priority=-2", ""},
		"gotify short token":        {"gotify://127.0.0.1:18094/AbCdGotifyTok1", "not one Gotify issues"},
		"gotify token not A":        {"gotify://gotify.example.org/BbCdEfGhIjKlMnO", "not one Gotify issues"},
		"gotify token bad char":     {"gotify://gotify.example.org/AbCdEfGhIjKl%2BnO", "not one Gotify issues"},
		"gotify header bad token":   {"gotify://gotify.example.org/AbCdGotifyTok1?useheader=yes", "not one Gotify issues"},
		"gotify priority":           {"gotify://gotify.example.org/AbCdEfGhIjKlMnO?priority=11", "priority"},
		"discord":                   {"discord://token@123456789012345678", ""},
		"discord thread":            {"discord://token@123456789012345678?thread_id=42&splitLines=no", ""},
		"discord token with slash":  {"discord://to%2Fken@123456789012345678", `holds a "/"`},
		"discord raw":               {"discord://token@123456789012345678/raw", "JSON"},
		"ntfy":                      {"ntfy://ntfy.example.org/vigil", ""},
		"ntfy options":              {"ntfy://u:p@ntfy.example.org/vigil?scheme=http&tags=a,b&priority=high&click=https://example.org/", ""},
		"ntfy scheme":               {"ntfy://ntfy.example.org/vigil?scheme=ftp", "not http or https"},
		"ntfy header":               {"ntfy://ntfy.example.org/vigil?click=a%0Ab", "holds a character no header may"},
		"ntfy placeholder":          {"ntfy://dummy@dummy.com", "placeholder"},
		"mattermost":                {"mattermost://mattermost.example.org/hookid12345", ""},
		"mattermost channel":        {"mattermost://bot@mattermost.example.org/hookid12345/town-square?disabletls=yes", ""},
		"mattermost bad escape":     {"mattermost://mattermost.example.org/hook%25zz", "begins no escape"},
		"mattermost placeholder":    {"mattermost://dummy@dummy.com", "placeholder"},
		"slack webhook":             {"slack://hook:WNA3PBYV6-F20DUQND3RQ-Webc4MAvoacrpPakR8phF0zi@webhook", ""},
		"slack bot":                 {"slack://xoxb:123456789012-1234567890123-4b8rgdCXSuKH5aSyD4n6UMZA@C0123456", ""},
		"slack bad token":           {"slack://xoxb-SLACKSECRETTOKEN@C0123456", "not one Slack issues"},
		"slack placeholder":         {"slack://dummy@dummy.com", "placeholder"},
		"telegram":                  {"telegram://123456:S3CRET_-x@telegram?chats=@news", ""},
		"telegram token not digits": {"telegram://bot:S3CRET@telegram?chats=@news", "bot's token"},
		"telegram token bad char":   {"telegram://123456:S3%25zz@telegram?chats=@news", "bot's token"},
	} {
		t.Run(name, func(t *testing.T) {
			err := Check(tc.url)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Check(%s) = %v, want nil", tc.url, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Check(%s) = %v, want it to say %q", tc.url, err, tc.want)
			}
		})
	}
}

// TestCheckSendsNothing: Check builds a request to a self-hosted service's
// server and sends none, and quotes no token in its refusal.
func TestCheckSendsNothing(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, u := range []string{
		"ntfy://" + host + "/vigil?scheme=http",
		"gotify://" + host + "/AbCdEfGhIjKlMnO?disabletls=yes",
		"gotify://" + host + "/AbCdEfGhIjKlMnO?disabletls=yes&useheader=yes",
		"mattermost://" + host + "/hookid12345?disabletls=yes",
	} {
		if err := Check(u); err != nil {
			t.Errorf("Check(%s) = %v", u, err)
		}
	}
	const token = "AbCdGotifyTok1"
	err := Check("gotify://" + host + "/" + token + "?disabletls=yes")
	if err == nil || strings.Contains(err.Error(), token) {
		t.Errorf("a bad token: %v, want a refusal that does not quote it", err)
	}
	if hits.Load() != 0 {
		t.Errorf("the server got %d requests", hits.Load())
	}
}

// TestNotifyInvalidIsPermanent: a delivery the service refuses before
// sending (a URL saved before Check read it as Notify does) is a permanent
// error, which the outbox does not retry, and reaches no server; a good
// one is sent.
func TestNotifyInvalidIsPermanent(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":1}`))
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	m := &vigil.Message{Subject: "s1 changed", Text: "keyword appeared"}
	n := &Notifier{}
	for _, u := range []string{
		"gotify://" + host + "/AbCdGotifyTok1?disabletls=yes",
		"gotify://" + host + "/AbCdEfGhIjKlMnO?disabletls=yes&priority=11",
		"mattermost://" + host + "/hook%25zz?disabletls=yes",
		"ntfy://" + host + "/vigil?scheme=ftp",
	} {
		err := n.Notify(context.Background(), u, m)
		if vigil.ErrorCode(err) != vigil.EINVALID {
			t.Errorf("Notify(%s) = %v, want a permanent error", u, err)
		}
		if err != nil && strings.Contains(err.Error(), "AbCdGotifyTok1") {
			t.Errorf("Notify(%s) = %v: the token shows", u, err)
		}
	}
	if hits.Load() != 0 {
		t.Errorf("the server got %d requests", hits.Load())
	}
	if err := n.Notify(context.Background(), "gotify://"+host+"/AbCdEfGhIjKlMnO?disabletls=yes", m); err != nil || hits.Load() != 1 {
		t.Errorf("a good token: %v, %d requests", err, hits.Load())
	}
}

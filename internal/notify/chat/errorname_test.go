package chat

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestNotifyErrorNamesServer: a delivery through Shoutrrr that fails
// names the service and, of a self-hosted one, the server (its host and
// port) it failed on, whether the server refused the connection or
// answered an error status, and none of the URL's secrets (its password,
// its path's tokens, its query's values), which the library's own text
// quotes: an error said "chat ntfy: ... got unexpected HTTP status: 500"
// without saying which server, or quoted the URL, token and all. A URL
// the library cannot read is refused without quoting it either.
func TestNotifyErrorNamesServer(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", http.StatusInternalServerError) }))
	defer failing.Close()
	const secret = "SECRETtk0123"
	m := &vigil.Message{Subject: "s", Text: "t"}
	n := &Notifier{Timeout: 5 * time.Second}
	for _, srv := range []struct{ name, url, why string }{
		{"refused", closed.URL, "connection refused"},
		{"500", failing.URL, "500"},
	} {
		host := strings.TrimPrefix(srv.url, "http://")
		for _, tc := range []struct{ service, target string }{
			{"ntfy", "ntfy://user:" + secret + "@" + host + "/topic" + secret + "?scheme=http"},
			{"gotify", "gotify://" + host + "/A" + secret + "xy?disabletls=yes"},
			{"mattermost", "mattermost://" + host + "/" + secret + "?disabletls=yes"},
			{"generic", "generic+http://" + host + "/hook/" + secret + "?token=" + secret + "2"},
		} {
			t.Run(srv.name+"/"+tc.service, func(t *testing.T) {
				err := n.Notify(context.Background(), tc.target, m)
				if err == nil {
					t.Fatal("delivered")
				}
				msg := err.Error()
				if want := "chat " + tc.service + " at " + host + ": "; !strings.HasPrefix(msg, want) || !strings.Contains(msg, srv.why) || strings.Contains(msg, "SECRET") {
					t.Errorf("error %q; want %q, then %q, no secret", msg, want, srv.why)
				}
			})
		}
	}
	for _, target := range []string{"slack://hook:T000/B000/" + secret, "discord://" + secret + "@12345/x/y"} {
		err := n.Notify(context.Background(), target, m)
		if err == nil || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("Notify(%s): %v; want an error without its secret", target, err)
		}
	}
}

package webhook

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestNotifyErrorNamesTargetOnce: a failed delivery names its target
// once, with its password hidden, and then why it failed (a connection
// refused, a redirect refused, a timeout, an error status), where an
// error of the request itself named it twice ("webhook URL: Post "URL":
// dial tcp ...").
func TestNotifyErrorNamesTargetOnce(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/moved":
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		case "/slow":
			select {
			case <-time.After(2 * time.Second):
			case <-r.Context().Done():
			}
		default:
			http.Error(w, "no", http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	n := &Notifier{Secret: []byte("k"), Client: &http.Client{Timeout: 300 * time.Millisecond}}
	m := &vigil.Message{SentinelName: "s", Subject: "s changed"}
	withPassword := func(u string) string { return strings.Replace(u, "://", "://user:s3cret@", 1) }
	for _, tc := range []struct {
		name, target, why string
	}{
		{"refused", withPassword(closed.URL) + "/hook", "connection refused"},
		{"redirect refused", withPassword(srv.URL) + "/moved", "redirected by status 302"},
		// net/http says "Client.Timeout exceeded" or not, as the timer
		// and the request's context race (its text varies): a timeout is
		// told by its error (net.Error), below.
		{"timeout", srv.URL + "/slow", ""},
		{"status", withPassword(srv.URL) + "/fail", "status 503"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := n.Notify(context.Background(), tc.target, m)
			if err == nil {
				t.Fatal("delivered")
			}
			named := vigil.RedactURL(tc.target)
			msg := err.Error()
			if !strings.HasPrefix(msg, "webhook "+named+": ") || strings.Count(msg, strings.TrimPrefix(strings.TrimPrefix(named, "http://"), "user:xxxxx@")) != 1 ||
				!strings.Contains(msg, tc.why) || strings.Contains(msg, "s3cret") {
				t.Errorf("error %q; want %q once, then %q, no password", msg, "webhook "+named+": ", tc.why)
			}
			var ne net.Error
			if timeout := errors.As(err, &ne) && ne.Timeout(); timeout != (tc.name == "timeout") {
				t.Errorf("error %q: a timeout (net.Error) %v, want %v", msg, timeout, tc.name == "timeout")
			}
		})
	}
}

// TestNotifyErrorNamesRedirectTarget: a delivery that a 307 or 308 led to
// another URL, where it failed, names that URL (its password hidden) after
// the target, so that the reader knows the failure is not the target's
// own: net/http's text named it, and naming the target once dropped it.
func TestNotifyErrorNamesRedirectTarget(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	elsewhere := strings.Replace(closed.URL, "://", "://user:s3cret@", 1) + "/elsewhere"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	n := &Notifier{Secret: []byte("k"), Client: &http.Client{Timeout: time.Second}}
	err := n.Notify(context.Background(), srv.URL+"/hook", &vigil.Message{SentinelName: "s", Subject: "s changed"})
	if err == nil {
		t.Fatal("delivered")
	}
	msg := err.Error()
	want := "webhook " + srv.URL + "/hook: redirect to " + vigil.RedactURL(elsewhere) + ": "
	if !strings.HasPrefix(msg, want) || !strings.Contains(msg, "connection refused") || strings.Contains(msg, "s3cret") {
		t.Errorf("error %q; want it to begin %q, then the cause, no password", msg, want)
	}
}

package chat

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
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

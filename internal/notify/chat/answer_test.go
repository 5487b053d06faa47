package chat

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/notify"
)

// TestLargeAnswerFails delivers to self-hosted services whose server
// answers with far more than notify.MaxAnswer bytes: the libraries read an
// answer whole, so without the cap a server a user names could fill the
// daemon's memory. Each delivery fails, saying why, with at most the cap
// read (the server counts what it could write before the client hung up,
// the kernel's buffers aside).
func TestLargeAnswerFails(t *testing.T) {
	const answer = 64 * notify.MaxAnswer
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":1,"message":"`)
		chunk := strings.Repeat("A", 64<<10)
		for n := 0; n < answer; n += len(chunk) {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
		io.WriteString(w, `"}`)
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	m := &vigil.Message{Subject: "s1 changed", Text: "keyword appeared"}
	for _, target := range []string{
		"gotify://" + host + "/Aaaaaaaaaaaaaaa?disabletls=yes",
		"ntfy://" + host + "/vigil?scheme=http",
	} {
		err := (&Notifier{}).Notify(context.Background(), target, m)
		if err == nil || !strings.Contains(err.Error(), "answer over 1048576 bytes") {
			t.Errorf("%s: %v, want a failure naming the answer's cap", service(target), err)
		} else {
			t.Log(err)
		}
	}
}

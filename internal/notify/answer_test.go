package notify

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestTransportCapsAnswer: a receiver that answers a delivery with more
// than MaxAnswer bytes (a chat library reads the whole answer into memory,
// and a user names the server) fails the read once it passes the cap,
// naming it, instead of filling the daemon's memory; an answer within it
// reads whole.
func TestTransportCapsAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := MaxAnswer
		if r.URL.Query().Get("big") != "" {
			n = 8 * MaxAnswer
		}
		io.WriteString(w, strings.Repeat("A", n))
	}))
	defer srv.Close()
	client := &http.Client{Transport: &Transport{}}
	for _, tc := range []struct {
		query   string
		wantErr bool
	}{
		{"", false},
		{"?big=1", true},
	} {
		resp, err := client.Post(srv.URL+"/hook"+tc.query, "text/plain", strings.NewReader("message"))
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if len(b) > MaxAnswer {
			t.Errorf("%s: read %d bytes of the answer, want at most %d", tc.query, len(b), MaxAnswer)
		}
		var big *AnswerTooLargeError
		switch {
		case tc.wantErr && !errors.As(err, &big):
			t.Errorf("%s: read error %v, want an AnswerTooLargeError", tc.query, err)
		case tc.wantErr && !strings.Contains(err.Error(), "answer over 1048576 bytes"):
			t.Errorf("%s: error %q does not name the cap", tc.query, err)
		case !tc.wantErr && (err != nil || len(b) != MaxAnswer):
			t.Errorf("%s: read %d bytes, %v; want the %d bytes whole", tc.query, len(b), err, MaxAnswer)
		}
	}
}

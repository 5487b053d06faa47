package webhook

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestNotifyErrorsHidePassword: a webhook target with credentials (a
// sentinel's Notify clause takes them) that fails is named with its
// password as xxxxx (vigil.RedactURL), and so is a Location it is
// redirected to that does not parse: a target that is no http(s) URL or
// does not parse, and a redirect's Location that does not parse, were
// quoted as given.
func TestNotifyErrorsHidePassword(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/moved" {
			w.Header().Set("Location", "http://user:s3cret@a.example:x/")
			w.WriteHeader(http.StatusFound)
			return
		}
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	defer srv.Close()
	withPassword := strings.Replace(srv.URL, "://", "://user:s3cret@", 1)
	n := &Notifier{Secret: []byte("k")}
	m := &vigil.Message{SentinelName: "s", Subject: "s changed"}
	for _, tt := range []struct{ target, want string }{
		{withPassword + "/fail", "user:xxxxx@"},
		{withPassword + "/moved", "http://user:xxxxx@a.example:x/"},
		{"ftp://user:s3cret@a.example/", "ftp://user:xxxxx@a.example/"},
		{"http://user:s3cret@a.example:x/", "http://user:xxxxx@a.example:x/"},
	} {
		err := n.Notify(context.Background(), tt.target, m)
		if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Notify(%s): %v; want an error naming %s, no password", tt.target, err, tt.want)
		}
	}
}

package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestServePasswordNotShown runs the daemon on a sentinel whose page
// redirects to a URL with credentials and that notifies a webhook whose
// URL carries a password and answers 500: the password is in no stored
// failure, no notification's error and nothing the daemon logged (at
// debug level), while the webhook is sent it (it is the target's). A
// sentinel on a URL with credentials is refused, the password hidden.
func TestServePasswordNotShown(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		if r.URL.Path == "/moved" {
			w.Header().Set("Location", "http://user:s3cret@"+r.Host+"/page")
			w.WriteHeader(http.StatusFound)
			return
		}
		http.Error(w, "broken", http.StatusInternalServerError)
	}))
	defer page.Close()
	var hooked atomic.Int32
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pw, _ := r.BasicAuth(); pw == "s3cret" {
			hooked.Add(1)
		}
		http.Error(w, "broken", http.StatusInternalServerError)
	}))
	defer hook.Close()
	data := t.TempDir()

	file := filepath.Join(t.TempDir(), "refused.ssl")
	withPassword := strings.Replace(page.URL, "://", "://user:s3cret@", 1)
	if err := os.WriteFile(file, []byte("Create Sentinel refused Using "+withPassword+"/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(vigilBinary(t), "sentinel", "add", "--data", data, "--owner", "ops@example.test", file)
	cmd.Env = append(os.Environ(), "VIGIL_DATA=", "VIGIL_POSTGRES_DSN=")
	out, err := cmd.CombinedOutput()
	if err == nil || strings.Contains(string(out), "s3cret") || !strings.Contains(string(out), "user:xxxxx@") {
		t.Fatalf("sentinel add on a URL with a password: %v\n%s\nwant it refused, the password hidden", err, out)
	}

	hookURL := strings.Replace(hook.URL, "://", "://user:s3cret@", 1) + "/hook"
	addSentinels(t, data, "Create Sentinel pw Using "+page.URL+"/moved Monitor any change Fetch 1 second Notify By webhook "+hookURL+"\n")
	d := startDaemon(t, data, "--allow-private-networks", "--min-interval", "1s", "--host-delay", "0", "--poll", "50ms",
		"--failure-notice", "1s", "--retry-base", "50ms", "--max-attempts", "2")
	db := openData(t, data)
	ctx := context.Background()
	var failed []*vigil.Notification
	waitFor(t, 60*time.Second, "the failure notice's delivery to fail twice", func() bool {
		ns, _, err := db.FindNotifications(ctx, vigil.NotificationFilter{})
		if err != nil {
			t.Fatal(err)
		}
		failed = nil
		for _, n := range ns {
			if n.State == vigil.NotificationDead {
				failed = append(failed, n)
			}
		}
		return len(failed) > 0
	})
	d.stop(t)
	if hooked.Load() == 0 {
		t.Errorf("the webhook was not sent its password")
	}
	r, err := db.FindResourceByURL(ctx, page.URL+"/moved")
	if err != nil {
		t.Fatal(err)
	}
	v, err := db.LatestVersion(ctx, r.ID)
	if err != nil || v.Error == "" {
		t.Fatalf("the page's newest version: %+v, %v; want a failure", v, err)
	}
	shown := map[string]string{"stored failure": v.Error, "notification error": failed[0].LastError, "log": d.stderr.String()}
	for what, text := range shown {
		if strings.Contains(text, "s3cret") {
			t.Errorf("the password is in the %s:\n%s", what, text)
		}
	}
	if !strings.Contains(v.Error, "redirect to") || !strings.Contains(failed[0].LastError, "500") {
		t.Errorf("stored failure %q, notification error %q", v.Error, failed[0].LastError)
	}
}

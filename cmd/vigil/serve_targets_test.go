package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestServeTwoPages runs a sentinel on two pages (Using a OR b): a change
// on either is reported, with the page it was found on.
func TestServeTwoPages(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	st := newSite(t)
	st.set("/a", "<html><body><p>alpha 1</p></body></html>")
	st.set("/b", "<html><body><p>beta 1</p></body></html>")
	hk := startHooks(t, "")
	// An ntfy server: chat messages go through the daemon's guarded transport.
	var chatMu sync.Mutex
	var chats []string
	ntfy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		chatMu.Lock()
		chats = append(chats, r.URL.Path+" "+string(b))
		chatMu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"x","time":1,"event":"message","topic":"two"}`)
	}))
	defer ntfy.Close()
	chatsNow := func() []string {
		chatMu.Lock()
		defer chatMu.Unlock()
		return slices.Clone(chats)
	}
	data := t.TempDir()
	addSentinels(t, data, fmt.Sprintf("Create Sentinel two Using %s/a OR %s/b Monitor any change Fetch 1 second Notify By webhook %s/two, ntfy://%s/two?scheme=http\n",
		st.srv.URL, st.srv.URL, hk.srv.URL, strings.TrimPrefix(ntfy.URL, "http://")))
	d := startDaemon(t, data, "--allow-private-networks", "--min-interval", "1s", "--host-delay", "0", "--poll", "50ms")
	// Without --webhook-secret, webhooks are signed with a key of their
	// own, created in the data directory, not with the server's secret
	// (which keys the feeds).
	key, err := os.ReadFile(filepath.Join(data, "webhook-secret"))
	if err != nil {
		t.Fatal(err)
	}
	master, err := os.ReadFile(filepath.Join(data, "secret"))
	if err != nil || len(bytes.TrimSpace(key)) < 32 || bytes.Equal(key, master) {
		t.Fatalf("webhook key %q, server secret %q (%v)", key, master, err)
	}
	if fi, err := os.Stat(filepath.Join(data, "webhook-secret")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("webhook key file: %v, %v", fi.Mode(), err)
	}
	hk.mu.Lock()
	hk.secret = bytes.TrimSpace(key)
	hk.mu.Unlock()
	db := openData(t, data)
	waitFor(t, 30*time.Second, "both pages fetched", func() bool {
		return versionCount(t, db, st.srv.URL+"/a") == 1 && versionCount(t, db, st.srv.URL+"/b") == 1
	})
	st.set("/b", "<html><body><p>beta 2</p></body></html>")
	waitFor(t, 30*time.Second, "the change on b", func() bool { return len(hk.of("two")) == 1 })
	if c := hk.of("two")[0]; c.msg.URL != st.srv.URL+"/b" || !strings.Contains(c.raw, "beta 2") {
		t.Errorf("webhook for b: %s", c.raw)
	}
	st.set("/a", "<html><body><p>alpha 2</p></body></html>")
	waitFor(t, 30*time.Second, "the change on a", func() bool { return len(hk.of("two")) == 2 })
	if c := hk.of("two")[1]; c.msg.URL != st.srv.URL+"/a" || !strings.Contains(c.raw, "alpha 2") {
		t.Errorf("webhook for a: %s", c.raw)
	}
	waitFor(t, 30*time.Second, "both chat messages", func() bool { return len(chatsNow()) == 2 })
	if got := chatsNow(); !strings.HasPrefix(got[0], "/two ") || !strings.Contains(got[0], "beta 2") || !strings.Contains(got[1], "alpha 2") {
		t.Errorf("chat messages: %q", got)
	}
	hk.mu.Lock()
	if hk.badSig != 0 {
		t.Errorf("%d deliveries with a bad signature", hk.badSig)
	}
	hk.mu.Unlock()
	d.stop(t)
}

package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/fetch/proxytest"
)

// proxyRequests returns the requests p got, each as "METHOD target auth".
func proxyRequests(p *proxytest.Proxy) []string {
	var asked []string
	for _, a := range p.Requests() {
		asked = append(asked, a.Method+" "+a.Target+" "+a.Auth)
	}
	return asked
}

// TestServeProxy runs vigil serve --proxy, without
// --allow-private-networks, on a sentinel whose page and webhook are at a
// public address the daemon reaches only through the proxy (and an ntfy
// chat target there), and another
// whose page is on a loopback name: the first is checked and notified
// through the proxy, with its credentials; the second is refused before
// the proxy is asked; the proxy's password is in no log.
func TestServeProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	const public = "93.184.215.14"
	const password = "pr0xy-PASSWORD-x"
	const secret = "proxy-secret-of-thirty-two-characters"
	st := newSite(t)
	st.set("/page", "<p>Status: quiet</p>")
	st.set("/inside", "<p>inside</p>")
	hk := startHooks(t, secret)
	chat := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.Copy(io.Discard, r.Body) }))
	defer chat.Close()
	p := proxytest.Start(t, map[string]string{
		public + ":80":   st.srv.Listener.Addr().String(),
		public + ":8081": hk.srv.Listener.Addr().String(),
		public + ":8082": chat.Listener.Addr().String(),
	})
	proxyURL := p.URL("ops", password).String()
	inside := "http://localhost:" + st.srv.URL[strings.LastIndex(st.srv.URL, ":")+1:] + "/inside"
	data := t.TempDir()
	addSentinels(t, data, fmt.Sprintf(`Create Sentinel p1 Using http://%[1]s/page
Monitor keyword (launch)
Fetch 1 second
Notify By webhook http://%[1]s:8081/p1, ntfy://%[1]s:8082/topic?scheme=http
Every immediate

Create Sentinel p2 Using %[2]s
Monitor any change
Fetch 1 second
Every immediate
`, public, inside))
	d := startDaemon(t, data, "--proxy", proxyURL, "--min-interval", "1s", "--host-delay", "0", "--poll", "50ms",
		"--webhook-secret", secret, "--fetch-timeout", "10s", "--chromium", "")
	db := openData(t, data)
	waitFor(t, 30*time.Second, "the first version through the proxy", func() bool { return versionCount(t, db, "http://"+public+"/page") >= 1 })
	st.set("/page", "<p>Status: launch</p>")
	waitFor(t, 30*time.Second, "the webhook through the proxy", func() bool { return len(hk.of("p1")) == 1 })
	waitFor(t, 30*time.Second, "a check of the loopback page", func() bool { return versionCount(t, db, inside) >= 1 })
	waitFor(t, 30*time.Second, "the chat notification through the proxy", func() bool {
		asked := strings.Join(proxyRequests(p), "\n")
		return strings.Contains(asked, "/topic")
	})
	d.stop(t)

	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte("ops:"+password))
	asked := proxyRequests(p)
	for _, want := range []string{"GET http://" + public + "/page " + auth, "POST http://" + public + ":8081/p1 " + auth,
		"POST http://" + public + ":8082/topic " + auth} {
		found := false
		for _, a := range asked {
			found = found || a == want
		}
		if !found {
			t.Errorf("the proxy was not asked %q; it was asked %q", want, asked)
		}
	}
	for _, a := range asked {
		if strings.Contains(a, "localhost") || strings.Contains(a, "/inside") {
			t.Errorf("the proxy was asked %q", a)
		}
	}
	st.mu.Lock()
	if n := st.hits["/inside"]; n != 0 {
		t.Errorf("the loopback page was fetched %d times", n)
	}
	st.mu.Unlock()
	if log := d.stderr.String(); strings.Contains(log, password) {
		t.Errorf("the proxy's password is in the log:\n%s", log)
	} else if !strings.Contains(log, "address refused") {
		t.Errorf("the log does not say the loopback page was refused:\n%s", log)
	}
	if list := runBinary(t, "sentinel", "list", "--data", data); strings.Contains(list, password) {
		t.Errorf("the proxy's password is in sentinel list:\n%s", list)
	}
}

// TestServeNoProxyRefused: an entry of --no-proxy or VIGIL_NO_PROXY that
// names no host, address, prefix, .suffix or * (which no host would match)
// stops vigil serve at start, with or without --proxy, before the data
// directory is made, naming the flag and the entry.
func TestServeNoProxyRefused(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		env   string
		entry string
	}{
		{[]string{"--proxy", "http://proxy.invalid:3128", "--no-proxy", "intranet.example, https://wiki.example/"}, "", "https://wiki.example/"},
		{[]string{"--no-proxy", "intranet.example:http"}, "", "intranet.example:http"},
		{[]string{"--proxy", "http://proxy.invalid:3128"}, "10.0.0.0/8,*.", "*."},
		{nil, "intra net.example", "intra net.example"},
	} {
		data := filepath.Join(t.TempDir(), "data")
		var stdout, stderr bytes.Buffer
		env := &environment{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
			getenv: func(k string) string { return map[string]string{"VIGIL_NO_PROXY": tc.env}[k] }}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		code := run(ctx, env, append([]string{"serve", "--data", data, "--addr", "127.0.0.1:0"}, tc.args...))
		want := fmt.Sprintf("vigil serve: --no-proxy (or VIGIL_NO_PROXY): entry %q: ", tc.entry)
		if code != exitError || !strings.HasPrefix(stderr.String(), want) {
			t.Errorf("%v (VIGIL_NO_PROXY=%q): exit %d, stderr %q; want 2 and %q", tc.args, tc.env, code, stderr.String(), want)
		}
		if _, err := os.Stat(data); !os.IsNotExist(err) {
			t.Errorf("%v: the data directory was made (%v)", tc.args, err)
		}
	}
}

// TestServeProxyFlags: --proxy and VIGIL_PROXY take an http or https URL,
// and a bad one stops vigil serve with an error that does not show the
// password; the usage text shows neither.
func TestServeProxyFlags(t *testing.T) {
	const password = "S3cretProxyPW"
	for _, tc := range []struct {
		args []string
		env  string
	}{
		{[]string{"serve", "--proxy", "socks5://u:" + password + "@proxy.invalid:1080"}, ""},
		{[]string{"serve"}, "ftp://u:" + password + "@proxy.invalid"},
		{[]string{"serve", "--proxy", "http://u:" + password + "@proxy.invalid/path"}, ""},
	} {
		code, stdout, stderr := runVigilEnv(t, map[string]string{"VIGIL_PROXY": tc.env, "VIGIL_DATA": t.TempDir()}, tc.args...)
		if code == 0 || !strings.Contains(stderr, "proxy") {
			t.Errorf("%v (VIGIL_PROXY=%q): exit %d, %s", tc.args, tc.env, code, stderr)
		}
		if strings.Contains(stdout+stderr, password) {
			t.Errorf("%v: the password shows:\n%s%s", tc.args, stdout, stderr)
		}
	}
	_, stdout, stderr := runVigilEnv(t, map[string]string{"VIGIL_PROXY": "http://u:" + password + "@proxy.invalid:3128", "VIGIL_NO_PROXY": "intranet.example"}, "serve", "-h")
	if out := stdout + stderr; strings.Contains(out, password) || !strings.Contains(out, "-proxy") || !strings.Contains(out, "$VIGIL_PROXY") || !strings.Contains(out, "-no-proxy") {
		t.Errorf("serve -h:\n%s", out)
	}
}

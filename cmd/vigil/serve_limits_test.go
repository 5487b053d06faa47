package main

import (
	"bufio"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestSlowRequestCut: a client that sends its request body slowly is cut
// off once readTimeout has passed, rather than holding its connection for
// as long as it likes (the server had a limit on the headers only).
func TestSlowRequestCut(t *testing.T) {
	defer func(r time.Duration) { readTimeout = r }(readTimeout)
	readTimeout = 200 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf := make([]byte, 512)
		for {
			if _, err := r.Body.Read(buf); err != nil {
				http.Error(w, err.Error(), http.StatusRequestTimeout)
				return
			}
		}
	}), slog.New(slog.DiscardHandler))
	go srv.Serve(ln)
	defer srv.Close()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nab")); err != nil {
		t.Fatal(err)
	}
	// The rest of the body never comes: the server must give up on its
	// own, well before this deadline.
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestTimeout {
			t.Errorf("status %d, want the request cut off", resp.StatusCode)
		}
		return
	}
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the server still waited for the body after 10s")
	}
}

// TestServedOverTLS: cookies are Secure behind a base URL of https in any
// case; "HTTPS://" gave none.
func TestServedOverTLS(t *testing.T) {
	for url, want := range map[string]bool{
		"https://vigil.example": true, "HTTPS://vigil.example/": true, " Https://x ": true,
		"http://vigil.example": false, "": false, "httpsx://y": false,
	} {
		if got := servedOverTLS(url); got != want {
			t.Errorf("servedOverTLS(%q) = %v, want %v", url, got, want)
		}
	}
}

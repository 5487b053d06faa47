package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/vigil-web/vigil"
)

func testClient(opt Options) *Client {
	opt.AllowPrivateNetworks = true
	if opt.TotalTimeout == 0 {
		opt.TotalTimeout = 5 * time.Second
	}
	return New(opt)
}

func gzipped(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func TestFetch(t *testing.T) {
	const page = `<!DOCTYPE html><html><head><title>t</title></head><body><p>Hello, world</p></body></html>`
	latin1 := []byte("<html><body><p>caf\xe9</p></body></html>")
	bomb := gzipped(t, bytes.Repeat([]byte("a"), 64<<20))
	var br bytes.Buffer
	bw := brotli.NewWriter(&br)
	bw.Write([]byte(page))
	bw.Close()

	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	})
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	})
	mux.HandleFunc("/etag", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Last-Modified", "Mon, 02 Jan 2006 15:04:05 GMT")
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, page)
	})
	mux.HandleFunc("/etag-latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", "\"caf\xe9\"")
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, page)
	})
	mux.HandleFunc("/gzip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gzipped(t, []byte(page)))
	})
	// Two codings on two header lines, which RFC 9110 reads as one
	// list: gzip, then brotli over it.
	mux.HandleFunc("/two-lines", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Add("Content-Encoding", "br")
		w.Header().Add("Content-Encoding", "gzip")
		w.Write(gzipped(t, br.Bytes()))
	})
	mux.HandleFunc("/br", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "br")
		w.Write(br.Bytes())
	})
	mux.HandleFunc("/bomb", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(bomb)
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Length", fmt.Sprint(1<<30))
		chunk := bytes.Repeat([]byte("a"), 64<<10)
		for i := 0; i < (1<<30)/len(chunk); i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/huge-chunked", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		chunk := bytes.Repeat([]byte("a"), 64<<10)
		for i := 0; i < (1<<30)/len(chunk); i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(10 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop2", http.StatusFound)
	})
	mux.HandleFunc("/loop2", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
		w.Write(latin1)
	})
	mux.HandleFunc("/meta-latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><head><meta charset=\"windows-1252\"></head><body>caf\xe9</body></html>"))
	})
	mux.HandleFunc("/xmldecl-sjis", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><html><body>\x93\xfa\x96{</body></html>"))
	})
	mux.HandleFunc("/xml-spaced-decl", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		w.Write([]byte("\n<?xml version=\"1.0\" encoding = 'ISO-8859-1' ?><r>caf\xe9 \x93q\x94</r>"))
	})
	mux.HandleFunc("/xml-utf16-label", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		w.Write([]byte("<?xml version=\"1.0\" encoding=\"UTF-16\"?><r>caf\xc3\xa9</r>"))
	})
	mux.HandleFunc("/xmldecl-meta", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<?xml version=\"1.0\" encoding=\"utf-8\"?><html><head><meta charset=\"iso-8859-1\"></head><body>caf\xe9</body></html>"))
	})
	mux.HandleFunc("/late-meta-sjis", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><head><script>" + strings.Repeat("var x = 1;\n", 200) + "</script><meta charset=\"Shift_JIS\"></head><body>\x93\xfa\x96{</body></html>"))
	})
	mux.HandleFunc("/meta-x-user-defined", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><head><meta charset=\"x-user-defined\"></head><body>caf\xe9</body></html>"))
	})
	mux.HandleFunc("/binary", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write([]byte{0x7f, 'E', 'L', 'F', 0, 0, 1, 2})
	})
	mux.HandleFunc("/png-as-html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	})
	mux.HandleFunc("/private/x", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, page) })
	mux.HandleFunc("/500", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) })
	srv := httptest.NewServer(mux)
	defer srv.Close()

	c := testClient(Options{MaxBodySize: 1 << 20, MaxDecodedSize: 2 << 20, TotalTimeout: 2 * time.Second, MaxRedirects: 5})
	tests := []struct {
		name    string
		path    string
		etag    string
		wantErr error
		check   func(t *testing.T, r *vigil.FetchResult)
	}{
		{name: "page", path: "/page", check: func(t *testing.T, r *vigil.FetchResult) {
			if string(r.Body) != page || r.ContentType != "text/html" || r.Charset != "utf-8" || r.Status != 200 {
				t.Errorf("got %+v", r)
			}
		}},
		{name: "etag-first", path: "/etag", check: func(t *testing.T, r *vigil.FetchResult) {
			if r.NotModified || r.ETag != `"v1"` || r.LastModified.IsZero() {
				t.Errorf("got %+v", r)
			}
		}},
		{name: "etag-304", path: "/etag", etag: `"v1"`, check: func(t *testing.T, r *vigil.FetchResult) {
			if !r.NotModified || r.Body != nil || r.ETag != `"v1"` {
				t.Errorf("got %+v", r)
			}
		}},
		// An ETag that is not UTF-8 (a Latin-1 byte, obs-text) is
		// reported as the server sent it, with the page: the warehouse
		// stores it as none (TestPutDropsFieldsNotText, TestETagNotText).
		{name: "etag-not-utf8", path: "/etag-latin1", check: func(t *testing.T, r *vigil.FetchResult) {
			if r.ETag != "\"caf\xe9\"" || string(r.Body) != page {
				t.Errorf("got ETag %q, body %q; want the ETag as sent and the page", r.ETag, r.Body)
			}
		}},
		{name: "gzip", path: "/gzip", check: func(t *testing.T, r *vigil.FetchResult) {
			if string(r.Body) != page {
				t.Errorf("body %q", r.Body)
			}
		}},
		{name: "codings on two header lines", path: "/two-lines", check: func(t *testing.T, r *vigil.FetchResult) {
			if string(r.Body) != page {
				t.Errorf("body %q", r.Body)
			}
		}},
		{name: "brotli", path: "/br", check: func(t *testing.T, r *vigil.FetchResult) {
			if string(r.Body) != page {
				t.Errorf("body %q", r.Body)
			}
		}},
		{name: "latin1", path: "/latin1", check: func(t *testing.T, r *vigil.FetchResult) {
			if !strings.Contains(string(r.Body), "café") || r.Charset != "windows-1252" {
				t.Errorf("body %q charset %q", r.Body, r.Charset)
			}
		}},
		{name: "meta-charset", path: "/meta-latin1", check: func(t *testing.T, r *vigil.FetchResult) {
			if !strings.Contains(string(r.Body), "café") {
				t.Errorf("body %q charset %q", r.Body, r.Charset)
			}
		}},
		{name: "xml-declaration-charset", path: "/xmldecl-sjis", check: func(t *testing.T, r *vigil.FetchResult) {
			if !strings.Contains(string(r.Body), "日本") || r.Charset != "shift_jis" {
				t.Errorf("body %q charset %q", r.Body, r.Charset)
			}
		}},
		// The declaration is read as ParseXML reads it (white space around
		// "=", single quotes, a line before it), its label as browsers
		// read it: these were decoded as UTF-8, "café" lost.
		{name: "xml-declaration-spaced", path: "/xml-spaced-decl", check: func(t *testing.T, r *vigil.FetchResult) {
			if !strings.Contains(string(r.Body), "café “q”") || r.Charset != "windows-1252" {
				t.Errorf("body %q charset %q", r.Body, r.Charset)
			}
		}},
		// A UTF-16 label on bytes without a byte-order mark: they are not
		// UTF-16 (read so, the page was garbage).
		{name: "xml-utf16-label-without-bom", path: "/xml-utf16-label", check: func(t *testing.T, r *vigil.FetchResult) {
			if !strings.Contains(string(r.Body), "<r>café</r>") || r.Charset != "utf-8" {
				t.Errorf("body %q charset %q", r.Body, r.Charset)
			}
		}},
		{name: "meta-beats-xml-declaration", path: "/xmldecl-meta", check: func(t *testing.T, r *vigil.FetchResult) {
			if !strings.Contains(string(r.Body), "café") {
				t.Errorf("body %q charset %q", r.Body, r.Charset)
			}
		}},
		{name: "late-meta-charset", path: "/late-meta-sjis", check: func(t *testing.T, r *vigil.FetchResult) {
			// A meta past the first 1024 bytes counts, as in browsers
			// and in markup's own detection.
			if !strings.Contains(string(r.Body), "日本") || r.Charset != "shift_jis" {
				t.Errorf("body %q charset %q", r.Body[len(r.Body)-40:], r.Charset)
			}
		}},
		{name: "meta-x-user-defined", path: "/meta-x-user-defined", check: func(t *testing.T, r *vigil.FetchResult) {
			if !strings.Contains(string(r.Body), "café") || r.Charset != "windows-1252" {
				t.Errorf("body %q charset %q", r.Body, r.Charset)
			}
		}},
		{name: "gzip-bomb", path: "/bomb", wantErr: ErrTooLarge},
		{name: "1GB-body", path: "/huge", wantErr: ErrTooLarge},
		{name: "1GB-body-chunked", path: "/huge-chunked", wantErr: ErrTooLarge},
		{name: "slow", path: "/slow", wantErr: context.DeadlineExceeded},
		{name: "redirect-loop", path: "/loop", wantErr: ErrRedirects},
		{name: "binary", path: "/binary", wantErr: ErrBinary},
		{name: "binary-mislabelled", path: "/png-as-html", wantErr: ErrBinary},
		{name: "robots-disallow", path: "/private/x", wantErr: ErrRobots},
		{name: "500", path: "/500", wantErr: ErrStatus},
		{name: "not-found", path: "/nope", wantErr: ErrStatus},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			r, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + tc.path, ETag: tc.etag})
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				if time.Since(start) > 4*time.Second {
					t.Errorf("took %v", time.Since(start))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, r)
		})
	}
}

// TestFailedAnswer: a fetch that failed on the answer returns, with the
// error, what the answer said, without a body: the history keeps the
// status, a crawler the content type of a binary page.
func TestFailedAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/image":
			w.Header().Set("Content-Type", "image/png")
			w.Header().Set("Last-Modified", "Wed, 01 May 2024 12:00:00 GMT")
			w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00"))
		case "/moved":
			http.Redirect(w, r, "/gone", http.StatusMovedPermanently)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c := testClient(Options{IgnoreRobots: true})
	for _, tc := range []struct {
		path, url string
		status    int
		ctype     string
		err       error
	}{
		{"/image", "/image", 200, "image/png", ErrBinary},
		{"/moved", "/gone", 404, "", ErrStatus},
	} {
		r, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + tc.path})
		if !errors.Is(err, tc.err) || r == nil {
			t.Fatalf("%s: %v, %v; want a result and %v", tc.path, r, err, tc.err)
		}
		if r.URL != srv.URL+tc.url || r.Status != tc.status || r.ContentType != tc.ctype || r.Body != nil || r.FetchedAt.IsZero() {
			t.Errorf("%s: %+v", tc.path, r)
		}
	}
}

func TestServerDown(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c := testClient(Options{IgnoreRobots: true})
	if _, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: url + "/x"}); err == nil {
		t.Fatal("fetch from a closed server succeeded")
	}
}

func TestRefusePrivate(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		case "/to-loopback-name":
			http.Redirect(w, r, "http://localhost:"+r.Host[strings.LastIndex(r.Host, ":")+1:]+"/page", http.StatusFound)
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<p>ok</p>")
		}
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]

	strict := New(Options{IgnoreRobots: true, TotalTimeout: 3 * time.Second})
	for _, u := range []string{
		srv.URL + "/page",                          // 127.0.0.1
		"http://localhost:" + port + "/page",       // a name resolving to 127.0.0.1
		"http://169.254.169.254/latest/meta-data/", // cloud metadata
		"http://[::1]:" + port + "/",
		"http://10.0.0.1/",
		"http://0.0.0.0:" + port + "/",
	} {
		_, err := strict.Fetch(context.Background(), &vigil.FetchRequest{URL: u})
		if !errors.Is(err, ErrRefused) {
			t.Errorf("%s: err = %v, want refusal", u, err)
		}
	}

	// A client that may reach 127.0.0.1 only: the first hop is allowed,
	// the redirect to a private address is refused, whether the address
	// is a literal or comes from DNS.
	only := netip.MustParseAddr("127.0.0.1")
	hop := New(Options{IgnoreRobots: true, TotalTimeout: 3 * time.Second, permit: func(a netip.Addr) bool { return a == only }})
	if _, err := hop.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/page"}); err != nil {
		t.Fatalf("permitted address: %v", err)
	}
	if _, err := hop.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/to-metadata"}); !errors.Is(err, ErrRefused) {
		t.Errorf("redirect to metadata: err = %v, want refusal", err)
	}
	hop6 := New(Options{IgnoreRobots: true, TotalTimeout: 3 * time.Second, permit: func(a netip.Addr) bool { return false }})
	if _, err := hop6.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/to-loopback-name"}); !errors.Is(err, ErrRefused) {
		t.Errorf("redirect to localhost: err = %v, want refusal", err)
	}
}

func TestPoliteness(t *testing.T) {
	var inFlight, maxInFlight atomic.Int32
	var robotsHits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			robotsHits.Add(1)
			fmt.Fprint(w, "User-agent: *\nCrawl-delay: 0.05\n")
			return
		}
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			m := maxInFlight.Load()
			if n <= m || maxInFlight.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(5 * time.Millisecond)
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	c := testClient(Options{})
	start := time.Now()
	done := make(chan error)
	for i := 0; i < 5; i++ {
		go func() {
			_, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/p"})
			done <- err
		}()
	}
	for i := 0; i < 5; i++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if maxInFlight.Load() != 1 {
		t.Errorf("%d requests at once on one host, want 1", maxInFlight.Load())
	}
	if d := time.Since(start); d < 4*50*time.Millisecond {
		t.Errorf("5 requests with Crawl-delay 0.05s took %v", d)
	}
	if robotsHits.Load() != 1 {
		t.Errorf("robots.txt fetched %d times, want 1 (cached)", robotsHits.Load())
	}
}

// TestFetchedAtIsWhenRead: a fetch that waits for its host's turn behind
// a slow one is dated when it is sent, after the slow one ends, not when
// it was asked for: a version's time is when its page was read.
func TestFetchedAtIsWhenRead(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			<-release
		}
		io.WriteString(w, "<p>x</p>")
	}))
	defer srv.Close()
	c := testClient(Options{IgnoreRobots: true, HostConcurrency: 1})
	ctx := context.Background()
	slowDone := make(chan time.Time)
	go func() {
		c.Fetch(ctx, &vigil.FetchRequest{URL: srv.URL + "/slow"})
		slowDone <- time.Now()
	}()
	time.Sleep(50 * time.Millisecond) // the slow fetch holds the host
	asked := time.Now()
	fastDone := make(chan *vigil.FetchResult)
	go func() {
		res, err := c.Fetch(ctx, &vigil.FetchRequest{URL: srv.URL + "/fast"})
		if err != nil {
			t.Error(err)
		}
		fastDone <- res
	}()
	time.Sleep(100 * time.Millisecond)
	released := time.Now()
	close(release)
	<-slowDone
	res := <-fastDone
	if res == nil {
		return
	}
	if !res.FetchedAt.After(released) {
		t.Errorf("fetched at %v, asked at %v, the host free at %v: dated before it was sent", res.FetchedAt, asked, released)
	}
}

// TestHostBusy: a fetch whose host's turn does not come in the time
// allowed, behind a slow page, fails with vigil.ErrHostBusy (it was never
// sent: the page did not fail); the slow page's own timeout does not.
func TestHostBusy(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
		io.WriteString(w, "<p>x</p>")
	}))
	defer srv.Close()
	defer close(release)
	c := testClient(Options{IgnoreRobots: true, HostConcurrency: 1, TotalTimeout: 300 * time.Millisecond})
	ctx := context.Background()
	slow := make(chan error)
	go func() {
		_, err := c.Fetch(ctx, &vigil.FetchRequest{URL: srv.URL + "/slow"})
		slow <- err
	}()
	time.Sleep(50 * time.Millisecond) // the slow fetch holds the host
	waitCtx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	_, err := c.Fetch(waitCtx, &vigil.FetchRequest{URL: srv.URL + "/fast"})
	if !errors.Is(err, vigil.ErrHostBusy) {
		t.Errorf("fetch behind a slow one: err = %v, want vigil.ErrHostBusy", err)
	}
	if err := <-slow; err == nil || errors.Is(err, vigil.ErrHostBusy) {
		t.Errorf("slow fetch: err = %v, want a timeout that is not vigil.ErrHostBusy", err)
	}
}

// TestHostTurnGivesWholeTimeout: the time a fetch waits for its host's turn
// (behind a slow page of the same site) is not taken from its own: the
// page that waited 300 ms and then took 150 ms to answer was cut off at
// TotalTimeout 300 ms and recorded as the page's failure. A wait longer
// than HostWait fails unsent, with vigil.ErrHostBusy.
func TestHostTurnGivesWholeTimeout(t *testing.T) {
	held := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow":
			held <- struct{}{}
			<-r.Context().Done() // held until its fetch times out
			return
		case "/next":
			time.Sleep(150 * time.Millisecond)
		}
		io.WriteString(w, "<p>x</p>")
	}))
	defer srv.Close()
	for _, tc := range []struct {
		name     string
		hostWait time.Duration
		busy     bool
	}{
		{"turn within HostWait", 2 * time.Second, false},
		{"turn after HostWait", 100 * time.Millisecond, true},
	} {
		c := testClient(Options{IgnoreRobots: true, HostConcurrency: 1, TotalTimeout: 300 * time.Millisecond, HostWait: tc.hostWait})
		ctx := context.Background()
		slow := make(chan error)
		go func() {
			_, err := c.Fetch(ctx, &vigil.FetchRequest{URL: srv.URL + "/slow"})
			slow <- err
		}()
		<-held // the slow fetch holds the host
		res, err := c.Fetch(ctx, &vigil.FetchRequest{URL: srv.URL + "/next"})
		switch {
		case tc.busy && !errors.Is(err, vigil.ErrHostBusy):
			t.Errorf("%s: err = %v, want vigil.ErrHostBusy", tc.name, err)
		case !tc.busy && (err != nil || !strings.Contains(string(res.Body), "x")):
			t.Errorf("%s: err = %v, want the page read in its own time", tc.name, err)
		}
		if err := <-slow; err == nil || errors.Is(err, vigil.ErrHostBusy) {
			t.Errorf("%s: slow fetch: err = %v, want its own timeout", tc.name, err)
		}
	}
}

// TestCallerCancelIsNotHostBusy: a caller that gives up (cancels) while its
// fetch waits for the host's turn gets its cancellation, not
// vigil.ErrHostBusy, which says the host gave no turn in the time allowed
// (a caller's deadline is that time: TestHostBusy).
func TestCallerCancelIsNotHostBusy(t *testing.T) {
	held, release := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			close(held)
			<-release
		}
		io.WriteString(w, "<p>x</p>")
	}))
	defer srv.Close()
	defer close(release)
	c := testClient(Options{IgnoreRobots: true, HostConcurrency: 1, TotalTimeout: 10 * time.Second})
	go c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/slow"})
	<-held // the host's one slot is taken
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	_, err := c.Fetch(ctx, &vigil.FetchRequest{URL: srv.URL + "/next"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want the caller's cancellation", err)
	}
	if errors.Is(err, vigil.ErrHostBusy) {
		t.Errorf("the caller's cancellation is reported as a busy host: %v", err)
	}
}

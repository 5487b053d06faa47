package fetch

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestFetchIDN: a page asked for, or led to by a redirect, whose host is
// spelt in Unicode (or percent-encoded in UTF-8) is named by its ASCII
// (punycode) form in the result's URL and to CheckRedirect, the form
// vigil.CanonicalURL takes and every stored URL holds. The result's URL
// was the host percent-encoded ("b%C3%BCcher.example"), which
// CanonicalURL refused: a crawl recorded the page under the URL asked, and
// a site sentinel did not store it. A Location whose host IDNA refuses is
// a bad Location, its host named, and is not requested.
func TestFetchIDN(t *testing.T) {
	var mu sync.Mutex
	var hosts []string
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hosts = append(hosts, r.Host+r.URL.Path)
		mu.Unlock()
		_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
		switch r.URL.Path {
		case "/to-unicode":
			http.Redirect(w, r, "http://bücher.example:"+port+"/page", http.StatusFound)
		case "/to-encoded":
			w.Header().Set("Location", "http://b%C3%BCcher.example:"+port+"/page")
			w.WriteHeader(http.StatusFound)
		case "/to-refused":
			w.Header().Set("Location", "http://-bücher.example:"+port+"/page")
			w.WriteHeader(http.StatusFound)
		default:
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<p>page</p>")
		}
	}))
	t.Cleanup(srv.Close)
	c := testClient(Options{IgnoreRobots: true})
	// Every name is this machine's server.
	c.page.Transport.(*http.Transport).DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	site := "http://xn--bcher-kva.example:" + port
	tests := []struct {
		name, asked, want, checked, err string
	}{
		{name: "redirect to Unicode", asked: site + "/to-unicode", want: site + "/page", checked: site + "/page"},
		{name: "redirect percent-encoded", asked: site + "/to-encoded", want: site + "/page", checked: site + "/page"},
		{name: "asked in Unicode", asked: "http://Bücher.example:" + port + "/page", want: site + "/page"},
		{name: "redirect IDNA refuses", asked: site + "/to-refused", err: `bad Location "http://-bücher.example:` + port + `/page": host "-bücher.example": idna`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var checked []string
			res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: tt.asked, CheckRedirect: func(u string) error {
				checked = append(checked, u)
				return nil
			}})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.URL != tt.want {
				t.Errorf("result URL %q, want %q", res.URL, tt.want)
			}
			if c, err := vigil.CanonicalURL(res.URL); err != nil || c != tt.want {
				t.Errorf("CanonicalURL of the result's URL = %q, %v; want %q", c, err, tt.want)
			}
			if tt.checked != "" && (len(checked) != 1 || checked[0] != tt.checked) {
				t.Errorf("CheckRedirect saw %q, want [%q]", checked, tt.checked)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	for _, h := range hosts {
		if strings.Contains(h, "_") {
			t.Errorf("the host IDNA refuses was requested: %s", h)
		}
	}
}

package monitor

import (
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestFailureDuration: the version of a binary document and that of a
// failed fetch keep the duration of the fetch, as a version with a body
// does: they kept none, and the API said fetchDuration 0. So does that of
// a fetch that failed before any answer came (a port that refuses the
// connection), whose fetcher gives the time with its error.
func TestFailureDuration(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/report.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			w.Write([]byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + closed.Addr().String() + "/page"
	closed.Close()
	for name, url := range map[string]string{"binary document": srv.URL + "/report.pdf", "failed fetch": srv.URL + "/gone", "refused fetch": refused} {
		t.Run(name, func(t *testing.T) {
			w := watchPage(t, url)
			w.check()
			v := w.latest()
			if v.Error == "" || v.Binary() != (name == "binary document") {
				t.Fatalf("version %+v: want the %s", v, name)
			}
			if v.FetchDuration <= 0 {
				t.Errorf("version of the %s: fetch duration %v, want the fetch's", name, v.FetchDuration)
			}
		})
	}
}

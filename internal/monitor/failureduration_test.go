package monitor

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestFailureDuration: the version of a binary document and that of a
// failed fetch keep the duration of the fetch, as a version with a body
// does: they kept none, and the API said fetchDuration 0.
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
	for name, path := range map[string]string{"binary document": "/report.pdf", "failed fetch": "/gone"} {
		t.Run(name, func(t *testing.T) {
			w := watchPage(t, srv.URL+path)
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

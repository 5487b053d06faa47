package notify

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestTransport sends requests to a loopback server that redirects with
// each status: a redirect that would drop a delivery's body fails it, one
// that keeps the body is followed without a Referer, and a GET follows
// any redirect as usual.
func TestTransport(t *testing.T) {
	var got struct {
		method, body, referer string
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if code := r.URL.Query().Get("code"); code != "" {
			w.Header().Set("Location", "/to?secret=s")
			switch code {
			case "301":
				w.WriteHeader(http.StatusMovedPermanently)
			case "302":
				w.WriteHeader(http.StatusFound)
			case "303":
				w.WriteHeader(http.StatusSeeOther)
			case "307":
				w.WriteHeader(http.StatusTemporaryRedirect)
			case "308":
				w.WriteHeader(http.StatusPermanentRedirect)
			}
			return
		}
		b, _ := io.ReadAll(r.Body)
		got.method, got.body, got.referer = r.Method, string(b), r.Header.Get("Referer")
	}))
	defer srv.Close()
	client := &http.Client{Transport: &Transport{}}
	for _, tc := range []struct {
		method, code string
		wantErr      string // "" for a delivery that reaches /to with its body
	}{
		{http.MethodPost, "301", "redirected by status 301"},
		{http.MethodPost, "302", "redirected by status 302"},
		{http.MethodPut, "303", "redirected by status 303"},
		{http.MethodPatch, "301", "redirected by status 301"},
		{http.MethodPost, "307", ""},
		{http.MethodPost, "308", ""},
		{http.MethodGet, "301", ""},
	} {
		got.method, got.body, got.referer = "", "", ""
		var body io.Reader
		if tc.method != http.MethodGet {
			body = strings.NewReader("message")
		}
		req, err := http.NewRequest(tc.method, srv.URL+"/hook?code="+tc.code, body)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := client.Do(req)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s %s: error %v, want %q", tc.method, tc.code, err, tc.wantErr)
			}
			if got.method != "" {
				t.Errorf("%s %s: the target got a %s", tc.method, tc.code, got.method)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", tc.method, tc.code, err)
			continue
		}
		resp.Body.Close()
		wantBody := "message"
		if tc.method == http.MethodGet {
			wantBody = ""
		}
		if got.method != tc.method || got.body != wantBody || got.referer != "" {
			t.Errorf("%s %s: the target got %s %q with Referer %q, want %s %q without one", tc.method, tc.code, got.method, got.body, got.referer, tc.method, wantBody)
		}
	}
}

// TestTransportBadLocationHidesPassword: a redirect, one that keeps the
// body too, to a Location that does not parse for the password it holds
// (a "/", "?" or "#" in it unescaped) fails naming it with the password
// hidden; net/http's own error quoted it whole, and url.Parse's detail
// its head (`invalid port ":s3" after host`).
func TestTransportBadLocationHidesPassword(t *testing.T) {
	for _, code := range []int{http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		for _, loc := range []string{"http://user:s3#cret@a.example/", "http://user:s3/cret@a.example/x", "http://user:s3?cret@a.example/"} {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Location", loc)
				w.WriteHeader(code)
			}))
			client := &http.Client{Transport: &Transport{}}
			resp, err := client.Post(srv.URL+"/hook", "text/plain", strings.NewReader("message"))
			srv.Close()
			if err == nil {
				resp.Body.Close()
			}
			if err == nil || strings.Contains(err.Error(), "s3") || !strings.Contains(err.Error(), "user:xxxxx@a.example") {
				t.Errorf("%d to %s: %v; want an error naming it with its password hidden", code, loc, err)
			}
		}
	}
}

package notify

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
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

// TestRedirectTarget: a delivery redirected by 301, 302 or 303 fails
// naming the redirect's target cut to its scheme and host, its password
// hidden, and telling its path and query in words where they are the
// delivery's own (or that path with a "/" added or taken off); another
// path or query is not shown, as it may hold a secret.
func TestRedirectTarget(t *testing.T) {
	tests := map[string]struct {
		from, location, want string
		secrets              []string
	}{
		"another port, same path and query": {
			from:     "http://127.0.0.1:18096/hook/TOKEN0123?token=QueryTok123",
			location: "http://127.0.0.1:18092/hook/TOKEN0123?token=QueryTok123",
			want:     "http://127.0.0.1:18092/…, the path and query the delivery was sent to",
			secrets:  []string{"TOKEN0123", "QueryTok123"},
		},
		"to https, no path": {
			from:     "http://hooks.example.org",
			location: "https://hooks.example.org/",
			want:     "https://hooks.example.org, the path and query the delivery was sent to",
		},
		"relative, a slash added": {
			from:     "https://hooks.example.org/services/T0/B0/SLACKTOKEN1",
			location: "/services/T0/B0/SLACKTOKEN1/",
			want:     `https://hooks.example.org/…, the path the delivery was sent to with a "/" added, and its query`,
			secrets:  []string{"SLACKTOKEN1"},
		},
		"a slash taken off": {
			from:     "https://hooks.example.org/hook/",
			location: "https://hooks.example.org/hook",
			want:     `https://hooks.example.org/…, the path the delivery was sent to without its last "/", and its query`,
		},
		"another path": {
			from:     "http://127.0.0.1:18096/hook",
			location: "http://127.0.0.1:18092/hooks/NEWTOKEN999",
			want:     "http://127.0.0.1:18092/…, another path or query, not shown as it may hold a secret: the answer's Location header names it",
			secrets:  []string{"NEWTOKEN999"},
		},
		"another query": {
			from:     "http://127.0.0.1:18096/hook?token=OLD",
			location: "http://127.0.0.1:18096/hook?token=NEWTOKEN999",
			want:     "http://127.0.0.1:18096/…, another path or query, not shown as it may hold a secret: the answer's Location header names it",
			secrets:  []string{"NEWTOKEN999"},
		},
		"password": {
			from:     "http://127.0.0.1:18096/hook",
			location: "http://alice:S3cretPw@127.0.0.1:18092/hook",
			want:     "http://alice:xxxxx@127.0.0.1:18092/…, the path and query the delivery was sent to",
			secrets:  []string{"S3cretPw"},
		},
		"no host": {
			from:     "http://127.0.0.1:18096/hook",
			location: "mailto:SECRETADDRESS@example.org",
			want:     "mailto:…, another path or query, not shown as it may hold a secret: the answer's Location header names it",
			secrets:  []string{"SECRETADDRESS"},
		},
		"no Location": {
			from: "http://127.0.0.1:18096/hook",
			want: "the answer names none",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			from, err := url.Parse(tc.from)
			if err != nil {
				t.Fatal(err)
			}
			resp := &http.Response{StatusCode: http.StatusMovedPermanently, Header: http.Header{}, Request: &http.Request{URL: from}}
			if tc.location != "" {
				resp.Header.Set("Location", tc.location)
			}
			got := redirectTarget(from, resp)
			if got != tc.want {
				t.Errorf("redirectTarget(%q, Location %q)\n = %q\nwant %q", tc.from, tc.location, got, tc.want)
			}
			for _, secret := range tc.secrets {
				if strings.Contains(got, secret) {
					t.Errorf("%q shows %q", got, secret)
				}
			}
		})
	}
}

// TestTransportRedirectAfter307: a 301 met after a followed 307 is told
// against the URL the delivery was first sent to.
func TestTransportRedirectAfter307(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/hook":
			w.Header().Set("Location", "/moved")
			w.WriteHeader(http.StatusTemporaryRedirect)
		case "/moved":
			w.Header().Set("Location", "/hook")
			w.WriteHeader(http.StatusMovedPermanently)
		}
	}))
	defer srv.Close()
	client := &http.Client{Transport: &Transport{}}
	resp, err := client.Post(srv.URL+"/hook", "text/plain", strings.NewReader("message"))
	if err == nil {
		resp.Body.Close()
	}
	if want := "give the URL it redirects to (" + srv.URL + "/…, the path and query the delivery was sent to)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want one holding %q", err, want)
	}
}

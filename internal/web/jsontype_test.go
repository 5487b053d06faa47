package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestJSONContentType: every API route that reads a JSON body answers a
// body not said to be JSON, or said to be nothing, with 415 naming the
// Content-Type it got, and stores nothing; application/json in any case,
// with parameters, and a +json type are read. The dashboard's forms,
// urlencoded, are no API route and still work.
func TestJSONContentType(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	sen := createChecked(t, s, u, "Create Sentinel a Using http://a.example/")
	send := func(method, path, contentType, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, c.srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.AddCookie(&http.Cookie{Name: sessionCookie, Value: c.cookie})
		req.Header.Set(csrfHeader, c.csrf)
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	id := "/api/v1/sentinels/" + strconv.FormatInt(sen.ID, 10)
	routes := []struct{ method, path, body string }{
		{"POST", "/api/v1/sentinels", `{"source":"Create Sentinel b Using http://b.example/"}`},
		{"POST", "/api/v1/sentinels/check", `{"source":"Create Sentinel b Using http://b.example/"}`},
		{"PUT", id, `{"source":"Create Sentinel a2 Using http://a.example/"}`},
		{"PATCH", "/api/v1/me", `{"timeZone":"Asia/Tokyo"}`},
		{"POST", "/api/v1/tokens", `{"name":"t"}`},
		{"POST", "/api/v1/users", `{"email":"b@example.com","password":"pw-pw-pw-pw"}`},
		{"PUT", "/api/v1/users/" + strconv.FormatInt(u.ID, 10) + "/admin", `{"admin":true}`},
		{"POST", "/api/v1/users/" + strconv.FormatInt(u.ID, 10) + "/password", `{"password":"pw-pw-pw-pw"}`},
	}
	for _, rt := range routes {
		for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx", "json", ";;"} {
			t.Run(rt.method+" "+rt.path+" "+ct, func(t *testing.T) {
				code, body := send(rt.method, rt.path, ct, rt.body)
				if code != http.StatusUnsupportedMediaType {
					t.Fatalf("%d %s, want 415", code, body)
				}
				var e errorBody
				if err := json.Unmarshal([]byte(body), &e); err != nil {
					t.Fatal(err)
				}
				if e.Error.Code != vigil.EUNSUPPORTEDMEDIA || !strings.Contains(e.Error.Message, "application/json") {
					t.Errorf("error %+v", e.Error)
				}
				if ct != "" && !strings.Contains(e.Error.Message, `"`+ct+`"`) {
					t.Errorf("message %q does not name %q", e.Error.Message, ct)
				}
				if ct == "" && !strings.Contains(e.Error.Message, "no Content-Type") {
					t.Errorf("message %q does not say there is no Content-Type", e.Error.Message)
				}
			})
		}
	}
	if list, n, err := s.Store.FindSentinels(t.Context(), vigil.SentinelFilter{OwnerID: u.ID}); err != nil || n != 1 || list[0].Name != "a" {
		t.Fatalf("sentinels after the refusals: %d %v", n, err)
	}
	for i, ct := range []string{"application/json", "Application/JSON; charset=utf-8", "application/merge-patch+json", "APPLICATION/VND.VIGIL+JSON ; charset=UTF-8"} {
		t.Run(ct, func(t *testing.T) {
			code, body := send("POST", "/api/v1/sentinels", ct, `{"source":"Create Sentinel c`+strconv.Itoa(i)+` Using http://c.example/"}`)
			if code != http.StatusCreated {
				t.Fatalf("%d %s, want 201", code, body)
			}
		})
	}
	// The dashboard's form of a new sentinel, urlencoded with its CSRF
	// token, is not refused.
	if code, body := c.do("POST", "/sentinels", "source="+strings.ReplaceAll("Create Sentinel f Using http://f.example/", " ", "+")); code != http.StatusSeeOther {
		t.Fatalf("dashboard form: %d %s", code, body)
	}
}

// jsonRequest is an httptest request of a JSON body, said to be JSON
// (Content-Type application/json), as the API's clients send one: for
// the tests that call a handler, or readJSON, without the server.
func jsonRequest(method, target, body string) *http.Request {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	return req
}

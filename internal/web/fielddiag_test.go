package web

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestFieldDiagnostics: a request whose member is refused answers 400
// with a diagnostic naming the member in field, as PATCH /api/v1/me and
// the JSON form of a sentinel do: the routes that add a user, reset a
// password and make an API token named it in the message only. An empty
// expiresIn is refused, naming the member: absent or null is "never".
func TestFieldDiagnostics(t *testing.T) {
	s, admin := newTestServer(t)
	c := newSignedIn(t, s, admin)
	session := sessionOf(c)
	status, v := apiCall(t, c.srv.URL, session, "POST", "/api/v1/users", `{"email": "erin@example.com"}`)
	if status != http.StatusCreated {
		t.Fatalf("add erin: %d %v", status, v)
	}
	erin := int64(v["id"].(float64))
	for _, tc := range []struct {
		name, method, path, body string
		field, message           string // the diagnostic's field, and what its message holds
	}{
		{"user email", "POST", "/api/v1/users", `{"email": "not an address"}`, "email", "email must be an address"},
		{"user password", "POST", "/api/v1/users", `{"email": "frank@example.com", "password": "short"}`, "password", "too short"},
		{"user name", "POST", "/api/v1/users", `{"email": "gina@example.com", "name": "` + strings.Repeat("n", 201) + `"}`, "name", "200 bytes"},
		{"password reset", "POST", "/api/v1/users/" + strconv.FormatInt(erin, 10) + "/password", `{"password": "short"}`, "password", "too short"},
		{"admin missing", "PUT", "/api/v1/users/" + strconv.FormatInt(erin, 10) + "/admin", `{}`, "admin", "admin required"},
		{"token name", "POST", "/api/v1/tokens", `{"name": " "}`, "name", "a token needs a name"},
		{"token name control", "POST", "/api/v1/tokens", `{"name": "a\u0007b"}`, "name", "control character"},
		{"expiresIn too short", "POST", "/api/v1/tokens", `{"name": "t", "expiresIn": "5s"}`, "expiresIn", "expiresIn must be a duration"},
		{"expiresIn not a duration", "POST", "/api/v1/tokens", `{"name": "t", "expiresIn": "a month"}`, "expiresIn", "expiresIn must be a duration"},
		{"expiresIn empty", "POST", "/api/v1/tokens", `{"name": "t", "expiresIn": ""}`, "expiresIn", "expiresIn is empty"},
		{"timeZone missing", "PATCH", "/api/v1/me", `{}`, "timeZone", "timeZone required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, v := apiCall(t, c.srv.URL, session, tc.method, tc.path, tc.body)
			if status != http.StatusBadRequest {
				t.Fatalf("%d %v, want 400", status, v)
			}
			e, _ := v["error"].(map[string]any)
			diags, _ := e["diagnostics"].([]any)
			if len(diags) != 1 {
				t.Fatalf("diagnostics %v, want one on %s", v, tc.field)
			}
			d, _ := diags[0].(map[string]any)
			if d["field"] != tc.field || !strings.Contains(d["message"].(string), tc.message) || e["code"] != "EINVALID" {
				t.Errorf("%v, want a diagnostic on %s saying %q", v, tc.field, tc.message)
			}
		})
	}
	// Absent or null, expiresIn is "never".
	for _, body := range []string{`{"name": "a"}`, `{"name": "b", "expiresIn": null}`} {
		if status, v := apiCall(t, c.srv.URL, session, "POST", "/api/v1/tokens", body); status != http.StatusCreated || v["expiresAt"] != nil {
			t.Errorf("%s: %d %v, want a token that never expires", body, status, v)
		}
	}
}

// TestJSONFormDiagnosticsInOrder: the diagnostics of the JSON form of a
// sentinel come in the order of their members in the request, not sorted
// by the fields' names.
func TestJSONFormDiagnosticsInOrder(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	for _, tc := range []struct {
		body string
		want []string
	}{
		{`{"sentinel":{"name":"a","using":{"url":"ftp://a.example/"},"fetch":{"interval":"2 hourz"}}}`, []string{"using.url", "fetch.interval"}},
		{`{"sentinel":{"name":"a","fetch":{"interval":"2 hourz"},"using":{"url":"ftp://a.example/"}}}`, []string{"fetch.interval", "using.url"}},
	} {
		status, v := apiCall(t, c.srv.URL, sessionOf(c), "POST", "/api/v1/sentinels/check", tc.body)
		errs, _ := v["errors"].([]any)
		var got []string
		for _, d := range errs {
			d, _ := d.(map[string]any)
			f, _ := d["field"].(string)
			got = append(got, f)
		}
		if status != http.StatusOK || strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: %d, fields %q, want %q: %v", tc.body, status, got, tc.want, v)
		}
	}
}

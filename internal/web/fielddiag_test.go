package web

import (
	"fmt"
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
		{"token name too long", "POST", "/api/v1/tokens", `{"name": "` + strings.Repeat("n", 201) + `"}`, "name", "200 bytes"},
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

// TestReadJSONFieldDiagnostics: a member of the wrong JSON type, and a
// member a route's body does not have, are named in field, as a refused
// member is, on every route that reads a JSON body (readJSON): they named
// it in the message only. A member named by nothing that reads as a field
// name ("Call 0800-SCAM") is not repeated, in field either.
func TestReadJSONFieldDiagnostics(t *testing.T) {
	s, admin := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, admin)
	session := sessionOf(c)
	status, v := apiCall(t, c.srv.URL, session, "POST", "/api/v1/users", `{"email": "erin@example.com"}`)
	if status != http.StatusCreated {
		t.Fatalf("add erin: %d %v", status, v)
	}
	erin := "/api/v1/users/" + strconv.FormatInt(int64(v["id"].(float64)), 10)
	status, v = apiCall(t, c.srv.URL, session, "POST", "/api/v1/sentinels", `{"source": "Create Sentinel base Using http://a.example/ Fetch 2 hours"}`)
	if status != http.StatusCreated {
		t.Fatalf("add a sentinel: %d %v", status, v)
	}
	sentinel := "/api/v1/sentinels/" + strconv.FormatInt(int64(v["id"].(float64)), 10)
	for _, tc := range []struct {
		name, method, path, body string
		field, message           string // the diagnostic's field ("": none), and what the message holds
	}{
		{"create, type", "POST", "/api/v1/sentinels", `{"source": 5}`, "source", "source: want a string, found a number"},
		{"create, unknown", "POST", "/api/v1/sentinels", `{"sourc": "x"}`, "sourc", `unknown field "sourc": its fields are source, sentinel`},
		{"update, type", "PUT", sentinel, `{"source": ["x"]}`, "source", "source: want a string, found an array"},
		{"update, unknown", "PUT", sentinel, `{"source": "x", "Sentinel": {}}`, "Sentinel", `unknown field "Sentinel"`},
		{"check, type", "POST", "/api/v1/sentinels/check", `{"source": "x", "replacing": "y"}`, "replacing", "replacing: want an integer, found a string"},
		{"check, unknown", "POST", "/api/v1/sentinels/check", `{"replacing_id": 1}`, "replacing_id", `unknown field "replacing_id"`},
		{"token, type", "POST", "/api/v1/tokens", `{"name": {}}`, "name", "name: want a string, found an object"},
		{"token, expiresIn type", "POST", "/api/v1/tokens", `{"name": "a", "expiresIn": 3600}`, "expiresIn", "expiresIn: want a string, found a number"},
		{"token, unknown", "POST", "/api/v1/tokens", `{"name": "a", "expires-in": "1h"}`, "expires-in", `unknown field "expires-in"`},
		{"token, unnamed unknown", "POST", "/api/v1/tokens", `{"name": "a", "Call 0800-SCAM": 1}`, "", "a field this endpoint does not take"},
		{"me, type", "PATCH", "/api/v1/me", `{"timeZone": 9}`, "timeZone", "timeZone: want a string, found a number"},
		{"me, case", "PATCH", "/api/v1/me", `{"timezone": "UTC"}`, "timezone", `unknown field "timezone"`},
		{"user, type", "POST", "/api/v1/users", `{"email": "f@example.com", "admin": "yes"}`, "admin", "admin: want true or false, found a string"},
		{"user, unknown", "POST", "/api/v1/users", `{"email": "f@example.com", "mail": "x"}`, "mail", `unknown field "mail"`},
		{"admin, type", "PUT", erin + "/admin", `{"admin": 1}`, "admin", "admin: want true or false, found a number"},
		{"admin, unknown", "PUT", erin + "/admin", `{"isAdmin": true}`, "isAdmin", `unknown field "isAdmin"`},
		{"password, type", "POST", erin + "/password", `{"revokeTokens": "yes"}`, "revokeTokens", "revokeTokens: want true or false, found a string"},
		{"password, unknown", "POST", erin + "/password", `{"Password": "x"}`, "Password", `unknown field "Password"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, v := apiCall(t, c.srv.URL, session, tc.method, tc.path, tc.body)
			e, _ := v["error"].(map[string]any)
			msg, _ := e["message"].(string)
			if status != http.StatusBadRequest || e["code"] != "EINVALID" || !strings.Contains(msg, tc.message) {
				t.Fatalf("%d %v, want 400 saying %q", status, v, tc.message)
			}
			diags, _ := e["diagnostics"].([]any)
			if tc.field == "" {
				if len(diags) != 0 || strings.Contains(fmt.Sprint(v), "SCAM") {
					t.Errorf("%v, want no diagnostic, and the member not repeated", v)
				}
				return
			}
			if len(diags) != 1 {
				t.Fatalf("diagnostics %v, want one on %s", v, tc.field)
			}
			d, _ := diags[0].(map[string]any)
			if d["field"] != tc.field || d["message"] != msg {
				t.Errorf("%v, want a diagnostic on %s saying %q", d, tc.field, msg)
			}
		})
	}
}

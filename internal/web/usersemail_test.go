package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestUsersAPIEmailRule: the API's refusal of an email says the rule the
// address is held to, which takes a domain of localhost (admin@localhost,
// the default admin account's): it said "an address with a dot in its
// domain", and then took bob@localhost.
func TestUsersAPIEmailRule(t *testing.T) {
	s, admin := newTestServer(t)
	c := newSignedIn(t, s, admin)
	token := bearer(t, s.Store, admin, "admin-secret")
	status, v := apiCall(t, c.srv.URL, token, "POST", "/api/v1/users", `{"email": "eve"}`)
	msg, _ := v["error"].(map[string]any)["message"].(string)
	if status != http.StatusBadRequest || !strings.Contains(msg, "localhost") || strings.Contains(msg, "eve") {
		t.Errorf("eve: %d %q, want 400 saying the rule, localhost included, without the address", status, msg)
	}
	if status, v := apiCall(t, c.srv.URL, token, "POST", "/api/v1/users", `{"email": "bob@localhost"}`); status != http.StatusCreated {
		t.Errorf("bob@localhost: %d %v, want 201", status, v)
	}
}

package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestDuplicateMemberRefused: a body that gives a member twice is refused,
// 400 with a diagnostic naming it, not read as its last value: the first
// would be ignored, and a body a route does not take is refused (README).
func TestDuplicateMemberRefused(t *testing.T) {
	s, admin := newTestServer(t)
	c := newSignedIn(t, s, admin)
	session := sessionOf(c)
	for _, tc := range []struct {
		name, method, path, body string
		field                    string
	}{
		{"time zone", "PATCH", "/api/v1/me", `{"timeZone": "Mars/Base", "timeZone": "UTC"}`, "timeZone"},
		{"token name", "POST", "/api/v1/tokens", `{"name": "a", "name": "b"}`, "name"},
		{"source", "POST", "/api/v1/sentinels", `{"source": "x", "source": "Create Sentinel d Using http://a.example/ Monitor any change"}`, "source"},
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
			if d["field"] != tc.field || !strings.Contains(d["message"].(string), "twice") {
				t.Errorf("%v, want a diagnostic on %s saying it is given twice", v, tc.field)
			}
		})
	}
	status, v := apiCall(t, c.srv.URL, session, "GET", "/api/v1/me", "")
	if status != http.StatusOK || v["timeZone"] != "" {
		t.Errorf("me after the refused PATCH: %d %v, want timeZone unchanged", status, v)
	}
}

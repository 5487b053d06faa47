package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestResourcesHostWithPort: GET /api/v1/resources?host= refuses a host
// given with a port (127.0.0.1:8081, as a URL writes it), saying that a
// resource's host is its name alone, where it answered an empty list, as
// if no page of that host were watched; the name alone is taken.
func TestResourcesHostWithPort(t *testing.T) {
	s, u := newTestServer(t)
	c := newSignedIn(t, s, u)
	token := bearer(t, s.Store, u, "host-port-secret")
	for _, h := range []string{"127.0.0.1:8081", "a.example:80", "[::1]:8080"} {
		status, v := apiCall(t, c.srv.URL, token, "GET", "/api/v1/resources?host="+h, "")
		e, _ := v["error"].(map[string]any)
		msg, _ := e["message"].(string)
		if status != http.StatusBadRequest || !strings.Contains(msg, "without its port") || strings.Contains(msg, h) {
			t.Errorf("host=%s: %d %v, want 400 saying a host is given without its port, not quoting it", h, status, v)
		}
	}
	for _, h := range []string{"127.0.0.1", "a.example", "[::1]"} {
		if status, v := apiCall(t, c.srv.URL, token, "GET", "/api/v1/resources?host="+h, ""); status != http.StatusOK {
			t.Errorf("host=%s: %d %v, want 200", h, status, v)
		}
	}
}

package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// TestResourcesHostWithPort: GET /api/v1/resources?host= refuses a host
// given with a port (127.0.0.1:8081, as a URL writes it), saying that a
// resource's host is its name alone, where it answered an empty list, as
// if no page of that host were watched; the name alone (an IPv6 address
// with or without its brackets) finds the resources of that host.
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
	// The name alone finds the resources of its host, whatever their
	// port (an IPv6 address with or without its brackets); the list was
	// only seen to answer 200, which an empty one does.
	ctx := context.Background()
	for _, page := range []string{"http://127.0.0.1:8081/a", "http://a.example/a", "http://[::1]:8080/a"} {
		createChecked(t, s, u, "Create Sentinel s"+strconv.Itoa(len(page))+" Using "+page)
		if _, err := s.Store.EnsureResource(ctx, page); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ host, want string }{
		{"127.0.0.1", "http://127.0.0.1:8081/a"},
		{"a.example", "http://a.example/a"},
		{"[::1]", "http://[::1]:8080/a"},
		{"::1", "http://[::1]:8080/a"},
	} {
		status, v := apiCall(t, c.srv.URL, token, "GET", "/api/v1/resources?host="+url.QueryEscape(tc.host), "")
		items, _ := v["items"].([]any)
		var urls []string
		for _, it := range items {
			it, _ := it.(map[string]any)
			u, _ := it["url"].(string)
			urls = append(urls, u)
		}
		if status != http.StatusOK || len(urls) != 1 || urls[0] != tc.want {
			t.Errorf("host=%s: %d %v, want 200 and %s alone", tc.host, status, v, tc.want)
		}
	}
}

package web

import (
	"net/http/httptest"
	"testing"
)

// TestAbsoluteURL: a link given to be used elsewhere is under --base-url,
// else at the request's scheme and host; a request with no Host
// (HTTP/1.0) gets the path alone, where it got "http:///path".
func TestAbsoluteURL(t *testing.T) {
	tests := []struct {
		base, host string
		secure     bool
		want       string
	}{
		{"https://vigil.example.org/", "ignored.example", false, "https://vigil.example.org/feeds/x"},
		{"", "vigil.example.org:8080", false, "http://vigil.example.org:8080/feeds/x"},
		{"", "vigil.example.org", true, "https://vigil.example.org/feeds/x"},
		{"", "", false, "/feeds/x"},
	}
	for _, tc := range tests {
		s := &Server{BaseURL: tc.base, SecureCookies: tc.secure}
		r := httptest.NewRequest("GET", "/sentinels/1", nil)
		r.Host = tc.host
		if got := s.absoluteURL(r, "/feeds/x"); got != tc.want {
			t.Errorf("base %q host %q: absoluteURL = %q, want %q", tc.base, tc.host, got, tc.want)
		}
	}
}

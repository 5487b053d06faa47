package web

import (
	"io"
	"net/http"
	"testing"
)

// TestFlashNotTakenByPrefetch: a browser's prefetch or prerender of the
// page a form's redirect leads to (Sec-Purpose, Purpose, X-Moz,
// X-Purpose) does not take its flash, which the page followed next
// shows; the prefetch is answered an error, which a browser does not
// keep to show for the navigation. The prefetch took the flash, and
// the page shown next said it could not show the token.
func TestFlashNotTakenByPrefetch(t *testing.T) {
	s, admin := newTestServer(t)
	c := newBrowserClient(t, s, admin)
	for _, h := range [][2]string{
		{"Sec-Purpose", "prefetch"},
		{"Sec-Purpose", "prefetch;prerender"},
		{"Purpose", "prefetch"},
		{"X-Moz", "prefetch"},
		{"X-Purpose", "preview"},
	} {
		c.sendChecked("/tokens", "name=t", "/tokens")
		req, err := http.NewRequest("GET", c.srv.URL+"/tokens", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set(h[0], h[1])
		resp, err := c.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode/100 == 2 || shownToken.Match(body) {
			t.Errorf("%s: %s: the prefetch was answered %d, want an error showing no token\n%s", h[0], h[1], resp.StatusCode, body)
		}
		if _, page := c.send("GET", "/tokens", ""); !shownToken.MatchString(page) {
			t.Errorf("%s: %s: the page followed after a prefetch does not show the token:\n%s", h[0], h[1], page)
		}
	}
	// Without a flash for it, a prefetch of the page is answered.
	req, _ := http.NewRequest("GET", c.srv.URL+"/tokens", nil)
	req.Header.Set("Sec-Purpose", "prefetch")
	resp, err := c.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a prefetch of the page with no flash for it: %d, want 200", resp.StatusCode)
	}
}

package fetch

import (
	"testing"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
)

func TestIsSpeculative(t *testing.T) {
	for _, c := range []struct {
		headers network.Headers
		want    bool
	}{
		{network.Headers{"Sec-Purpose": "prefetch"}, true},
		{network.Headers{"sec-purpose": "prefetch;prerender"}, true},
		{network.Headers{"Sec-Purpose": "Prefetch"}, true},
		{network.Headers{"Purpose": "prefetch"}, false}, // a script's own header
		{network.Headers{"Sec-Purpose": "prefetch; anonymous-client-ip"}, true},
		{network.Headers{"Accept": "text/html"}, false},
		{network.Headers{"Sec-Purpose": "preview"}, false},
		{network.Headers{"X-Note": "prefetch"}, false},
		{network.Headers{"Sec-Purpose": 1}, false},
		{nil, false},
	} {
		e := &fetch.EventRequestPaused{Request: &network.Request{URL: "http://example.com/", Headers: c.headers}}
		if got := isSpeculative(e); got != c.want {
			t.Errorf("isSpeculative(%v) = %v, want %v", c.headers, got, c.want)
		}
	}
	if isSpeculative(&fetch.EventRequestPaused{}) {
		t.Error("isSpeculative of a paused event without a request = true, want false")
	}
}

package fetch

import (
	"context"
	"net/url"
	"testing"
	"time"
)

// TestRobotsCacheOrigin: a URL as given and the same URL as a browser
// writes it (host lower-cased, default port dropped) share one robots.txt,
// so that the renderer's check of the page asked for reads none; other
// origins have their own.
func TestRobotsCacheOrigin(t *testing.T) {
	tests := []struct {
		name        string
		given, next string
		shared      bool
	}{
		{name: "same URL", given: "http://example.com/a", next: "http://example.com/b", shared: true},
		{name: "host case", given: "http://Example.COM/a", next: "http://example.com/a", shared: true},
		{name: "http default port", given: "http://example.com:80/a", next: "http://example.com/a", shared: true},
		{name: "https default port", given: "HTTPS://example.com:443/a", next: "https://example.com/a", shared: true},
		{name: "other port", given: "http://example.com:8080/a", next: "http://example.com/a"},
		{name: "other scheme", given: "https://example.com/a", next: "http://example.com/a"},
		{name: "port 443 on http", given: "http://example.com:443/a", next: "http://example.com/a"},
		{name: "other host", given: "http://example.com/a", next: "http://www.example.com/a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newRobotsCache(time.Minute)
			fetched := 0
			for _, raw := range []string{tt.given, tt.next} {
				u, err := url.Parse(raw)
				if err != nil {
					t.Fatal(err)
				}
				c.get(context.Background(), u, func(context.Context, string) (*robotsRules, error) {
					fetched++
					return &robotsRules{fetched: time.Now()}, nil
				})
			}
			if want := map[bool]int{true: 1, false: 2}[tt.shared]; fetched != want {
				t.Errorf("robots.txt read %d times for %s then %s, want %d", fetched, tt.given, tt.next, want)
			}
		})
	}
}

package web

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestLiveCheckWarningsInOrder: the live check gives its warnings in the
// order of the text, as its errors: a Fetch below --min-interval comes
// before a webhook this server does not call that the Notify clause
// after it names. The Fetch's warning came last, after those of every
// URL, wherever it stood.
func TestLiveCheckWarningsInOrder(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	s.MinInterval = time.Minute
	s.Unreachable = func(_ context.Context, raw string) string {
		if strings.Contains(raw, "127.0.0.1") {
			return "127.0.0.1 is a loopback address"
		}
		return ""
	}
	c := newSignedIn(t, s, u)
	src := "Create Sentinel x Using http://127.0.0.1/p\nMonitor any change\nFetch 1 second\nNotify By webhook http://127.0.0.1/hook\n"
	b, err := json.Marshal(map[string]string{"source": src})
	if err != nil {
		t.Fatal(err)
	}
	code, out := c.do("POST", "/api/v1/sentinels/check", string(b))
	var res CheckResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != http.StatusOK {
		t.Fatalf("check: %d %v\n%s", code, err, out)
	}
	var lines []int
	for _, w := range res.Warnings {
		lines = append(lines, w.Line)
	}
	if len(lines) != 3 || lines[0] != 1 || lines[1] != 3 || lines[2] != 4 {
		t.Errorf("warnings on lines %v, want [1 3 4] (the page, the Fetch, the webhook): %+v", lines, res.Warnings)
	}
}

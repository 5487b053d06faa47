package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/fetch"
)

// TestServeRender runs a sentinel that says "Fetch ... render" on a page
// whose text is written by a script: the keyword is only in the rendered
// page, so only headless Chromium sees it appear. It needs Debian's
// chromium; without it the test skips, unless VIGIL_TEST_CHROMIUM is set.
func TestServeRender(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	if _, err := os.Stat(fetch.ChromiumPath); err != nil {
		if os.Getenv("VIGIL_TEST_CHROMIUM") != "" {
			t.Fatalf("VIGIL_TEST_CHROMIUM is set but %s is missing: install the chromium package", fetch.ChromiumPath)
		}
		t.Skipf("%s not installed (apt-get install chromium); set VIGIL_TEST_CHROMIUM=1 to make this a failure", fetch.ChromiumPath)
	}
	st := newSite(t)
	page := func(word string) string {
		return fmt.Sprintf(`<!DOCTYPE html><html><body><div id="news">loading</div>
<script>document.getElementById("news").textContent = "Today: " + %q;</script></body></html>`, word)
	}
	st.set("/app", page("quiet"))
	hk := startHooks(t, "render-secret-of-thirty-two-characters")
	data := t.TempDir()
	addSentinels(t, data, fmt.Sprintf(`Create Sentinel r1 Using %s/app
Monitor keyword (launch)
Fetch 2 second render
Notify By webhook %s/r1
Every immediate
`, st.srv.URL, hk.srv.URL))
	d := startDaemon(t, data, "--allow-private-networks", "--min-interval", "1s", "--host-delay", "0", "--poll", "50ms",
		"--webhook-secret", "render-secret-of-thirty-two-characters", "--fetch-timeout", "30s")
	db := openData(t, data)
	waitFor(t, 60*time.Second, "the first rendered version", func() bool { return versionCount(t, db, st.srv.URL+"/app") == 1 })
	st.set("/app", page("launch"))
	waitFor(t, 60*time.Second, "the keyword seen in the rendered page", func() bool { return len(hk.of("r1")) == 1 })
	if raw := hk.of("r1")[0].raw; !strings.Contains(raw, `"new":"launch"`) {
		t.Errorf("webhook: %s", raw)
	}
	d.stop(t)
}

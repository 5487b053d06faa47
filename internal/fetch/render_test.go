package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRenderChromium renders a page whose content is written by a script,
// in the real browser. It needs Debian's chromium; without it the test
// skips, unless VIGIL_TEST_CHROMIUM is set (CI), which makes it fail.
func TestRenderChromium(t *testing.T) {
	if _, err := os.Stat(ChromiumPath); err != nil {
		if os.Getenv("VIGIL_TEST_CHROMIUM") != "" {
			t.Fatalf("VIGIL_TEST_CHROMIUM is set but %s is missing: install the chromium package", ChromiumPath)
		}
		t.Skipf("%s not installed (apt-get install chromium); set VIGIL_TEST_CHROMIUM=1 to make this a failure", ChromiumPath)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!DOCTYPE html><html><body><div id="out">static</div>
<script>document.getElementById("out").textContent = "written by " + "script";</script></body></html>`)
	}))
	defer srv.Close()
	chrome := &Chromium{}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 60 * time.Second})
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/", Render: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Body), "written by script") {
		t.Errorf("rendered page lacks the script's text:\n%s", res.Body)
	}
	plain, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(plain.Body), "written by script</div>") {
		t.Error("plain fetch ran the script?")
	}

	strict := New(Options{IgnoreRobots: true, Renderer: chrome})
	if _, err := strict.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/", Render: true}); err == nil {
		t.Error("rendering a loopback page without the allow flag succeeded")
	}
}

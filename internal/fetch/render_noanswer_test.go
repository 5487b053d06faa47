package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRenderChromiumDocumentWithoutAnswer: a rendered page's status is
// the answer to the document the tab shows once loaded, not to the
// latest the browser received. One that came with no HTTP answer (a
// script sent the tab to about:blank) fails, naming it, where the render
// took it for a 200 of the page asked (its URL, the page's status): the
// empty document became the page's version. An answer the browser does
// not show (net::ERR_ABORTED) is named: a 204 is a 204 with no body, as
// the plain fetch's answer is, and a download fails saying so, one for
// its Content-Disposition or for its type (application/zip). A
// document a script made (a blob: URL) has no HTTP answer either: it was
// the result, named by its blob: URL.
func TestRenderChromiumDocumentWithoutAnswer(t *testing.T) {
	needChromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/blank":
			fmt.Fprint(w, `<!DOCTYPE html><html><body>leaving<script>location.href = "about:blank";</script></body></html>`)
		case "/blob":
			fmt.Fprint(w, `<!DOCTYPE html><html><body>leaving<script>location.href = URL.createObjectURL(new Blob(["<p>made here</p>"], {type: "text/html"}));</script></body></html>`)
		case "/file":
			w.Header().Set("Content-Disposition", "attachment; filename=report.txt")
			fmt.Fprint(w, "a report")
		case "/archive":
			w.Header().Set("Content-Type", "application/zip")
			fmt.Fprint(w, "PK\x03\x04")
		case "/nothing":
			w.WriteHeader(http.StatusNoContent)
		}
	}))
	defer srv.Close()
	chrome := &Chromium{Settle: time.Second}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 60 * time.Second})

	url := srv.URL + "/blank"
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: url, Render: true})
	if err == nil || !strings.HasPrefix(err.Error(), "fetch "+url+": ") || !strings.Contains(err.Error(), "about:blank") ||
		!errors.Is(err, ErrUnsupported) || res != nil && len(res.Body) > 0 {
		t.Errorf("render of a page a script sends to about:blank: %+v, %v; want a failure naming about:blank (ErrUnsupported)", res, err)
	}

	// A document a script made (a blob: URL) came with no HTTP answer
	// either: it was the result, named by its blob: URL, a new one each
	// render, against which no link of the page resolves.
	url = srv.URL + "/blob"
	res, err = c.Fetch(context.Background(), &vigil.FetchRequest{URL: url, Render: true})
	if err == nil || !strings.Contains(err.Error(), "the tab shows blob:") || !errors.Is(err, ErrUnsupported) || res != nil {
		t.Errorf("render of a page a script sends to a blob: URL: %+v, %v; want a failure naming the blob: URL (ErrUnsupported)", res, err)
	}

	url = srv.URL + "/file"
	res, err = c.Fetch(context.Background(), &vigil.FetchRequest{URL: url, Render: true})
	if err == nil || !strings.Contains(err.Error(), url+" is a download") || !errors.Is(err, ErrUnsupported) || res != nil {
		t.Errorf("render of a download: %+v, %v; want a failure naming it a download (ErrUnsupported)", res, err)
	}

	// A download by its type, which the browser does not show either:
	// it failed with the browser's net::ERR_ABORTED alone.
	url = srv.URL + "/archive"
	res, err = c.Fetch(context.Background(), &vigil.FetchRequest{URL: url, Render: true})
	if err == nil || !strings.Contains(err.Error(), url+" is a download (Content-Type: application/zip)") || !errors.Is(err, ErrUnsupported) || res != nil {
		t.Errorf("render of a file the browser downloads for its type: %+v, %v; want a failure naming it a download (ErrUnsupported)", res, err)
	}

	for _, render := range []bool{false, true} {
		url = srv.URL + "/nothing"
		res, err = c.Fetch(context.Background(), &vigil.FetchRequest{URL: url, Render: render})
		if err != nil || res.Status != http.StatusNoContent || res.URL != url || len(res.Body) != 0 {
			t.Errorf("fetch of a 204 (render %v): %+v, %v; want a 204, no body", render, res, err)
		}
	}
}

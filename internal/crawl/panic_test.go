package crawl_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
)

// TestCrawlWorkerPanic: a panic in the fetch of one page, which runs on
// one of the crawl's workers, is raised again by Crawl in its caller's
// goroutine, with the worker's stack, where the caller may recover it
// (the monitor does, see monitor.checkGroup). It crashed the process,
// which no caller could prevent. The other workers go on draining the
// batch, so that Crawl returns (panics) rather than waits for ever.
func TestCrawlWorkerPanic(t *testing.T) {
	srv := smallSite(t)
	f := fetcherFunc(func(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
		if strings.HasSuffix(req.URL, "/a.html") || strings.HasSuffix(req.URL, "/b.html") {
			var parts []int
			_ = parts[len(req.URL)] // a slice past its end
		}
		return loopbackFetcher().Fetch(ctx, req)
	})
	q := crawl.NewQuery(srv.URL + "/site/")
	q.MaxDepth = 1
	var got any
	func() {
		defer func() { got = recover() }()
		crawl.Crawl(context.Background(), f, q)
	}()
	if got == nil {
		t.Fatal("Crawl returned; want it to raise its worker's panic")
	}
	s := fmt.Sprint(got)
	if !strings.Contains(s, "index out of range") || !strings.Contains(s, "crawl_test.TestCrawlWorkerPanic") {
		t.Errorf("Crawl panicked with %q; want the worker's panic with its stack", s)
	}
	if _, ok := got.(error); !ok {
		t.Errorf("Crawl panicked with a %T; want an error", got)
	}
}

package fetch

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// bigPage is an HTML page of n bytes.
func bigPage(n int) []byte {
	const head, tail = "<html><body><pre>", "</pre></body></html>"
	return append(append([]byte(head), bytes.Repeat([]byte("a"), n-len(head)-len(tail))...), tail...)
}

// TestFetchPageSize: the cap on a page holds it as sent and once decoded
// alike (Options.MaxDecodedSize, 20 MiB by default, and MaxBodySize
// following it): a page of 15 MB sent whole, over the 10 MiB the wire
// was capped at but under the 20 MiB of the decoded body, was refused
// ("Content-Length 15000000 exceeds the cap of 10485760 bytes"). A raised
// cap reads a larger page; a page over the cap is refused, with or
// without its Content-Length, the caller's hint in the error.
func TestFetchPageSize(t *testing.T) {
	pages := map[string][]byte{"/15MB": bigPage(15_000_000), "/24MB": bigPage(24_000_026)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Query().Get("chunked") == "" {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	const hint = "raise it with --max-page-size"
	for _, tc := range []struct {
		name    string
		opt     Options
		path    string
		refused bool
	}{
		{"15MB-default", Options{}, "/15MB", false},
		{"15MB-default-chunked", Options{}, "/15MB?chunked=1", false},
		{"24MB-default", Options{TooLargeHint: hint}, "/24MB", true},
		{"24MB-default-chunked", Options{TooLargeHint: hint}, "/24MB?chunked=1", true},
		{"24MB-raised", Options{MaxDecodedSize: 30 << 20, TooLargeHint: hint}, "/24MB", false},
		{"24MB-raised-chunked", Options{MaxDecodedSize: 30 << 20, TooLargeHint: hint}, "/24MB?chunked=1", false},
		{"15MB-lowered", Options{MaxDecodedSize: 12 << 20, TooLargeHint: hint}, "/15MB", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opt.IgnoreRobots = true
			res, err := testClient(tc.opt).Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + tc.path})
			if tc.refused {
				if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), hint) {
					t.Fatalf("Fetch: %v, want ErrTooLarge with %q", err, hint)
				}
				return
			}
			if err != nil {
				t.Fatalf("Fetch: %v, want the page", err)
			}
			if want := len(pages[strings.Split(tc.path, "?")[0]]); len(res.Body) != want {
				t.Errorf("body of %d bytes, want %d", len(res.Body), want)
			}
		})
	}
}

// TestFetchPageSizeDefaults: the wire cap follows the decoded one (a page
// is never shorter decoded than sent), which a caller that sets only the
// wire cap keeps at twice it, as before.
func TestFetchPageSizeDefaults(t *testing.T) {
	for _, tc := range []struct {
		name          string
		opt           Options
		wire, decoded int64
	}{
		{"none", Options{}, 20 << 20, 20 << 20},
		{"decoded", Options{MaxDecodedSize: 64 << 20}, 64 << 20, 64 << 20},
		{"wire", Options{MaxBodySize: 4000}, 4000, 8000},
		{"both", Options{MaxBodySize: 1 << 20, MaxDecodedSize: 3 << 20}, 1 << 20, 3 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opt.defaults()
			if tc.opt.MaxBodySize != tc.wire || tc.opt.MaxDecodedSize != tc.decoded {
				t.Errorf("caps %d on the wire, %d decoded; want %d, %d", tc.opt.MaxBodySize, tc.opt.MaxDecodedSize, tc.wire, tc.decoded)
			}
		})
	}
}

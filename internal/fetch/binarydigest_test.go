package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestBinaryDigest: a request with DigestBinary has a binary body's media
// type and bytes (decoded, as sent gzipped) given to it, and its answer and
// the body's size in the result, with ErrBinary as without it; a request
// without it, and a text page, leave both empty.
func TestBinaryDigest(t *testing.T) {
	pdf := []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/doc.pdf":
			w.Header().Set("Content-Type", "application/pdf")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(gzipped(t, pdf))
		case "/page.html":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<p>text</p>"))
		}
	}))
	t.Cleanup(srv.Close)
	c := testClient(Options{IgnoreRobots: true})
	var gotType string
	var gotBody []byte
	digest := func(mediaType string, body []byte) string {
		gotType, gotBody = mediaType, append([]byte(nil), body...)
		return "digest of " + mediaType
	}
	for _, tc := range []struct {
		name       string
		path       string
		digest     func(string, []byte) string
		wantErr    error
		wantDigest string
		wantSize   int64
	}{
		{"binary, digest asked", "/doc.pdf", digest, ErrBinary, "digest of application/pdf", int64(len(pdf))},
		{"binary, not asked", "/doc.pdf", nil, ErrBinary, "", 0},
		{"text, digest asked", "/page.html", digest, nil, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gotType, gotBody = "", nil
			res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + tc.path, DigestBinary: tc.digest})
			if !errors.Is(err, tc.wantErr) || (err == nil) != (tc.wantErr == nil) || res == nil {
				t.Fatalf("Fetch: %+v, %v; want a result and %v", res, err, tc.wantErr)
			}
			if res.BinaryDigest != tc.wantDigest || res.BinarySize != tc.wantSize {
				t.Errorf("digest %q, size %d; want %q, %d", res.BinaryDigest, res.BinarySize, tc.wantDigest, tc.wantSize)
			}
			if tc.wantDigest != "" && (gotType != "application/pdf" || string(gotBody) != string(pdf)) {
				t.Errorf("DigestBinary given %q, %q; want application/pdf and the decoded body", gotType, gotBody)
			}
			if tc.wantErr != nil && res.Body != nil {
				t.Errorf("body %q kept with the error", res.Body)
			}
		})
	}
}

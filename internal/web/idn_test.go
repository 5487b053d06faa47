package web

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestResourceListIDN: the resources list filtered by a URL or a host
// spelt in Unicode (or percent-encoded) finds the page stored under its
// punycode form, as a sentinel's URL is normalised; a host IDNA refuses
// is EINVALID, naming it. The URL was refused ("host must be ASCII
// (punycode)") and the host matched nothing.
func TestResourceListIDN(t *testing.T) {
	ctx := context.Background()
	s, ada := newTestServer(t)
	createChecked(t, s, ada, "Create Sentinel books Using http://bücher.example/a")
	res, err := s.Store.EnsureResource(ctx, "http://xn--bcher-kva.example/a")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"url=" + url.QueryEscape("http://bücher.example/a"),
		"url=" + url.QueryEscape("http://b%C3%BCcher.example/a"),
		"url=" + url.QueryEscape("http://xn--bcher-kva.example/a"),
		"host=" + url.QueryEscape("Bücher.example"),
		"host=xn--bcher-kva.example",
		// The punycode spelling in upper case is the same host, as the
		// Unicode one is (IDNA lower-cases): it matched nothing.
		"host=XN--BCHER-KVA.Example",
		// With a trailing dot (a DNS absolute name) it is the same
		// host, as vigil.CanonicalURL and spec.HostKey take it: it
		// matched nothing.
		"host=xn--bcher-kva.example.",
		"host=" + url.QueryEscape("Bücher.Example."),
	} {
		rec := httptest.NewRecorder()
		if err := s.handleResourceList(rec, httptest.NewRequest("GET", "/api/v1/resources?"+q, nil), ada); err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		var body struct {
			Items []*vigil.Resource `json:"items"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		if len(body.Items) != 1 || body.Items[0].ID != res.ID {
			t.Errorf("%s: %d resources, want %s", q, len(body.Items), res.URL)
		}
	}
	for _, q := range []string{"url=" + url.QueryEscape("http://-bücher.example/a"), "host=" + url.QueryEscape("-bücher.example")} {
		err := s.handleResourceList(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/v1/resources?"+q, nil), ada)
		if vigil.ErrorCode(err) != vigil.EINVALID || !strings.Contains(vigil.ErrorMessage(err), `"-bücher.example"`) {
			t.Errorf("%s: %v, want EINVALID naming the host", q, err)
		}
	}
}

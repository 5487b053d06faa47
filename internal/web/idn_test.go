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
// is EINVALID, saying so without naming it (a link could make it say
// anything). The URL was refused ("host must be ASCII
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
		if msg := vigil.ErrorMessage(err); vigil.ErrorCode(err) != vigil.EINVALID || !strings.Contains(msg, "is not a name IDNA takes") || strings.Contains(msg, "bücher") {
			t.Errorf("%s: %v, want EINVALID saying IDNA refuses the host, without naming it", q, err)
		}
	}
}

// TestHostNameDNSRulesAPI: a URL or host given to the API whose name DNS
// refuses (an empty label, a label over 63 bytes, a name over 253, in
// punycode for a Unicode name) is EINVALID: in a resources filter saying
// the rules without naming the host (a link could make it say anything),
// in a sentinel's source naming the host and the problem (at its line and
// column); it matched nothing, and the sentinel was taken.
func TestHostNameDNSRulesAPI(t *testing.T) {
	s, ada := newTestServer(t)
	s.Checker = storeChecker(s)
	long := strings.Repeat("a", 64)
	for q, want := range map[string]string{
		"url=" + url.QueryEscape("http://a..example/a"):                   `url: its host is not a name DNS takes: no empty label, labels of 63 bytes at most, 253 in all (in punycode)`,
		"url=" + url.QueryEscape("http://bücher..example/a"):              `url: its host is not a name DNS takes`,
		"url=" + url.QueryEscape("http://"+long+".example/"):              `url: its host is not a name DNS takes`,
		"host=" + url.QueryEscape("a..example"):                           `host is not a name DNS takes: no empty label, labels of 63 bytes at most, 253 in all (in punycode)`,
		"host=" + url.QueryEscape("ü"+strings.Repeat("a", 58)+".example"): `host is not a name DNS takes`,
	} {
		err := s.handleResourceList(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/v1/resources?"+q, nil), ada)
		if msg := vigil.ErrorMessage(err); vigil.ErrorCode(err) != vigil.EINVALID || !strings.Contains(msg, want) || strings.Contains(msg, "example") {
			t.Errorf("%s: %v, want EINVALID with %q", q, err, want)
		}
	}
	// A trailing dot and an IP literal are hosts.
	for _, q := range []string{"url=" + url.QueryEscape("http://a.example./"), "host=a.example.", "url=" + url.QueryEscape("http://[::1]:8080/"), "host=127.0.0.1"} {
		if err := s.handleResourceList(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/v1/resources?"+q, nil), ada); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
	body := `{"source":"Create Sentinel a\nUsing http://a..example/"}`
	rec := httptest.NewRecorder()
	if err := s.handleSentinelCheck(rec, jsonRequest("POST", "/api/v1/sentinels/check", body), ada); err != nil {
		t.Fatal(err)
	}
	var res CheckResult
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	want := Diagnostic{Line: 2, Column: 7, Message: `invalid URL "http://a..example/": host "a..example" has an empty label`}
	if res.Valid || len(res.Errors) != 1 || res.Errors[0].Line != want.Line || res.Errors[0].Column != want.Column || res.Errors[0].Message != want.Message {
		t.Errorf("check: %+v, want the error %+v", res, want)
	}
}

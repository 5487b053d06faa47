package web

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestSentinelNoSchemeAPI: a sentinel whose URL has no scheme
// ("example.org", as the seed writes them) is valid; the API's check
// answers with a warning at the URL's line and column, and the sentinel
// created is returned, and stored, with the URL fetched
// ("http://example.org/") in spec.using.url: it held "example.org".
func TestSentinelNoSchemeAPI(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	js, _ := json.Marshal(map[string]string{"source": "Create Sentinel s\n  Using example.org\n"})
	status, body := c.do("POST", "/api/v1/sentinels/check", string(js))
	var res struct {
		Valid    bool
		Warnings []Diagnostic
	}
	if err := json.Unmarshal([]byte(body), &res); status != http.StatusOK || err != nil {
		t.Fatalf("check: %d %v %s", status, err, body)
	}
	want := "no scheme: read as http://example.org/ (write https://example.org/ if the site has HTTPS)"
	if !res.Valid || len(res.Warnings) != 1 || res.Warnings[0].Line != 2 || res.Warnings[0].Column != 9 || res.Warnings[0].Message != want {
		t.Errorf("check: valid %v, warnings %+v; want one at 2:9: %s", res.Valid, res.Warnings, want)
	}
	status, body = c.do("POST", "/api/v1/sentinels", string(js))
	if status != http.StatusCreated {
		t.Fatalf("create: %d\n%s", status, body)
	}
	var created struct {
		ID   int64
		Spec struct {
			Using struct{ URL string }
		}
	}
	if err := json.Unmarshal([]byte(body), &created); err != nil {
		t.Fatal(err)
	}
	if created.Spec.Using.URL != "http://example.org/" {
		t.Errorf("created: spec.using.url %q, want http://example.org/", created.Spec.Using.URL)
	}
	sen, err := s.Store.FindSentinelByID(t.Context(), created.ID)
	if err != nil {
		t.Fatal(err)
	}
	var stored struct {
		Using struct{ URL string }
	}
	if err := json.Unmarshal(sen.Spec, &stored); err != nil || stored.Using.URL != "http://example.org/" {
		t.Errorf("stored: spec.using.url %q (%v), want http://example.org/", stored.Using.URL, err)
	}
}

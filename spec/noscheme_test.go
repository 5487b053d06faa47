package spec

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestNoSchemeCanonicalURL: a URL written without a scheme
// ("example.org", as the seed writes "www2.uta.edu/...") is accepted, and
// the checked sentinel, the form that is stored and shown, holds the URL
// that is fetched ("http://example.org/"), for a page, a site and its
// scopes, with a warning at the URL; the parsed sentinel, the source as
// written, is left alone. It was stored as written, so that the API, the
// dashboard and the JSON of vigil sentinel list showed "example.org".
func TestNoSchemeCanonicalURL(t *testing.T) {
	src := "Create Sentinel s Using example.org OR https://b.example/x\n" +
		"Create Sentinel t Using\n  site Docs.example/guide scope https://docs.example/ scope docs.example/api\n"
	f, err := Parse("in.ssl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := NewChecker(date(2026, 11, 2, 0, 0)).CheckFile(f)
	if err != nil {
		t.Fatal(err)
	}
	s, site := out[0], out[1]
	if got := Print(s.Sentinel.Target); got != "http://example.org/ OR https://b.example/x" {
		t.Errorf("checked target %s, want the URLs fetched", got)
	}
	if got := Print(site.Sentinel.Target); got != "site http://docs.example/guide scope https://docs.example/ scope http://docs.example/api" {
		t.Errorf("checked site %s, want the URLs fetched", got)
	}
	if got := Print(f.Sentinels[0].Target); got != "example.org OR https://b.example/x" {
		t.Errorf("the parsed sentinel was changed: %s", got)
	}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var stored struct {
		Using struct {
			Or []struct {
				URL string `json:"url"`
			} `json:"or"`
		} `json:"using"`
	}
	if err := json.Unmarshal(data, &stored); err != nil {
		t.Fatal(err)
	}
	if len(stored.Using.Or) != 2 || stored.Using.Or[0].URL != "http://example.org/" {
		t.Errorf("stored form %s: want using.or[0].url http://example.org/", data)
	}
	want := []string{
		"in.ssl:1:25: no scheme: read as http://example.org/ (write https://example.org/ if the site has HTTPS)",
	}
	var got []string
	for _, w := range s.Warnings {
		got = append(got, w.Error())
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("warnings %q, want %q", got, want)
	}
	got = nil
	for _, w := range site.Warnings {
		got = append(got, w.Error())
	}
	want = []string{
		"in.ssl:3:8: no scheme: read as http://docs.example/guide (write https://docs.example/guide if the site has HTTPS)",
		"in.ssl:3:61: no scheme: read as http://docs.example/api (write https://docs.example/api if the site has HTTPS)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("site warnings %q, want %q", got, want)
	}
}

// TestStoredNoSchemeLoads: a sentinel an earlier release stored with its
// URL as written ("example.org", testdata/stored/noscheme.json) still
// loads, and watches the page it watched (urls); checked again, it is
// not refused and holds the URL fetched.
func TestStoredNoSchemeLoads(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "stored", "noscheme.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c Checked
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatalf("a stored sentinel does not load: %v", err)
	}
	if !reflect.DeepEqual(c.URLs, []string{"http://example.org/"}) {
		t.Errorf("loaded urls %q", c.URLs)
	}
	ch, err := NewChecker(date(2026, 12, 2, 0, 0)).RecheckStored("s", c.Sentinel)
	if err != nil {
		t.Fatalf("checked again, it is refused: %v", err)
	}
	if got := Print(ch.Sentinel.Target); got != "http://example.org/" || !reflect.DeepEqual(ch.URLs, c.URLs) {
		t.Errorf("checked again: target %s, urls %q", got, ch.URLs)
	}
	for _, w := range ch.Warnings {
		if strings.Contains(w.Msg, "no scheme") {
			t.Errorf("checked again, a stored sentinel is warned: %v", w)
		}
	}
}

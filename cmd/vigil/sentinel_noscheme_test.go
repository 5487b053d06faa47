package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestSentinelNoSchemeStoredCanonical: a sentinel whose URL is written
// without a scheme, as the seed writes them, is added with a warning at
// the URL, and stored and listed with the URL that is fetched
// ("http://example.org/"): its stored form held "example.org", shown so
// by the API, the dashboard and sentinel list --json. sentinel fmt, a
// formatter of the source, keeps the text as written.
func TestSentinelNoSchemeStoredCanonical(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "s.ssl", "Create Sentinel s Using example.org\n")
	data := filepath.Join(t.TempDir(), "data")
	warning := file + ":1:25: warning: no scheme: read as http://example.org/ (write https://example.org/ if the site has HTTPS)\n"

	code, out, errOut := runVigil(t, "", "sentinel", "check", file)
	if code != exitOK || out != warning {
		t.Errorf("check: exit %d, stdout %q, stderr %q; want 0 and %q", code, out, errOut, warning)
	}
	code, out, errOut = runVigil(t, "", "sentinel", "add", "--data", data, file)
	if code != exitOK || !strings.HasPrefix(out, warning) {
		t.Fatalf("add: exit %d, stdout %q, stderr %q; want 0 and the warning", code, out, errOut)
	}
	code, out, errOut = runVigil(t, "", "sentinel", "list", "--data", data, "--json")
	if code != exitOK {
		t.Fatalf("list: exit %d\n%s%s", code, out, errOut)
	}
	var listed struct {
		Spec struct {
			Using struct {
				URL string `json:"url"`
			} `json:"using"`
			URLs []string `json:"urls"`
		} `json:"spec"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &listed); err != nil {
		t.Fatalf("list --json %q: %v", out, err)
	}
	if listed.Spec.Using.URL != "http://example.org/" || len(listed.Spec.URLs) != 1 || listed.Spec.URLs[0] != "http://example.org/" {
		t.Errorf("stored spec.using.url %q, urls %q; want http://example.org/", listed.Spec.Using.URL, listed.Spec.URLs)
	}
	code, out, _ = runVigil(t, "", "sentinel", "fmt", file)
	if code != exitOK || out != "Create Sentinel s Using example.org\n" {
		t.Errorf("fmt: exit %d, %q; want the URL as written", code, out)
	}
}

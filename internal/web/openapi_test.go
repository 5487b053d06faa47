package web

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/spec"
)

// TestOpenAPIExamplesAreValid: every sentinel the API description shows
// as an example is one the API accepts. One said "Fetch every 1 hour".
func TestOpenAPIExamplesAreValid(t *testing.T) {
	data, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	found := 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		case string:
			if !strings.HasPrefix(v, "Create Sentinel") {
				return
			}
			found++
			s, err := spec.ParseSentinel("example", []byte(v+"\n"))
			if err == nil {
				_, err = spec.NewChecker(time.Now()).Check(s)
			}
			if err != nil {
				t.Errorf("example %q: %v", v, err)
			}
		}
	}
	walk(doc)
	if found == 0 {
		t.Fatal("no example sentinel in openapi.json")
	}
}

// TestOpenAPIErrorCodes: the error codes the API description lists are
// those the API answers with (the codes table): EUNAVAILABLE was missing,
// and a client generated from the description refused its answers.
func TestOpenAPIErrorCodes(t *testing.T) {
	data, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas struct {
				Error struct {
					Properties struct {
						Error struct {
							Properties struct {
								Code struct {
									Enum []string `json:"enum"`
								} `json:"code"`
							} `json:"properties"`
						} `json:"error"`
					} `json:"properties"`
				} `json:"Error"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, c := range doc.Components.Schemas.Error.Properties.Error.Properties.Code.Enum {
		listed[c] = true
	}
	for c := range codes {
		if !listed[c] {
			t.Errorf("openapi.json's error codes lack %s", c)
		}
		delete(listed, c)
	}
	for c := range listed {
		t.Errorf("openapi.json lists %s, which the API never answers", c)
	}
}

package intent

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/intent/schema"
)

// validate checks v against a JSON Schema, for the keywords
// change.schema.json uses: $ref (local), type, enum, required,
// properties, additionalProperties: false, items, minimum and maximum.
func validate(root, s map[string]any, v any, at string) error {
	if ref, ok := s["$ref"].(string); ok {
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		if !ok {
			return fmt.Errorf("%s: unsupported $ref %q", at, ref)
		}
		def, ok := root["$defs"].(map[string]any)[name].(map[string]any)
		if !ok {
			return fmt.Errorf("%s: unknown $ref %q", at, ref)
		}
		if err := validate(root, def, v, at); err != nil {
			return err
		}
	}
	if enum, ok := s["enum"].([]any); ok {
		found := false
		for _, e := range enum {
			found = found || e == v
		}
		if !found {
			return fmt.Errorf("%s: %v not in %v", at, v, enum)
		}
	}
	if typ, ok := s["type"].(string); ok {
		okType := false
		switch typ {
		case "object":
			_, okType = v.(map[string]any)
		case "array":
			_, okType = v.([]any)
		case "string":
			_, okType = v.(string)
		case "boolean":
			_, okType = v.(bool)
		case "number":
			_, okType = v.(float64)
		case "integer":
			f, isNum := v.(float64)
			okType = isNum && f == math.Trunc(f)
		}
		if !okType {
			return fmt.Errorf("%s: %v is not of type %s", at, v, typ)
		}
	}
	if f, ok := v.(float64); ok {
		if min, ok := s["minimum"].(float64); ok && f < min {
			return fmt.Errorf("%s: %v < minimum %v", at, f, min)
		}
		if max, ok := s["maximum"].(float64); ok && f > max {
			return fmt.Errorf("%s: %v > maximum %v", at, f, max)
		}
	}
	if obj, ok := v.(map[string]any); ok {
		props, _ := s["properties"].(map[string]any)
		for _, r := range asSlice(s["required"]) {
			if _, ok := obj[r.(string)]; !ok {
				return fmt.Errorf("%s: missing %q", at, r)
			}
		}
		for k, val := range obj {
			ps, ok := props[k].(map[string]any)
			if !ok {
				if s["additionalProperties"] == false {
					return fmt.Errorf("%s: unexpected property %q", at, k)
				}
				continue
			}
			if err := validate(root, ps, val, at+"."+k); err != nil {
				return err
			}
		}
	}
	if arr, ok := v.([]any); ok {
		if items, ok := s["items"].(map[string]any); ok {
			for i, e := range arr {
				if err := validate(root, items, e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func loadSchema(t *testing.T) map[string]any {
	t.Helper()
	var root map[string]any
	if err := json.Unmarshal(schema.Change, &root); err != nil {
		t.Fatalf("schema: %v", err)
	}
	if root["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v", root["$schema"])
	}
	return root
}

func validateJSON(t *testing.T, root map[string]any, data []byte) error {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return validate(root, root, v, "$")
}

// TestSchema validates records of every kind against change.schema.json,
// and checks that the schema rejects malformed ones.
func TestSchema(t *testing.T) {
	root := loadSchema(t)
	old := `<html><body><p>Jane Doe wrote 12/01/2026 <a href="/a">A</a> <img src="a.png" alt="A"></p>
<table id="t"><tr><th>K</th><th>V</th></tr><tr><td>x</td><td>1</td></tr></table><ul><li>one</li><li>two<ul><li>2a</li></ul></li></ul>
<div><b>Alpha</b> <span class="p">$10</span></div><div><b>Bravo</b> <span class="p">$20</span></div></body></html>`
	new := `<html><body><p>Jane Roe wrote 12/02/2026 <a href="/b">A</a> <img src="b.png" alt="A"></p>
<table id="t"><tr><th>K</th><th>V</th></tr><tr><td>x</td><td>2</td></tr><tr><td>y</td><td>3</td></tr></table><ul><li>two<ul><li>2b</li></ul></li><li>one</li></ul>
<div><b>Alpha</b> <span class="p">$12</span></div><div><b>Bravo</b> <span class="p">$20</span></div></body></html>`
	clause := `any change OR all words OR keywords {Doe} OR phrase {"Jane Doe wrote"} OR all links OR all images OR table OR list OR regular expression {"\\d+/\\d+/\\d+"} OR value In css "span.p" rises above 11 OR NOT all words`
	r := evalClause(t, old, new, clause)
	kinds := map[ObjectKind]bool{}
	for _, c := range r.AllChanges() {
		kinds[c.Kind] = true
	}
	for _, k := range []ObjectKind{KindNode, KindWord, KindKeyword, KindPhrase, KindLink, KindImage, KindTableRow, KindTableCell, KindListItem, KindRegexMatch, KindValue} {
		if !kinds[k] {
			t.Errorf("no %s record in the sample", k)
		}
	}
	nested := false
	for _, c := range r.AllChanges() {
		nested = nested || c.List != nil && len(c.List.NewParents) > 0
	}
	if !nested {
		t.Error("no record of a nested list item in the sample")
	}
	item := false
	for _, c := range r.AllChanges() {
		item = item || c.Value != nil && c.Value.Item != ""
	}
	if !item {
		t.Error("no record of a value among several in the sample")
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := validateJSON(t, root, data); err != nil {
		t.Errorf("valid result rejected: %v\n%s", err, data)
	}
	// the records decode back to the same values
	var back Result
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	again, _ := json.MarshalIndent(&back, "", "  ")
	if string(again) != string(data) {
		t.Error("JSON round trip changed the result")
	}
	for _, bad := range []string{
		`{"type":"x","matched":true,"changes":[{"kind":"paragraph","op":"insert"}]}`,
		`{"type":"x","matched":true,"changes":[{"kind":"node","op":"rename"}]}`,
		`{"type":"x","matched":true,"changes":[{"kind":"node"}]}`,
		`{"type":"x","matched":"yes"}`,
		`{"type":"x","matched":true,"changes":[{"kind":"node","op":"move","oldPos":0}]}`,
		`{"type":"x","matched":true,"changes":[{"kind":"link","op":"update","link":{"href":"/a"}}]}`,
		`{"type":"x","matched":true,"changes":[{"kind":"list-item","op":"insert","list":{"list":"#1","newParents":"Food"}}]}`,
		`{"matched":true}`,
	} {
		if err := validateJSON(t, root, []byte(bad)); err == nil {
			t.Errorf("invalid record accepted: %s", bad)
		}
	}
}

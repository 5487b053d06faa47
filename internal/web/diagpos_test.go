package web

import (
	"encoding/json"
	"testing"
)

// TestDiagnosticPositionsOnlyWhenKnown: a diagnostic carries offset and
// end only where it has a place in a source (with its line and column);
// those of the JSON form of a sentinel and of PATCH /api/v1/me, which
// name a field, had "offset":0,"end":0 beside it, a place they do not
// have. A source error at the source's very start keeps its offset 0.
func TestDiagnosticPositionsOnlyWhenKnown(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	for _, tc := range []struct {
		name, method, path, body string
		list                     func(map[string]any) []any
		positions                bool
		offset                   float64
	}{
		{"JSON form", "POST", "/api/v1/sentinels/check",
			`{"sentinel":{"name":"a","using":{"url":"http://a.example/"},"fetch":{"interval":"2 hourz"}}}`,
			func(m map[string]any) []any { l, _ := m["errors"].([]any); return l }, false, 0},
		{"me", "PATCH", "/api/v1/me", `{"timeZone":"Mars/Olympus"}`,
			func(m map[string]any) []any {
				e, _ := m["error"].(map[string]any)
				l, _ := e["diagnostics"].([]any)
				return l
			}, false, 0},
		{"source at its start", "POST", "/api/v1/sentinels/check", `{"source":"Bogus"}`,
			func(m map[string]any) []any { l, _ := m["errors"].([]any); return l }, true, 0},
	} {
		_, out := c.do(tc.method, tc.path, tc.body)
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%s: %v\n%s", tc.name, err, out)
		}
		list := tc.list(m)
		if len(list) == 0 {
			t.Errorf("%s: no diagnostics: %s", tc.name, out)
			continue
		}
		for _, d := range list {
			d, _ := d.(map[string]any)
			off, hasOff := d["offset"]
			_, hasEnd := d["end"]
			_, hasLine := d["line"]
			if hasOff != tc.positions || hasEnd != tc.positions || hasLine != tc.positions {
				t.Errorf("%s: %v: positions %v, want %v", tc.name, d, hasOff, tc.positions)
			}
			if tc.positions && off != tc.offset {
				t.Errorf("%s: offset %v, want %v", tc.name, off, tc.offset)
			}
		}
	}
}

package web

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/spec"
)

// TestSentinelCheckMessages: the API's check of a sentinel in its JSON
// form says what is wrong, and only that. An interval with a unit that is
// none ("2 hourz") is one error, at fetch.interval: a second one said the
// fetch clause wants an interval or onChange, which it has. An unknown
// change type lists the change types (spec.Kind's names), which it did
// not. A body with neither form of the sentinel names both, source and
// sentinel: it said "sentinel source required", while the JSON form is
// taken too; the editor, whose form has the source alone, still says
// that.
func TestSentinelCheckMessages(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	var kinds []string
	for k := spec.AnyChange; k <= spec.Value; k++ {
		kinds = append(kinds, k.String())
	}
	type diag struct{ Field, Message string }
	for _, tc := range []struct {
		name, body string
		field      string   // of the one error
		want       []string // what its message says
	}{
		{"unit", `{"sentinel":{"name":"a","using":{"url":"http://a.example/"},"fetch":{"interval":"2 hourz"}}}`,
			"fetch.interval", []string{`"2 hourz"`, "unit"}},
		{"onChange not a boolean", `{"sentinel":{"name":"a","using":{"url":"http://a.example/"},"fetch":{"onChange":"yes"}}}`,
			"fetch.onChange", []string{"want a boolean"}},
		{"kind", `{"sentinel":{"name":"a","using":{"url":"http://a.example/"},"monitor":{"kind":"keyword"}}}`,
			"monitor.kind", append([]string{`unknown change type "keyword"`}, kinds...)},
	} {
		status, body := c.do("POST", "/api/v1/sentinels/check", tc.body)
		var res struct {
			Valid  bool
			Errors []diag
		}
		if err := json.Unmarshal([]byte(body), &res); status != 200 || err != nil {
			t.Fatalf("%s: %d %v %s", tc.name, status, err, body)
		}
		if res.Valid || len(res.Errors) != 1 || res.Errors[0].Field != tc.field {
			t.Errorf("%s: errors %+v, want one, at %s", tc.name, res.Errors, tc.field)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(res.Errors[0].Message, w) {
				t.Errorf("%s: %q does not say %q", tc.name, res.Errors[0].Message, w)
			}
		}
	}
	for _, path := range []string{"/api/v1/sentinels/check", "/api/v1/sentinels"} {
		for _, body := range []string{`{}`, `{"source":"  "}`} {
			status, got := c.do("POST", path, body)
			var e struct {
				Error struct{ Code, Message string }
			}
			if err := json.Unmarshal([]byte(got), &e); status != 400 || err != nil || e.Error.Code != "EINVALID" {
				t.Errorf("POST %s %s: %d %v %s, want 400 EINVALID", path, body, status, err, got)
				continue
			}
			if !strings.Contains(e.Error.Message, "source (") || !strings.Contains(e.Error.Message, "sentinel (") {
				t.Errorf("POST %s %s: %q, want source and sentinel named", path, body, e.Error.Message)
			}
		}
	}
	// The editor's form has the source alone: its message names no JSON.
	_, page := c.do("POST", "/sentinels", url.Values{"source": {" "}}.Encode())
	if _, problems, _ := strings.Cut(page, `id="problems"`); !strings.Contains(problems, "sentinel source required") || strings.Contains(problems, "JSON") {
		t.Errorf("the editor's empty form: problems %.300q, want sentinel source required", problems)
	}
}

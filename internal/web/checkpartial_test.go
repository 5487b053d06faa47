package web

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestLiveCheckSyntaxAndSemantic: the editor's live check of a sentinel
// with a syntax error in one clause tells the semantic errors of its other
// clauses in the same answer, in line order (spec.Checker.CheckPartial),
// and none that only follows from the clause that did not parse. It told
// the syntax error alone, and the bad address only once that was fixed.
func TestLiveCheckSyntaxAndSemantic(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	src := "Create Sentinel a\nUsing https://example.org/\nFetch every 2 hours\nNotify By email nope\n"
	b, err := json.Marshal(map[string]string{"source": src})
	if err != nil {
		t.Fatal(err)
	}
	status, body := c.do("POST", "/api/v1/sentinels/check", string(b))
	var res CheckResult
	if err := json.Unmarshal([]byte(body), &res); status != 200 || err != nil {
		t.Fatalf("%d %v %s", status, err, body)
	}
	if res.Valid {
		t.Errorf("valid with a syntax error: %s", body)
	}
	want := []struct {
		line int
		says string
	}{{3, `"every"`}, {4, `invalid email address "nope"`}}
	if len(res.Errors) != len(want) {
		t.Fatalf("errors %+v, want %d", res.Errors, len(want))
	}
	for i, w := range want {
		if e := res.Errors[i]; e.Line != w.line || !strings.Contains(e.Message, w.says) {
			t.Errorf("error %d: %d: %q, want line %d saying %s", i, e.Line, e.Message, w.line, w.says)
		}
	}
}

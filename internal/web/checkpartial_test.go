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

// TestLiveCheckTwoSentinels: the live check of a source holding two
// sentinels tells that it holds more than one, at the second's Create,
// and the errors of each, syntax and semantic, in source order: each
// sentinel checked as vigil sentinel check checks it, the second's
// semantic errors its own. It told the first's semantic errors with the
// second's syntax errors, neither that there were two nor the second's
// semantic errors.
func TestLiveCheckTwoSentinels(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	type want struct {
		line, col int
		says      string
	}
	for _, tc := range []struct {
		name, src string
		want      []want
	}{{
		name: "semantic then syntax",
		src:  "Create Sentinel a Using nowhere\nCreate Sentinel b Using https://example.org/\nFetch every 2 hours\nNotify By email nope\n",
		want: []want{{1, 25, "unknown sentinel nowhere"}, {2, 1, "more than one sentinel"}, {3, 7, `"every"`}, {4, 11, `invalid email address "nope"`}},
	}, {
		name: "syntax then semantic",
		src:  "Create Sentinel a Using https://example.org/\nFetch every 2 hours\nCreate Sentinel b Using nowhere\nNotify By email nope\n",
		want: []want{{2, 7, `"every"`}, {3, 1, "more than one sentinel"}, {3, 25, "unknown sentinel nowhere"}, {4, 11, `invalid email address "nope"`}},
	}, {
		name: "the second uses the first",
		src:  "Create Sentinel a Using https://example.org/\nFetch every 2 hours\nCreate Sentinel b Using a\n",
		want: []want{{2, 7, `"every"`}, {3, 1, "more than one sentinel"}, {3, 25, "sentinel a has errors"}},
	}, {
		name: "no syntax error",
		src:  "Create Sentinel a Using nowhere\nCreate Sentinel b Using https://example.org/\nFetch 0 hours\n",
		want: []want{{1, 25, "unknown sentinel nowhere"}, {2, 1, "more than one sentinel"}, {3, 7, "Fetch 0 hours"}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(map[string]string{"source": tc.src})
			if err != nil {
				t.Fatal(err)
			}
			status, body := c.do("POST", "/api/v1/sentinels/check", string(b))
			var res CheckResult
			if err := json.Unmarshal([]byte(body), &res); status != 200 || err != nil {
				t.Fatalf("%d %v %s", status, err, body)
			}
			if res.Valid {
				t.Errorf("valid: %s", body)
			}
			if len(res.Errors) != len(tc.want) {
				t.Fatalf("errors %+v, want %+v", res.Errors, tc.want)
			}
			for i, w := range tc.want {
				if e := res.Errors[i]; e.Line != w.line || e.Column != w.col || !strings.Contains(e.Message, w.says) {
					t.Errorf("error %d: %d:%d: %q, want %d:%d saying %s", i, e.Line, e.Column, e.Message, w.line, w.col, w.says)
				}
			}
		})
	}
}

package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
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

// TestLiveCheckManySentinelsEditing: the live check of an edit of a
// stored sentinel whose source holds thousands of sentinels takes about
// as long as that of a new one: only the first is the edit (checked with
// the stored one set aside, which copies the owner's known sentinels),
// the others are checked as sentinel check checks a file's. Each was
// checked as the edit, the known sentinels copied once a sentinel, and
// growing with each valid one: 8 000 took 4.5 s, a body of 1 MiB half a
// minute, at each pause of the editor.
func TestLiveCheckManySentinelsEditing(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	b, err := json.Marshal(map[string]string{"source": "Create Sentinel a Using https://example.org/"})
	if err != nil {
		t.Fatal(err)
	}
	code, out := c.do("POST", "/api/v1/sentinels", string(b))
	var view struct{ ID int64 }
	if err := json.Unmarshal([]byte(out), &view); err != nil || code != http.StatusCreated {
		t.Fatalf("create: %d %v\n%s", code, err, out)
	}
	var src strings.Builder
	src.WriteString("Create Sentinel a Using https://example.org/\n")
	for i := range 8000 {
		fmt.Fprintf(&src, "Create Sentinel s%d Using https://example.org/\n", i)
	}
	check := func(replacing int64) (time.Duration, CheckResult) {
		m := map[string]any{"source": src.String()}
		if replacing > 0 {
			m["replacing"] = replacing
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		code, out := c.do("POST", "/api/v1/sentinels/check", string(b))
		took := time.Since(start)
		var res CheckResult
		if err := json.Unmarshal([]byte(out), &res); code != http.StatusOK || err != nil {
			t.Fatalf("%d %v %.200s", code, err, out)
		}
		return took, res
	}
	plain, _ := check(0)
	editing, res := check(view.ID)
	// The edit keeps its name: the one error is the second sentinel.
	if len(res.Errors) != 1 || res.Errors[0].Line != 2 || !strings.Contains(res.Errors[0].Message, "more than one sentinel") {
		t.Errorf("errors %+v, want more than one sentinel on line 2 alone", res.Errors)
	}
	if editing > 4*plain+500*time.Millisecond {
		t.Errorf("the check of an edit took %v, that of a new sentinel %v", editing, plain)
	}
}

package intent

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestResultNotAppliedJSON: a result keeps in its JSON form which
// selectors could not be applied (NotApplied, as the names "scope" and
// "ignore"), beside why (ScopeNotApplied), both valid by
// change.schema.json, and reads them back; a result written before
// NotApplied was kept reads without it, and a name that is no selector
// is refused.
func TestResultNotAppliedJSON(t *testing.T) {
	r := &Result{Type: "a OR b", Matched: true, Op: "OR", Operands: []*Result{
		{Type: "a", Matched: true, ScopeNotApplied: "too deep", NotApplied: SelectorScope | SelectorIgnore},
		{Type: "b", Matched: false, ScopeNotApplied: "too deep", NotApplied: SelectorIgnore},
	}}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"notApplied":["scope","ignore"]`) || !strings.Contains(string(data), `"notApplied":["ignore"]`) {
		t.Errorf("JSON %s does not name the selectors not applied", data)
	}
	if err := validateJSON(t, loadSchema(t), data); err != nil {
		t.Errorf("the schema refuses %s: %v", data, err)
	}
	var back Result
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.SelectorsNotApplied() != SelectorScope|SelectorIgnore || back.Operands[1].NotApplied != SelectorIgnore ||
		!slices.Equal(back.ScopesNotApplied(), []string{"too deep"}) {
		t.Errorf("read back %+v, %+v", back.Operands[0], back.Operands[1])
	}
	var older Result
	if err := json.Unmarshal([]byte(`{"type":"a","matched":true,"scopeNotApplied":"too deep"}`), &older); err != nil {
		t.Fatal(err)
	}
	if older.NotApplied != 0 || older.ScopeNotApplied != "too deep" {
		t.Errorf("an older result read as %+v", older)
	}
	if got := (Selectors(0)).Names(); got != nil {
		t.Errorf("Names of none: %q", got)
	}
	for _, bad := range []string{`{"type":"a","matched":true,"notApplied":["css"]}`, `{"type":"a","matched":true,"notApplied":"scope"}`} {
		var r Result
		if err := json.Unmarshal([]byte(bad), &r); err == nil || !strings.Contains(err.Error(), "notApplied") {
			t.Errorf("Unmarshal(%s): %v, want an error naming notApplied", bad, err)
		}
		if err := validateJSON(t, loadSchema(t), []byte(bad)); err == nil {
			t.Errorf("the schema accepts %s", bad)
		}
	}
}

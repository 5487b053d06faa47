package vigil

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestChangeReadingNote: the note of a change whose versions were read
// differently says which is read as text and why, that both were compared
// as text, and which selectors could not be applied to the texts and why,
// as the message that reported the change said it; an older ChangeReading
// without NotApplied names the scope, as messages did.
func TestChangeReadingNote(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    *ChangeReading
		want string
	}{
		{"none", nil, ""},
		{"applied", &ChangeReading{AsText: "new", Why: "served as text/plain"},
			"The new version is read as text (served as text/plain): both versions were compared as text."},
		{"ignore list", &ChangeReading{AsText: "old", Why: "nested", NotApplied: []string{SelectorIgnore}, ScopeNotApplied: []string{"too deep"}},
			"The old version is read as text (nested): both versions were compared as text. The ignore list could not be applied (too deep): the whole texts were compared."},
		{"both", &ChangeReading{AsText: "old", Why: "nested", NotApplied: []string{SelectorScope, SelectorIgnore}, ScopeNotApplied: []string{"a", "b"}},
			"The old version is read as text (nested): both versions were compared as text. The scope and the ignore list could not be applied (a; b): the whole texts were compared."},
		{"older, without names", &ChangeReading{AsText: "old", Why: "nested", ScopeNotApplied: []string{"a"}},
			"The old version is read as text (nested): both versions were compared as text. The scope could not be applied (a): the whole texts were compared."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.Note(); got != tc.want {
				t.Errorf("Note() = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestChangeReadingJSON: a change keeps how its versions were read in its
// JSON form, and a change stored before it was kept (no "reading") still
// reads, without one.
func TestChangeReadingJSON(t *testing.T) {
	c := &Change{SentinelID: 1, ResourceID: 2, FromVersion: 3, ToVersion: 4, DetectedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Reading: &ChangeReading{AsText: "old", Why: "nested", NotApplied: []string{SelectorScope}, ScopeNotApplied: []string{"too deep"}}}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back Change
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Reading == nil || back.Reading.Note() != c.Reading.Note() || back.Reading.NotApplied[0] != SelectorScope {
		t.Errorf("read back %s as %+v", b, back.Reading)
	}
	var old Change
	if err := json.Unmarshal([]byte(`{"id":7,"sentinelId":1,"resourceId":2,"fromVersion":3,"toVersion":4,"detectedAt":"2026-01-02T03:04:05Z","summary":"s","records":[]}`), &old); err != nil {
		t.Fatal(err)
	}
	if old.Reading != nil || old.ID != 7 || old.Validate() != nil {
		t.Errorf("an older change: %+v, %v", old, old.Validate())
	}
}

// TestChangeReadingValidate: a change's reading names the version read as text
// ("old" or "new") and why, and only a scope or an ignore list as what
// could not be applied, each once, with why.
func TestChangeReadingValidate(t *testing.T) {
	base := Change{SentinelID: 1, ResourceID: 2, FromVersion: 3, ToVersion: 4, DetectedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	for _, tc := range []struct {
		r    *ChangeReading
		want string // "" for valid
	}{
		{&ChangeReading{AsText: "new", Why: "x"}, ""},
		{&ChangeReading{AsText: "old", Why: "x", NotApplied: []string{SelectorScope, SelectorIgnore}, ScopeNotApplied: []string{"y"}}, ""},
		{&ChangeReading{AsText: "both", Why: "x"}, "change reading.asText"},
		{&ChangeReading{AsText: "new"}, "change reading.why"},
		{&ChangeReading{AsText: "new", Why: "x", NotApplied: []string{"css"}, ScopeNotApplied: []string{"y"}}, "change reading.notApplied"},
		{&ChangeReading{AsText: "new", Why: "x", NotApplied: []string{SelectorScope, SelectorScope}, ScopeNotApplied: []string{"y"}}, "change reading.notApplied"},
		{&ChangeReading{AsText: "new", Why: "x", NotApplied: []string{SelectorScope}}, "change reading.scopeNotApplied"},
	} {
		c := base
		c.Reading = tc.r
		err := c.Validate()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || ErrorCode(err) != EINVALID || !strings.Contains(ErrorMessage(err), tc.want)) {
			t.Errorf("%+v: %v, want %q", tc.r, err, tc.want)
		}
	}
}

package vigil

import (
	"fmt"
	"slices"
	"strings"
)

// The selectors of a change type that ChangeReading.NotApplied names.
const (
	SelectorScope  = "scope"  // its scope (In ...)
	SelectorIgnore = "ignore" // its ignore list (Ignore ...)
)

// ChangeReading says how the two versions a change compares were read,
// when they were read differently: one as a page, the other as its source
// text (Version.ReadAsText), so that both were compared as their source
// texts; and which selectors of the sentinel's change types could not be
// applied to the texts, and why (intent.Result.NotApplied and
// ScopeNotApplied). The message that reports the change says it (Note),
// and the stored change keeps it, for the dashboard, the API and feeds.
type ChangeReading struct {
	// AsText is the version read as its source text: "old" or "new".
	AsText string `json:"asText"`
	// Why is why it is read so, as Version.ReadAsText words it.
	Why string `json:"why"`
	// NotApplied names the selectors that could not be applied to the
	// texts, SelectorScope and SelectorIgnore, in that order, each once;
	// empty when all were, and in a reading recorded before they were
	// named, which ScopeNotApplied alone says were the scope.
	NotApplied []string `json:"notApplied,omitempty"`
	// ScopeNotApplied is why the selectors could not be applied (a text
	// cannot be read as HTML), each reason once; empty when all were.
	ScopeNotApplied []string `json:"scopeNotApplied,omitempty"`
}

// Note returns what a message about the change says of r, a sentence or
// two: which version is read as text and why, that both were compared as
// text, and, when selectors could not be applied, which, why, and that
// the whole texts were compared. "" for nil (versions read alike).
func (r *ChangeReading) Note() string {
	if r == nil {
		return ""
	}
	note := fmt.Sprintf("The %s version is read as text (%s): both versions were compared as text.", r.AsText, r.Why)
	if len(r.ScopeNotApplied) > 0 {
		what := r.notAppliedText()
		note += fmt.Sprintf(" %s%s could not be applied (%s): the whole texts were compared.", strings.ToUpper(what[:1]), what[1:], strings.Join(r.ScopeNotApplied, "; "))
	}
	return note
}

// notAppliedText names r's NotApplied for a message: "the scope", "the
// ignore list" or "the scope and the ignore list"; the scope when it
// names none (a reading recorded before they were named).
func (r *ChangeReading) notAppliedText() string {
	scope, ignore := slices.Contains(r.NotApplied, SelectorScope), slices.Contains(r.NotApplied, SelectorIgnore)
	switch {
	case scope && ignore:
		return "the scope and the ignore list"
	case ignore:
		return "the ignore list"
	}
	return "the scope"
}

// validate returns an EINVALID error naming the first bad field of r.
func (r *ChangeReading) validate() error {
	switch {
	case r.AsText != "old" && r.AsText != "new":
		return Errorf(EINVALID, "change reading.asText %q must be \"old\" or \"new\"", r.AsText)
	case r.Why == "":
		return Errorf(EINVALID, "change reading.why required")
	case len(r.NotApplied) > 0 && len(r.ScopeNotApplied) == 0:
		return Errorf(EINVALID, "change reading.scopeNotApplied required with notApplied")
	}
	for i, s := range r.NotApplied {
		if s != SelectorScope && s != SelectorIgnore || slices.Contains(r.NotApplied[:i], s) {
			return Errorf(EINVALID, "change reading.notApplied %q must be %q or %q, each once", s, SelectorScope, SelectorIgnore)
		}
	}
	return nil
}

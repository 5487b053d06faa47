package monitor

import (
	"slices"

	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/spec"
)

// Ignores unused on a site. An Ignore leaves nothing out of a page where
// it selects nothing, and of one that lacks the scope of its change type,
// whose content is not looked at: whatever that page holds, the Ignore is
// unused there. intent.ScopeMisses names the scope alone on such a page,
// not the Ignore, so that the Ignores of a site are looked at with the
// scopes of their change types (siteIgnores): an Ignore unused on every
// page of the crawl is noted, whichever pages have its scope, and one
// used on a page that has its scope is not.

// siteIgnore is an Ignore of a Monitor clause: its note
// (intent.IgnoreMissNote), and the notes of the scopes of the change
// types that hold it (intent.ScopeMissNote), "" for one without a scope.
type siteIgnore struct {
	note   string
	scopes []string
}

// siteIgnores lists the Ignores of the Monitor clause x, each once, in
// the order of x.
type siteIgnores []siteIgnore

// ignoresOf returns the Ignores of x with the scopes of their change
// types.
func ignoresOf(x spec.Expr) siteIgnores {
	var out siteIgnores
	for _, ct := range spec.ChangeTypes(x) {
		scope := ""
		if ct.Scope != nil && ct.Scope.Expr != nil {
			scope = intent.ScopeMissNote(ct.Scope)
		}
		for _, ig := range ct.Ignore {
			if ig == nil || ig.Expr == nil {
				continue
			}
			note := intent.IgnoreMissNote(ig)
			i := slices.IndexFunc(out, func(s siteIgnore) bool { return s.note == note })
			if i < 0 {
				out = append(out, siteIgnore{note: note})
				i = len(out) - 1
			}
			if !slices.Contains(out[i].scopes, scope) {
				out[i].scopes = append(out[i].scopes, scope)
			}
		}
	}
	return out
}

// lastScopeIn returns the index in misses of the last note of ig's
// scopes when misses name them all (every change type that holds ig has
// a scope the page lacks), -1 otherwise.
func (ig siteIgnore) lastScopeIn(misses []string) int {
	last := -1
	for _, s := range ig.scopes {
		i := slices.Index(misses, s)
		if s == "" || i < 0 {
			return -1
		}
		last = max(last, i)
	}
	return last
}

// unusedOn returns misses, the misses of a page (intent.ScopeMisses), with
// the Ignores it leaves unused and does not name: those every change type
// of which has a scope the page lacks, each after the last of their
// scopes' notes.
func (igs siteIgnores) unusedOn(misses []string) []string {
	after := map[int][]string{}
	for _, ig := range igs {
		if slices.Contains(misses, ig.note) {
			continue
		}
		if i := ig.lastScopeIn(misses); i >= 0 {
			after[i] = append(after[i], ig.note)
		}
	}
	if len(after) == 0 {
		return misses
	}
	out := make([]string, 0, len(misses)+len(after))
	for i, m := range misses {
		out = append(out, m)
		out = append(out, after[i]...)
	}
	return out
}

// alone returns common, what every page of a site lacks, without the
// Ignores whose change types' scopes it all names: a scope on no page is
// its note alone, as on a page (intent.ScopeMisses), the Ignores that only
// it makes unused left unsaid.
func (igs siteIgnores) alone(common []string) []string {
	return slices.DeleteFunc(common, func(m string) bool {
		i := slices.IndexFunc(igs, func(ig siteIgnore) bool { return ig.note == m })
		return i >= 0 && igs[i].lastScopeIn(common) >= 0
	})
}

package intent

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

// ScopeMisses returns what the primitive change types of x look at and
// doc does not have, each once, in the order of x: a scope (In css|xpath)
// that selects nothing ("scope css \"div.side\" matches nothing"), a
// table or list named by id or index that is not in the page or the
// scope ("scope table#u matches nothing", "scope table 3 matches nothing
// (the page has 2 tables)"), and table or list without a name where there
// is none ("scope table matches nothing"). Such a change type finds no
// change in doc, however the page changes there; a sentinel says so
// rather than stay silent. An Ignore that selects nothing is named too
// ("ignore css \"p.ad\" matches nothing"): it leaves nothing out, so the
// changes it was written to keep out are reported. doc is read as it is
// (not as its source text); the error is that of a selector that does not
// compile.
func ScopeMisses(doc *tree.Document, x spec.Expr) ([]string, error) {
	if doc == nil || doc.Root == nil {
		return nil, nil
	}
	tab := newSymtab()
	return scopeMisses(doc, x, Compile, func(_ *spec.ChangeType, scope Selector, ignore []Selector) (*content, error) {
		return newContent(doc, scope, ignore, false, tab), nil
	})
}

// ScopeMisses returns what ScopeMisses returns for the pair's New, read
// through the selectors and contents the pair's comparison builds (and
// builds them for it), so that a sentinel's scope notes and its
// evaluation read the page once. A New read as its source text
// (NewReadAsText) has no scope notes: its tables and lists are none.
func (p *Pair) ScopeMisses(x spec.Expr) ([]string, error) {
	if p.New == nil || p.New.Root == nil || p.NewReadAsText {
		return nil, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tab == nil {
		p.tab = newSymtab()
	}
	return scopeMisses(p.New, x, p.selector, func(ct *spec.ChangeType, scope Selector, ignore []Selector) (*content, error) {
		if p.OldReadAsText {
			// The comparison reads New as its source text (NewSource):
			// its contents are not New's.
			return newContent(p.New, scope, ignore, p.CaseSensitive, p.tab), nil
		}
		cp, err := p.content(ct)
		if err != nil {
			return nil, err
		}
		return cp.new, nil
	})
}

// ScopeMissNote is what ScopeMisses says of a scope (In) that selects
// nothing: scope css "div.side" matches nothing. sel has an expression.
func ScopeMissNote(sel *spec.Selector) string {
	return fmt.Sprintf("scope %s %q matches nothing", sel.Lang, sel.Expr.Value)
}

// IgnoreMissNote is what ScopeMisses says of an Ignore selector that
// selects nothing: ignore css "p.ad" matches nothing. sel has an
// expression.
func IgnoreMissNote(sel *spec.Selector) string {
	return fmt.Sprintf("ignore %s %q matches nothing", sel.Lang, sel.Expr.Value)
}

// scopeMisses is ScopeMisses of doc, whose selectors compile reads and
// whose content under a change type's scope and ignore list contentOf
// reads.
func scopeMisses(doc *tree.Document, x spec.Expr, compile func(*spec.Selector) (Selector, error), contentOf func(ct *spec.ChangeType, scope Selector, ignore []Selector) (*content, error)) ([]string, error) {
	var out []string
	seen := map[string]bool{} // not slices.Contains: a long chain may have many notes
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, ct := range spec.ChangeTypes(x) {
		var scope Selector
		where := ""
		if ct.Scope != nil && ct.Scope.Expr != nil {
			sel, err := compile(ct.Scope)
			if err != nil {
				return nil, fmt.Errorf("intent: %s: %w", spec.Label(ct), err)
			}
			if len(sel.Select(doc.Root)) == 0 {
				add(ScopeMissNote(ct.Scope))
				continue
			}
			scope, where = sel, fmt.Sprintf(" in %s %q", ct.Scope.Lang, ct.Scope.Expr.Value)
		}
		// An Ignore that selects nothing leaves nothing out: a selector
		// mistyped (".advert" for ".ad") lets through every change it
		// was written to keep out, and the note says why.
		var ignore []Selector
		for _, ig := range ct.Ignore {
			if ig == nil || ig.Expr == nil {
				continue
			}
			sel, err := compile(ig)
			if err != nil {
				return nil, fmt.Errorf("intent: %s: %w", spec.Label(ct), err)
			}
			if len(sel.Select(doc.Root)) == 0 {
				add(IgnoreMissNote(ig))
			}
			ignore = append(ignore, sel)
		}
		if ct.Kind != spec.Table && ct.Kind != spec.List {
			continue
		}
		c, err := contentOf(ct, scope, ignore)
		if err != nil {
			return nil, fmt.Errorf("intent: %s: %w", spec.Label(ct), err)
		}
		kind, ks := "table", c.tableObjects()
		if ct.Kind == spec.List {
			kind, ks = "list", c.listObjects()
		}
		for _, m := range containersMissing(ks, argValues(ct)) {
			add("scope " + kind + m.name + where + " matches nothing" + m.count(kind, scope != nil, len(ks)))
		}
	}
	return out, nil
}

// containerMiss is a table or list a change type names and a page lacks:
// by id ("#u", or quoted as the clause writes it when it is no plain word:
// " {\"#p\"}"), by index (" 3"), or any (""), with index set for an index.
type containerMiss struct {
	name  string
	index bool
}

// count says, for a container named by index, how many the page (or the
// scope) has: " (the page has 2 tables)".
func (m containerMiss) count(kind string, scoped bool, n int) string {
	if !m.index {
		return ""
	}
	where := "page"
	if scoped {
		where = "scope"
	}
	if n != 1 {
		kind += "s"
	}
	return " (the " + where + " has " + strconv.Itoa(n) + " " + kind + ")"
}

// containersMissing returns the names of args that no container of ks
// answers to as pickContainers finds them (by id, else by index), or,
// without args, a miss of any when ks is empty.
func containersMissing(ks []*container, args []string) []containerMiss {
	if len(args) == 0 {
		if len(ks) == 0 {
			return []containerMiss{{}}
		}
		return nil
	}
	var out []containerMiss
	for _, a := range args {
		found := slices.ContainsFunc(ks, func(k *container) bool { return k.id == a })
		n, err := strconv.Atoi(strings.TrimPrefix(a, "#"))
		if !found && err == nil {
			found = slices.ContainsFunc(ks, func(k *container) bool { return k.index == n })
		}
		switch {
		case found:
		case err == nil:
			out = append(out, containerMiss{name: " " + strconv.Itoa(n), index: true})
		case strings.ContainsAny(a, "#\"{}, \t\n") || a == "":
			// table##p would read as an id "#p" written as #p: the
			// name as the clause writes it, quoted.
			out = append(out, containerMiss{name: " {" + strconv.Quote(a) + "}"})
		default:
			out = append(out, containerMiss{name: "#" + a})
		}
	}
	return out
}

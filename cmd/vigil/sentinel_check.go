package main

import (
	"errors"

	"github.com/vigil-web/vigil/spec"
)

// checkParsed checks the sentinels of f in order, as
// spec.Checker.CheckFile does, except those that faulty (syntaxFaults)
// says hold a syntax error: those are told to the checker as failed
// (spec.Checker.Failed), so that a later sentinel that uses one, or
// refers to its events, gets one error ("sentinel a has errors"), not
// "unknown sentinel". faulty nil checks them all. Each valid sentinel is
// added to the checker, created at its Now. It returns the checked
// sentinels (nil for those with errors, or faulty) and the errors found,
// sorted by position and named with f's name, not cut.
func checkParsed(c *spec.Checker, f *spec.File, faulty []bool) ([]*spec.Checked, spec.ErrorList) {
	var errs spec.ErrorList
	out := make([]*spec.Checked, len(f.Sentinels))
	for i, s := range f.Sentinels {
		if faulty != nil && faulty[i] {
			if s.Name != nil {
				c.Failed(s.Name.Name)
			}
			continue
		}
		ch, err := c.Check(s)
		if err == nil {
			out[i] = ch
			c.Add(&spec.Stored{Checked: ch, Created: c.Now})
			continue
		}
		var list spec.ErrorList
		if !errors.As(err, &list) {
			list = spec.ErrorList{{Pos: spec.Position{Filename: f.Name}, Msg: err.Error()}}
		}
		for _, e := range list {
			if e.Msg == spec.TooManyErrors {
				continue // cut again with the file's others
			}
			e.Pos.Filename = f.Name
			errs = append(errs, e)
		}
		if s.Name != nil {
			c.Failed(s.Name.Name)
		}
	}
	errs.Sort()
	return out, errs
}

// mergeDiagnostics returns the syntax errors of a file (spec.Parse's
// error, nil if none) and the semantic errors of its sentinels that
// parsed, in one list sorted by position, cut at spec.MaxErrors as each
// of them is: past it, the list ends with "too many errors" at the first
// error left out. A syntax list the parser cut (it stopped reading there)
// stays cut at least where it was.
func mergeDiagnostics(syntax error, semantic spec.ErrorList) spec.ErrorList {
	var all spec.ErrorList
	var stopped *spec.Error // the parser's "too many errors"
	var list spec.ErrorList
	if errors.As(syntax, &list) {
		for _, e := range list {
			if e.Msg == spec.TooManyErrors {
				stopped = e
				continue
			}
			all = append(all, e)
		}
	}
	all = append(all, semantic...)
	all.Sort()
	switch {
	case len(all) > spec.MaxErrors:
		next := all[spec.MaxErrors]
		all = append(all[:spec.MaxErrors:spec.MaxErrors], &spec.Error{Pos: next.Pos, Msg: spec.TooManyErrors})
	case stopped != nil:
		all = append(all, stopped)
	}
	return all
}

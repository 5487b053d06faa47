package main

import (
	"errors"
	"slices"

	"github.com/vigil-web/vigil/spec"
)

// parseSentinelFile parses the sentinel file src, named name to the user,
// as sentinel check and sentinel add both read a file: one that holds no
// sentinel (empty, or comments only: likely the wrong file) is an error
// at its start, in the words the API uses (spec.NoSentinel).
func parseSentinelFile(name string, src []byte) (*spec.File, error) {
	f, err := spec.Parse(name, src)
	if err == nil && len(f.Sentinels) == 0 {
		err = spec.NoSentinel(name)
	}
	return f, err
}

// checkFile checks the sentinels of f, which parseSentinelFile returned
// with parseErr (nil if none), with c, as sentinel check and sentinel add
// both do: those that parsed are checked (checkParsed), and those that
// did not are known to c to have errors. It returns the sentinels checked
// (nil for those with errors) and the file's problems, nil if none: its
// syntax and semantic errors in one list (mergeDiagnostics), or parseErr
// alone when it is an error of the whole file (syntaxFaults finds no
// sentinel it belongs to), with nothing checked.
func checkFile(c *spec.Checker, f *spec.File, parseErr error) ([]*spec.Checked, error) {
	var faulty []bool
	if parseErr != nil {
		if faulty, _ = syntaxFaults(f, parseErr); faulty == nil {
			return nil, parseErr
		}
	}
	checked, errs := checkParsed(c, f, faulty)
	if errs = mergeDiagnostics(parseErr, errs); len(errs) > 0 {
		return checked, errs
	}
	return checked, nil
}

// checkParsed checks the sentinels of f in order, as
// spec.Checker.CheckFile does, except those that faulty (syntaxFaults)
// says hold a syntax error: those are told to the checker as failed
// (spec.Checker.Failed), so that a later sentinel that uses one, or
// refers to its events, gets one error ("sentinel a has errors"), not
// "unknown sentinel". faulty nil checks them all. Each valid sentinel is
// added to the checker, created at its Now. It returns the checked
// sentinels (nil for those with errors, or faulty) and the errors found,
// sorted by position and named with f's name, not cut again: a
// sentinel's list the checker cut ends with its "too many errors".
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
			c.Add(&spec.Stored{Checked: ch})
			continue
		}
		var list spec.ErrorList
		if !errors.As(err, &list) {
			list = spec.ErrorList{{Pos: spec.Position{Filename: f.Name}, Msg: err.Error()}}
		}
		for _, e := range list {
			// "too many errors" kept: where the checker stopped
			// (mergeDiagnostics).
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
// error left out. A list the parser or the checker cut (it stopped
// reporting there: spec.TooManyErrors, which checkParsed keeps) stays cut
// at least where it was, so that no error after one left out is listed
// and the list says that some were.
func mergeDiagnostics(syntax error, semantic spec.ErrorList) spec.ErrorList {
	var list spec.ErrorList
	errors.As(syntax, &list)
	var all spec.ErrorList
	var cut *spec.Error // the first error left out, by the parser or the checker
	for _, e := range slices.Concat(list, semantic) {
		switch {
		case e.Msg != spec.TooManyErrors:
			all = append(all, e)
		case cut == nil || before(e, cut):
			cut = e
		}
	}
	all.Sort()
	n := len(all)
	if cut != nil {
		n = slices.IndexFunc(all, func(e *spec.Error) bool { return !before(e, cut) })
		if n < 0 {
			n = len(all)
		}
	}
	if n > spec.MaxErrors {
		n = spec.MaxErrors
	}
	if n < len(all) && (cut == nil || before(all[n], cut)) {
		cut = all[n]
	}
	all = all[:n:n]
	if cut != nil {
		all = append(all, &spec.Error{Pos: cut.Pos, Msg: spec.TooManyErrors})
	}
	return all
}

// before reports whether a is at a position before b's, in one file.
func before(a, b *spec.Error) bool {
	if a.Pos.Line != b.Pos.Line {
		return a.Pos.Line < b.Pos.Line
	}
	return a.Pos.Column < b.Pos.Column
}

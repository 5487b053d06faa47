package main

import (
	"errors"

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
// did not are checked as far as they parsed and known to c to have
// errors. It returns the sentinels checked
// (nil for those with errors) and the file's problems, nil if none: its
// syntax and semantic errors in one list (spec.MergeErrors), or parseErr
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
	if errs = spec.MergeErrors(parseErr, errs); len(errs) > 0 {
		return checked, errs
	}
	return checked, nil
}

// checkParsed checks the sentinels of f in order, as
// spec.Checker.CheckFile does, except those that faulty (syntaxFaults)
// says hold a syntax error: those are checked as far as they parsed
// (spec.Checker.CheckPartial), never valid, and told to the checker as
// failed (spec.Checker.Failed), so that a later sentinel that uses one, or
// refers to its events, gets one error ("sentinel a has errors"), not
// "unknown sentinel". faulty nil checks them all. Each valid sentinel is
// added to the checker, created at its Now. It returns the checked
// sentinels (nil for those with errors, or faulty) and the errors found,
// sorted by position and named with f's name, not cut again: a
// sentinel's list the checker cut ends with its "too many errors".
func checkParsed(c *spec.Checker, f *spec.File, faulty []bool) ([]*spec.Checked, spec.ErrorList) {
	var errs spec.ErrorList
	out := make([]*spec.Checked, len(f.Sentinels))
	c.Ahead(f)
	for i, s := range f.Sentinels {
		var list spec.ErrorList
		if faulty != nil && faulty[i] {
			// Checked as far as it parsed, so that its other
			// problems are told in the same run; never added.
			list = c.CheckPartial("", s)
		} else {
			ch, err := c.Check(s)
			if err == nil {
				out[i] = ch
				c.Add(&spec.Stored{Checked: ch, At: s.Name.NamePos.Position(f.Name)})
				continue
			}
			if !errors.As(err, &list) {
				list = spec.ErrorList{{Pos: spec.Position{Filename: f.Name}, Msg: err.Error()}}
			}
		}
		for _, e := range list {
			// "too many errors" kept: where the checker stopped
			// (spec.MergeErrors).
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

package spec

import (
	"errors"
	"slices"
)

// MergeErrors returns the syntax errors of a file (Parse's error, nil
// if none) and the semantic errors of its sentinels (Checker.Check's,
// and Checker.CheckPartial's for those with syntax errors), in one list
// sorted by position, cut at MaxErrors as each of them is: past it, the
// list ends with "too many errors" at the first error left out. A list
// the parser or the checker cut (it stopped reporting there:
// TooManyErrors, kept in the list given) stays cut at least where it
// was, so that no error after one left out is listed and the list says
// that some were.
func MergeErrors(syntax error, semantic ErrorList) ErrorList {
	var list ErrorList
	errors.As(syntax, &list)
	var all ErrorList
	var cut *Error // the first error left out, by the parser or the checker
	for _, e := range slices.Concat(list, semantic) {
		switch {
		case e.Msg != TooManyErrors:
			all = append(all, e)
		case cut == nil || before(e, cut):
			cut = e
		}
	}
	all.Sort()
	n := len(all)
	if cut != nil {
		n = slices.IndexFunc(all, func(e *Error) bool { return !before(e, cut) })
		if n < 0 {
			n = len(all)
		}
	}
	if n > MaxErrors {
		n = MaxErrors
	}
	if n < len(all) && (cut == nil || before(all[n], cut)) {
		cut = all[n]
	}
	all = all[:n:n]
	if cut != nil {
		all = append(all, &Error{Pos: cut.Pos, Msg: TooManyErrors})
	}
	return all
}

// before reports whether a is at a position before b's, in one file.
func before(a, b *Error) bool {
	if a.Pos.Line != b.Pos.Line {
		return a.Pos.Line < b.Pos.Line
	}
	return a.Pos.Column < b.Pos.Column
}

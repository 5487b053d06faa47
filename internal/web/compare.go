package web

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/vigil-web/vigil"
)

// The compare form of a history names its two versions by number (the
// #Seq of the timeline), any two of the page's, not only those of the
// timeline's page shown: from_version and to_version, which the diff page
// takes instead of from and to (ids).
const (
	fromVersionField = "from_version"
	toVersionField   = "to_version"
)

// compareFieldLabels are the labels of the compare form's fields, which
// its problems name.
var compareFieldLabels = map[string]string{fromVersionField: "From version", toVersionField: "To version"}

// compareProblem is why the compare form cannot compare what it was
// given: its history shows it beside the form, which keeps what was
// typed.
type compareProblem struct {
	// Field is the field at fault, fromVersionField or toVersionField.
	Field   string
	Message string
	// From and To are the fields' values as sent when they are version
	// numbers (versionNumber), "" otherwise: anything else, a link could
	// have typed. View is the view asked for, one of the diff page's.
	From, To, View string
}

// versionNumber returns the version number text names (#12 or 12, with
// spaces around), and whether it names one.
func versionNumber(text string) (int64, bool) {
	seq, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(text), "#"), 10, 64)
	return seq, err == nil
}

// keptNumber is what the compare form shows again of a field's text: the
// version number it names, or "" for text that names none, which the
// form does not repeat.
func keptNumber(text string) string {
	if seq, ok := versionNumber(text); ok {
		return strconv.FormatInt(seq, 10)
	}
	return ""
}

// compareVersions returns the ids of the versions the compare form names
// by number, as the diff page's from and to, or the problem of the first
// field it cannot take: a number missing, not a number, one the page has
// no version of (never fetched, or no longer kept), or a failed fetch,
// which has no body to compare. err is the store's.
func (s *Server) compareVersions(ctx context.Context, res *vigil.Resource, fromText, toText, view string) (from, to string, problem *compareProblem, err error) {
	var ids [2]string
	for i, field := range []string{fromVersionField, toVersionField} {
		typed := [2]string{fromText, toText}[i]
		refuse := func(format string, args ...any) (string, string, *compareProblem, error) {
			msg, err := s.compareMessage(ctx, res, compareFieldLabels[field]+": "+fmt.Sprintf(format, args...))
			return "", "", &compareProblem{Field: field, Message: msg, From: keptNumber(fromText), To: keptNumber(toText), View: view}, err
		}
		if strings.TrimPrefix(strings.TrimSpace(typed), "#") == "" {
			return refuse("missing: give the number of a version")
		}
		// What was typed is not said again: the form is a GET, and a
		// link could make the page say anything in its alert.
		seq, ok := versionNumber(typed)
		if !ok {
			return refuse("not a version number (#12 or 12)")
		}
		v, err := s.Store.FindVersionBySeq(ctx, res.ID, seq)
		switch {
		case vigil.ErrorCode(err) == vigil.ENOTFOUND:
			return refuse("this page has no version #%d", seq)
		case err != nil:
			return "", "", nil, err
		case v.Error != "":
			return refuse("version #%d is %s, which has no body to compare", seq, noBody(v))
		}
		ids[i] = strconv.FormatInt(v.ID, 10)
	}
	return ids[0], ids[1], nil, nil
}

// compareMessage returns msg followed by the versions the page keeps.
func (s *Server) compareMessage(ctx context.Context, res *vigil.Resource, msg string) (string, error) {
	first, _, err := s.Store.FindVersions(ctx, vigil.VersionFilter{ResourceID: res.ID, Limit: 1})
	if err != nil {
		return "", err
	}
	last, _, err := s.Store.FindVersions(ctx, vigil.VersionFilter{ResourceID: res.ID, Descending: true, Limit: 1})
	if err != nil {
		return "", err
	}
	if len(first) == 0 || len(last) == 0 {
		return msg + "; it keeps no version yet.", nil
	}
	return fmt.Sprintf("%s; it keeps versions #%d to #%d.", msg, first[0].Seq, last[0].Seq), nil
}

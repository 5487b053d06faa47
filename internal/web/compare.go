package web

import (
	"context"
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

// compareVersions returns the ids of the versions the compare form names
// by number, as the diff page's from and to. Each error names the field
// at fault and the versions the page keeps: a number missing, not a
// number, one the page has no version of (never fetched, or no longer
// kept), or a failed fetch, which has no body to compare.
func (s *Server) compareVersions(ctx context.Context, res *vigil.Resource, fromText, toText string) (from, to string, err error) {
	var ids [2]string
	for i, f := range []struct{ name, text string }{{fromVersionField, fromText}, {toVersionField, toText}} {
		text := strings.TrimPrefix(strings.TrimSpace(f.text), "#")
		if text == "" {
			return "", "", s.compareError(ctx, res, "%s is missing: want the number of a version", f.name)
		}
		seq, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return "", "", s.compareError(ctx, res, "%s: %q is not a version number (#12 or 12)", f.name, f.text)
		}
		v, err := s.Store.FindVersionBySeq(ctx, res.ID, seq)
		switch {
		case vigil.ErrorCode(err) == vigil.ENOTFOUND:
			return "", "", s.compareError(ctx, res, "%s: this page has no version #%d", f.name, seq)
		case err != nil:
			return "", "", err
		case v.Error != "":
			return "", "", vigil.Errorf(vigil.EINVALID, "%s: version #%d is a failed fetch (%s), which has no body to compare", f.name, seq, v.Error)
		}
		ids[i] = strconv.FormatInt(v.ID, 10)
	}
	return ids[0], ids[1], nil
}

// compareError returns the EINVALID error of a compare form's field, the
// message format and args, followed by the versions the page keeps.
func (s *Server) compareError(ctx context.Context, res *vigil.Resource, format string, args ...any) error {
	msg := vigil.ErrorMessage(vigil.Errorf(vigil.EINVALID, format, args...))
	first, _, err := s.Store.FindVersions(ctx, vigil.VersionFilter{ResourceID: res.ID, Limit: 1})
	if err != nil {
		return err
	}
	last, _, err := s.Store.FindVersions(ctx, vigil.VersionFilter{ResourceID: res.ID, Descending: true, Limit: 1})
	if err != nil {
		return err
	}
	if len(first) == 0 || len(last) == 0 {
		return vigil.Errorf(vigil.EINVALID, "%s; it keeps no version yet", msg)
	}
	return vigil.Errorf(vigil.EINVALID, "%s; it keeps versions #%d to #%d (its history, /resources/%d, lists them, some perhaps failed fetches)",
		msg, first[0].Seq, last[0].Seq, res.ID)
}

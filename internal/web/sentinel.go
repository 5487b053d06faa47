package web

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// checker returns a spec checker for u's sentinels (Server.Checker),
// reading dates in u's zone (userLocation).
func (s *Server) checker(ctx context.Context, u *vigil.User, now time.Time) (*spec.Checker, error) {
	if s.Checker == nil {
		return nil, vigil.Errorf(vigil.EINTERNAL, "web: the server has no sentinel checker")
	}
	c, err := s.Checker(ctx, u, now)
	if c != nil {
		c.Location, _ = s.userLocation(u)
	}
	return c, err
}

// sentinelInput is the body of a create, update or check request: the
// sentinel as text in the sentinel language, or in its JSON form.
type sentinelInput struct {
	Source   string          `json:"source,omitempty"`
	Sentinel json.RawMessage `json:"sentinel,omitempty"`
	// editor says the input is the dashboard editor's form, whose only
	// field is the source: its error for none names no JSON form.
	editor bool
	// precondition, if not nil, is checked against the edited sentinel
	// as stored, in the transaction that saves the edit
	// (vigil.SentinelStore.UpdateSentinelsIf): the If-Match of PUT
	// /api/v1/sentinels/{id}, or the revision of the editor's form
	// (formRevision). Nil: the last write wins.
	precondition func(stored *vigil.Sentinel) error
	// live says the input is the live check's, which warns at their URLs
	// of the pages and webhooks this server does not reach
	// (Server.Unreachable). A save does not ask: those warnings are the
	// server's of the day, not the sentinel's, and would be stored with
	// its checked form; the view of the sentinel gives them
	// (unreachableWarnings).
	live bool
}

// CheckResult is the answer of the live check: the diagnostics with their
// positions, the warnings, and the canonical form when there is no error.
type CheckResult struct {
	Valid     bool            `json:"valid"`
	Errors    []Diagnostic    `json:"errors"`
	Warnings  []Diagnostic    `json:"warnings"`
	Canonical string          `json:"canonical,omitempty"`
	Checked   json.RawMessage `json:"checked,omitempty"`
}

// diagnostics converts spec errors in src to positioned diagnostics. A
// diagnostic's range is the offending text where the error is at it, else
// the one character at its position: "expected X, found Y" is at Y, and Y
// is marked, even where X is missing at the end of the line before Y's
// clause, but "found end of file" is where X is missing, after the last
// token. The range lies within src (0 <= Offset <= End <= len(src)), so
// that a client can slice the source with it: an error at the very end
// has an empty one there.
func diagnostics(err error, src string) []Diagnostic {
	var list spec.ErrorList
	var fields spec.FieldErrors
	var out []Diagnostic
	switch {
	case errors.As(err, &list):
		for _, e := range list {
			at := min(max(e.Pos.Offset, 0), len(src))
			d := Diagnostic{Line: e.Pos.Line, Column: e.Pos.Column, Offset: at, End: at, Message: e.Msg}
			if strings.HasPrefix(src[at:], e.Found) {
				d.End += len(e.Found)
			} else if n := writtenLen(src[at:], e.Found); n > 0 {
				d.End += n
			}
			if d.End == d.Offset {
				// The one character there, whole; none at the end.
				_, w := utf8.DecodeRuneInString(src[at:])
				d.End += w
			}
			out = append(out, d)
		}
	case errors.As(err, &fields):
		for _, f := range fields {
			out = append(out, Diagnostic{Field: f.Path, Message: f.Msg})
		}
	case err != nil:
		out = append(out, Diagnostic{Message: err.Error()})
	}
	return out
}

// writtenLen returns the length of the prefix of src that is found, a
// sentinel name reported as the language keeps it (spec.CanonicalName),
// written decomposed in src ("cafe" and U+0301 for café); 0 if none is.
// A decomposed letter is at most a few marks longer than the composed one.
func writtenLen(src, found string) int {
	if found == "" {
		return 0
	}
	for end := len(found) + 1; end <= len(src) && end <= 4*len(found); end++ {
		if utf8.ValidString(src[:end]) && spec.CanonicalName(src[:end]) == found {
			return end
		}
	}
	return 0
}

// checkInput parses and checks a sentinel for u. replacing is the stored
// sentinel an update replaces (nil for a new one). It returns the parsed
// and checked sentinel, or the diagnostics: that of a name another of u's
// sentinels has (spec.Error.NameTaken) is marked on the field name
// (nameTakenField), and taken says it is the only one.
func (s *Server) checkInput(ctx context.Context, u *vigil.User, in *sentinelInput, replacing *vigil.Sentinel, now time.Time) (sen *spec.Sentinel, ch *spec.Checked, diags []Diagnostic, taken bool, err error) {
	var others []*spec.Sentinel // those after sen in a source of several
	switch {
	case len(in.Sentinel) > 0 && in.Source != "":
		return nil, nil, nil, false, vigil.Errorf(vigil.EINVALID, "give either source or sentinel, not both")
	case len(in.Sentinel) > 0:
		sen, err = spec.DecodeSentinel(in.Sentinel)
	case strings.TrimSpace(in.Source) != "":
		f, perr := spec.Parse("", []byte(in.Source))
		sen, err = spec.SoleSentinel(f, perr)
		if len(f.Sentinels) > 1 {
			others = f.Sentinels[1:]
		}
	case in.editor:
		return nil, nil, nil, false, vigil.Errorf(vigil.EINVALID, "sentinel source required")
	default:
		return nil, nil, nil, false, vigil.Errorf(vigil.EINVALID, "a sentinel is required: give source (its text in the sentinel language) or sentinel (its JSON form)")
	}
	var syntax spec.ErrorList
	if err != nil && (sen == nil || !errors.As(err, &syntax)) {
		return sen, nil, diagnostics(err, in.Source), false, nil
	}
	c, cerr := s.checker(ctx, u, now)
	switch {
	case cerr != nil && err != nil:
		return sen, nil, diagnostics(err, in.Source), false, nil // its syntax errors alone
	case cerr != nil:
		return nil, nil, nil, false, cerr
	}
	if err != nil {
		// Its syntax errors, and the semantic errors of what parsed,
		// in one list; those of each sentinel of a source that holds
		// more than one.
		old := ""
		if replacing != nil {
			old = replacing.Name
		}
		semantic, err := sourceErrors(c, old, append([]*spec.Sentinel{sen}, others...))
		if err != nil {
			return nil, nil, nil, false, err
		}
		list := spec.MergeErrors(syntax, semantic)
		return sen, nil, listDiagnostics(list, in.Source), false, nil
	}
	if in.live && s.Unreachable != nil {
		c.Unreachable = s.reachOf(ctx)
	}
	if replacing != nil {
		ch, err = c.CheckReplace(replacing.Name, sen)
	} else {
		ch, err = c.Check(sen)
	}
	if err != nil {
		var list spec.ErrorList
		if !errors.As(err, &list) {
			return nil, nil, nil, false, err
		}
		return sen, nil, listDiagnostics(list, in.Source), len(list) == 1 && list[0].NameTaken, nil
	}
	return sen, ch, nil, false, nil
}

// sourceErrors returns the semantic errors of sens, the sentinels of one
// source, in order, as vigil sentinel check finds those of a file: one
// with syntax errors is checked as far as it parsed
// (spec.Checker.CheckPartial) and told to c as failed, so that a later
// one that uses it is told it has errors; one without is checked in full,
// and a valid one is known to the later ones. The first is checked as an
// edit of the stored sentinel old, if not ""; the others, in the source
// by mistake, as new ones: set aside for each, the stored sentinels were
// copied once a sentinel, as many times as the source holds (seconds of
// the server's time for a paste of thousands). The errors are sorted by
// position, each list the checker cut ending with its "too many errors"
// (spec.MergeErrors cuts them all).
func sourceErrors(c *spec.Checker, old string, sens []*spec.Sentinel) (spec.ErrorList, error) {
	var errs spec.ErrorList
	for i, sen := range sens {
		if i > 0 {
			old = ""
		}
		if sen.HasSyntaxErrors() {
			errs = append(errs, c.CheckPartial(old, sen)...)
		} else {
			var ch *spec.Checked
			var err error
			if old != "" {
				ch, err = c.CheckReplace(old, sen)
			} else {
				ch, err = c.Check(sen)
			}
			if err == nil {
				c.Add(&spec.Stored{Checked: ch})
				continue
			}
			var list spec.ErrorList
			if !errors.As(err, &list) {
				return nil, err
			}
			errs = append(errs, list...)
		}
		if sen.Name != nil {
			c.Failed(sen.Name.Name)
		}
	}
	errs.Sort()
	return errs, nil
}

// listDiagnostics returns the diagnostics of the errors of a sentinel's
// source src, one an error, in the list's order: that of a name another
// of the owner's sentinels has is marked on the field name.
func listDiagnostics(list spec.ErrorList, src string) []Diagnostic {
	diags := diagnostics(list, src)
	for i, e := range list {
		if e.NameTaken && i < len(diags) {
			diags[i].Field = nameTakenField
		}
	}
	return diags
}

// printSource returns the canonical form of sen, parsed from src (empty
// for a sentinel sent as JSON), with src's comments laid out as vigil
// sentinel fmt lays them: the printed sentinel alone would lose the notes
// written in the editor.
func printSource(sen *spec.Sentinel, src string) string {
	if src != "" {
		if f, err := spec.Parse("", []byte(src)); err == nil && len(f.Comments) > 0 && len(f.Sentinels) == 1 {
			return spec.Print(f)
		}
	}
	return spec.Print(sen)
}

// saveSentinel creates (replacing nil) or updates a sentinel from input;
// an update is saved in one transaction with the sentinels using the
// sentinel that it checked again (recheckUsers). ECONFLICT if another of
// u's sentinels has its name, found by the check (nameHeld) or by the
// store since (nameTaken), or if the sentinels using it refuse a rename
// or would be made invalid (usedConflict): nothing is saved. An edit whose users were removed as
// it was being saved, which failed the write, is checked and saved again
// (saveAttempts), the users removed constraining it no more; if users
// are removed at each write, it is ECONFLICT naming them (usersRemoved).
// A name the check found taken whose holder was removed before it was
// looked up (a *nameFreedError) is free: the save is tried again, once.
func (s *Server) saveSentinel(ctx context.Context, u *vigil.User, in *sentinelInput, replacing *vigil.Sentinel) (*vigil.Sentinel, error) {
	var removed []string
	for range saveAttempts {
		out, err := s.saveSentinelOnce(ctx, u, in, replacing)
		var freed *nameFreedError
		if errors.As(err, &freed) { // the name is free now: try again, once
			if out, err = s.saveSentinelOnce(ctx, u, in, replacing); errors.As(err, &freed) {
				return nil, freed.conflict
			}
		}
		var gone *usersGoneError
		if !errors.As(err, &gone) {
			return out, err
		}
		removed = append(removed, gone.removed...)
		if replacing, err = s.Store.FindSentinelByID(ctx, replacing.ID); err != nil {
			return nil, err
		}
	}
	return nil, usersRemoved(replacing.Name, removed)
}

// saveSentinelOnce is one attempt of saveSentinel: a *usersGoneError if
// users of the edit that it saved with it were removed meanwhile.
func (s *Server) saveSentinelOnce(ctx context.Context, u *vigil.User, in *sentinelInput, replacing *vigil.Sentinel) (*vigil.Sentinel, error) {
	now := s.now().UTC().Truncate(time.Second)
	sen, ch, diags, taken, err := s.checkInput(ctx, u, in, replacing, now)
	if err != nil {
		return nil, err
	}
	if taken {
		return nil, s.nameHeld(ctx, u, sen, in.Source, replacing, diags[0].Message)
	}
	if len(diags) > 0 {
		return nil, &diagnosticsError{err: vigil.Errorf(vigil.EINVALID, "%s", diagSummary(diags)), Diagnostics: diags}
	}
	if replacing != nil && !vigil.SameSentinelName(replacing.Name, sen.Name.Name) {
		if err := s.refuseIfUsed(ctx, u, replacing.Name, "renamed"); err != nil {
			return nil, usedConflict(sen, in.Source, err, true)
		}
	}
	var users []*vigil.Sentinel
	if replacing != nil {
		if users, err = s.recheckUsers(ctx, u, replacing, ch, now); err != nil {
			return nil, usedConflict(sen, in.Source, err, false)
		}
	}
	specJSON, err := json.Marshal(ch)
	if err != nil {
		return nil, err
	}
	// The zone its dates were read in (checker) is kept with it.
	loc, _ := s.userLocation(u)
	out := &vigil.Sentinel{OwnerID: u.ID, Name: sen.Name.Name, Source: printSource(sen, in.Source), Spec: specJSON,
		Status: vigil.SentinelActive, NextCheck: now, TimeZone: loc.String()}
	if ch.Start.After(now) {
		// In UTC, as the store gives it back (GET): Start is in the
		// zone the dates were read in. A From past the times the
		// stores keep (2262) is never in practice: the last they keep.
		out.NextCheck = vigil.ClampStorableTime(ch.Start.UTC())
	}
	if replacing != nil {
		out.ID, out.Status, out.CreatedAt = replacing.ID, replacing.Status, replacing.CreatedAt
		// The edit and its users are saved together or not at all.
		if in.precondition != nil {
			err = s.Store.UpdateSentinelsIf(ctx, append([]*vigil.Sentinel{out}, users...), in.precondition)
		} else {
			err = s.Store.UpdateSentinels(ctx, append([]*vigil.Sentinel{out}, users...))
		}
	} else {
		err = s.Store.CreateSentinel(ctx, out)
	}
	switch vigil.ErrorCode(err) {
	case vigil.ECONFLICT:
		// The name, which another sentinel took since it was checked,
		// is shown on the name; another conflict as itself.
		return nil, nameTaken(sen, in.Source, err)
	case vigil.ENOTFOUND:
		if replacing == nil || len(users) == 0 {
			break
		}
		if _, ferr := s.Store.FindSentinelByID(ctx, out.ID); ferr == nil {
			err = s.usersGone(ctx, users, err)
		}
	}
	if err != nil {
		return nil, err
	}
	s.kick()
	return out, nil
}

// recheckUsers checks again the sentinels that use old (Using old, or
// its events), and those that use them, against ch, old's edit: they took
// its pages and clauses when they were checked, and would go on watching
// what old watched before. It returns those whose checked form changes,
// ready to store and due now, or ECONFLICT naming one the edit would make
// invalid.
func (s *Server) recheckUsers(ctx context.Context, u *vigil.User, old *vigil.Sentinel, ch *spec.Checked, now time.Time) ([]*vigil.Sentinel, error) {
	all, _, err := s.Store.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID})
	if err != nil {
		return nil, err
	}
	byName := map[string]*vigil.Sentinel{}
	specs := make([][]byte, len(all))
	for i, o := range all {
		byName[strings.ToLower(o.Name)] = o
		specs[i] = o.Spec
	}
	if len(spec.UsedBy(old.Name, specs)) == 0 {
		return nil, nil
	}
	c, err := s.checker(ctx, u, now)
	if err != nil {
		return nil, err
	}
	// known registers a checked sentinel with the checker, keeping the
	// run-time status the store gave it, read in loc.
	known := func(sen *vigil.Sentinel, checked *spec.Checked, loc *time.Location) {
		st := &spec.Stored{Checked: checked, Location: loc}
		if c.Lookup != nil {
			if prior := c.Lookup(sen.Name); prior != nil {
				st.Started, st.Ended = prior.Started, prior.Ended
			}
		}
		c.Add(st)
	}
	known(old, ch, c.Location) // the edit, read in u's zone
	var out []*vigil.Sentinel
	done := map[string]bool{strings.ToLower(old.Name): true}
	for queue := []string{old.Name}; len(queue) > 0; queue = queue[1:] {
		for _, name := range spec.UsedBy(queue[0], specs) {
			dep := byName[strings.ToLower(name)]
			if dep == nil || done[strings.ToLower(name)] {
				continue
			}
			done[strings.ToLower(name)] = true
			parsed, err := spec.ParseSentinel("", []byte(dep.Source))
			if err != nil {
				return nil, fmt.Errorf("sentinel %s: %w", dep.Name, err)
			}
			// Its dates are read again in the zone they were read in
			// when it was saved, which it keeps: only its own edit
			// reads them in the owner's zone of the day.
			c.Location = s.sentinelLocation(dep)
			dch, err := c.RecheckStored(dep.Name, parsed)
			if err != nil {
				return nil, vigil.Errorf(vigil.ECONFLICT, "sentinel %s cannot be changed so: %s, which uses it, would be invalid: %s", old.Name, dep.Name, err)
			}
			known(dep, dch, c.Location)
			queue = append(queue, dep.Name)
			js, err := json.Marshal(dch)
			if err != nil {
				return nil, err
			}
			if bytes.Equal(js, dep.Spec) {
				continue
			}
			next := *dep
			next.Spec, next.NextCheck = js, now
			if dch.Start.After(now) {
				next.NextCheck = vigil.ClampStorableTime(dch.Start.UTC())
			}
			out = append(out, &next)
		}
	}
	return out, nil
}

func diagSummary(d []Diagnostic) string {
	if len(d) == 0 {
		return ""
	}
	msg := d[0].Message
	switch {
	case d[0].Line > 0:
		msg = strconv.Itoa(d[0].Line) + ":" + strconv.Itoa(d[0].Column) + ": " + msg
	case d[0].Field != "":
		msg = d[0].Field + ": " + msg
	}
	switch {
	case len(d) > 1 && d[len(d)-1].Message == spec.TooManyErrors:
		// A list cut at spec.MaxErrors: its last entry is not an error.
		msg += " (and more than " + strconv.Itoa(len(d)-2) + " others)"
	case len(d) > 1:
		msg += " (and " + strconv.Itoa(len(d)-1) + " more)"
	}
	return msg
}

func (s *Server) kick() {
	if s.Kick != nil {
		s.Kick()
	}
}

// ownSentinel returns sentinel id of u; ENOTFOUND for another's.
func (s *Server) ownSentinel(ctx context.Context, u *vigil.User, idText string) (*vigil.Sentinel, error) {
	id, err := idParam("sentinel id", idText)
	if err != nil {
		return nil, err
	}
	sen, err := s.Store.FindSentinelByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if sen.OwnerID != u.ID {
		return nil, vigil.Errorf(vigil.ENOTFOUND, "sentinel %d not found", id)
	}
	return sen, nil
}

// setStatus pauses, resumes or schedules a sentinel for a check now, for
// u, its owner, in whose zone a refusal says a time. None of them is an
// edit: the sentinel's UpdatedAt stays (vigil.SentinelStore.SetSentinelStatus).
func (s *Server) setStatus(ctx context.Context, u *vigil.User, sen *vigil.Sentinel, action string) error {
	now := s.now().UTC()
	switch action {
	case "pause":
		sen.Status = vigil.SentinelPaused
	case "resume":
		if sen.Status != vigil.SentinelActive {
			sen.Status = vigil.SentinelActive
			if sen.NextCheck.Before(now) {
				sen.NextCheck = now
			}
		}
	case "check-now":
		if sen.Status != vigil.SentinelActive {
			return vigil.Errorf(vigil.ECONFLICT, "sentinel %s is paused; resume it first", sen.Name)
		}
		v := s.sentinelView(ctx, sen)
		switch life := v.Lifespan; {
		case life == "ended":
			// The monitor checks it no more: a check now would be none.
			return vigil.Errorf(vigil.ECONFLICT, "sentinel %s has ended (its To has passed): edit its To to check it again", sen.Name)
		case life != "active" && v.start().After(now):
			// Nor before its start.
			return vigil.Errorf(vigil.ECONFLICT, "sentinel %s has not started: it starts at %s; edit its From to check it before",
				sen.Name, fmtTime(v.start(), s.displayLocation(u)))
		case life == "pending":
			return vigil.Errorf(vigil.ECONFLICT, "sentinel %s has not started (the event of its From has not come): it is checked from its start", sen.Name)
		}
		sen.NextCheck = now
	default:
		return vigil.Errorf(vigil.ENOTFOUND, "no sentinel action: the actions are pause, resume, check-now and delete")
	}
	// The status and the next check alone: not an edit of the sentinel,
	// whose UpdatedAt stays (a site's reference that can never be
	// compared again is replaced after an edit alone).
	if err := s.Store.SetSentinelStatus(ctx, sen.ID, sen.Status, sen.NextCheck); err != nil {
		return err
	}
	s.kick()
	return nil
}

// readJSON decodes a JSON request body (of at most maxRequestBody bytes,
// as secure limits every body) into v, a pointer to the endpoint's
// struct. Its errors say what is wrong in JSON's terms, naming the
// endpoint's fields (and a member it does not take, if the name reads as
// a field's: fieldName), and where a body that is not JSON goes wrong
// (jsonsyntax.go). A member of the wrong type, or one the endpoint does
// not take, is named by its path (bodyMembers: "operands[1].args", as the
// JSON form of a sentinel names its fields) in the message and in the
// error's diagnostic's field (fieldError), as a member a route refuses is.
// A body not said to be JSON (jsonContentType) is refused unread.
func readJSON(r *http.Request, v any) error {
	if err := jsonContentType(r); err != nil {
		return err
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		if big := tooLarge(err); big != nil {
			return big
		}
		return vigil.Errorf(vigil.EINVALID, "invalid JSON body: %v", err)
	}
	// A member the endpoint does not take, at any depth, is refused
	// before the body is decoded: encoding/json names it without its
	// path, and takes a member for a field whose name differs only in
	// case ("timezone" for timeZone), where a member is a field only when
	// spelt as it is, as any other name is refused. A body that is not
	// JSON has none: the decoder says what is wrong with it.
	members, _ := readMembers(body, reflect.TypeOf(v))
	if members != nil && members.unknown != nil {
		return unknownField(members.unknown)
	}
	if members != nil && members.twice != nil {
		// encoding/json keeps a member's last value: the first would be
		// ignored, where a body is taken whole or refused.
		return twiceField(*members.twice)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			// Said in the terms of JSON: encoding/json names the Go types,
			// and the member's path without its items' indexes (and with
			// the embedded structs' names).
			var path string
			if members != nil {
				path = members.at(te.Offset)
			}
			if path == "" {
				return vigil.Errorf(vigil.EINVALID, "invalid JSON body: want %s, found %s", jsonType(te.Type), article(te.Value))
			}
			return fieldError(path, fmt.Sprintf("invalid JSON body: %s: want %s, found %s", path, jsonType(te.Type), article(te.Value)))
		}
		if errors.Is(err, io.EOF) {
			// encoding/json's word for no value at all.
			return vigil.Errorf(vigil.EINVALID, "invalid JSON body: it is empty: want an object")
		}
		if strings.HasPrefix(err.Error(), "json: unknown field ") {
			// readMembers found none: the endpoint's fields, at least.
			return unknownField(&unknownMember{fields: jsonFields(reflect.TypeOf(v))})
		}
		if msg, ok := syntaxMessage(body, err); ok {
			return vigil.Errorf(vigil.EINVALID, "invalid JSON body: %s", msg)
		}
		return vigil.Errorf(vigil.EINVALID, "invalid JSON body: %v", err)
	}
	// One value: what follows it would be silently ignored.
	if more := len(body) - len(bytes.TrimLeft(body[dec.InputOffset():], " \t\r\n")); more < len(body) {
		return vigil.Errorf(vigil.EINVALID, "invalid JSON body: %s: more after the object", jsonPosition(body, more))
	}
	return nil
}

// twiceField is readJSON's error for a member given twice in its object,
// at path ("" for the body's top, whose member's name is not said).
func twiceField(path string) error {
	if path == "" {
		return vigil.Errorf(vigil.EINVALID, "invalid JSON body: a member is given twice: give each once")
	}
	return fieldError(path, fmt.Sprintf("invalid JSON body: %s is given twice: give it once", path))
}

// unknownField is readJSON's error for u, a member that the endpoint's
// struct does not take: it names the fields of the object u is in, and
// u by its path (in the error's diagnostic's field too) when its name
// reads as a field name ("sourc"); anything else the request sent is not
// repeated, and the diagnostic names the object u is in (none at the
// body's top).
func unknownField(u *unknownMember) error {
	fields := strings.Join(u.fields, ", ")
	var msg string
	switch {
	case u.name != "" && u.in == "":
		msg = fmt.Sprintf("invalid JSON body: unknown field %q: its fields are %s", u.name, fields)
	case u.name != "":
		msg = fmt.Sprintf("invalid JSON body: unknown field %q: the fields of %s are %s", u.path(), u.in, fields)
	case u.in != "":
		msg = fmt.Sprintf("invalid JSON body: a field %s does not take: its fields are %s", u.in, fields)
	default:
		return vigil.Errorf(vigil.EINVALID, "invalid JSON body: a field this endpoint does not take: its fields are %s", fields)
	}
	return fieldError(u.path(), msg)
}

// fieldName is what a misspelt field's name looks like: a letter, then
// up to 63 letters, digits, "_", "-" or ".". readJSON repeats such a name
// in its answer, and nothing else a request sent.
var fieldName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]{0,63}$`)

// jsonFields returns the names of the members that a JSON object decoded
// into a value of type t (a struct, or a pointer to one) may have, in the
// order of its fields, those of an embedded struct in its place.
func jsonFields(t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			names = append(names, jsonFields(f.Type)...)
		case !f.IsExported():
		case name == "":
			names = append(names, f.Name)
		default:
			names = append(names, name)
		}
	}
	return names
}

// jsonType names the JSON value that decodes into a value of type t.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	default:
		return "an object"
	}
}

// article puts "a" or "an" before the name of a JSON value that
// encoding/json gives ("array", "object", "string", "number", "bool").
func article(value string) string {
	switch value {
	case "array", "object":
		return "an " + value
	case "bool":
		return "true or false"
	case "":
		return "nothing"
	}
	return "a " + value
}

// sentinelView is a sentinel as the API returns it: the stored sentinel,
// its checked JSON form under "spec", and the path of its feed.
type sentinelView struct {
	*vigil.Sentinel
	Feed string `json:"feed,omitempty"`
	// Lifespan is where the sentinel's From and To put it, as its last
	// check found: pending, active or ended; empty before its first check.
	// An ended sentinel is active (not paused) but checked no more: its
	// view has no NextCheck, as a paused one's.
	Lifespan string `json:"lifespan,omitempty"`
	// Checking is set while the monitor checks the sentinel (see
	// Server.Checking): its stored NextCheck is then the end of the
	// check's claim, no schedule, and its view has none.
	Checking bool `json:"checking,omitempty"`
	// ScopeNotes say what the sentinel's scopes (its tables, lists, In
	// css|xpath) select nothing of on its pages, as its last checks
	// found (see Server.SentinelStates): the reason it finds no change there.
	ScopeNotes []string `json:"scopeNotes,omitempty"`
	// LastFetchError is why the last fetch of one of the sentinel's pages
	// failed (LastFetchError: the first page, in the order of its checked
	// form, whose last fetch failed), as the dashboard shows it, and
	// FailingSince since when its fetches fail (FetchError.Since: the
	// first failed check of the run, not the last fetch); both are
	// absent when every page's last fetch succeeded, or none was fetched
	// yet.
	LastFetchError string    `json:"lastFetchError,omitempty"`
	FailingSince   time.Time `json:"failingSince,omitzero"`
	// NextDigest is when the sentinel's next digest goes out, with the
	// changes it found until then, if any (SentinelState.NextDigest):
	// absent for a sentinel that sends none now (its Every is no
	// interval, it is paused or its lifespan ended) and before the
	// monitor opened its first period, at its next check (digests).
	NextDigest time.Time `json:"nextDigest,omitzero"`
	// digests is set for a sentinel that sends digests now (sendsDigests),
	// NextDigest set or not; digestUnknown when the monitor's states
	// could not be read, which would have said when its next goes out.
	digests, digestUnknown bool
	// Warnings say what of the sentinel this server does not do as it
	// says: a Fetch shorter than the server's --min-interval
	// (fetchWarning), a Notify clause's channel it cannot send on
	// (unsendableWarnings); in the view of one sentinel (sentinelView, not
	// the list's), a page or webhook this server does not reach
	// (unreachableWarnings).
	Warnings []string `json:"warnings,omitempty"`
	// fetchWarnings are the warnings of Warnings of its Fetch,
	// unsendable those of its channels, and unreachable those of a page
	// or webhook this server does not reach, which the dashboard shows
	// apart.
	fetchWarnings, unsendable, unreachable []string
	// pages are the resources the store has of the sentinel's pages,
	// read with the fetch error (sentinelPages), for the dashboard's row.
	pages []*sentinelPage
	// checked is the sentinel's checked form, decoded from its stored
	// JSON (sen.Spec) once for the view and all that the request asks
	// of it (its warnings, pages, start, the dashboard's row); nil if the
	// form does not read.
	checked *spec.Checked
}

// sentinelView returns the view of one sentinel (sentinelViews), with
// the warnings of the pages and webhooks this server does not reach,
// which the list leaves out so as not to resolve the hosts of every
// sentinel it shows.
func (s *Server) sentinelView(ctx context.Context, sen *vigil.Sentinel) sentinelView {
	v := s.sentinelViews(ctx, []*vigil.Sentinel{sen})[0]
	v.unreachable = s.unreachableWarnings(ctx, v.checked)
	v.Warnings = append(v.Warnings, v.unreachable...)
	return v
}

// start returns the start of the sentinel's lifespan as its checked form
// resolved it (an estimate when its From is another sentinel's event to
// come), or the zero time if it has none or its form does not read.
func (v *sentinelView) start() time.Time {
	if v.checked == nil {
		return time.Time{}
	}
	return v.checked.Start
}

// storedChecked decodes the checked form of a stored sentinel (sen.Spec),
// or returns nil if it does not read.
func storedChecked(sen *vigil.Sentinel) *spec.Checked {
	var c spec.Checked
	if json.Unmarshal(sen.Spec, &c) != nil {
		return nil
	}
	return &c
}

// SentinelState is what the monitor last recorded of a sentinel that its
// views show (Server.SentinelStates).
type SentinelState struct {
	// Lifespan is the lifespan phase: pending, active or ended; "" before
	// the first check.
	Lifespan string
	// ScopeNotes say what the sentinel's scopes select nothing of on its
	// pages ("scope table#u matches nothing on https://a.example/"): a
	// sentinel that can never fire there.
	ScopeNotes []string
	// FailingSince is, by page URL, the start of the page's current run
	// of failed fetches as the monitor keeps it for the sentinel (the
	// time its failure notice says); a page that works, or that the
	// monitor has not checked for the sentinel, has none.
	FailingSince map[string]time.Time
	// CheckErrors is, by page URL, why the sentinel's last check of the
	// page failed where no version of the page says so (a site's check
	// cut at its claim's lease: monitor.StateSummary.CheckErrors): the
	// page's last error, failing since FailingSince says, though its
	// newest version is a good one.
	CheckErrors map[string]string
	// NextDigest is the end of the sentinel's open digest period (Every
	// <interval>): when its digest of the changes found in the period
	// goes out, if it found any. Zero when no period is open: before the
	// first check of a sentinel sending digests, and for one that sends
	// none.
	NextDigest time.Time
}

// sentinelViews returns the views of sentinels, their lifespans and scope
// notes read at once, and the failures of their pages' last fetches. Each
// sentinel's stored form is decoded once, here (sentinelView.checked).
func (s *Server) sentinelViews(ctx context.Context, sens []*vigil.Sentinel) []sentinelView {
	var states map[int64]SentinelState
	unread := false // the states, which say when the next digests go out
	if s.SentinelStates != nil && len(sens) > 0 {
		// Without them the view is still right, only less complete.
		var err error
		if states, err = s.SentinelStates(ctx, sens); err != nil {
			s.logger().Warn("read the sentinels' states", "error", err)
			unread = true
		}
	}
	out := make([]sentinelView, len(sens))
	for i, sen := range sens {
		// The stored next check is no date to show when the sentinel is
		// checked no more (the monitor parks it 50 years on), nor while
		// it is paused (kept for its resume, it is not due), nor while
		// it is checked (the claim's end, 5 minutes on: the next check
		// is due when this one is recorded).
		checking := s.Checking != nil && s.Checking(sen.ID)
		st := states[sen.ID]
		if (st.Lifespan == "ended" || sen.Status == vigil.SentinelPaused || checking) && !sen.NextCheck.IsZero() {
			c := *sen
			c.NextCheck = time.Time{}
			sen = &c
		}
		checked := storedChecked(sen)
		fetch, unsendable := s.storedFetchWarnings(checked), s.unsendableWarnings(checked)
		out[i] = sentinelView{Sentinel: sen, Lifespan: st.Lifespan, Checking: checking, ScopeNotes: st.ScopeNotes,
			Warnings: slices.Concat(fetch, unsendable), fetchWarnings: fetch, unsendable: unsendable, checked: checked}
		out[i].digests, out[i].NextDigest = nextDigest(sen, checked, st)
		out[i].digestUnknown = out[i].digests && unread
		var urls []string
		if checked != nil {
			urls = checked.URLs
		} else {
			// A form that does not read whole may list its pages still.
			urls = checkedURLs(sen)
		}
		// Without them too the view is right, only less complete.
		pages, failed, err := sentinelPages(ctx, s.Store, urls, st)
		if err != nil {
			s.logger().Warn("read the last fetches of a sentinel's pages", "sentinel", sen.ID, "error", err)
		}
		out[i].pages = pages
		if failed != nil {
			out[i].LastFetchError, out[i].FailingSince = failed.Message, failed.Since
		}
		if s.FeedPath != nil {
			out[i].Feed = s.FeedPath(sen, "atom")
		}
	}
	return out
}

func (s *Server) handleSentinelList(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	p, err := paging(r)
	if err != nil {
		return err
	}
	f := vigil.SentinelFilter{OwnerID: u.ID, Offset: p.Offset, Limit: p.Limit}
	switch st := r.URL.Query().Get("status"); st {
	case "":
	case string(vigil.SentinelActive), string(vigil.SentinelPaused):
		f.Status = vigil.SentinelStatus(st)
	default:
		return vigil.Errorf(vigil.EINVALID, "status must be active or paused")
	}
	list, total, err := s.Store.FindSentinels(r.Context(), f)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, listBody[sentinelView]{Items: s.sentinelViews(r.Context(), list), Total: total})
	return nil
}

func (s *Server) handleSentinelCreate(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	var in sentinelInput
	if err := readJSON(r, &in); err != nil {
		return err
	}
	sen, err := s.saveSentinel(r.Context(), u, &in, nil)
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/api/v1/sentinels/"+strconv.FormatInt(sen.ID, 10))
	s.writeSentinel(w, r, http.StatusCreated, sen)
	return nil
}

// handleSentinelCheck checks a sentinel without storing it: the live
// checking of the dashboard's editor.
func (s *Server) handleSentinelCheck(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	var in struct {
		sentinelInput
		Replacing int64 `json:"replacing,omitempty"` // id of the sentinel being edited
	}
	if err := readJSON(r, &in); err != nil {
		return err
	}
	if in.Replacing < 0 {
		return vigil.Errorf(vigil.EINVALID, "replacing %d is not a positive sentinel id", in.Replacing)
	}
	res, err := s.liveCheck(r.Context(), u, &in.sentinelInput, in.Replacing)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

func (s *Server) liveCheck(ctx context.Context, u *vigil.User, in *sentinelInput, replacing int64) (*CheckResult, error) {
	var old *vigil.Sentinel
	if replacing > 0 {
		var err error
		if old, err = s.ownSentinel(ctx, u, strconv.FormatInt(replacing, 10)); err != nil {
			return nil, err
		}
	}
	live := *in
	live.live = true
	sen, ch, diags, _, err := s.checkInput(ctx, u, &live, old, s.now().UTC().Truncate(time.Second))
	if err != nil {
		return nil, err
	}
	res := &CheckResult{Valid: len(diags) == 0, Errors: diags, Warnings: []Diagnostic{}}
	if res.Errors == nil {
		res.Errors = []Diagnostic{}
	}
	if ch != nil {
		res.Canonical = printSource(sen, in.Source)
		res.Checked, _ = json.Marshal(ch)
		if len(ch.Warnings) > 0 {
			res.Warnings = diagnostics(ch.Warnings, in.Source)
		}
		if d, ok := s.fetchDiagnostic(sen, ch, in.Source); ok {
			res.Warnings = append(res.Warnings, d)
			// In the order of the text, as the errors (those of
			// the JSON form, without a place, as they came).
			slices.SortStableFunc(res.Warnings, func(a, b Diagnostic) int { return cmp.Compare(a.Offset, b.Offset) })
		}
	}
	return res, nil
}

func (s *Server) handleSentinelGet(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	sen, err := s.ownSentinel(r.Context(), u, r.PathValue("id"))
	if err != nil {
		return err
	}
	s.writeSentinel(w, r, http.StatusOK, sen)
	return nil
}

// handleSentinelUpdate replaces a sentinel's source. With If-Match, only
// the revision it names is replaced (sentinelMatches): checked at once,
// before the body is read, and again as the edit is saved, in its
// transaction, so that an edit saved in between is never overwritten.
func (s *Server) handleSentinelUpdate(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	old, err := s.ownSentinel(r.Context(), u, r.PathValue("id"))
	if err != nil {
		return err
	}
	var in sentinelInput
	if tags := ifMatch(r); tags != nil {
		if err := sentinelMatches(tags, old); err != nil {
			return err
		}
		in.precondition = func(stored *vigil.Sentinel) error { return sentinelMatches(tags, stored) }
	}
	if err := readJSON(r, &in); err != nil {
		return err
	}
	sen, err := s.saveSentinel(r.Context(), u, &in, old)
	if err != nil {
		return err
	}
	s.writeSentinel(w, r, http.StatusOK, sen)
	return nil
}

func (s *Server) handleSentinelDelete(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	sen, err := s.ownSentinel(r.Context(), u, r.PathValue("id"))
	if err != nil {
		return err
	}
	if err := s.deleteSentinel(r.Context(), u, sen); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// deleteSentinel removes u's sentinel sen, unless another of u's
// sentinels uses it (refuseIfUsed): the API and the dashboard's Delete
// both remove a sentinel through it.
func (s *Server) deleteSentinel(ctx context.Context, u *vigil.User, sen *vigil.Sentinel) error {
	if err := s.refuseIfUsed(ctx, u, sen.Name, "removed"); err != nil {
		return err
	}
	return s.Store.DeleteSentinel(ctx, sen.ID)
}

// refuseIfUsed returns an ECONFLICT error naming u's other sentinels that
// use the sentinel named name (Using it, or waiting for its start or end):
// removed or renamed, it would leave them unable to be checked again, and
// a later sentinel of that name would become theirs unasked.
func (s *Server) refuseIfUsed(ctx context.Context, u *vigil.User, name, what string) error {
	all, _, err := s.Store.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID})
	if err != nil {
		return err
	}
	specs := make([][]byte, len(all))
	for i, o := range all {
		specs[i] = o.Spec
	}
	users := spec.UsedBy(name, specs)
	if len(users) == 0 {
		return nil
	}
	return vigil.Errorf(vigil.ECONFLICT, "sentinel %s cannot be %s: it is used by %s; edit or remove %s first",
		name, what, strings.Join(users, ", "), pronoun(len(users)))
}

// pronoun is "it" or "them", for n things.
func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

func (s *Server) sentinelAction(action string) apiFunc {
	return func(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
		sen, err := s.ownSentinel(r.Context(), u, r.PathValue("id"))
		if err != nil {
			return err
		}
		if err := readNoBody(r, action); err != nil {
			return err
		}
		if err := s.setStatus(r.Context(), u, sen, action); err != nil {
			return err
		}
		s.writeSentinel(w, r, http.StatusOK, sen)
		return nil
	}
}

func (s *Server) handleSentinelPause(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	return s.sentinelAction("pause")(w, r, u)
}

func (s *Server) handleSentinelResume(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	return s.sentinelAction("resume")(w, r, u)
}

func (s *Server) handleSentinelCheckNow(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	return s.sentinelAction("check-now")(w, r, u)
}

func (s *Server) handleSentinelChanges(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	sen, err := s.ownSentinel(r.Context(), u, r.PathValue("id"))
	if err != nil {
		return err
	}
	p, err := paging(r)
	if err != nil {
		return err
	}
	list, total, err := s.Store.FindChanges(r.Context(), vigil.ChangeFilter{SentinelID: sen.ID, Offset: p.Offset, Limit: p.Limit})
	if err != nil {
		return err
	}
	items, err := s.changeBodies(r.Context(), list)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, listBody[*changeBody]{Items: items, Total: total})
	return nil
}

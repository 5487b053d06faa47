package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/notify/feed"
	"github.com/vigil-web/vigil/spec"
)

// sentinelToAdd is a sentinel of a file that passed its check: its file
// (as named to the user), where its name is, its text with its comments,
// and what the check made of it.
type sentinelToAdd struct {
	file, name, source string
	namePos            spec.Position
	checked            *spec.Checked
	// zone names the zone its dates were read in (--tz), which it is
	// stored with (vigil.Sentinel.TimeZone).
	zone string
}

// parsedFile is a sentinel file as parsed (parseSentinelFile), with its
// syntax errors (nil if none).
type parsedFile struct {
	file *spec.File
	err  error
}

// toCheck reports whether some sentinel of the file parsed, to be checked
// and perhaps added.
func (pf parsedFile) toCheck() bool {
	if pf.err == nil {
		return true
	}
	_, ok := syntaxFaults(pf.file, pf.err)
	return ok
}

// syntaxFaults returns, for each sentinel of f, which spec.Parse returned
// with the syntax error err, whether it has a syntax error in its text
// (spec.Sentinel.HasSyntaxErrors: the parser tells whose an error is, as
// an error at a sentinel's Create may be the one before's, a clause of
// it left open), so that the others are added as a file's sentinels
// without check errors are. A sentinel in which the parser stopped ("too
// many errors") is faulty too, its errors unknown. ok is false when no
// sentinel is clean, or err is no list of positioned errors.
func syntaxFaults(f *spec.File, err error) (faulty []bool, ok bool) {
	var list spec.ErrorList
	if f == nil || len(f.Sentinels) == 0 || !errors.As(err, &list) {
		return nil, false
	}
	for _, e := range list {
		if !e.Pos.IsValid() {
			return nil, false // an error of no known place: of the file
		}
	}
	faulty = make([]bool, len(f.Sentinels))
	for i, s := range f.Sentinels {
		faulty[i] = s.HasSyntaxErrors()
	}
	return faulty, slices.Contains(faulty, false)
}

func runSentinelAdd(ctx context.Context, env *environment, args []string) (code int, err error) {
	fs := newSentinelFlagSet(env, "sentinel add", "FILE...",
		"Add checks the sentinels of each file against the owner's sentinels in the\n"+
			"store, and adds those without errors; vigil serve starts running them\n"+
			"at once, each stored in canonical form with the comments of its own\n"+
			"text (those above its Create line and in its clauses), as vigil sentinel\n"+
			"fmt lays them. Problems (a file with no sentinel is one) are printed as\n"+
			"file:line:col: message, and the sentinels without any are added all the\n"+
			"same (exit status 1); of a file of several sentinels, each one not added\n"+
			"is named, at its name. For each sentinel added it prints its id, name and\n"+
			"the path of its Atom feed on the server. \"-\" reads standard input.\n"+
			"Every file is read and checked before anything is stored: a file that\n"+
			"cannot be read adds nothing (exit status 2), and when no sentinel can\n"+
			"be added, nothing is made, neither the store in a new data directory\n"+
			"nor the owner's account.")
	sf := addStoreFlags(fs, env)
	owner := ownerFlag(fs, env)
	tz := addTZFlag(fs, env)
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitError, errUsageShown
	}
	if _, err := tz.location(); err != nil {
		return exitError, err
	}
	if err := newOwner(*owner).Validate(); err != nil {
		return exitError, fmt.Errorf("owner %s: %w", *owner, err)
	}
	if err := outputNotInput(env, fs.Args()...); err != nil {
		return exitError, err
	}
	code = exitOK
	var files []parsedFile
	for _, name := range fs.Args() {
		if err := ctx.Err(); err != nil {
			return exitError, err
		}
		src, err := readSource(env, name)
		if err != nil {
			return exitError, err
		}
		f, err := parseSentinelFile(inputName(name), src)
		files = append(files, parsedFile{f, err})
	}
	now := time.Now().UTC().Truncate(time.Second)
	var st vigil.Store
	// The store is read only when some sentinel parsed, and not made
	// until there is a sentinel to add.
	if slices.ContainsFunc(files, parsedFile.toCheck) {
		// There are sentinels to add: not beside an import.
		if err := refuseWriteDuringImport(*sf.data, *sf.postgres); err != nil {
			return exitError, err
		}
		if st, err = findStore(ctx, *sf.data, *sf.postgres); err != nil {
			return exitError, err
		}
		if st != nil {
			defer closeStore(st, &code, &err)
		}
	}
	checker, err := fileChecker(ctx, st, tz, *owner)
	if err != nil {
		return exitError, err
	}
	checker.Now = now
	loc := checker.Location
	var adds []sentinelToAdd
	for _, pf := range files {
		checked, problems := checkFile(checker, pf.file, pf.err)
		if problems != nil {
			printDiagnostics(env.stdout, problems, "")
			printNotAdded(env.stdout, pf.file, checked)
			code = exitChanged
		}
		if !slices.ContainsFunc(checked, func(ch *spec.Checked) bool { return ch != nil }) {
			continue
		}
		// Each sentinel is stored with the comments of its own text.
		parts := spec.Split(pf.file)
		for i, ch := range checked {
			if ch != nil {
				name := pf.file.Sentinels[i].Name
				adds = append(adds, sentinelToAdd{file: pf.file.Name, name: name.Name, namePos: name.NamePos.Position(pf.file.Name),
					source: spec.Print(parts[i]), checked: ch, zone: loc.String()})
			}
		}
	}
	if len(adds) == 0 {
		return code, nil
	}
	if st == nil {
		if st, err = openStore(ctx, *sf.data, *sf.postgres); err != nil {
			return exitError, err
		}
		defer closeStore(st, &code, &err)
		// Said, for a vigil serve on another --data (this one run
		// elsewhere, on its ./vigil-data) runs none of these.
		fmt.Fprintf(env.stderr, "vigil sentinel add: note: made a new store in %s, which held none; only a vigil serve given --data %s runs its sentinels\n", *sf.data, *sf.data)
	}
	refused, err := storeSentinels(ctx, env, st, sf, *owner, now, adds)
	if err != nil {
		return exitError, err
	}
	if refused {
		code = exitChanged
	}
	return code, nil
}

// storeSentinels stores the sentinels that passed their check, for owner
// (created if new), and prints the warnings of each and the path of its
// feed. A sentinel whose name the owner came to use since the check (an
// add at the same time: the store refuses it, a
// *vigil.SentinelNameTakenError) is a problem printed as the check's are,
// naming the sentinel that has it, and the others are stored all the
// same; refused says whether there was one. Any other error of the store,
// another conflict too, is returned as itself, for the sentinel's name.
func storeSentinels(ctx context.Context, env *environment, st vigil.Store, sf storeFlags, owner string, now time.Time, adds []sentinelToAdd) (refused bool, err error) {
	secret, _, err := newKeyring(st, *sf.data, *sf.postgres).load(ctx, secretFile)
	if err != nil {
		return false, err
	}
	u, err := ensureOwner(ctx, st, owner)
	if err != nil {
		return false, fmt.Errorf("owner %s: %w", owner, err)
	}
	for _, a := range adds {
		specJSON, err := json.Marshal(a.checked)
		if err != nil {
			return refused, err
		}
		sen := &vigil.Sentinel{OwnerID: u.ID, Name: a.name, Source: a.source, Spec: specJSON, Status: vigil.SentinelActive, NextCheck: now, TimeZone: a.zone}
		if a.checked.Start.After(now) {
			// A From past the times the stores keep (2262): the last.
			sen.NextCheck = vigil.ClampStorableTime(a.checked.Start)
		}
		var taken *vigil.SentinelNameTakenError
		if err := st.CreateSentinel(ctx, sen); errors.As(err, &taken) {
			msg := spec.NameTakenMessage(a.name, spec.NameHolder{Name: taken.IDName, ID: taken.ID})
			printDiagnostics(env.stdout, spec.ErrorList{{Pos: a.namePos, Msg: msg, Found: a.name, NameTaken: true}}, "")
			refused = true
			continue
		} else if err != nil {
			return refused, fmt.Errorf("sentinel %s: %w", a.name, err)
		}
		for _, w := range a.checked.Warnings {
			w.Pos.Filename = a.file
			printDiagnostics(env.stdout, spec.ErrorList{w}, "warning: ")
		}
		fmt.Fprintf(env.stdout, "added sentinel %d %s feed %s\n", sen.ID, sen.Name, feed.Path(secret, sen, "atom"))
	}
	return refused, nil
}

// printNotAdded names, after the problems of file f, each of its sentinels
// that is not added for them (checked[i] nil), at its name, when f holds
// several: the problems are told where they are, often in a clause far
// from the name, and the file's other sentinels are added. A file that did
// not parse into sentinels at all is named as adding none. The problems of
// a file of one sentinel are that sentinel's.
func printNotAdded(w io.Writer, f *spec.File, checked []*spec.Checked) {
	if f == nil || len(f.Sentinels) < 2 {
		return
	}
	if checked == nil {
		fmt.Fprintf(w, "%s: no sentinel added: the file does not parse\n", f.Name)
		return
	}
	for i, s := range f.Sentinels {
		if i < len(checked) && checked[i] != nil {
			continue
		}
		switch {
		case s.Name != nil && s.Name.Name != "":
			fmt.Fprintf(w, "%s: sentinel %s not added: it has problems\n", s.Name.NamePos.Position(f.Name), s.Name.Name)
		default:
			fmt.Fprintf(w, "%s: sentinel not added: it has problems\n", s.Create.Position(f.Name))
		}
	}
}

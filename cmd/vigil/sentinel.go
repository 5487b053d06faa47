package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// The sentinel commands work on files of the Sentinel Specification
// Language (package spec).
func init() {
	register(&command{
		name:    "sentinel check",
		summary: "check sentinel files; print problems as file:line:col: message",
		run:     runSentinelCheck,
	})
	register(&command{
		name:    "sentinel fmt",
		summary: "print sentinel files in canonical form",
		run:     runSentinelFmt,
	})
}

// newFlagSet returns a flag set that prints its problems and usage to
// env.stderr instead of exiting.
func newSentinelFlagSet(env *environment, name, args, help string) *flag.FlagSet {
	fs := flag.NewFlagSet("vigil "+name, flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "%s\n\n%s\n\nFlags:\n", strings.TrimRight("Usage: vigil "+name+" [flags] "+args, " "), help)
		fs.PrintDefaults()
	}
	return fs
}

// readSource reads a named file, or standard input for "-".
func readSource(env *environment, name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(env.stdin)
	}
	f, err := openFile(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// parseNow reads the --now flag: RFC 3339, "MM/DD/YYYY HH:MM" or
// "MM/DD/YYYY" in loc.
func parseNow(s string, loc *time.Location) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	for _, layout := range []string{"01/02/2006 15:04", "01/02/2006"} {
		if err == nil {
			break
		}
		t, err = time.ParseInLocation(layout, s, loc)
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("--now %q: want RFC 3339, MM/DD/YYYY HH:MM or MM/DD/YYYY", s)
	}
	// The checker takes the first instant of year 1 (Go's zero time) for
	// no time given, and one before it for none either.
	if !t.After(time.Time{}) {
		return time.Time{}, fmt.Errorf("--now %q: want a time after 0001-01-01T00:00:00Z", s)
	}
	return t, nil
}

func runSentinelCheck(ctx context.Context, env *environment, args []string) (code int, err error) {
	fs := newSentinelFlagSet(env, "sentinel check", "FILE...",
		"Check parses and checks sentinel files as the sentinels of one owner, in\n"+
			"order: a sentinel may use or refer to one defined before it, in the same\n"+
			"file or an earlier one. Problems are printed to standard output as\n"+
			"file:line:col: message, in the order of the file, at most 10 a file\n"+
			"(then \"too many errors\"; a binary file gets one error, as does a file\n"+
			"with no sentinel): the syntax errors and, in the same run, the other\n"+
			"problems of every sentinel that parsed (one that uses a sentinel with a\n"+
			"syntax error is told that it has errors). The owner's sentinels in the\n"+
			"store (those a sentinel may use, and whose names it may not take) are\n"+
			"checked only with --data or --postgres, given on the command line\n"+
			"($VIGIL_DATA and $VIGIL_POSTGRES_DSN are not read): then the files are\n"+
			"checked as vigil sentinel add would check them, the store only read,\n"+
			"neither made nor migrated (one an older vigil left is refused). The exit\n"+
			"status is 0 without problems, 1 with problems and 2 when a file, or the\n"+
			"store given, cannot be read.\n"+
			"\"-\" reads standard input.")
	sf := addOptionalStoreFlags(fs, "whose sentinels the files may use")
	nowFlag := fs.String("now", "", "creation time of the sentinels (RFC 3339, MM/DD/YYYY HH:MM or MM/DD/YYYY; default: the current time)")
	tz := addTZFlag(fs, env)
	owner := fs.String("owner", "", "the owner's `email` address, notified when a sentinel has no Notify clause; with the store, whose sentinels are known (default there $VIGIL_OWNER or "+defaultOwner+")")
	asJSON := fs.Bool("json", false, "print each valid sentinel, complete and resolved, as a line of JSON")
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
	email := *owner
	if email == "" && sf.given() {
		email = ownerDefault(env)
	}
	if email != "" {
		if err := spec.ValidateContact(spec.Email, email); err != nil {
			return exitError, fmt.Errorf("--owner: %w", err)
		}
	}
	var st vigil.Store
	if sf.given() {
		if st, err = openStoreToRead(ctx, *sf.data, *sf.postgres); err != nil {
			return exitError, err
		}
		defer closeStore(st, &code, &err)
	}
	// The dates are read as vigil sentinel add reads them: in the
	// owner's own zone when the store knows one and --tz is not given.
	c, err := fileChecker(ctx, st, tz, email)
	if err != nil {
		return exitError, err
	}
	c.Now = time.Now().In(c.Location).Truncate(time.Minute)
	if *nowFlag != "" {
		if c.Now, err = parseNow(*nowFlag, c.Location); err != nil {
			return exitError, err
		}
	}
	// "vigil sentinel check s.ssl >> s.ssl" added its problems to the
	// file.
	if err := outputNotInput(env, fs.Args()...); err != nil {
		return exitError, err
	}
	code = exitOK
	enc := json.NewEncoder(env.stdout)
	for _, name := range fs.Args() {
		if err := ctx.Err(); err != nil {
			return exitError, err
		}
		src, err := readSource(env, name)
		if err != nil {
			fmt.Fprintf(env.stderr, "vigil sentinel check: %v\n", err)
			code = exitError
			continue
		}
		f, err := parseSentinelFile(inputName(name), src)
		checked, problems := checkFile(c, f, err)
		if problems != nil {
			printDiagnostics(env.stdout, problems, "")
			code = max(code, exitChanged)
		}
		for _, ch := range checked {
			if ch == nil {
				continue
			}
			for _, w := range ch.Warnings {
				w.Pos.Filename = inputName(name)
				printDiagnostics(env.stdout, spec.ErrorList{w}, "warning: ")
			}
			if *asJSON {
				if err := enc.Encode(ch); err != nil {
					return exitError, err
				}
			}
		}
	}
	return code, nil
}

// printDiagnostics writes each error of an ErrorList on a line of its own.
func printDiagnostics(w io.Writer, err error, prefix string) {
	var list spec.ErrorList
	if !errors.As(err, &list) {
		fmt.Fprintf(w, "%s%v\n", prefix, err)
		return
	}
	for _, e := range list {
		fmt.Fprintf(w, "%s: %s%s\n", e.Pos, prefix, e.Msg)
	}
}

func runSentinelFmt(ctx context.Context, env *environment, args []string) (int, error) {
	fs := newSentinelFlagSet(env, "sentinel fmt", "FILE...",
		"Fmt prints sentinel files in the canonical form of the language: one clause\n"+
			"a line, keywords as the seed writes them, comments kept where they are written\n"+
			"(before a clause, at the end of its line, or between two of its words, the\n"+
			"clause broken there), with the blank lines between them. Syntax errors are\n"+
			"printed to standard error as file:line:col: message (exit status 1), as is\n"+
			"a file that holds no sentinel (empty, or comments only), as check has it; an\n"+
			"unreadable file exits with 2. \"-\" reads standard input.")
	write := fs.Bool("w", false, "write the canonical form back to each file instead of printing it")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitError, errUsageShown
	}
	if !*write {
		// "vigil sentinel fmt s.ssl >> s.ssl" added the canonical form to
		// the file, which then held each sentinel twice.
		if err := outputNotInput(env, fs.Args()...); err != nil {
			return exitError, err
		}
	}
	code := exitOK
	for _, name := range fs.Args() {
		if err := ctx.Err(); err != nil {
			return exitError, err
		}
		src, err := readSource(env, name)
		if err != nil {
			fmt.Fprintf(env.stderr, "vigil sentinel fmt: %v\n", err)
			code = exitError
			continue
		}
		f, err := parseSentinelFile(inputName(name), src)
		if err != nil {
			printDiagnostics(env.stderr, err, "")
			code = max(code, exitChanged)
			continue
		}
		out := []byte(spec.Print(f))
		if *write && name != "-" {
			if string(out) == string(src) {
				continue
			}
			if err := writeFileAtomic(name, out); err != nil {
				fmt.Fprintf(env.stderr, "vigil sentinel fmt: %v\n", err)
				code = exitError
			}
			continue
		}
		if _, err := env.stdout.Write(out); err != nil {
			return exitError, err
		}
	}
	return code, nil
}

// writeFileAtomic replaces name with data as createFileAtomic does: a
// crash never leaves half a file, the mode is kept, and a symbolic link is
// followed and kept.
func writeFileAtomic(name string, data []byte) error {
	return createFileAtomic(name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

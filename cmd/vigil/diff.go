package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
	"github.com/vigil-web/vigil/xmlpatch"
	"github.com/vigil-web/vigil/xmltext"
)

func init() {
	register(&command{
		name:            "diff",
		exitOnInterrupt: true,
		summary:         "show the changes between two versions of an XML or HTML document",
		run:             runDiff,
	})
	register(&command{
		name:            "patch",
		exitOnInterrupt: true,
		summary:         "apply a delta or an RFC 5261 XML patch to a document (undo a delta with --reverse)",
		run:             runPatch,
	})
	register(&command{
		name:            "compose",
		exitOnInterrupt: true,
		summary:         "aggregate consecutive deltas into one",
		run:             runCompose,
	})
}

// newFlags returns a flag set that reports its errors to stderr and prints
// the usage line given.
func newFlags(env *environment, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() {
		fmt.Fprintln(env.stderr, strings.TrimRight("Usage: vigil "+name+" "+usage, " "))
		fs.PrintDefaults()
	}
	return fs
}

// newDescribedFlags is newFlags for a command whose usage goes on with a
// description of what it does (help, lines of at most 76 characters),
// then the flags.
func newDescribedFlags(env *environment, name, usage, help string) *flag.FlagSet {
	fs := newFlags(env, name, usage)
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "%s\n\n%s\n\nFlags:\n", strings.TrimRight("Usage: vigil "+name+" "+usage, " "), help)
		fs.PrintDefaults()
	}
	return fs
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// parseFlags parses args and turns a usage error into errUsageShown; -h is
// success. Flags may come before, between or after the other arguments, as
// in "vigil patch DOC DELTA --reverse"; "--" ends the flags, and "-" (standard
// input) is an argument. The other arguments are fs.Args() after it, in
// their order.
func parseFlags(fs *flag.FlagSet, args []string) (help bool, err error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return true, nil
			}
			return false, errUsageShown
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			positional = append(positional, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	// Parsing "--" and the arguments sets no flag and leaves fs.Args()
	// the arguments.
	if err := fs.Parse(append([]string{"--"}, positional...)); err != nil {
		return false, errUsageShown
	}
	return false, nil
}

// wantArgs checks that fs was given n arguments besides its flags; if not,
// it says so, shows the usage and returns errUsageShown.
func wantArgs(fs *flag.FlagSet, n int) error {
	if fs.NArg() == n {
		return nil
	}
	want := fmt.Sprintf("%d arguments", n)
	switch n {
	case 0:
		want = "no arguments"
	case 1:
		want = "1 argument"
	}
	// The flag sets of the sentinel and user commands are named with
	// "vigil " already (newSentinelFlagSet); the others without.
	fmt.Fprintf(fs.Output(), "vigil %s: want %s, got %d\n", strings.TrimPrefix(fs.Name(), "vigil "), want, fs.NArg())
	fs.Usage()
	return errUsageShown
}

// diffHelp, patchHelp and composeHelp say what the commands do, after
// their usage line.
const (
	diffHelp = "Diff compares two versions of an XML or HTML document as trees and prints\n" +
		"the changes that lead from OLD to NEW: subtrees inserted, deleted or\n" +
		"moved, texts updated, attributes and element names changed, and changes\n" +
		"outside the root element. It prints a XyDelta (XML, the default) or its\n" +
		"JSON form, which vigil patch applies and vigil compose joins, a summary\n" +
		"(a line a change, with its path), or an RFC 5261 XML patch. Each input\n" +
		"is read as XML or HTML by its content (--parse), converted from its\n" +
		"charset to UTF-8, its white space normalised (--whitespace). One of OLD\n" +
		"and NEW may be - (standard input). As with diff(1), the exit status is 0\n" +
		"when the versions are the same, 1 when they differ and 2 on trouble (an\n" +
		"input that cannot be read or parsed, a binary file)."
	patchHelp = "Patch applies DELTA to DOC and prints the result: a delta of vigil diff\n" +
		"(XyDelta or JSON), a file of consecutive ones (applied in turn), or an\n" +
		"RFC 5261 XML patch. With --reverse it undoes a delta: DOC is the version\n" +
		"the delta leads to, and the result the version it was computed from. A\n" +
		"delta from vigil diff fits only the version it was computed from, parsed\n" +
		"with the same --whitespace and --parse: patch refuses another document,\n" +
		"and a result that is not the version the delta leads to (an altered\n" +
		"delta), and then writes nothing. The result equals that version as a\n" +
		"tree, not always byte for byte (white space normalised, an attribute\n" +
		"added written after the others). One of DOC and DELTA may be -\n" +
		"(standard input). The exit status is 0 when the result is written, 2 on\n" +
		"trouble."
	composeHelp = "Compose joins consecutive deltas, DELTA1 from a version to the next,\n" +
		"DELTA2 from that one to the next, and so on, into one delta from the first\n" +
		"version to the last, which vigil patch applies as it applies them in\n" +
		"turn. A file may hold one delta or several consecutive ones, XyDelta or\n" +
		"JSON (the outputs of vigil diff put end to end); deltas of separate\n" +
		"diffs are joined too. Compose refuses deltas that do not follow each\n" +
		"other, and those that the deltas alone cannot join: one changes a\n" +
		"namespace declaration that may be in scope where another inserts or\n" +
		"deletes (vigil diff of the first and last versions gives the delta). One\n" +
		"file may be - (standard input). The exit status is 0 when the delta is\n" +
		"written, 2 on trouble."
)

func runDiff(ctx context.Context, env *environment, args []string) (int, error) {
	fs := newDescribedFlags(env, "diff", "[flags] OLD NEW   (files, or - for standard input)", diffHelp)
	var df docFlags
	df.register(fs)
	fs.Lookup("whitespace").Usage += "; keep by default with --format xmlpatch"
	format := fs.String("format", "xydelta", "output format: xydelta (XyDelta XML), json, summary, or xmlpatch (RFC 5261 XML patch)")
	keys := fs.String("key-attrs", "", "comma-separated attributes that identify elements, such as id,name")
	algorithm := fs.String("algorithm", string(treediff.Vigil), "matching algorithm: vigil (near-minimal) or xydiff (the seed's)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if err := wantArgs(fs, 2); err != nil {
		return exitError, err
	}
	if *format != "xydelta" && *format != "json" && *format != "summary" && *format != "xmlpatch" {
		return exitError, fmt.Errorf("--format %q: want xydelta, json, summary or xmlpatch", *format)
	}
	if *format == "xmlpatch" {
		keepWhitespaceUnlessSet(fs, &df)
	}
	if a := treediff.Algorithm(*algorithm); a != treediff.Vigil && a != treediff.XyDiff {
		return exitError, fmt.Errorf("--algorithm %q: want %s or %s", *algorithm, treediff.Vigil, treediff.XyDiff)
	}
	keyNames, err := parseKeyAttrs(*keys)
	if err != nil {
		return exitError, err
	}
	oldName, newName := fs.Arg(0), fs.Arg(1)
	if oldName == "-" && newName == "-" {
		return exitError, fmt.Errorf("only one of OLD and NEW can be standard input")
	}
	if err := outputNotInput(env, oldName, newName); err != nil {
		return exitError, err
	}
	// The flags are checked before standard input is read ahead.
	if _, err := df.options(); err != nil {
		return exitError, err
	}
	reserveHugeHeap(sizeInputsReadingPipe(env, df.maxBytes, oldName, newName))
	oldDoc, oldSize, oldFormat, err := loadFlat(env, oldName, &df)
	if err != nil {
		return exitError, err
	}
	newDoc, newSize, newFormat, err := loadFlat(env, newName, &df)
	if err != nil {
		return exitError, err
	}
	if oldFormat != newFormat {
		// XHTML that is well-formed in one version only: the trees differ
		// where the parsers do.
		fmt.Fprintf(env.stderr, "vigil diff: note: %s is read as %s and %s as %s; --parse %s reads both alike\n",
			inputName(oldName), strings.ToUpper(oldFormat.String()), inputName(newName), strings.ToUpper(newFormat.String()), markup.HTML)
	}
	liftDiffMemory := limitDiffMemory(int64(oldSize + newSize))
	opt := &treediff.Options{Algorithm: treediff.Algorithm(*algorithm)}
	opt.KeyAttrs = keyAttrs(env, keyNames, []*tree.Flat{oldDoc, newDoc}, []markup.Format{oldFormat, newFormat})
	d, err := treediff.DiffFlat(oldDoc, newDoc, opt)
	if err != nil {
		return exitError, err
	}
	d.From, d.To = deltaLabel(oldName), deltaLabel(newName)
	// So that patch and compose can tell the versions the delta joins
	// from other documents of the same size.
	d.FromFingerprint, d.ToFingerprint = tree.FingerprintOf(oldDoc), tree.FingerprintOf(newDoc)
	if *format == "xmlpatch" {
		// The export builds pointer trees, which the diff's limit is not
		// tuned for (limitDiffMemory).
		liftDiffMemory()
	}
	normalized := *format == "xmlpatch" && df.whitespace == "normalize"
	if err := writeDelta(env.stdout, d, *format, oldDoc, newDoc, normalized); err != nil {
		return exitError, err
	}
	if normalized {
		fmt.Fprintf(env.stderr, "vigil diff: note: the patch addresses the documents with white space normalised (--whitespace normalize), and says so (%s), which vigil patch reads; other XML tools count the white space it leaves out, and apply it elsewhere\n", normalizedPatchPI)
	}
	if d.Empty() {
		return exitOK, nil
	}
	return exitChanged, nil
}

// deltaLabel is how a delta names the file name of an input (its from or
// to): as displayName does, with what XML cannot hold (a control
// character, bytes that are not UTF-8, as in a Latin-1 name) shown as
// U+FFFD, where the delta could not be written at all.
func deltaLabel(name string) string {
	return strings.Map(func(r rune) rune {
		if !xmltext.IsChar(r) {
			return utf8.RuneError
		}
		return r
	}, strings.ToValidUTF8(displayName(name), "\uFFFD"))
}

// writeDelta writes d in the given format; summary needs both versions
// (with their XIDs) to name the places that changed. An XML patch of
// versions read with white space normalised says so first
// (normalizedPatchPI).
func writeDelta(w io.Writer, d *delta.Delta, format string, old, new *tree.Flat, normalized bool) error {
	switch format {
	case "json":
		return delta.EncodeJSON(w, d)
	case "summary":
		return writeSummary(w, d, old, new)
	case "xmlpatch":
		// The old version with the XIDs the diff gave it.
		p, err := xmlpatch.Export(old.Document(), d)
		if err != nil {
			return err
		}
		if normalized {
			if _, err := io.WriteString(w, normalizedPatchPI+"\n"); err != nil {
				return err
			}
		}
		return xmlpatch.Encode(w, p)
	default:
		return delta.EncodeXML(w, d)
	}
}

func runPatch(ctx context.Context, env *environment, args []string) (int, error) {
	fs := newDescribedFlags(env, "patch", "[flags] DOC DELTA   (files, or - for standard input; DELTA is a XyDelta or JSON delta, or an RFC 5261 XML patch: XML whose root is neither unit_delta nor t)", patchHelp)
	var df docFlags
	df.register(fs)
	fs.Lookup("whitespace").Usage += "; keep by default with an RFC 5261 XML patch"
	reverse := fs.Bool("reverse", false, "undo the delta: DOC is the new version, the output the old one")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if err := wantArgs(fs, 2); err != nil {
		return exitError, err
	}
	if fs.Arg(0) == "-" && fs.Arg(1) == "-" {
		return exitError, fmt.Errorf("only one of DOC and DELTA can be standard input")
	}
	if sameFile(fs.Arg(0), fs.Arg(1)) {
		const args = "the arguments are a document, then a delta or an XML patch"
		if fs.Arg(0) == fs.Arg(1) {
			return exitError, fmt.Errorf("DOC and DELTA are one file, %s (%s)", inputName(fs.Arg(0)), args)
		}
		return exitError, fmt.Errorf("%s is %s: DOC and DELTA are one file (%s)", inputName(fs.Arg(1)), inputName(fs.Arg(0)), args)
	}
	if err := outputNotInput(env, fs.Arg(0), fs.Arg(1)); err != nil {
		return exitError, err
	}
	// The flags are checked before standard input is read ahead.
	if _, err := df.options(); err != nil {
		return exitError, err
	}
	reserveHugeHeapFactor(sizeInputsReadingPipe(env, df.maxBytes, fs.Arg(0), fs.Arg(1)), patchHeapFactor)
	doc, b, format, err := loadDocument(env, fs.Arg(0), &df)
	if err != nil {
		return exitError, err
	}
	raw, err := readInput(env, fs.Arg(1), df.maxBytes)
	if err != nil {
		return exitError, err
	}
	if isXMLPatch(raw) {
		if patchNormalized(raw) {
			// DOC is read as the patch addresses it, normalised by
			// default; kept, its texts are other nodes.
			if df.whitespace == "keep" {
				return exitError, fmt.Errorf("%s: the patch addresses the documents with white space normalised (%s: made by vigil diff --whitespace normalize): --whitespace keep would apply it to other nodes", inputName(fs.Arg(1)), normalizedPatchPI)
			}
		} else if keepWhitespaceUnlessSet(fs, &df) {
			// Read again, as the patch addresses it.
			if doc, format, err = parseDocument(fs.Arg(0), b, &df); err != nil {
				return exitError, err
			}
		}
		return patchRFC5261(env, fs.Arg(1), raw, doc, fs.Arg(0), b, format, &df, *reverse)
	}
	// No version the deltas lead to, or undo back to, has more nodes than
	// the document and every node their contents hold, a byte of the file
	// each at least: an XID-map past that is refused as the delta is read,
	// naming its length and the document's.
	nodes := 0
	if doc.Root != nil {
		tree.PostOrder(doc.Root, func(*tree.Node) { nodes++ })
	}
	ds, _, err := decodeDeltasWithin(raw, delta.Limits{MaxNodes: nodes + len(raw)})
	if err != nil {
		err = fmt.Errorf("%s: %w", inputName(fs.Arg(1)), err)
		// An XID-map longer than any version's: the document is not the
		// delta's. A delta given as the document (patch D1 D2) is said so
		// here too: a delta of a large document maps more XIDs than the
		// file of another has nodes.
		var se *delta.MapSizeError
		if errors.As(err, &se) {
			hint := patchFits(*reverse)
			if h, ok := deltaAsDoc(fs.Arg(0), b); ok {
				hint = h
			}
			return exitError, fmt.Errorf("the delta does not fit %s: %w (%s)", inputName(fs.Arg(0)), err, hint)
		}
		// The likeliest slip: the arguments swapped.
		if _, _, notDelta := decodeDeltas(b); notDelta == nil {
			return exitError, fmt.Errorf("%w (%s is a delta: the arguments are DOC DELTA, in that order)", err, inputName(fs.Arg(0)))
		}
		return exitError, err
	}
	renumbered, err := renumber(ds)
	if err != nil {
		return exitError, fmt.Errorf("%s: %w", inputName(fs.Arg(1)), err)
	}
	if *reverse {
		inv := make([]*delta.Delta, len(ds))
		for i, d := range ds {
			// Undone, the delta reads the new version's nodes by the XIDs
			// its target map gives them; without one they would be
			// numbered afresh, and the first operation would fail on a
			// node it did not mean.
			if len(d.Ops) > 0 && d.ToXIDMap.Len() == 0 {
				return exitError, fmt.Errorf("%s: delta %d has no target XID-map (toXidMap): --reverse needs it to find the new version's nodes", inputName(fs.Arg(1)), i+1)
			}
			inv[len(ds)-1-i] = delta.Invert(d)
		}
		ds = inv
	}
	// The document must be the first delta's source: its node count and
	// the content the delta deletes or updates are checked as it applies,
	// its signature here (a delta of the next two versions fits the first
	// version where they differ only elsewhere). A hand-written empty
	// delta at either end says nothing of the versions: the ones next to
	// it do.
	first, last := chainEnds(ds)
	fits := patchFits(*reverse)
	if first.FromFingerprint != 0 {
		f, _ := tree.Flatten(doc.Root)
		fp := tree.FingerprintOf(f)
		if err := delta.CheckSource(first, fp); err != nil {
			if *reverse {
				// Undone, the delta's source is the version it leads to.
				err = reworded{err, fmt.Sprintf("it leads to another document: the fingerprint of the version it leads to is %016x, this document's %016x", uint64(first.FromFingerprint), uint64(fp))}
			}
			hint := fits
			// The other end of the delta: the slips of patching twice,
			// or of undoing what was not done.
			if fp == last.ToFingerprint {
				hint = inputName(fs.Arg(0)) + " is the version the delta leads to: patched already? --reverse undoes the delta"
				if *reverse {
					hint = inputName(fs.Arg(0)) + " is the version the delta starts from: without --reverse, patch applies the delta to it"
				}
			} else if h, ok := deltaAsDoc(fs.Arg(0), b); ok {
				hint = h
			}
			return exitError, fmt.Errorf("the delta does not fit %s: %w (%s)", inputName(fs.Arg(0)), err, hint)
		}
	}
	// The document gets the XIDs the first delta expects: those of its
	// source version, or of a first version when the delta has no map.
	if m := first.FromXIDMap; m.Len() > 0 {
		// The map is no longer than the document (DecodeXMLWithin).
		if err := doc.SetXIDMap(m.Expand()); err != nil {
			return exitError, fmt.Errorf("the delta does not fit %s: %w (%s)", inputName(fs.Arg(0)), err, fits)
		}
	} else {
		doc.AssignXIDs()
	}
	// The document read is of no use once patched, nor after an error:
	// patched in place, without ApplyAll's clone of it.
	if err = delta.ApplyAllInPlace(doc, ds); err != nil {
		// Undone, the file's deltas are applied last first: name the
		// delta as the file numbers it.
		var se *delta.StepError
		if errors.As(err, &se) && *reverse {
			se.Step = len(ds) + 1 - se.Step
		}
		var oe *delta.OpError
		if *reverse && errors.As(err, &oe) && oe.Line > 0 {
			// The place is the operation's in the file; the message
			// names the operation undone.
			err = fmt.Errorf("%w (--reverse: the inverse of the operation written there)", err)
		}
		if se != nil {
			if renumbered[se.Step-1] {
				// Its XIDs in the message are not those in the file.
				return exitError, fmt.Errorf("%s: %w (delta %d is from a separate diff: its XIDs above are renumbered onto those delta %d gives)", inputName(fs.Arg(1)), err, se.Step, se.Step-1)
			}
		}
		return exitError, fmt.Errorf("%s: %w", inputName(fs.Arg(1)), err)
	}
	result, _ := tree.Flatten(doc.Root)
	resultPrint := tree.FingerprintOf(result)
	if err := delta.CheckTarget(last, resultPrint); err != nil {
		if *reverse {
			// Undone, the delta's target is the version it was
			// computed from.
			err = reworded{err, fmt.Sprintf("the result is not the version the delta was computed from: that version's fingerprint is %016x, the result's %016x", uint64(last.ToFingerprint), uint64(resultPrint))}
		}
		return exitError, fmt.Errorf("%s: %w (was the delta file altered?)", inputName(fs.Arg(1)), err)
	}
	target := "the version the delta leads to"
	if *reverse {
		target = "the version the delta was computed from"
	}
	unfit := ""
	if last.ToFingerprint == 0 {
		unfit = inputName(fs.Arg(0))
	}
	out, err := writePatched(env, doc, format, &df, resultPrint, target, unfit)
	if err == nil {
		_, err = env.stdout.Write(out)
	}
	if err != nil {
		return exitError, err
	}
	return exitOK, nil
}

// sameFile reports whether the files a and b (not standard input) are
// one, by name or through a link. A file that cannot be read is not: its
// reading says why.
func sameFile(a, b string) bool {
	if a == "-" || b == "-" {
		return false
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// chainEnds returns the first and the last delta of ds that say something
// of the versions they join (silentEmpty), or ds's ends when none does.
func chainEnds(ds []*delta.Delta) (first, last *delta.Delta) {
	first, last = ds[0], ds[len(ds)-1]
	if i := slices.IndexFunc(ds, func(d *delta.Delta) bool { return !silentEmpty(d) }); i >= 0 {
		first = ds[i]
	}
	for i := len(ds) - 1; i >= 0; i-- {
		if !silentEmpty(ds[i]) {
			last = ds[i]
			break
		}
	}
	return first, last
}

// writePatched writes the patched document in format, the format DOC was
// read in, and checks that it reads back as the tree the delta leads to
// (fingerprint want), as the next diff would read it. target names that
// version in the messages: the one the delta leads to, or, undone with
// --reverse, the one it was computed from.
//
// HTML cannot write every tree its parser builds: misnested markup puts a
// p inside a p, or a link inside a link, and no markup reads back so. Nor
// can XML write every tree the HTML parser builds: a delta from a version
// read as XML to one read as HTML (XHTML well-formed in one version only)
// leads to white space in a pre, which XML does not keep, or to names XML
// cannot hold. Then, unless --parse chose the format, the result is
// written as HTML if that reads back as the tree, with a note: the version
// the delta leads to was HTML. Conversely, a result that HTML cannot write
// and the HTML parser never builds (an html root without a head: a delta
// from a version read as HTML to one read as XML, or one the other way
// undone with --reverse) is written as XML, with a declaration, if that
// reads back as the tree. Otherwise
// the output is the nearest the format can say, with a warning.
//
// A delta that states no version it leads to (written by hand, without
// fingerprints) says nothing of HTML: where it leads to XML that does not
// read back (a prefix that nothing declares where the delta uses it), it
// does not fit the document, unfit, and is refused.
//
// The output ends with a newline, as vigil's other outputs do, except
// HTML read with --whitespace keep: the HTML parser adds white space
// after </html> to the body, so a newline there would be a text node the
// tree does not hold.
func writePatched(env *environment, doc *tree.Document, format markup.Format, df *docFlags, want tree.Fingerprint, target, unfit string) ([]byte, error) {
	opt, err := df.options()
	if err != nil {
		return nil, err
	}
	// write writes doc in format f after prefix, and reports whether it
	// reads back as the tree the delta leads to.
	write := func(f markup.Format, prefix string) ([]byte, bool, error) {
		var out bytes.Buffer
		out.WriteString(prefix)
		var err error
		if f == markup.HTML {
			err = markup.WriteHTML(&out, doc, nil)
		} else {
			err = markup.WriteXML(&out, doc, nil)
		}
		if err != nil {
			return nil, false, err
		}
		if f != markup.HTML || opt.Whitespace != markup.Keep {
			out.WriteByte('\n')
		}
		// Read back flat, as the next diff reads it: a Document of a
		// large XML page, beside the patched one, would double what the
		// command holds at its peak (HTML is parsed into a Document and
		// flattened all the same). The parse writes nothing into the
		// output it reads.
		back, _, err := markup.ParseFlatBytesOwned(out.Bytes(), opt)
		if err != nil {
			return out.Bytes(), false, err
		}
		return out.Bytes(), tree.FingerprintOf(back) == want, nil
	}
	out, same, werr := write(format, "")
	if same {
		return out, nil
	}
	if unfit != "" && format == markup.XML && werr != nil {
		return nil, fmt.Errorf("the delta does not fit %s: its result is not well-formed XML: %w (the delta states no version it leads to: written by hand?)", unfit, werr)
	}
	if format == markup.XML && df.parse == "auto" {
		if h, ok, _ := write(markup.HTML, ""); ok {
			fmt.Fprintf(env.stderr, "vigil patch: note: the result is written as HTML: XML cannot write it as it is, and %s was read as HTML\n", target)
			return h, nil
		}
	}
	if format == markup.HTML && df.parse == "auto" && !htmlShaped(doc.Root) {
		// The converse: a version read as XML (XHTML with its
		// declaration), which the HTML parser would have given a head,
		// written with a declaration, without which an html root reads
		// as HTML.
		prefix := ""
		if decl, _, _ := doc.SplitProlog(); decl == nil {
			prefix = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		}
		if x, ok, _ := write(markup.XML, prefix); ok {
			fmt.Fprintf(env.stderr, "vigil patch: note: the result is written as XML: HTML cannot write it as it is, and %s was read as XML\n", target)
			return x, nil
		}
	}
	if out == nil {
		if errors.Is(werr, markup.ErrNotXML) {
			// What an HTML parser keeps and XML cannot hold: the delta
			// was made from a version read as HTML.
			werr = fmt.Errorf("%w (was the delta computed from a version read as HTML? --parse html reads both alike)", werr)
		}
		return nil, werr
	}
	why := "misnested markup in " + target + ", such as a p inside a p, or a version read as XML"
	if format != markup.HTML {
		why = "was " + target + " read as HTML? --parse html reads both alike"
	}
	result := "the output reads back as another tree"
	if werr != nil {
		result = fmt.Sprintf("the output does not read back: %v", werr)
	}
	fmt.Fprintf(env.stderr, "vigil patch: warning: %s cannot write this tree as it is (%s): %s\n", strings.ToUpper(format.String()), why, result)
	return out, nil
}

// htmlShaped reports whether root may be the root of a tree the HTML
// parser built: it always builds an html element whose elements are a
// head, then a body or a frameset. A tree of another shape was read as
// XML.
func htmlShaped(root *tree.Node) bool {
	if root == nil || root.Kind != tree.Element || root.Name != "html" {
		return false
	}
	var names []string
	for _, c := range root.Children {
		if c.Kind == tree.Element {
			names = append(names, c.Name)
		}
	}
	return len(names) == 2 && names[0] == "head" && (names[1] == "body" || names[1] == "frameset")
}

// deltaOrigin names the file that holds the n deltas numbered from first
// in a chain: "delta 2: FILE", or "deltas 2 to 4: FILE".
func deltaOrigin(first, n int, file string) string {
	if n == 1 {
		return fmt.Sprintf("delta %d: %s", first, file)
	}
	return fmt.Sprintf("deltas %d to %d: %s", first, first+n-1, file)
}

func runCompose(ctx context.Context, env *environment, args []string) (int, error) {
	fs := newDescribedFlags(env, "compose", "[flags] DELTA1 DELTA2 ...   (consecutive deltas, in files of one or more; files or -)", composeHelp)
	format := fs.String("format", "", "output format: xydelta or json (default: the format of DELTA1)")
	maxBytes := fs.Int64("max-bytes", markup.DefaultMaxBytes, "refuse delta files larger than this many bytes")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(fs.Output(), "vigil compose: want a delta file or more, got none")
		fs.Usage()
		return exitError, errUsageShown
	}
	if *format != "" && *format != "xydelta" && *format != "json" {
		return exitError, fmt.Errorf("--format %q: want xydelta or json", *format)
	}
	if k := slices.Index(fs.Args(), "-"); k >= 0 && slices.Contains(fs.Args()[k+1:], "-") {
		return exitError, fmt.Errorf("only one delta file can be standard input")
	}
	if err := outputNotInput(env, fs.Args()...); err != nil {
		return exitError, err
	}
	var all []*delta.Delta
	var firstFormat string
	var origins []string
	for i, name := range fs.Args() {
		ds, format, err := readDeltas(env, name, *maxBytes)
		if err != nil {
			return exitError, err
		}
		if i == 0 {
			firstFormat = format
		}
		origins = append(origins, deltaOrigin(len(all)+1, len(ds), inputName(name)))
		all = append(all, ds...)
	}
	// The errors number the deltas across the files: the files are named
	// with the numbers of theirs.
	legend := ""
	if len(origins) > 1 {
		legend = " (" + strings.Join(origins, "; ") + ")"
	}
	if _, err := renumber(all); err != nil {
		return exitError, fmt.Errorf("%w%s", err, legend)
	}
	composed, err := delta.ComposeAll(all)
	if errors.Is(err, delta.ErrNeedsDocuments) {
		// The library's advice names its function ComposeWith, which no
		// command offers: vigil diff is the command's.
		msg := strings.Replace(err.Error(), "; use ComposeWith", "", 1)
		return exitError, reworded{err, msg + " (the deltas alone do not say; vigil diff of the first and last versions gives the delta)" + legend}
	}
	if err != nil {
		return exitError, fmt.Errorf("%w%s", err, legend)
	}
	out := cmp.Or(*format, firstFormat)
	if err := writeDelta(env.stdout, composed, out, nil, nil, false); err != nil {
		return exitError, err
	}
	return exitOK, nil
}

// reworded is an error shown with another message, still matching what
// it wraps (errors.Is).
type reworded struct {
	err error
	msg string
}

// Error returns the message shown.
func (r reworded) Error() string { return r.msg }

// Unwrap returns the error reworded.
func (r reworded) Unwrap() error { return r.err }

// parseKeyAttrs returns the names of --key-attrs, a comma-separated list,
// white space around each name left out; an empty value is none. An empty
// name (",,", "id,", " ") or one with white space in it (names separated
// by spaces) is refused: it would match nothing, and the flag would do
// less than it says without a word.
func parseKeyAttrs(list string) ([]string, error) {
	if list == "" {
		return nil, nil
	}
	const want = "want attribute names separated by commas, such as id,name"
	var names []string
	for i, k := range strings.Split(list, ",") {
		k = strings.TrimSpace(k)
		if k == "" {
			return nil, fmt.Errorf("--key-attrs %q: name %d is empty; %s", list, i+1, want)
		}
		if strings.ContainsFunc(k, unicode.IsSpace) {
			return nil, fmt.Errorf("--key-attrs %q: %q holds white space, which no attribute name does; %s", list, k, want)
		}
		names = append(names, k)
	}
	return names, nil
}

// keyAttrs returns the attributes of --key-attrs (the names parseKeyAttrs
// read) to match the elements of docs by, read in formats. An HTML page's
// attribute names are in lower case (<div ID="a"> has the attribute id), so
// a name is looked up in lower case too where a version is HTML. The
// attributes that no element of either version has (a typo, a page that
// has none) are noted on standard error: the flag does nothing for them.
func keyAttrs(env *environment, names []string, docs []*tree.Flat, formats []markup.Format) []string {
	var keys, absent []string
	for _, k := range names {
		keys = append(keys, k)
		found := false
		for i, doc := range docs {
			lower := strings.ToLower(k)
			if formats[i] == markup.HTML && lower != k && !slices.Contains(keys, lower) {
				keys = append(keys, lower)
			}
			found = found || doc.HasAttrNamed(k) || formats[i] == markup.HTML && doc.HasAttrNamed(lower)
		}
		if !found {
			absent = append(absent, k)
		}
	}
	switch len(absent) {
	case 0:
	case 1:
		fmt.Fprintf(env.stderr, "vigil diff: note: no element of either version has the attribute %s (--key-attrs)\n", absent[0])
	default:
		fmt.Fprintf(env.stderr, "vigil diff: note: no element of either version has the attributes %s (--key-attrs)\n", strings.Join(absent, ", "))
	}
	return keys
}

// patchFits says which version a delta fits, as patch's messages end when
// the document is not it.
func patchFits(reverse bool) string {
	if reverse {
		return "--reverse undoes a delta on the version it leads to, parsed with the same --whitespace and --parse"
	}
	return "a delta fits the version it was computed from, parsed with the same --whitespace and --parse"
}

// deltaAsDoc returns the hint for a DOC that is itself a delta, the slip
// of chaining deltas with patch (patch D1 D2), and whether the file named
// name, read as b, is one. A delta's version maps are never expanded, so
// a DOC of a hundred bytes whose maps read (1-60000000) costs nothing to
// tell apart.
func deltaAsDoc(name string, b []byte) (string, bool) {
	if _, _, notDelta := decodeDeltas(b); notDelta != nil {
		return "", false
	}
	return inputName(name) + " is a delta, not a document: the arguments are DOC DELTA; vigil compose joins deltas", true
}

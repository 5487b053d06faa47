package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
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
		summary:         "apply a delta to a document (or undo it with --reverse)",
		run:             runPatch,
	})
	register(&command{
		name:            "compose",
		exitOnInterrupt: true,
		summary:         "aggregate two consecutive deltas into one",
		run:             runCompose,
	})
}

// newFlags returns a flag set that reports its errors to stderr and prints
// the usage line given.
func newFlags(env *environment, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: vigil %s %s\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
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
	fmt.Fprintf(fs.Output(), "vigil %s: want %d arguments, got %d\n", fs.Name(), n, fs.NArg())
	fs.Usage()
	return errUsageShown
}

// readInput reads a file, or standard input for "-", refusing more than
// limit bytes without reading them into memory.
func readInput(env *environment, name string, limit int64) ([]byte, error) {
	var r io.Reader = env.stdin
	var buf bytes.Buffer
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			if st.Size() > limit {
				return nil, fmt.Errorf("%s: %d bytes is more than the limit of %d (--max-bytes)", name, st.Size(), limit)
			}
			// A file of known size is read into one buffer of that size,
			// not one that doubles as it fills.
			buf.Grow(int(st.Size()) + bytes.MinRead)
		}
		r = f
	}
	if _, err := buf.ReadFrom(io.LimitReader(r, limit+1)); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(buf.Len()) > limit {
		return nil, fmt.Errorf("%s: more than the limit of %d bytes (--max-bytes)", name, limit)
	}
	return buf.Bytes(), nil
}

// docFlags are the parsing options shared by diff and patch.
type docFlags struct {
	whitespace string
	parse      string
	maxBytes   int64
}

func (f *docFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.whitespace, "whitespace", "normalize", "white-space policy: normalize (drop blank text, collapse runs) or keep")
	fs.StringVar(&f.parse, "parse", "auto", "how to parse documents: auto (XML or HTML, by content), xml or html")
	fs.Int64Var(&f.maxBytes, "max-bytes", markup.DefaultMaxBytes, "refuse inputs larger than this many bytes")
}

func (f *docFlags) options() (*markup.Options, error) {
	if f.maxBytes <= 0 {
		return nil, fmt.Errorf("--max-bytes %d: want a positive number of bytes", f.maxBytes)
	}
	opt := &markup.Options{MaxBytes: f.maxBytes}
	switch f.whitespace {
	case "normalize":
		opt.Whitespace = markup.Normalize
	case "keep":
		opt.Whitespace = markup.Keep
	default:
		return nil, fmt.Errorf("--whitespace %q: want normalize or keep", f.whitespace)
	}
	switch f.parse {
	case "auto":
	case "xml":
		opt.Format = markup.XML
	case "html":
		opt.Format = markup.HTML
	default:
		return nil, fmt.Errorf("--parse %q: want auto, xml or html", f.parse)
	}
	return opt, nil
}

// loadDocument reads and parses a document (XML or HTML, by content).
func loadDocument(env *environment, name string, f *docFlags) (*tree.Document, markup.Format, error) {
	b, opt, err := readDocument(env, name, f)
	if err != nil {
		return nil, 0, err
	}
	// b is ours: the document may keep it rather than a copy.
	doc, format, err := markup.ParseBytesOwned(b, opt)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", displayName(name), err)
	}
	return doc, format, nil
}

// loadFlat reads and parses a document as loadDocument does, as the flat
// tree the diff works on, and returns it with its size in bytes.
func loadFlat(env *environment, name string, f *docFlags) (*tree.Flat, int, error) {
	b, opt, err := readDocument(env, name, f)
	if err != nil {
		return nil, 0, err
	}
	doc, _, err := markup.ParseFlatBytesOwned(b, opt)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", displayName(name), err)
	}
	return doc, len(b), nil
}

// readDocument reads a document and the parsing options its flags give.
func readDocument(env *environment, name string, f *docFlags) ([]byte, *markup.Options, error) {
	opt, err := f.options()
	if err != nil {
		return nil, nil, err
	}
	b, err := readInput(env, name, f.maxBytes)
	if err != nil {
		return nil, nil, err
	}
	if len(bytes.TrimSpace(bytes.TrimPrefix(b, utf8BOM))) == 0 {
		return nil, nil, fmt.Errorf("%s: empty document: no root element", displayName(name))
	}
	return b, opt, nil
}

// utf8BOM is the byte order mark some editors put at the start of UTF-8.
var utf8BOM = []byte("\xef\xbb\xbf")

func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

func runDiff(ctx context.Context, env *environment, args []string) (int, error) {
	fs := newFlags(env, "diff", "[flags] OLD NEW   (files, or - for standard input)")
	var df docFlags
	df.register(fs)
	format := fs.String("format", "xydelta", "output format: xydelta (XyDelta XML), json, or summary")
	keys := fs.String("key-attrs", "", "comma-separated attributes that identify elements, such as id,name")
	algorithm := fs.String("algorithm", string(treediff.Vigil), "matching algorithm: vigil (near-minimal) or xydiff (the seed's)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if err := wantArgs(fs, 2); err != nil {
		return exitError, err
	}
	if *format != "xydelta" && *format != "json" && *format != "summary" {
		return exitError, fmt.Errorf("--format %q: want xydelta, json or summary", *format)
	}
	oldName, newName := fs.Arg(0), fs.Arg(1)
	if oldName == "-" && newName == "-" {
		return exitError, fmt.Errorf("only one of OLD and NEW can be standard input")
	}
	oldDoc, oldSize, err := loadFlat(env, oldName, &df)
	if err != nil {
		return exitError, err
	}
	newDoc, newSize, err := loadFlat(env, newName, &df)
	if err != nil {
		return exitError, err
	}
	limitDiffMemory(int64(oldSize + newSize))
	opt := &treediff.Options{Algorithm: treediff.Algorithm(*algorithm)}
	for _, k := range strings.Split(*keys, ",") {
		if k = strings.TrimSpace(k); k != "" {
			opt.KeyAttrs = append(opt.KeyAttrs, k)
		}
	}
	d, err := treediff.DiffFlat(oldDoc, newDoc, opt)
	if err != nil {
		return exitError, err
	}
	d.From, d.To = displayName(oldName), displayName(newName)
	if err := writeDelta(env.stdout, d, *format, oldDoc, newDoc); err != nil {
		return exitError, err
	}
	if d.Empty() {
		return exitOK, nil
	}
	return exitChanged, nil
}

// writeDelta writes d in the given format; summary needs both versions
// (with their XIDs) to name the places that changed.
func writeDelta(w io.Writer, d *delta.Delta, format string, old, new *tree.Flat) error {
	switch format {
	case "json":
		return delta.EncodeJSON(w, d)
	case "summary":
		return writeSummary(w, d, old, new)
	default:
		return delta.EncodeXML(w, d)
	}
}

// writeSummary writes one line of counts, then one line per change: the
// path of the node in the old version, and for moves and inserts where it
// goes in the new one.
func writeSummary(w io.Writer, d *delta.Delta, old, new *tree.Flat) error {
	bw := bufio.NewWriter(w)
	s := d.Stats()
	outside := ""
	if s.Outside {
		outside = ", changes outside the root element"
	}
	fmt.Fprintf(bw, "%s -> %s: %d inserted (%d nodes), %d deleted (%d nodes), %d moved, %d text updates, %d attribute changes, %d renames%s\n",
		d.From, d.To, s.Inserts, s.InsertedNodes, s.Deletes, s.DeletedNodes, s.Moves, s.Updates, s.AttrInserts+s.AttrDeletes+s.AttrUpd, s.Renames, outside)
	if o := d.Outside; o != nil {
		if o.Old.Doctype != o.New.Doctype {
			fmt.Fprintf(bw, "outside DOCTYPE: %q -> %q\n", o.Old.Doctype, o.New.Doctype)
		}
		for _, part := range []struct {
			where    string
			old, new []*tree.Node
		}{{"before the root", o.Old.Prolog, o.New.Prolog}, {"after the root", o.Old.Epilog, o.New.Epilog}} {
			if a, b := texts(part.old), texts(part.new); a != b {
				a, b = contrast(a, b)
				fmt.Fprintf(bw, "outside %s: %q -> %q\n", part.where, a, b)
			}
		}
	}
	oldIdx, newIdx := byXID(old), byXID(new)
	path := func(idx xidPaths, x tree.XID) string {
		if i, ok := idx.index[x]; ok {
			return idx.paths.Path(i)
		}
		return fmt.Sprintf("node %d", x)
	}
	// The insert halves of moves and updates, by XID.
	halves := map[tree.XID]*delta.Op{}
	for i := range d.Ops {
		if op := &d.Ops[i]; op.Kind == delta.Insert && (op.Move || op.Update) {
			halves[op.Root()] = op
		}
	}
	for i := range d.Ops {
		op := &d.Ops[i]
		switch {
		case op.Kind == delta.Delete && op.Move:
			from, to := path(oldIdx, op.Root()), path(newIdx, op.Root())
			if h := halves[op.Root()]; h != nil && from == to {
				// Reordered among siblings of other names: the path
				// cannot tell, the positions do.
				fmt.Fprintf(bw, "move    %s: child %d -> child %d\n", from, op.Pos, h.Pos)
				break
			}
			fmt.Fprintf(bw, "move    %s -> %s\n", from, to)
		case op.Kind == delta.Delete && op.Update:
			to := ""
			if h := halves[op.Root()]; h != nil {
				to = flatText(h.Content)
			}
			from, to := contrast(flatText(op.Content), to)
			fmt.Fprintf(bw, "update  %s: %q -> %q\n", path(oldIdx, op.Root()), from, to)
		case op.Kind == delta.Delete:
			fmt.Fprintf(bw, "delete  %s: %q\n", path(oldIdx, op.Root()), snippet(op.Content))
		case op.Kind == delta.Insert && (op.Move || op.Update):
			// printed with its delete half
		case op.Kind == delta.Insert:
			fmt.Fprintf(bw, "insert  %s: %q\n", path(newIdx, op.Root()), snippet(op.Content))
		case op.Kind == delta.Rename:
			fmt.Fprintf(bw, "rename  %s: %s -> %s\n", path(oldIdx, op.Node), op.OldValue, op.NewValue)
		case op.Kind == delta.AttrInsert:
			fmt.Fprintf(bw, "attr    %s: @%s added %q\n", path(oldIdx, op.Node), op.Name, op.NewValue)
		case op.Kind == delta.AttrDelete:
			fmt.Fprintf(bw, "attr    %s: @%s removed (was %q)\n", path(oldIdx, op.Node), op.Name, op.OldValue)
		case op.Kind == delta.AttrUpdate:
			fmt.Fprintf(bw, "attr    %s: @%s %q -> %q\n", path(oldIdx, op.Node), op.Name, op.OldValue, op.NewValue)
		}
	}
	return bw.Flush()
}

// texts is flatText of a list of comments and processing instructions.
func texts(nodes []*tree.Node) string {
	s := make([]string, len(nodes))
	for i, n := range nodes {
		s[i] = flatText(n)
	}
	return strings.Join(s, " ")
}

// xidPaths names the nodes of a flat tree by path, given their XIDs.
type xidPaths struct {
	index map[tree.XID]int32
	paths *tree.FlatPaths
}

// byXID indexes the nodes of f by XID, to name them by path.
func byXID(f *tree.Flat) xidPaths {
	idx := xidPaths{index: make(map[tree.XID]int32, len(f.XID)), paths: tree.NewFlatPaths(f)}
	for i, x := range f.XID {
		idx.index[x] = int32(i)
	}
	return idx
}

// snippet returns the start of a subtree's text, or its element name.
func snippet(n *tree.Node) string { return clip(flatText(n)) }

// clip cuts a text to 60 characters.
func clip(text string) string {
	if r := []rune(text); len(r) > 60 {
		text = string(r[:57]) + "..."
	}
	return text
}

// contrast returns a text before and after a change, each clipped as
// snippet clips it but from a little before the first character where they
// differ: a change past the first sixty characters would otherwise show
// the same text twice.
func contrast(before, after string) (string, string) {
	a, b := []rune(before), []rune(after)
	k := 0
	for k < len(a) && k < len(b) && a[k] == b[k] {
		k++
	}
	if k > 40 {
		a = append([]rune("..."), a[k-20:]...)
		b = append([]rune("..."), b[k-20:]...)
	}
	return clip(string(a)), clip(string(b))
}

// flatText returns a subtree's text, its first twenty words on one line,
// or its element name; a comment or processing instruction as written.
func flatText(n *tree.Node) string {
	if n == nil {
		return ""
	}
	var words []string
	tree.Walk(n, func(x *tree.Node) bool {
		if x.Kind == tree.Text {
			words = append(words, strings.Fields(x.Value)...)
		}
		return len(words) < 20
	})
	text := strings.Join(words, " ")
	switch {
	case text == "" && n.Kind == tree.Element:
		return "<" + n.Name + ">"
	case n.Kind == tree.Comment:
		text = "<!--" + strings.Join(strings.Fields(n.Value), " ") + "-->"
	case n.Kind == tree.ProcInst:
		text = "<?" + n.Name + " " + strings.Join(strings.Fields(n.Value), " ") + "?>"
	}
	return text
}

// readDeltas reads deltas in XyDelta XML or JSON (by content), refusing
// a file of more than limit bytes: one or more, consecutive.
func readDeltas(env *environment, name string, limit int64) ([]*delta.Delta, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("--max-bytes %d: want a positive number of bytes", limit)
	}
	b, err := readInput(env, name, limit)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(b, []byte("\xff\xfe")) || bytes.HasPrefix(b, []byte("\xfe\xff")) {
		return nil, fmt.Errorf("%s: a delta file is UTF-8; this one is UTF-16", displayName(name))
	}
	b = bytes.TrimPrefix(b, utf8BOM)
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
		ds, err := delta.DecodeJSONAll(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", displayName(name), err)
		}
		return ds, nil
	}
	ds, err := delta.DecodeXML(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", displayName(name), err)
	}
	if len(ds) == 0 {
		return nil, fmt.Errorf("%s: no delta in the file", displayName(name))
	}
	return ds, nil
}

func runPatch(ctx context.Context, env *environment, args []string) (int, error) {
	fs := newFlags(env, "patch", "[flags] DOC DELTA   (files, or - for standard input)")
	var df docFlags
	df.register(fs)
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
	doc, format, err := loadDocument(env, fs.Arg(0), &df)
	if err != nil {
		return exitError, err
	}
	ds, err := readDeltas(env, fs.Arg(1), df.maxBytes)
	if err != nil {
		return exitError, err
	}
	if err := renumber(ds); err != nil {
		return exitError, fmt.Errorf("%s: %w", displayName(fs.Arg(1)), err)
	}
	if *reverse {
		inv := make([]*delta.Delta, len(ds))
		for i, d := range ds {
			inv[len(ds)-1-i] = delta.Invert(d)
		}
		ds = inv
	}
	// The document gets the XIDs the first delta expects: those of its
	// source version, or of a first version when the delta has no map.
	if m := ds[0].FromXIDMap; len(m.XIDs) > 0 {
		if err := doc.SetXIDMap(m); err != nil {
			return exitError, fmt.Errorf("the delta does not fit %s: %w", displayName(fs.Arg(0)), err)
		}
	} else {
		doc.AssignXIDs()
	}
	if doc, err = delta.ApplyAll(doc, ds); err != nil {
		return exitError, fmt.Errorf("%s: %w", displayName(fs.Arg(1)), err)
	}
	bw := bufio.NewWriter(env.stdout)
	if format == markup.HTML {
		err = markup.WriteHTML(bw, doc, nil)
	} else {
		err = markup.WriteXML(bw, doc, nil)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return exitError, err
	}
	return exitOK, nil
}

func runCompose(ctx context.Context, env *environment, args []string) (int, error) {
	fs := newFlags(env, "compose", "[flags] DELTA1 DELTA2   (consecutive deltas; files or -)")
	format := fs.String("format", "", "output format: xydelta or json (default: the format of DELTA1)")
	maxBytes := fs.Int64("max-bytes", markup.DefaultMaxBytes, "refuse delta files larger than this many bytes")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if err := wantArgs(fs, 2); err != nil {
		return exitError, err
	}
	if fs.Arg(0) == "-" && fs.Arg(1) == "-" {
		return exitError, fmt.Errorf("only one of DELTA1 and DELTA2 can be standard input")
	}
	first, err := readDeltas(env, fs.Arg(0), *maxBytes)
	if err != nil {
		return exitError, err
	}
	second, err := readDeltas(env, fs.Arg(1), *maxBytes)
	if err != nil {
		return exitError, err
	}
	all := append(first, second...)
	if err := renumber(all); err != nil {
		return exitError, err
	}
	composed, err := delta.ComposeAll(all)
	if err != nil {
		return exitError, err
	}
	out := *format
	if out == "" {
		out = "xydelta"
		if b, _ := readFirstByte(fs.Arg(0)); b == '{' {
			out = "json"
		}
	}
	if out != "xydelta" && out != "json" {
		return exitError, fmt.Errorf("--format %q: want xydelta or json", out)
	}
	if err := writeDelta(env.stdout, composed, out, nil, nil); err != nil {
		return exitError, err
	}
	return exitOK, nil
}

// renumber renumbers each delta of a chain onto the XIDs the previous one
// gave the version between them, where they differ: a delta computed by a
// separate diff numbers its source afresh. Deltas are numbered from 1
// across the chain in its errors.
func renumber(ds []*delta.Delta) error {
	for i := 1; i < len(ds); i++ {
		prev, d := ds[i-1], ds[i]
		if len(d.FromXIDMap.XIDs) > 0 && len(prev.ToXIDMap.XIDs) > 0 && !d.FromXIDMap.Equal(prev.ToXIDMap) {
			var err error
			if ds[i], err = delta.Rebase(d, prev.ToXIDMap); err != nil {
				return fmt.Errorf("delta %d: the deltas are not consecutive: %w", i+1, err)
			}
		}
	}
	return nil
}

// readFirstByte returns the first non-space byte of a file ("-" gives 0).
func readFirstByte(name string) (byte, error) {
	if name == "-" {
		return 0, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	for {
		b, err := br.ReadByte()
		if err != nil {
			return 0, err
		}
		if b != ' ' && b != '\n' && b != '\r' && b != '\t' {
			return b, nil
		}
	}
}

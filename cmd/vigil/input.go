package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/xmlpatch"
)

// readInput reads a file, or standard input for "-", refusing more than
// limit bytes without reading them into memory.
func readInput(env *environment, name string, limit int64) ([]byte, error) {
	if p, ok := env.stdin.(*pipedInput); ok && name == "-" {
		// Read ahead within the same limit: diff and patch pass theirs,
		// --max-bytes, to both.
		return p.take()
	}
	var r io.Reader = env.stdin
	hint := 512
	if name != "-" {
		f, err := openFile(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	// A file, standard input redirected from one too, is refused by its
	// size before it is read.
	if size, ok := regularSize(r); ok {
		if size > limit {
			return nil, fmt.Errorf("%s: %d bytes is more than the limit of %d (--max-bytes)", inputName(name), size, limit)
		}
		// A file of known size is read into one buffer of that size,
		// not one that doubles as it fills.
		hint = int(size) + 1
	}
	b, over, err := readAtMost(r, limit, hint)
	if err := readFailure(name, limit, over, err); err != nil {
		return nil, err
	}
	return b, nil
}

// readFailure words the error of reading input name to its end, as
// readAtMost reports it (over: more than limit bytes), nil for none.
func readFailure(name string, limit int64, over bool, err error) error {
	if err != nil {
		// A file's error names it already ("read NAME: ..."); standard
		// input's names /dev/stdin, or nothing.
		if pe := (*os.PathError)(nil); errors.As(err, &pe) && pe.Path == name {
			return pathError(err)
		}
		return fmt.Errorf("%s: %w", inputName(name), pathError(err))
	}
	if over {
		return fmt.Errorf("%s: more than the limit of %d bytes (--max-bytes)", inputName(name), limit)
	}
	return nil
}

// outputNotInput refuses standard output redirected to one of the input
// files names ("vigil patch doc.xml d.xml > doc.xml"): with >, the shell
// has emptied the file before the command reads it; with >>, the output
// would be added to the input.
func outputNotInput(env *environment, names ...string) error {
	w := env.stdout
	if s, ok := w.(*stickyWriter); ok {
		w = s.w
	}
	out, ok := w.(*os.File)
	if !ok {
		return nil
	}
	so, err := out.Stat()
	if err != nil || !so.Mode().IsRegular() {
		return nil
	}
	for _, name := range names {
		if name == "-" {
			continue
		}
		if st, err := os.Stat(name); err == nil && os.SameFile(so, st) {
			return fmt.Errorf("%s is also the standard output: write the output to another file (%s)", inputName(name), sameFileHint(out, inputName(name)))
		}
	}
	return nil
}

// sameFileHint says what redirecting standard output, out, to the input
// name (as inputName gives it) does: > empties it before it is read, >> would append the output
// to it. Where the two cannot be told apart, it says both.
func sameFileHint(out *os.File, name string) string {
	switch app, known := appending(out); {
	case !known:
		return fmt.Sprintf("> %s empties it before it is read; >> %s would append the output to it", name, name)
	case app:
		return fmt.Sprintf(">> %s would append the output to it", name)
	}
	return fmt.Sprintf("> %s empties it before it is read", name)
}

// openFile opens the file name for reading, refusing a folder: said once,
// rather than as "read DIR: is a directory" at the first read. An empty
// name (an unset shell variable, "$OLD") is said as such, where the system
// said "open : no such file or directory". Its errors name the file as
// lineName does.
func openFile(name string) (*os.File, error) {
	if name == "" {
		return nil, errors.New(`"": an empty file name`)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, pathError(err)
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s: a folder, not a file", lineName(name))
	}
	return f, nil
}

// readAtMost reads r to its end into a buffer of hint bytes to start
// with, that doubles as it fills but never grows past limit bytes (a
// stream at the limit takes as much memory as it holds, not twice as
// much), and reports whether r holds more than that.
func readAtMost(r io.Reader, limit int64, hint int) (b []byte, over bool, err error) {
	b = make([]byte, 0, min(max(int64(hint), 512), limit))
	for {
		if len(b) == cap(b) {
			if int64(len(b)) == limit {
				var probe [1]byte
				k, err := io.ReadFull(r, probe[:])
				if err == io.EOF {
					err = nil
				}
				return b, k > 0, err
			}
			grown := make([]byte, len(b), min(2*int64(cap(b)), limit))
			copy(grown, b)
			b = grown
		}
		k, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+k]
		if err == io.EOF {
			return b, false, nil
		}
		if err != nil {
			return nil, false, err
		}
	}
}

// regularSize returns the bytes left to read in r when it is a regular
// file, from where it stands (standard input may be part read).
func regularSize(r io.Reader) (int64, bool) {
	f, ok := r.(*os.File)
	if !ok {
		return 0, false
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return 0, false
	}
	off, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, false
	}
	return max(st.Size()-off, 0), true
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
	case "auto", "":
	case "xml":
		opt.Format = markup.XML
	case "html":
		opt.Format = markup.HTML
	default:
		return nil, fmt.Errorf("--parse %q: want auto, xml or html", f.parse)
	}
	return opt, nil
}

// loadDocument reads and parses a document (XML or HTML, by content). It
// returns the bytes read too, which the document may share: they may be
// read again, never written.
func loadDocument(env *environment, name string, f *docFlags) (*tree.Document, []byte, markup.Format, error) {
	b, opt, err := readDocument(env, name, f)
	if err != nil {
		return nil, nil, 0, err
	}
	// b is ours: the document may keep it rather than a copy.
	doc, format, err := markup.ParseBytesOwned(b, opt)
	if err != nil {
		return nil, nil, 0, parseError(name, err)
	}
	return doc, b, format, nil
}

// parseError names the file a parse error is about, and the flag that
// helps where one does; a limit is said in a user's terms (limitError).
func parseError(name string, err error) error {
	if errors.Is(err, markup.ErrHTMLTooDeep) {
		return fmt.Errorf("%s: %w (--parse xml)", inputName(name), err)
	}
	return fmt.Errorf("%s: %w", inputName(name), limitError(err))
}

// limitError returns err with a parser limit it reports said in a user's
// terms: the flag that changes it (--max-bytes), or that it is fixed,
// instead of the markup.Options field that names it for Go programs. Other
// errors are returned as they are.
func limitError(err error) error {
	var le *markup.LimitError
	if !errors.As(err, &le) {
		return err
	}
	note := "a fixed limit"
	if le.Option == "MaxBytes" {
		note = "--max-bytes"
	}
	msg := strings.Replace(err.Error(), le.Error(), le.Err.Error()+" ("+note+")", 1)
	return reworded{err: err, msg: msg}
}

// loadFlat reads and parses a document as loadDocument does, as the flat
// tree the diff works on, and returns it with its size in bytes and the
// format it was read as.
func loadFlat(env *environment, name string, f *docFlags) (*tree.Flat, int, markup.Format, error) {
	opt, err := f.options()
	if err != nil {
		return nil, 0, 0, err
	}
	b, err := readInput(env, name, f.maxBytes)
	if err != nil {
		return nil, 0, 0, err
	}
	doc, format, err := parseFlat(name, b, opt)
	if err != nil {
		return nil, 0, 0, err
	}
	return doc, len(b), format, nil
}

// parseFlat parses a document read from name (a file, or a page of a site
// snapshot) as loadFlat does, handing b over to the parser.
func parseFlat(name string, b []byte, opt *markup.Options) (*tree.Flat, markup.Format, error) {
	if err := checkDocument(name, b, opt); err != nil {
		return nil, 0, err
	}
	doc, format, err := markup.ParseFlatBytesOwned(b, opt)
	if err != nil {
		return nil, 0, parseError(name, err)
	}
	return doc, format, nil
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
	if err := checkDocument(name, b, opt); err != nil {
		return nil, nil, err
	}
	return b, opt, nil
}

// checkDocument refuses what the parsers would misread: an input with no
// element and no text (empty, blank, or only comments, processing
// instructions and a DOCTYPE), which the HTML parser reads as an empty
// page, and, unless --parse says what it is, a binary one.
func checkDocument(name string, b []byte, opt *markup.Options) error {
	if err := markup.CheckEmpty(b); err != nil {
		return fmt.Errorf("%s: %w", inputName(name), err)
	}
	// A file of unknown kind: the HTML parser would read an image as a
	// page. (With --parse, the user says what it is.)
	if opt.Format == 0 {
		if err := markup.CheckBinary(b); err != nil {
			return fmt.Errorf("%s: %w", inputName(name), err)
		}
	}
	return nil
}

// utf8BOM is the byte order mark some editors put at the start of UTF-8.
var utf8BOM = []byte("\xef\xbb\xbf")

// displayName is how the commands name the input of a file argument in
// what they report: "<stdin>" for "-", standard input.
func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

// inputName is how diff, patch, compose, site diff, site crawl and sentinel
// check, fmt and add name an input in their messages: as displayName
// does, quoted as the summary quotes a file name
// (lineName) where it holds a character a terminal would act on rather
// than show (a line break, a tab, an escape), or bytes that are not UTF-8.
// A name with none is said as it is.
func inputName(name string) string {
	return lineName(displayName(name))
}

// pathError returns err with the file an *os.PathError in it names (open
// NAME: ..., read NAME: ...) said as lineName says it, so that a message
// that prints err needs to name the file no other time.
func pathError(err error) error {
	var pe *os.PathError
	if !errors.As(err, &pe) || lineName(pe.Path) == pe.Path {
		return err
	}
	said := pe.Op + " " + lineName(pe.Path) + ": " + pe.Err.Error()
	return reworded{err: err, msg: strings.Replace(err.Error(), pe.Error(), said, 1)}
}

// readDeltas reads deltas in XyDelta XML or JSON (by content), refusing
// a file of more than limit bytes: one or more, consecutive. It returns
// the format it read, "xydelta" or "json".
func readDeltas(env *environment, name string, limit int64) ([]*delta.Delta, string, error) {
	if limit <= 0 {
		return nil, "", fmt.Errorf("--max-bytes %d: want a positive number of bytes", limit)
	}
	b, err := readInput(env, name, limit)
	if err != nil {
		return nil, "", err
	}
	ds, format, err := decodeDeltas(b)
	if err != nil {
		if isXMLPatch(b) {
			if p, perr := xmlpatch.Decode(bytes.NewReader(b)); perr == nil && len(p.Ops) > 0 {
				// vigil patch reads it: say why compose does not.
				return nil, "", fmt.Errorf("%s: an RFC 5261 XML patch, which holds no old values: compose joins XyDelta and JSON deltas (vigil diff without --format xmlpatch)", inputName(name))
			}
		}
		return nil, "", fmt.Errorf("%s: %w", inputName(name), err)
	}
	return ds, format, nil
}

// decodeDeltas decodes the deltas of a delta file, as readDeltas reads it.
func decodeDeltas(b []byte) ([]*delta.Delta, string, error) {
	return decodeDeltasWithin(b, delta.Limits{})
}

// decodeDeltasWithin is decodeDeltas refusing what lim bounds (vigil
// patch, which knows the document the deltas apply to).
func decodeDeltasWithin(b []byte, lim delta.Limits) ([]*delta.Delta, string, error) {
	if bytes.HasPrefix(b, []byte("\xff\xfe")) || bytes.HasPrefix(b, []byte("\xfe\xff")) {
		return nil, "", errors.New("a delta file is UTF-8; this one is UTF-16")
	}
	if err := markup.CheckBinary(b); err != nil {
		return nil, "", fmt.Errorf("not a delta: %w", err)
	}
	b = bytes.TrimPrefix(b, utf8BOM)
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return nil, "", errors.New("no delta in the file: it is empty")
	}
	if err := markup.CheckEmpty(b); err != nil {
		// Comments alone, which the XML decoder would report as an
		// unexpected end of the file.
		return nil, "", fmt.Errorf("no delta in the file: %w", err)
	}
	if startsJSON(t) {
		// An array first is the likeliest slip: deltas put in a list.
		if t[0] == '[' && bytes.Equal(bytes.TrimSpace(t[1:]), []byte("]")) {
			return nil, "", errors.New("no delta in the file: an empty JSON array; a JSON delta is an object")
		}
		ds, err := delta.DecodeJSONAllWithin(bytes.NewReader(b), lim)
		if err != nil {
			if t[0] == '[' {
				return nil, "", fmt.Errorf("%w (a file of several JSON deltas holds the objects one after the other, not in an array)", err)
			}
			return nil, "", err
		}
		return ds, "json", nil
	}
	ds, err := delta.DecodeXMLWithin(bytes.NewReader(b), lim)
	if err != nil {
		if root, _ := rootElement(b); root == "t" {
			// A delta taken out of the file vigil diff wrote.
			return nil, "", fmt.Errorf("%w (a XyDelta's <t> stands in a <unit_delta>, as vigil diff writes it: <unit_delta><t>...</t></unit_delta>)", err)
		}
		return nil, "", err
	}
	if len(ds) == 0 {
		return nil, "", errors.New("no delta in the file")
	}
	return ds, "xydelta", nil
}

// startsJSON reports whether a delta file whose text (after white space)
// is t is JSON: an object, the form of a JSON delta, or an array, a
// string, a number or one of JSON's literals (null, true, false) alone or
// before a delimiter, which no XML document begins with and which the JSON
// decoder refuses in JSON's terms.
func startsJSON(t []byte) bool {
	if c := t[0]; c == '{' || c == '[' || c == '"' || c == '-' || '0' <= c && c <= '9' {
		return true
	}
	for _, lit := range []string{"null", "true", "false"} {
		if rest, ok := bytes.CutPrefix(t, []byte(lit)); ok && (len(rest) == 0 || strings.IndexByte(" \t\r\n,]}", rest[0]) >= 0) {
			return true
		}
	}
	return false
}

// renumber renumbers each delta of a chain onto the XIDs the previous one
// gave the version between them, where they differ: a delta computed by a
// separate diff numbers its source afresh. Deltas are numbered from 1
// across the chain in its errors.
// It returns whether each delta was renumbered.
//
// An empty delta that says nothing of its versions (no XID-maps, no
// fingerprints: {} or <t/>, written by hand) leaves the version as it is:
// the delta after it follows, and is renumbered onto, the one before it.
func renumber(ds []*delta.Delta) ([]bool, error) {
	renumbered := make([]bool, len(ds))
	p := 0 // the delta the next one follows
	for i := 1; i < len(ds); i++ {
		prev, d := ds[p], ds[i]
		if silentEmpty(d) {
			continue
		}
		if silentEmpty(prev) {
			p = i
			continue
		}
		p = i
		if err := delta.Follows(prev, d); err != nil {
			// Said so, rather than as the renumbering's failure to fit,
			// or the chain's where only the outside of the root shows it.
			return nil, fmt.Errorf("delta %d does not follow delta %d: %w", i+1, slices.Index(ds, prev)+1, err)
		}
		if d.FromXIDMap.Len() > 0 && prev.ToXIDMap.Len() > 0 && !d.FromXIDMap.Equal(prev.ToXIDMap) {
			var err error
			if ds[i], err = delta.Rebase(d, prev.ToXIDMap); err != nil {
				return nil, fmt.Errorf("delta %d: the deltas are not consecutive: %w", i+1, err)
			}
			renumbered[i] = true
		}
	}
	return renumbered, nil
}

// silentEmpty reports whether d changes nothing and says nothing of the
// versions it joins.
func silentEmpty(d *delta.Delta) bool {
	return d.Empty() && d.FromXIDMap.Len() == 0 && d.ToXIDMap.Len() == 0 && d.FromFingerprint == 0 && d.ToFingerprint == 0
}

package delta

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/xmltext"
)

// DecodeXML reads a XyDelta document: a <unit_delta> (or <xy:unit_delta>)
// holding one <t> per delta, or several such documents one after the other
// (the outputs of several diffs put end to end), their deltas in order. It
// checks each delta with Delta.Validate. Errors are *DecodeError with a
// line and column, and the delta's number counted across the documents.
// A byte-order mark may stand at the start of the input and before each
// document; columns do not count it, as an editor does not show it.
func DecodeXML(r io.Reader) ([]*Delta, error) { return DecodeXMLWithin(r, Limits{}) }

// DecodeXMLWithin is DecodeXML refusing what lim bounds.
func DecodeXMLWithin(r io.Reader, lim Limits) ([]*Delta, error) {
	cols := xmltext.NewColumnReader(r)
	// A byte-order mark, as an editor may put at the start of a file, as
	// DecodeJSON takes one.
	cols.SkipByteOrderMark()
	dec := &xmlDecoder{x: xml.NewDecoder(cols), cols: cols, arena: &tree.Document{}, maxNodes: lim.MaxNodes}
	dec.x.Strict = true
	dec.x.CharsetReader = func(label string, input io.Reader) (io.Reader, error) {
		// A delta is written in UTF-8; the declaration may say so in any
		// spelling.
		if l := strings.ToLower(label); l == "utf-8" || l == "utf8" {
			return input, nil
		}
		return nil, fmt.Errorf("a delta file is UTF-8; this one declares the encoding %q", label)
	}
	ds, err := dec.document()
	if err != nil {
		var de *DecodeError
		if !errors.As(err, &de) {
			line, col := dec.inputPos()
			de = &DecodeError{Line: line, Column: col, Step: dec.step, Op: dec.op, Msg: err.Error(), Err: ErrMalformed}
			err = de
		}
		return nil, err
	}
	return ds, nil
}

type xmlDecoder struct {
	x        *xml.Decoder
	cols     *xmltext.ColumnReader // x's input, for columns in characters
	step, op int                   // 1-based, for messages
	arena    *tree.Document        // allocates content nodes in chunks
	// lastMap and lastXIDs are the last XID-map attribute read and its
	// runs: in a file of consecutive deltas, each delta's source map is the
	// previous one's target map, read once and shared.
	lastMap  string
	lastXIDs tree.XIDRanges
	// maxNodes is Limits.MaxNodes.
	maxNodes int
	// tokenLine and tokenColumn are where the last token read starts
	// (InputPos gives where it ends).
	tokenLine, tokenColumn int
}

// xidMap parses an XID-map attribute, sharing the XIDs of the last one
// when the text is the same.
func (dec *xmlDecoder) xidMap(s string) (tree.XIDRanges, error) {
	if s == dec.lastMap && dec.lastMap != "" {
		return dec.lastXIDs, nil
	}
	if err := checkVersionMapSize(s, dec.maxNodes); err != nil {
		return tree.XIDRanges{}, err
	}
	m, err := parseVersionMap(s)
	if err == nil {
		dec.lastMap, dec.lastXIDs = s, m
	}
	return m, err
}

func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// isName reports whether n is local, unprefixed or with the xy prefix.
func isName(n xml.Name, local string) bool {
	return n.Local == local && (n.Space == "" || n.Space == "xy")
}

// inputPos is the decoder's position, its column in characters.
func (dec *xmlDecoder) inputPos() (line, col int) {
	line, col = dec.x.InputPos()
	return dec.cols.Pos(line, col, dec.x.InputOffset())
}

func (dec *xmlDecoder) errorf(format string, args ...any) error {
	line, col := dec.inputPos()
	return &DecodeError{Line: line, Column: col, Step: dec.step, Op: dec.op, Msg: fmt.Sprintf(format, args...), Err: ErrMalformed}
}

// textErrorf is errorf at the first character of text that is not white
// space, text being the last token read: where a reader looks for it, not
// after its end.
func (dec *xmlDecoder) textErrorf(text []byte, format string, args ...any) error {
	line, col := dec.tokenLine, dec.tokenColumn
	for _, c := range text {
		if c == '\n' {
			line, col = line+1, 1
		} else if c == ' ' || c == '\t' || c == '\r' {
			col++
		} else {
			break
		}
	}
	return &DecodeError{Line: line, Column: col, Step: dec.step, Op: dec.op, Msg: fmt.Sprintf(format, args...), Err: ErrMalformed}
}

// token returns the next token, with io.ErrUnexpectedEOF for a short input.
func (dec *xmlDecoder) token() (xml.Token, error) {
	dec.tokenLine, dec.tokenColumn = dec.inputPos()
	t, err := dec.x.RawToken()
	if err == io.EOF {
		return nil, io.ErrUnexpectedEOF
	}
	if err != nil {
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			line, col := dec.inputPos()
			// encoding/xml reports a character XML does not allow once it
			// has read it: the column is the character's own.
			var r rune
			if _, err := fmt.Sscanf(se.Msg, "illegal character code U+%X", &r); err == nil && col > 1 {
				col--
			}
			msg := se.Msg
			if ref, ok := strings.CutPrefix(msg, "invalid character entity "); ok && !strings.HasPrefix(ref, "&#") {
				// A named entity, as a DOCTYPE would declare it.
				msg = "undefined entity " + ref + ": a delta reads XML's five (&amp; &lt; &gt; &quot; &apos;) and character references, and declares none"
			}
			return nil, &DecodeError{Line: line, Column: col, Step: dec.step, Op: dec.op, Msg: msg, Err: ErrMalformed}
		}
	}
	return t, err
}

// attrsOnce refuses a start tag with two attributes of one name, which
// XML forbids and encoding/xml does not report: the decoder would take one
// of the two. A tag with many attributes is checked through a map: the
// comparison of each with those before it took time quadratic in their
// number (an inserted element with 100 000 attributes, a minute).
func (dec *xmlDecoder) attrsOnce(start xml.StartElement) error {
	twice := func(a xml.Attr) error {
		return dec.errorf("<%s> has attribute %s twice", qname(start.Name), qname(a.Name))
	}
	if len(start.Attr) > manyAttrs {
		seen := make(map[xml.Name]struct{}, len(start.Attr))
		for _, a := range start.Attr {
			if _, ok := seen[a.Name]; ok {
				return twice(a)
			}
			seen[a.Name] = struct{}{}
		}
		return nil
	}
	for i, a := range start.Attr {
		for _, b := range start.Attr[:i] {
			if a.Name == b.Name {
				return twice(a)
			}
		}
	}
	return nil
}

func isSpace(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

func (dec *xmlDecoder) document() ([]*Delta, error) {
	// Prolog: declaration, comments, white space, a DOCTYPE.
	for {
		t, err := dec.token()
		if err != nil {
			return nil, err
		}
		switch t := t.(type) {
		case xml.StartElement:
			if !isName(t.Name, "unit_delta") {
				return nil, dec.errorf("root element is <%s>, not <unit_delta>", qname(t.Name))
			}
			return dec.unitDelta()
		case xml.CharData:
			if !isSpace(t) {
				return nil, dec.textErrorf(t, "text before the root element")
			}
		case xml.EndElement:
			return nil, dec.errorf("unexpected </%s>", qname(t.Name))
		}
	}
}

func (dec *xmlDecoder) unitDelta() ([]*Delta, error) {
	var ds []*Delta
	for {
		t, err := dec.token()
		if err != nil {
			return nil, err
		}
		switch t := t.(type) {
		case xml.StartElement:
			if !isName(t.Name, "t") {
				return nil, dec.errorf("unexpected <%s> in <unit_delta>: want <t>", qname(t.Name))
			}
			dec.step++
			d, err := dec.t(t)
			if err != nil {
				return nil, err
			}
			ds = append(ds, d)
		case xml.EndElement:
			if !isName(t.Name, "unit_delta") {
				return nil, dec.errorf("unexpected </%s>", qname(t.Name))
			}
			dec.op = 0
			more, err := dec.epilog()
			if err != nil || !more {
				dec.step = 0
				return ds, err
			}
		case xml.CharData:
			if !isSpace(t) {
				return nil, dec.textErrorf(t, "text in <unit_delta>")
			}
		}
	}
}

// epilog reads what follows </unit_delta>: white space and comments to
// the end, or another <unit_delta> (the outputs of several diffs put end
// to end), whose start it reports.
func (dec *xmlDecoder) epilog() (more bool, err error) {
	// The byte-order marks of the files put end to end are not counted
	// in the columns of what follows them on their line.
	dec.cols.HideByteOrderMarks(true)
	defer dec.cols.HideByteOrderMarks(false)
	for {
		// Where the token starts, for textErrorf: the text after
		// </unit_delta> on its line is no part of the token before.
		dec.tokenLine, dec.tokenColumn = dec.inputPos()
		t, err := dec.x.RawToken()
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, dec.errorf("%v", err)
		}
		switch t := t.(type) {
		case xml.StartElement:
			if isName(t.Name, "unit_delta") {
				return true, nil
			}
			return false, dec.errorf("content after </unit_delta>")
		case xml.EndElement:
			return false, dec.errorf("content after </unit_delta>")
		case xml.CharData:
			// A byte-order mark: the next file put end to end has one.
			if !isSpace(bytes.ReplaceAll(t, []byte("\uFEFF"), nil)) {
				return false, dec.textErrorf(t, "text after </unit_delta>")
			}
		}
	}
}

func (dec *xmlDecoder) t(start xml.StartElement) (*Delta, error) {
	if err := dec.attrsOnce(start); err != nil {
		return nil, err
	}
	d := &Delta{}
	for _, a := range start.Attr {
		var err error
		switch qname(a.Name) {
		case "from":
			d.From = a.Value
		case "to":
			d.To = a.Value
		case "fromXidMap":
			d.FromXIDMap, err = dec.xidMap(a.Value)
		case "toXidMap":
			d.ToXIDMap, err = dec.xidMap(a.Value)
		case "fromFingerprint":
			d.FromFingerprint, err = parseFingerprint(a.Value)
		case "toFingerprint":
			d.ToFingerprint, err = parseFingerprint(a.Value)
		default:
			readDeclaration(a, &d.Namespaces)
		}
		if err != nil {
			return nil, keepMapSizeError(dec.errorf("%s: %v", qname(a.Name), err), err)
		}
	}
	dec.op = 0
	outside := false // an <outside> was read
	for {
		t, err := dec.token()
		if err != nil {
			return nil, err
		}
		switch t := t.(type) {
		case xml.StartElement:
			if isName(t.Name, "outside") {
				if outside {
					return nil, dec.errorf("a second <outside> in <t>")
				}
				outside = true
				at := newPlace(dec.tokenLine, dec.tokenColumn)
				if d.Outside, err = dec.outside(t); err != nil {
					return nil, err
				}
				d.Outside.at = at
				if d.Outside.Old.equal(d.Outside.New) {
					d.Outside = nil // no change after all
				}
				continue
			}
			dec.op = len(d.Ops) + 1
			if len(d.Ops) >= MaxOps {
				return nil, dec.errorf("more than %d operations", MaxOps)
			}
			// Where the operation's start tag starts, for the errors
			// of Validate and Apply.
			roomForOp(d)
			d.places = append(d.places, newPlace(dec.tokenLine, dec.tokenColumn))
			op, err := dec.operation(t, d)
			if err != nil {
				return nil, err
			}
			op.at = uint32(len(d.places))
			d.Ops = append(d.Ops, op)
			dec.op = 0 // what follows is in no operation
		case xml.EndElement:
			if !isName(t.Name, "t") {
				return nil, dec.errorf("unexpected </%s>", qname(t.Name))
			}
			if err := d.validate(); err != nil {
				de := &DecodeError{Step: dec.step, Msg: err.Error(), Err: ErrMalformed}
				var oe *OpError
				ok := errors.As(err, &oe)
				if ok {
					de.Line, de.Column, ok = d.placeOf(oe.Index)
				}
				if !ok {
					de.Line, de.Column = dec.inputPos()
				}
				return nil, de
			}
			dec.op = 0
			return d, nil
		case xml.CharData:
			if !isSpace(t) {
				return nil, dec.textErrorf(t, "text in <t>")
			}
		}
	}
}

// outside reads the change outside the root element that EncodeXML writes
// (see xmlEncoder.outside), up to </outside>.
func (dec *xmlDecoder) outside(start xml.StartElement) (*Outside, error) {
	o := &Outside{}
	var seen [2]bool
	for {
		t, err := dec.token()
		if err != nil {
			return nil, err
		}
		switch t := t.(type) {
		case xml.StartElement:
			k := -1
			switch {
			case isName(t.Name, "old"):
				k = 0
			case isName(t.Name, "new"):
				k = 1
			}
			if k < 0 || seen[k] {
				return nil, dec.errorf("unexpected <%s> in <outside>: want one <old> and one <new>", qname(t.Name))
			}
			seen[k] = true
			s := &o.Old
			if k == 1 {
				s = &o.New
			}
			if err := dec.surroundings(t, s); err != nil {
				return nil, err
			}
		case xml.EndElement:
			if !seen[0] || !seen[1] {
				return nil, dec.errorf("<outside> without <old> and <new>")
			}
			return o, nil
		case xml.CharData:
			if !isSpace(t) {
				return nil, dec.textErrorf(t, "text in <outside>")
			}
		}
	}
}

// surroundings reads an <old> or <new> of <outside>.
func (dec *xmlDecoder) surroundings(start xml.StartElement, s *Surroundings) error {
	for _, a := range start.Attr {
		switch qname(a.Name) {
		case "doctype":
			s.Doctype = a.Value
		case "doctype-after":
			k, err := strconv.Atoi(a.Value)
			if err != nil || k < 0 {
				return dec.errorf("doctype-after=%q on <%s>: want a count", a.Value, qname(start.Name))
			}
			s.DoctypeAfter = k
		default:
			return dec.errorf("unexpected attribute %s on <%s>", qname(a.Name), qname(start.Name))
		}
	}
	for {
		t, err := dec.token()
		if err != nil {
			return err
		}
		switch t := t.(type) {
		case xml.StartElement:
			var list *[]*tree.Node
			switch {
			case isName(t.Name, "prolog"):
				list = &s.Prolog
			case isName(t.Name, "epilog"):
				list = &s.Epilog
			default:
				return dec.errorf("unexpected <%s> in <%s>: want <prolog> or <epilog>", qname(t.Name), qname(start.Name))
			}
			n, err := dec.content(t)
			if err != nil {
				return err
			}
			if n == nil {
				return dec.errorf("empty <%s>", qname(t.Name))
			}
			*list = append(*list, n)
		case xml.EndElement:
			return nil
		case xml.CharData:
			if !isSpace(t) {
				return dec.textErrorf(t, "text in <%s>", qname(start.Name))
			}
		}
	}
}

func (dec *xmlDecoder) operation(start xml.StartElement, d *Delta) (Op, error) {
	var op Op
	if err := dec.attrsOnce(start); err != nil {
		return op, err
	}
	name := start.Name.Local
	if start.Name.Space != "" && start.Name.Space != "xy" {
		name = qname(start.Name)
	}
	switch name {
	case "d":
		op.Kind = Delete
	case "i":
		op.Kind = Insert
	case "ad":
		op.Kind = AttrDelete
	case "ai":
		op.Kind = AttrInsert
	case "au":
		op.Kind = AttrUpdate
	case "rn":
		op.Kind = Rename
	case "renameRoot":
		// The reference tool's rename of the root element: from and to
		// names; the root's XID is the last of either XID-map.
		root := d.FromXIDMap.Root()
		if root == 0 {
			root = d.ToXIDMap.Root()
		}
		if root == 0 {
			return op, dec.errorf("<renameRoot> needs the XID-map of <t> to know the root's XID")
		}
		op = Op{Kind: Rename, Node: root}
		for _, a := range start.Attr {
			switch qname(a.Name) {
			case "from":
				op.OldValue = a.Value
			case "to":
				op.NewValue = a.Value
			}
		}
		return op, dec.empty(start)
	case "u":
		return op, dec.errorf("<u> (the XyDiff fork's character-level update) is not supported: write an update as a <d update=\"yes\"> and <i update=\"yes\"> pair")
	default:
		return op, dec.errorf("unknown operation <%s>", qname(start.Name))
	}
	var has [8]bool // par pos xm xid a v ov nv
	var xmRaw string
	added := false // addedXmlns="yes": the content root's xmlns is the place's default namespace
	for _, a := range start.Attr {
		if a.Name.Space != "" {
			// A declaration on an attribute operation or a rename is
			// XML's scoping, and binds no content's names.
			if op.Kind == Delete || op.Kind == Insert {
				readDeclaration(a, &op.Namespaces)
			}
			continue
		}
		var err error
		switch a.Name.Local {
		case "par":
			op.Parent, err = parseXID(a.Value)
			has[0] = true
		case "pos":
			op.Pos, err = strconv.Atoi(a.Value)
			if err != nil || op.Pos < 1 {
				err = fmt.Errorf("not a position: %q", clip(a.Value))
			}
			has[1] = true
		case "xm":
			xmRaw = a.Value // parsed after the content, which bounds it
			has[2] = true
		case "move", "update", addedXmlns:
			switch a.Value {
			case "yes":
				switch a.Name.Local {
				case "move":
					op.Move = true
				case "update":
					op.Update = true
				default:
					if op.Kind != Delete && op.Kind != Insert {
						err = errors.New("only a d or i has a content to declare a default namespace on")
					}
					added = true
				}
			case "no":
			default:
				err = fmt.Errorf("want yes or no, not %q", clip(a.Value))
			}
		case "xid":
			op.Node, err = parseXID(a.Value)
			has[3] = true
		case "a":
			op.Name = a.Value
			has[4] = true
		case "v":
			if op.Kind == AttrInsert {
				op.NewValue = a.Value
			} else {
				op.OldValue = a.Value
			}
			has[5] = true
		case "ov":
			op.OldValue = a.Value
			has[6] = true
		case "nv":
			op.NewValue = a.Value
			has[7] = true
		}
		if err != nil {
			return op, dec.errorf("<%s> attribute %s: %v", name, a.Name.Local, err)
		}
	}
	var need []string
	switch op.Kind {
	case Delete, Insert:
		need = []string{"par", "pos", "xm"}
	case AttrDelete, AttrInsert:
		need = []string{"xid", "a", "v"}
	case AttrUpdate:
		need = []string{"xid", "a", "ov", "nv"}
	case Rename:
		need = []string{"xid", "ov", "nv"}
	}
	index := map[string]int{"par": 0, "pos": 1, "xm": 2, "xid": 3, "a": 4, "v": 5, "ov": 6, "nv": 7}
	for _, n := range need {
		if !has[index[n]] {
			return op, dec.errorf("<%s> needs attribute %s", name, n)
		}
	}
	if added && op.Move {
		// The attributes come in any order: move may follow addedXmlns.
		return op, dec.errorf("<%s> attribute %s: a move carries no content to declare a default namespace on", name, addedXmlns)
	}
	if op.Kind != Delete && op.Kind != Insert {
		return op, dec.empty(start)
	}
	c, err := dec.content(start)
	if err != nil {
		return op, err
	}
	size := 1
	if c != nil {
		size = c.Size()
	}
	if added {
		// The declaration the encoder added to the content's root, the
		// first xmlns attribute (those of the tag come before the
		// xy:attr children): the default namespace at the operation's
		// place, not an attribute of the node.
		k := -1
		if c != nil && c.Kind == tree.Element {
			k = slices.IndexFunc(c.Attrs, func(a tree.Attr) bool { return a.Name == defaultNamespace })
		}
		if k < 0 {
			return op, dec.errorf("<%s> attribute %s: the content's root has no xmlns attribute", name, addedXmlns)
		}
		if op.Namespaces == nil {
			op.Namespaces = map[string]string{}
		}
		op.Namespaces[""] = c.Attrs[k].Value
		c.Attrs = slices.Delete(c.Attrs, k, k+1)
	}
	if err := checkXIDMapSize(xmRaw, size); err != nil {
		return op, dec.errorf("<%s> attribute xm: %v", name, err)
	}
	if op.XIDs, err = tree.ParseXIDMap(xmRaw); err != nil {
		return op, dec.errorf("<%s> attribute xm: %v", name, err)
	}
	if op.Move {
		if c != nil && (c.Kind != tree.Text || !isSpace([]byte(c.Value))) {
			return op, dec.errorf("a move carries no content")
		}
		return op, nil
	}
	if c == nil {
		c = &tree.Node{Kind: tree.Text}
	}
	if err := tree.SetSubtreeXIDs(c, op.XIDs.XIDs); err != nil {
		return op, dec.errorf("xm %s: %v", shortMap(op.XIDs), err)
	}
	op.Content = c
	return op, nil
}

func parseXID(s string) (tree.XID, error) {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v == 0 {
		return 0, fmt.Errorf("not an XID: %q", clip(s))
	}
	return tree.XID(v), nil
}

// empty reads up to the end of an operation that has no content.
func (dec *xmlDecoder) empty(start xml.StartElement) error {
	for {
		t, err := dec.token()
		if err != nil {
			return err
		}
		switch t := t.(type) {
		case xml.EndElement:
			if t.Name != start.Name {
				return dec.errorf("unexpected </%s>", qname(t.Name))
			}
			return nil
		case xml.CharData:
			if !isSpace(t) {
				return dec.textErrorf(t, "<%s> holds no text", qname(start.Name))
			}
		case xml.StartElement:
			return dec.errorf("<%s> holds no elements", qname(start.Name))
		}
	}
}

// readDeclaration adds to ns the binding a declares, if it is a namespace
// declaration of a prefix, other than XML's own and a binding to
// undeclaredNamespace.
func readDeclaration(a xml.Attr, ns *map[string]string) {
	if a.Name.Space != "xmlns" || strings.HasPrefix(a.Value, undeclaredNamespace) || a.Name.Local == "xml" && a.Value == xmlNamespace {
		return
	}
	if *ns == nil {
		*ns = map[string]string{}
	}
	(*ns)[a.Name.Local] = a.Value
}

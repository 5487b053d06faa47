package delta

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// This file reads the JSON form, with its own lexer (jsonlex.go) rather
// than encoding/json: Unmarshal refuses input nested more than 10 000
// levels deep, and content nests two levels of JSON per level of the tree,
// so it could not read back the delta of a document 5 000 levels deep,
// which EncodeJSON writes and DecodeXML reads. Content may nest
// MaxContentDepth levels, as in XML; every walk is iterative.

// DecodeJSON reads a delta in the JSON form and checks it with
// Delta.Validate. Errors are *DecodeError with a line and column and, where
// a field is at fault, its path (ops[3].xm). A string holding a character
// XML 1.0 cannot hold (\u0001, \b, \uffff), a lone surrogate (\ud800) or
// invalid UTF-8 is an error at that character, as it is in DecodeXML: a
// JSON delta reads as the delta its XML form holds. A namespaces field is
// checked where it is read, as Delta.Validate checks it, and its errors
// name the field, the prefix where the JSON is wrong
// (ops[0].namespaces[""]) and the operation (ops[0].namespaces: operation
// 1 (i par=1 pos=1 xm=(2)): the default namespace is bound to no URI); a
// binding of the empty prefix, the default namespace of the operation's
// content, is Vigil's since 2026-11-29 (see EncodeJSON).
func DecodeJSON(r io.Reader) (*Delta, error) {
	ds, err := decodeJSON(r, false, Limits{})
	if err != nil {
		return nil, err
	}
	return ds[0], nil
}

// DecodeJSONAll reads one delta or more in the JSON form, one object after
// the other as EncodeJSON writes them (the output of several diffs put end
// to end: consecutive deltas, for vigil patch and vigil compose), each
// checked as DecodeJSON checks it. A byte-order mark may stand before
// each, as at the start of the files put end to end.
func DecodeJSONAll(r io.Reader) ([]*Delta, error) { return decodeJSON(r, true, Limits{}) }

// DecodeJSONAllWithin is DecodeJSONAll refusing what lim bounds.
func DecodeJSONAllWithin(r io.Reader, lim Limits) ([]*Delta, error) {
	return decodeJSON(r, true, lim)
}

// decodeJSON reads one delta, or as many as follow each other when many is
// set.
func decodeJSON(r io.Reader, many bool, lim Limits) ([]*Delta, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &DecodeError{Line: 1, Column: 1, Msg: "empty input, want a JSON object", Err: ErrMalformed}
	}
	j := &jsonDecoder{lex: jsonLexer{data: data}, maxNodes: lim.MaxNodes}
	var ds []*Delta
	for {
		// A byte-order mark before a delta: its file began with one
		// (deltas put end to end with cat, as XyDelta documents are).
		j.lex.skipByteOrderMarks()
		d, err := j.delta()
		if err != nil {
			return nil, err
		}
		if d.Outside != nil {
			if err := d.Outside.validate(); err != nil {
				line, col := lineCol(data, j.lex.marks, j.outsideAt)
				return nil, &DecodeError{Path: "outside", Line: line, Column: col, Msg: err.Error(), Err: ErrMalformed}
			}
		}
		if err := d.validate(); err != nil {
			de := &DecodeError{Msg: err.Error(), Err: ErrMalformed}
			var oe *OpError
			if errors.As(err, &oe) {
				de.Path = fmt.Sprintf("ops[%d]", oe.Index)
				de.Line, de.Column, _ = d.placeOf(oe.Index)
			}
			return nil, de
		}
		ds = append(ds, d)
		if many {
			j.lex.skipByteOrderMarks()
		}
		t, err := j.lex.peek()
		if err != nil || t.kind != tokenEnd && !(many && t.kind == tokenBeginObject) {
			at := t.at
			if err != nil {
				at = err.(*syntaxError).at
			}
			line, col := lineCol(j.lex.data, j.lex.marks, at)
			return nil, &DecodeError{Line: line, Column: col, Msg: "unexpected data after the JSON value", Err: ErrMalformed}
		}
		if t.kind == tokenEnd {
			return ds, nil
		}
	}
}

// jsonDecoder reads one delta.
type jsonDecoder struct {
	lex jsonLexer
	// lines places the operations (Delta.places), in the order they
	// come in the input.
	lines lineCounter
	// keyAt is the offset of the last key read, or of the object's end.
	keyAt int
	// outsideAt is the offset of the delta's "outside" key.
	outsideAt int
	// fieldAt holds the offsets of the keys of the operation being read,
	// for the errors of their values checked once it is read.
	fieldAt []keyOffset
	// maxNodes is Limits.MaxNodes.
	maxNodes int
}

// keyOffset is where a key of an object was read.
type keyOffset struct {
	key string
	at  int
}

// offsetOf returns the offset of key among keys, or def when it is absent.
func offsetOf(keys []keyOffset, key string, def int) int {
	for _, k := range keys {
		if k.key == key {
			return k.at
		}
	}
	return def
}

// delta reads a top-level object.
func (j *jsonDecoder) delta() (*Delta, error) {
	d := &Delta{}
	var fromMap, toMap, fromFP, toFP string
	var hasFromFP, hasToFP bool // present, even empty: then it is checked
	nsAt := -1                  // the offset of the namespaces field, when there is one
	var keys []keyOffset        // the offsets of the fields checked once read
	// A delta is an object: null, which object takes for an absent
	// object where a field may be null, is no delta, not an empty one.
	first, err := j.value()
	if err != nil {
		return nil, err
	}
	if first.kind == tokenNull {
		return nil, j.typeError(first, "", "an object")
	}
	err = j.objectFrom(first, "", func(key, path string) error {
		switch key {
		case "fromFingerprint", "toFingerprint", "fromXidMap", "toXidMap":
			keys = append(keys, keyOffset{key, j.keyAt})
		}
		switch key {
		case "fromFingerprint":
			hasFromFP = true
			return j.str(path, &fromFP)
		case "toFingerprint":
			hasToFP = true
			return j.str(path, &toFP)
		case "from":
			return j.str(path, &d.From)
		case "to":
			return j.str(path, &d.To)
		case "fromXidMap":
			return j.str(path, &fromMap)
		case "toXidMap":
			return j.str(path, &toMap)
		case "namespaces":
			nsAt = j.keyAt
			return j.namespaces(path, &d.Namespaces)
		case "outside":
			j.outsideAt = j.keyAt
			at := j.lines.place(j.lex.data, j.lex.marks, j.keyAt)
			var err error
			d.Outside, err = j.outside(path)
			if d.Outside != nil {
				d.Outside.at = at
			}
			return err
		case "ops":
			d.Ops, d.places = d.Ops[:0], d.places[:0]
			return j.array(path, func(i int, path string, t jsonToken) error {
				if i >= MaxOps {
					return j.errorAt(t.at, "ops", "more than %d operations", MaxOps)
				}
				// Where the operation's object starts, for the errors of
				// Validate and Apply.
				roomForOp(d)
				d.places = append(d.places, j.lines.place(j.lex.data, j.lex.marks, t.at))
				d.Ops = append(d.Ops, Op{at: uint32(i + 1)})
				return j.op(path, t, &d.Ops[i])
			})
		}
		return j.unknown("", key)
	})
	if err != nil {
		return nil, err
	}
	if nsAt >= 0 {
		if err := validateNamespaces(d.Namespaces); err != nil {
			return nil, j.errorAt(nsAt, "namespaces", "%v", err)
		}
	}
	for _, m := range []struct {
		s, field string
		dst      *tree.XIDRanges
	}{{fromMap, "fromXidMap", &d.FromXIDMap}, {toMap, "toXidMap", &d.ToXIDMap}} {
		if m.s == "" {
			continue
		}
		err := checkVersionMapSize(m.s, j.maxNodes)
		if err == nil {
			*m.dst, err = parseVersionMap(m.s)
		}
		if err != nil {
			return nil, keepMapSizeError(j.errorAt(offsetOf(keys, m.field, 0), m.field, "%v", err), err)
		}
	}
	for _, s := range []struct {
		s, field string
		has      bool
		dst      *tree.Fingerprint
	}{{fromFP, "fromFingerprint", hasFromFP, &d.FromFingerprint}, {toFP, "toFingerprint", hasToFP, &d.ToFingerprint}} {
		if !s.has {
			continue
		}
		var err error
		if *s.dst, err = parseFingerprint(s.s); err != nil {
			return nil, j.errorAt(offsetOf(keys, s.field, 0), s.field, "%v", err)
		}
	}
	return d, nil
}

// namespaces reads a "namespaces" object: prefixes and their URIs.
func (j *jsonDecoder) namespaces(path string, ns *map[string]string) error {
	*ns = map[string]string{}
	return j.object(path, func(prefix, path string) error {
		var uri string
		if err := j.str(path, &uri); err != nil {
			return err
		}
		(*ns)[prefix] = uri
		return nil
	})
}

// jsonOp is an operation's fields as read, each nil when absent or null.
type jsonOp struct {
	op, xm, a, v, ov, nv *string
	par, xid             *uint64
	pos                  *int
	move, update         bool
	content              *tree.Node
}

// op reads into op the operation at path (ops[i]) that starts with
// token first.
func (j *jsonDecoder) op(opPath string, first jsonToken, op *Op) error {
	if first.kind == tokenNull {
		// null, which object takes for an absent object, is no
		// operation.
		return j.typeError(first, opPath, "an object")
	}
	var jo jsonOp
	nsAt := -1 // the offset of the namespaces field, when there is one
	str := func(path string, dst **string) error {
		var s string
		null, err := j.nullable(path, func(t jsonToken) error { return j.strToken(path, t, &s) })
		if err == nil && !null {
			*dst = &s
		}
		return err
	}
	j.fieldAt = j.fieldAt[:0]
	err := j.objectFrom(first, opPath, func(key, path string) error {
		j.fieldAt = append(j.fieldAt, keyOffset{key, j.keyAt})
		switch key {
		case "op":
			return str(path, &jo.op)
		case "xm":
			return str(path, &jo.xm)
		case "a":
			return str(path, &jo.a)
		case "v":
			return str(path, &jo.v)
		case "ov":
			return str(path, &jo.ov)
		case "nv":
			return str(path, &jo.nv)
		case "par", "xid":
			var x uint64
			null, err := j.nullable(path, func(t jsonToken) error { return j.uintToken(path, t, &x) })
			if err == nil && !null {
				if key == "par" {
					jo.par = &x
				} else {
					jo.xid = &x
				}
			}
			return err
		case "pos":
			var x int
			null, err := j.nullable(path, func(t jsonToken) error { return j.intToken(path, t, &x) })
			if err == nil && !null {
				jo.pos = &x
			}
			return err
		case "move":
			return j.boolean(path, &jo.move)
		case "update":
			return j.boolean(path, &jo.update)
		case "content":
			c, err := j.content(path)
			jo.content = c
			return err
		case "namespaces":
			nsAt = j.keyAt
			return j.namespaces(path, &op.Namespaces)
		}
		return j.unknown(opPath, key)
	})
	if err != nil {
		return err
	}
	if field, err := jo.fill(op, opPath); err != nil {
		// Said where the field is, or the operation when it is absent.
		line, col := lineCol(j.lex.data, j.lex.marks, offsetOf(j.fieldAt, field, first.at))
		err.Line, err.Column = line, col
		return err
	}
	if nsAt >= 0 {
		return j.opNamespaces(op, int(op.at)-1, opPath, nsAt)
	}
	return nil
}

// opNamespaces checks the bindings of op, operation i at opPath, whose
// namespaces field is at offset at, as Delta.Validate does
// (validateOpNamespaces), with an error that names the field and the
// operation: only a d or an i has a content whose names they bind, and
// the default namespace binds an element content's root without an xmlns
// attribute of its own (the field Vigil writes since 2026-11-29, see the
// package documentation).
func (j *jsonDecoder) opNamespaces(op *Op, i int, opPath string, at int) error {
	if err := validateOpNamespaces(op); err != nil {
		return j.errorAt(at, opPath+".namespaces", "operation %d (%s): %v", i+1, op.header(), err)
	}
	return nil
}

// fill checks what an operation needs and fills op. An error names the
// field at fault, without a place in the input.
func (jo *jsonOp) fill(op *Op, path string) (string, *DecodeError) {
	fail := func(field, format string, args ...any) (string, *DecodeError) {
		p := path
		if field != "" {
			p += "." + field
		}
		return field, &DecodeError{Path: p, Msg: fmt.Sprintf(format, args...), Err: ErrMalformed}
	}
	kinds := map[string]OpKind{"d": Delete, "i": Insert, "ad": AttrDelete, "ai": AttrInsert, "au": AttrUpdate, "rn": Rename}
	if jo.op == nil {
		return fail("op", "missing")
	}
	name := *jo.op
	k, ok := kinds[name]
	if !ok {
		return fail("op", "unknown operation %q", clip(name))
	}
	op.Kind = k
	switch k {
	case Delete, Insert:
		for _, f := range []struct {
			name string
			ok   bool
		}{{"par", jo.par != nil}, {"pos", jo.pos != nil}, {"xm", jo.xm != nil}} {
			if !f.ok {
				return fail(f.name, "missing")
			}
		}
		if *jo.par == 0 {
			return fail("par", "XID 0")
		}
		op.Parent, op.Pos, op.Move, op.Update = tree.XID(*jo.par), *jo.pos, jo.move, jo.update
		size := 1
		if jo.content != nil {
			op.Content, size = jo.content, jo.content.Size()
		}
		if err := checkXIDMapSize(*jo.xm, size); err != nil {
			return fail("xm", "%v", err)
		}
		m, err := tree.ParseXIDMap(*jo.xm)
		if err != nil {
			return fail("xm", "%v", err)
		}
		op.XIDs = m
		if op.Content != nil {
			if err := tree.SetSubtreeXIDs(op.Content, m.XIDs); err != nil {
				return fail("xm", "%v", err)
			}
		}
	default:
		if jo.xid == nil {
			return fail("xid", "missing")
		}
		if *jo.xid == 0 {
			return fail("xid", "XID 0")
		}
		op.Node = tree.XID(*jo.xid)
		type field struct {
			name string
			src  *string
			dst  *string
		}
		var fields []field
		switch k {
		case AttrDelete:
			fields = []field{{"a", jo.a, &op.Name}, {"v", jo.v, &op.OldValue}}
		case AttrInsert:
			fields = []field{{"a", jo.a, &op.Name}, {"v", jo.v, &op.NewValue}}
		case AttrUpdate:
			fields = []field{{"a", jo.a, &op.Name}, {"ov", jo.ov, &op.OldValue}, {"nv", jo.nv, &op.NewValue}}
		case Rename:
			fields = []field{{"ov", jo.ov, &op.OldValue}, {"nv", jo.nv, &op.NewValue}}
		}
		for _, f := range fields {
			if f.src == nil {
				return fail(f.name, "missing")
			}
			*f.dst = *f.src
		}
	}
	return "", nil
}

// outside reads a change outside the root element (Vigil extension):
// {"old": SIDE, "new": SIDE}, each SIDE {"doctype": "...", "doctypeAfter":
// N (how many prolog nodes precede the DOCTYPE; absent is 0), "prolog":
// [node...], "epilog": [node...]} with the nodes as content nodes; null is
// no change.
func (j *jsonDecoder) outside(path string) (*Outside, error) {
	t, err := j.value()
	if err != nil {
		return nil, err
	}
	if t.kind == tokenNull {
		return nil, nil
	}
	o := &Outside{}
	var seen [2]bool
	err = j.objectFrom(t, path, func(key, path string) error {
		var s *Surroundings
		switch key {
		case "old":
			s, seen[0] = &o.Old, true
		case "new":
			s, seen[1] = &o.New, true
		default:
			return j.unknown(path, key)
		}
		return j.object(path, func(key, path string) error {
			var list *[]*tree.Node
			switch key {
			case "doctype":
				return j.str(path, &s.Doctype)
			case "doctypeAfter":
				_, err := j.nullable(path, func(t jsonToken) error { return j.intToken(path, t, &s.DoctypeAfter) })
				return err
			case "prolog":
				list = &s.Prolog
			case "epilog":
				list = &s.Epilog
			default:
				return j.unknown(path, key)
			}
			return j.array(path, func(i int, path string, t jsonToken) error {
				n, err := j.contentFrom(t, path)
				if err != nil {
					return err
				}
				if n == nil {
					return j.errorAt(t.at, path, "null")
				}
				*list = append(*list, n)
				return nil
			})
		})
	})
	if err != nil {
		return nil, err
	}
	if !seen[0] || !seen[1] {
		return nil, j.errorAt(j.keyAt, path, "want both old and new")
	}
	if o.Old.equal(o.New) {
		return nil, nil // no change after all
	}
	return o, nil
}

// contentFrame is a content node being read: its fields so far, its index
// among its parent's children, how many keys and children were read, and
// whether its children are being read.
type contentFrame struct {
	n        *tree.Node
	kind     string
	index    int
	keys     int
	count    int
	children bool
}

// content reads an operation's content subtree at path (ops[i].content),
// iteratively: null gives nil.
func (j *jsonDecoder) content(path string) (*tree.Node, error) {
	t, err := j.value()
	if err != nil {
		return nil, err
	}
	return j.contentFrom(t, path)
}

// contentFrom is content once its first token t is read.
func (j *jsonDecoder) contentFrom(t jsonToken, path string) (*tree.Node, error) {
	var stack []contentFrame
	// pathOf names the node being read, or its field; built only for an
	// error.
	pathOf := func(field string) string {
		var b strings.Builder
		b.WriteString(path)
		for _, f := range stack[1:] {
			fmt.Fprintf(&b, ".children[%d]", f.index)
		}
		if field != "" {
			b.WriteString("." + field)
		}
		return b.String()
	}
	switch t.kind {
	case tokenNull:
		return nil, nil
	case tokenBeginObject:
		stack = append(stack, contentFrame{n: &tree.Node{}})
	default:
		return nil, j.typeError(t, path, "a content node object")
	}
	for {
		f := &stack[len(stack)-1]
		if f.children {
			t, err := j.lex.next()
			if err != nil {
				return nil, j.syntax(err)
			}
			if t.kind == tokenEndArray {
				f.children = false
				continue
			}
			if f.count > 0 {
				if t.kind != tokenComma {
					return nil, j.unexpected(t, "',' or ']'")
				}
				if t, err = j.value(); err != nil {
					return nil, err
				}
			} else if !t.kind.isValue() {
				return nil, j.unexpected(t, "a value")
			}
			switch t.kind {
			case tokenBeginObject:
				if len(stack) >= MaxContentDepth {
					return nil, j.errorAt(t.at, pathOf("children"), "content nested deeper than %d", MaxContentDepth)
				}
				f.count++ // before the append, which may move f
				stack = append(stack, contentFrame{n: &tree.Node{}, index: f.count - 1})
			case tokenNull:
				return nil, j.errorAt(t.at, pathOf(fmt.Sprintf("children[%d]", f.count)), "null node")
			default:
				return nil, j.typeError(t, pathOf(fmt.Sprintf("children[%d]", f.count)), "a content node object")
			}
			continue
		}
		key, end, err := j.key(f.keys)
		if err != nil {
			return nil, err
		}
		if end {
			switch f.kind {
			case "element":
				f.n.Kind = tree.Element
			case "text":
				f.n.Kind = tree.Text
			case "comment":
				f.n.Kind = tree.Comment
			case "pi":
				f.n.Kind = tree.ProcInst
			default:
				return nil, j.errorAt(j.keyAt, pathOf("kind"), "unknown kind %q", clip(f.kind))
			}
			n := f.n
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return n, nil
			}
			stack[len(stack)-1].n.AppendChild(n)
			continue
		}
		f.keys++
		switch key {
		case "kind":
			err = j.str(here, &f.kind)
		case "name":
			err = j.str(here, &f.n.Name)
		case "value":
			err = j.str(here, &f.n.Value)
		case "attrs":
			f.n.Attrs, err = j.attrs(here)
		case "children":
			// A repeated field replaces the earlier one, as for the others.
			for _, c := range f.n.Children {
				c.Parent = nil
			}
			f.n.Children = nil
			var t jsonToken
			if t, err = j.value(); err == nil {
				switch t.kind {
				case tokenBeginArray:
					f.children, f.count = true, 0
				case tokenNull:
				default:
					err = j.typeError(t, here, "an array")
				}
			}
		default:
			err = j.unknown(pathOf(""), key)
		}
		if err != nil {
			// Name the field in full, now that there is an error.
			var de *DecodeError
			if errors.As(err, &de) {
				if rest, ok := strings.CutPrefix(de.Path, here); ok {
					de.Path = pathOf(key) + rest
				}
			}
			return nil, err
		}
	}
}

// here stands for the path of the content field being read, which content
// builds only for an error.
const here = "\x00"

// attrs reads a content node's attributes at path: null, or an array of
// [name, value] pairs.
func (j *jsonDecoder) attrs(path string) ([]tree.Attr, error) {
	var attrs []tree.Attr
	err := j.array(path, func(k int, path string, first jsonToken) error {
		var pair []string
		err := j.arrayFrom(first, path, func(_ int, path string, t jsonToken) error {
			var s string
			if t.kind != tokenNull {
				if err := j.strToken(path, t, &s); err != nil {
					return err
				}
			}
			pair = append(pair, s)
			return nil
		})
		if err != nil {
			return err
		}
		if len(pair) != 2 {
			return j.errorAt(first.at, path, "an attribute is a [name, value] pair")
		}
		attrs = append(attrs, tree.Attr{Name: pair[0], Value: pair[1]})
		return nil
	})
	return attrs, err
}

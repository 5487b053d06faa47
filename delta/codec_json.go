package delta

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// EncodeJSON writes d in the JSON form described in the package
// documentation, one object followed by a newline.
func EncodeJSON(w io.Writer, d *Delta) error {
	bw := bufio.NewWriter(w)
	var b []byte
	b = append(b, '{')
	b = appendField(b, "from", d.From, true)
	b = appendField(b, "to", d.To, false)
	b = appendField(b, "fromXidMap", mapString(d.FromXIDMap), false)
	b = appendField(b, "toXidMap", mapString(d.ToXIDMap), false)
	b = append(b, `,"ops":[`...)
	for i := range d.Ops {
		op := &d.Ops[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n"...)
		b = append(b, '{')
		b = appendField(b, "op", op.Kind.String(), true)
		switch op.Kind {
		case Delete, Insert:
			b = append(b, `,"par":`...)
			b = strconv.AppendUint(b, uint64(op.Parent), 10)
			b = append(b, `,"pos":`...)
			b = strconv.AppendInt(b, int64(op.Pos), 10)
			b = appendField(b, "xm", op.XIDs.String(), false)
			if op.Move {
				b = append(b, `,"move":true`...)
			}
			if op.Update {
				b = append(b, `,"update":true`...)
			}
			if op.Content != nil {
				b = append(b, `,"content":`...)
				var err error
				if b, err = appendJSONNode(b, op.Content); err != nil {
					return fmt.Errorf("encode operation %d (%s): %w", i+1, op.header(), err)
				}
			}
		case AttrDelete, AttrInsert, AttrUpdate, Rename:
			b = append(b, `,"xid":`...)
			b = strconv.AppendUint(b, uint64(op.Node), 10)
			if op.Kind != Rename {
				b = appendField(b, "a", op.Name, false)
			}
			switch op.Kind {
			case AttrDelete:
				b = appendField(b, "v", op.OldValue, false)
			case AttrInsert:
				b = appendField(b, "v", op.NewValue, false)
			default:
				b = appendField(b, "ov", op.OldValue, false)
				b = appendField(b, "nv", op.NewValue, false)
			}
		default:
			return fmt.Errorf("encode operation %d: unknown kind %d", i+1, op.Kind)
		}
		b = append(b, '}')
		if len(b) > 1<<16 {
			if _, err := bw.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	b = append(b, "]}\n"...)
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

// mapString is m's string form, or "" for a map without XIDs.
func mapString(m tree.XIDMap) string {
	if len(m.XIDs) == 0 {
		return ""
	}
	return m.String()
}

func appendField(b []byte, name, value string, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = appendJSONString(b, name)
	b = append(b, ':')
	return appendJSONString(b, value)
}

func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}

var jsonKinds = map[tree.Kind]string{tree.Element: "element", tree.Text: "text", tree.Comment: "comment", tree.ProcInst: "pi"}

// appendJSONNode writes a content subtree, iteratively.
func appendJSONNode(b []byte, root *tree.Node) ([]byte, error) {
	type frame struct {
		n    *tree.Node
		next int
	}
	stack := []frame{{root, -1}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		n := top.n
		if top.next == -1 {
			top.next = 0
			kind, ok := jsonKinds[n.Kind]
			if !ok {
				return nil, fmt.Errorf("node of invalid kind %d", n.Kind)
			}
			b = append(b, '{')
			b = appendField(b, "kind", kind, true)
			if n.Kind == tree.Element || n.Kind == tree.ProcInst {
				b = appendField(b, "name", n.Name, false)
			}
			if n.Kind != tree.Element {
				b = appendField(b, "value", n.Value, false)
			}
			if len(n.Attrs) > 0 {
				b = append(b, `,"attrs":[`...)
				for k, a := range n.Attrs {
					if k > 0 {
						b = append(b, ',')
					}
					b = append(b, '[')
					b = appendJSONString(b, a.Name)
					b = append(b, ',')
					b = appendJSONString(b, a.Value)
					b = append(b, ']')
				}
				b = append(b, ']')
			}
			if len(n.Children) > 0 {
				b = append(b, `,"children":[`...)
			}
		}
		if top.next < len(n.Children) {
			if top.next > 0 {
				b = append(b, ',')
			}
			c := n.Children[top.next]
			top.next++
			stack = append(stack, frame{c, -1})
			continue
		}
		if len(n.Children) > 0 {
			b = append(b, ']')
		}
		b = append(b, '}')
		stack = stack[:len(stack)-1]
	}
	return b, nil
}

type jsonDelta struct {
	From       string            `json:"from"`
	To         string            `json:"to"`
	FromXIDMap string            `json:"fromXidMap"`
	ToXIDMap   string            `json:"toXidMap"`
	Ops        []json.RawMessage `json:"ops"`
}

type jsonOp struct {
	Op      string          `json:"op"`
	Par     *uint64         `json:"par"`
	Pos     *int            `json:"pos"`
	XM      *string         `json:"xm"`
	Move    bool            `json:"move"`
	Update  bool            `json:"update"`
	Content json.RawMessage `json:"content"`
	XID     *uint64         `json:"xid"`
	A       *string         `json:"a"`
	V       *string         `json:"v"`
	OV      *string         `json:"ov"`
	NV      *string         `json:"nv"`
}

type jsonNode struct {
	Kind     string      `json:"kind"`
	Name     string      `json:"name"`
	Value    string      `json:"value"`
	Attrs    [][]string  `json:"attrs"`
	Children []*jsonNode `json:"children"`
}

// DecodeJSON reads a delta in the JSON form and checks it with
// Delta.Validate. Errors are *DecodeError with a field path such as
// ops[3].xm, and a line and column for syntax errors. Content nested deeper
// than encoding/json's limit (10 000 levels) is refused.
func DecodeJSON(r io.Reader) (*Delta, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var jd jsonDelta
	if err := strictUnmarshal(data, &jd); err != nil {
		return nil, jsonError(data, "", err)
	}
	if len(jd.Ops) > MaxOps {
		return nil, &DecodeError{Path: "ops", Msg: fmt.Sprintf("more than %d operations", MaxOps), Err: ErrMalformed}
	}
	d := &Delta{From: jd.From, To: jd.To}
	if jd.FromXIDMap != "" {
		if d.FromXIDMap, err = tree.ParseXIDMap(jd.FromXIDMap); err != nil {
			return nil, &DecodeError{Path: "fromXidMap", Msg: err.Error(), Err: ErrMalformed}
		}
	}
	if jd.ToXIDMap != "" {
		if d.ToXIDMap, err = tree.ParseXIDMap(jd.ToXIDMap); err != nil {
			return nil, &DecodeError{Path: "toXidMap", Msg: err.Error(), Err: ErrMalformed}
		}
	}
	d.Ops = make([]Op, len(jd.Ops))
	for i, raw := range jd.Ops {
		path := fmt.Sprintf("ops[%d]", i)
		if err := decodeJSONOp(raw, &d.Ops[i], path); err != nil {
			return nil, err
		}
	}
	if err := d.Validate(); err != nil {
		de := &DecodeError{Msg: err.Error(), Err: ErrMalformed}
		var oe *OpError
		if errors.As(err, &oe) {
			de.Path = fmt.Sprintf("ops[%d]", oe.Index)
		}
		return nil, de
	}
	return d, nil
}

func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	off := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		return &trailingError{off}
	}
	return nil
}

type trailingError struct{ offset int64 }

func (e *trailingError) Error() string { return "unexpected data after the JSON value" }

// jsonError turns an encoding/json error into a *DecodeError with a path
// and, for syntax and type errors, a line and column in data (for an
// operation, relative to the operation's own text).
func jsonError(data []byte, path string, err error) error {
	de := &DecodeError{Path: path, Msg: err.Error(), Err: ErrMalformed}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case err == io.EOF:
		de.Msg = "empty input, want a JSON object"
		de.Line, de.Column = 1, 1
	case errors.Is(err, io.ErrUnexpectedEOF):
		de.Msg = "unexpected end of JSON input"
		if path == "" {
			de.Line, de.Column = lineCol(data, int64(len(data)))
		}
	case errors.As(err, new(*trailingError)):
		if path == "" {
			var te *trailingError
			errors.As(err, &te)
			de.Line, de.Column = lineCol(data, te.offset)
		}
	case errors.As(err, &se):
		if path == "" {
			de.Line, de.Column = lineCol(data, se.Offset)
		}
	case errors.As(err, &te):
		field := te.Field
		if field != "" {
			if de.Path != "" {
				de.Path += "."
			}
			de.Path += field
		}
		de.Msg = fmt.Sprintf("a JSON %s where a %s is wanted", te.Value, te.Type)
		if path == "" {
			de.Line, de.Column = lineCol(data, te.Offset)
		}
	default:
		if msg, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			de.Msg = "unknown field"
			name, _ := strconv.Unquote(msg)
			if de.Path != "" {
				de.Path += "."
			}
			de.Path += strconv.Quote(name)
		}
	}
	return de
}

func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

func decodeJSONOp(raw []byte, op *Op, path string) error {
	var jo jsonOp
	if err := strictUnmarshal(raw, &jo); err != nil {
		return jsonError(raw, path, err)
	}
	fail := func(field, format string, args ...any) error {
		p := path
		if field != "" {
			p += "." + field
		}
		return &DecodeError{Path: p, Msg: fmt.Sprintf(format, args...), Err: ErrMalformed}
	}
	kinds := map[string]OpKind{"d": Delete, "i": Insert, "ad": AttrDelete, "ai": AttrInsert, "au": AttrUpdate, "rn": Rename}
	k, ok := kinds[jo.Op]
	if !ok {
		return fail("op", "unknown operation %q", clip(jo.Op))
	}
	op.Kind = k
	need := func(field string, present bool) error {
		if !present {
			return fail(field, "missing")
		}
		return nil
	}
	switch k {
	case Delete, Insert:
		for _, f := range []struct {
			name string
			ok   bool
		}{{"par", jo.Par != nil}, {"pos", jo.Pos != nil}, {"xm", jo.XM != nil}} {
			if err := need(f.name, f.ok); err != nil {
				return err
			}
		}
		if *jo.Par == 0 {
			return fail("par", "XID 0")
		}
		op.Parent, op.Pos, op.Move, op.Update = tree.XID(*jo.Par), *jo.Pos, jo.Move, jo.Update
		size := 1
		if len(jo.Content) > 0 && string(jo.Content) != "null" {
			c, err := decodeJSONContent(jo.Content, path+".content")
			if err != nil {
				return err
			}
			op.Content, size = c, c.Size()
		}
		if err := checkXIDMapSize(*jo.XM, size); err != nil {
			return fail("xm", "%v", err)
		}
		m, err := tree.ParseXIDMap(*jo.XM)
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
		if err := need("xid", jo.XID != nil); err != nil {
			return err
		}
		if *jo.XID == 0 {
			return fail("xid", "XID 0")
		}
		op.Node = tree.XID(*jo.XID)
		str := func(field string, p *string, dst *string) error {
			if p == nil {
				return fail(field, "missing")
			}
			*dst = *p
			return nil
		}
		var errs []error
		switch k {
		case AttrDelete:
			errs = append(errs, str("a", jo.A, &op.Name), str("v", jo.V, &op.OldValue))
		case AttrInsert:
			errs = append(errs, str("a", jo.A, &op.Name), str("v", jo.V, &op.NewValue))
		case AttrUpdate:
			errs = append(errs, str("a", jo.A, &op.Name), str("ov", jo.OV, &op.OldValue), str("nv", jo.NV, &op.NewValue))
		case Rename:
			errs = append(errs, str("ov", jo.OV, &op.OldValue), str("nv", jo.NV, &op.NewValue))
		}
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// decodeJSONContent converts a content subtree, iteratively.
func decodeJSONContent(raw []byte, path string) (*tree.Node, error) {
	var jn jsonNode
	if err := strictUnmarshal(raw, &jn); err != nil {
		return nil, jsonError(raw, path, err)
	}
	// Paths are built only for an error, from each node's parent and index.
	type info struct{ parent, index int }
	var infos []info
	pathOf := func(k int) string {
		var parts []string
		for ; k > 0; k = infos[k].parent {
			parts = append(parts, fmt.Sprintf(".children[%d]", infos[k].index))
		}
		var b strings.Builder
		b.WriteString(path)
		for i := len(parts) - 1; i >= 0; i-- {
			b.WriteString(parts[i])
		}
		return b.String()
	}
	type frame struct {
		j    *jsonNode
		n    *tree.Node
		info int
	}
	root := &tree.Node{}
	infos = append(infos, info{-1, 0})
	stack := []frame{{&jn, root, 0}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		j, n := f.j, f.n
		if j == nil {
			return nil, &DecodeError{Path: pathOf(f.info), Msg: "null node", Err: ErrMalformed}
		}
		switch j.Kind {
		case "element":
			n.Kind = tree.Element
		case "text":
			n.Kind = tree.Text
		case "comment":
			n.Kind = tree.Comment
		case "pi":
			n.Kind = tree.ProcInst
		default:
			return nil, &DecodeError{Path: pathOf(f.info) + ".kind", Msg: fmt.Sprintf("unknown kind %q", clip(j.Kind)), Err: ErrMalformed}
		}
		n.Name, n.Value = j.Name, j.Value
		for k, a := range j.Attrs {
			if len(a) != 2 {
				return nil, &DecodeError{Path: fmt.Sprintf("%s.attrs[%d]", pathOf(f.info), k), Msg: "an attribute is a [name, value] pair", Err: ErrMalformed}
			}
			n.Attrs = append(n.Attrs, tree.Attr{Name: a[0], Value: a[1]})
		}
		for k, c := range j.Children {
			cn := &tree.Node{}
			n.AppendChild(cn)
			infos = append(infos, info{f.info, k})
			stack = append(stack, frame{c, cn, len(infos) - 1})
		}
	}
	return root, nil
}

package delta

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/vigil-web/vigil/tree"
)

// EncodeJSON writes d in the JSON form described in the package
// documentation, one object followed by a newline. It fails, as EncodeXML
// does, if a value holds invalid UTF-8 or a character XML forbids, which
// DecodeJSON would refuse or read otherwise.
//
// The namespaces of the delta and of each d or i (Delta.Namespaces,
// Op.Namespaces) are written as "namespaces" objects when there are any.
// The default namespace of an operation's content is the binding of the
// empty prefix ("namespaces":{"":"http://www.w3.org/2005/Atom"}), written
// since 2026-11-29 (commit b85cb3a): Vigil built before refuses a delta
// that holds one. It is there only for a content in a default namespace
// that it does not declare itself, so deltas of HTML pages without xmlns
// attributes are written as before.
func EncodeJSON(w io.Writer, d *Delta) error {
	if err := checkStrings(d.From, d.To); err != nil {
		return fmt.Errorf("encode delta: %w", err)
	}
	if err := checkNamespaceChars(d.Namespaces); err != nil {
		return fmt.Errorf("encode delta: %w", err)
	}
	bw := bufio.NewWriter(w)
	var b []byte
	b = append(b, '{')
	b = appendField(b, "from", d.From, true)
	b = appendField(b, "to", d.To, false)
	b = appendField(b, "fromXidMap", mapString(d.FromXIDMap), false)
	b = appendField(b, "toXidMap", mapString(d.ToXIDMap), false)
	if d.FromFingerprint != 0 {
		b = appendField(b, "fromFingerprint", fingerprintString(d.FromFingerprint), false)
	}
	if d.ToFingerprint != 0 {
		b = appendField(b, "toFingerprint", fingerprintString(d.ToFingerprint), false)
	}
	b = appendNamespaces(b, d.Namespaces)
	b = append(b, `,"ops":[`...)
	for i := range d.Ops {
		op := &d.Ops[i]
		if i > 0 {
			b = append(b, ',')
		}
		if err := checkStrings(op.Name, op.OldValue, op.NewValue); err != nil {
			return fmt.Errorf("encode operation %d (%s): %w", i+1, op.header(), err)
		}
		if err := checkNamespaceChars(op.Namespaces); err != nil {
			return fmt.Errorf("encode operation %d (%s): %w", i+1, op.header(), err)
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
			b = appendNamespaces(b, op.Namespaces)
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
	b = append(b, ']')
	if d.Outside != nil {
		var err error
		if b, err = appendOutside(b, d.Outside); err != nil {
			return fmt.Errorf("encode outside the root: %w", err)
		}
	}
	b = append(b, "}\n"...)
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

// appendOutside writes a change outside the root element: ,"outside":
// {"old": {...}, "new": {...}} (see jsonDecoder.outside).
func appendOutside(b []byte, o *Outside) ([]byte, error) {
	b = append(b, `,"outside":{`...)
	for k, side := range []struct {
		key string
		s   Surroundings
	}{{"old", o.Old}, {"new", o.New}} {
		if k > 0 {
			b = append(b, ',')
		}
		if err := checkXMLChars(side.s.Doctype); err != nil {
			return nil, fmt.Errorf("DOCTYPE: %w", err)
		}
		b = appendJSONString(b, side.key)
		b = append(b, ":{"...)
		b = appendField(b, "doctype", side.s.Doctype, true)
		if side.s.DoctypeAfter != 0 {
			b = append(b, `,"doctypeAfter":`...)
			b = strconv.AppendInt(b, int64(side.s.DoctypeAfter), 10)
		}
		for _, list := range []struct {
			key   string
			nodes []*tree.Node
		}{{"prolog", side.s.Prolog}, {"epilog", side.s.Epilog}} {
			b = append(b, ',')
			b = appendJSONString(b, list.key)
			b = append(b, ":["...)
			for i, n := range list.nodes {
				if i > 0 {
					b = append(b, ',')
				}
				var err error
				if b, err = appendJSONNode(b, n); err != nil {
					return nil, err
				}
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

// mapString is m's string form, or "" for a map without XIDs.
func mapString(m tree.XIDRanges) string {
	if m.Len() == 0 {
		return ""
	}
	return m.String()
}

// appendNamespaces appends a "namespaces" field holding ns, sorted, if it
// is not empty.
func appendNamespaces(b []byte, ns map[string]string) []byte {
	if len(ns) == 0 {
		return b
	}
	b = append(b, `,"namespaces":{`...)
	for i, p := range slices.Sorted(maps.Keys(ns)) {
		b = appendField(b, p, ns[p], i == 0)
	}
	return append(b, '}')
}

func appendField(b []byte, name, value string, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = appendJSONString(b, name)
	b = append(b, ':')
	return appendJSONString(b, value)
}

// checkStrings reports the first character of ss that XML, and so a
// delta, cannot hold (see checkXMLChars): json.Marshal would write invalid
// UTF-8 as U+FFFD, and DecodeJSON refuses the others.
func checkStrings(ss ...string) error {
	for _, s := range ss {
		if err := checkXMLChars(s); err != nil {
			return err
		}
	}
	return nil
}

// checkNamespaceChars is checkStrings for the prefixes and URIs of ns.
func checkNamespaceChars(ns map[string]string) error {
	for p, uri := range ns {
		if err := checkStrings(p, uri); err != nil {
			return err
		}
	}
	return nil
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
			if err := checkStrings(n.Name, n.Value); err != nil {
				return nil, err
			}
			for _, a := range n.Attrs {
				if err := checkStrings(a.Name, a.Value); err != nil {
					return nil, err
				}
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

package delta

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// Limits on what a delta may hold, so that hostile input cannot exhaust
// memory. The XIDs of all operations together are bounded by
// tree.MaxXIDMapLen.
const (
	// MaxOps is the largest number of operations in one delta.
	MaxOps = 1 << 22
	// MaxContentDepth is the deepest content subtree a decoder accepts.
	// Every algorithm of the package is iterative, so this bounds memory,
	// not the stack.
	MaxContentDepth = 1 << 20
)

// Validate reports whether d is well-formed on its own, without a document:
//   - every operation has a known kind and its fields: a parent XID and a
//     1-based position for d and i, an element XID for ad, ai, au and rn,
//     an attribute name for ad, ai and au, names for rn;
//   - a move carries no content and only its root XID; an update carries a
//     leaf (text, comment or processing instruction) and its XID; any other
//     d or i carries content whose XIDs, in post-order, are its XID-map,
//     and whose elements have named attributes, each name once;
//   - the halves of moves and updates are paired: one d and one i with the
//     same root XID for a move; for an update, under the same parent, with
//     the same XID or (as the XyDiff tool writes them) each with its own;
//   - no XID is deleted twice or inserted twice, none inserted is the
//     largest (math.MaxUint64: no XID would be left to allocate next), no
//     subtree is inserted under itself, and an element has at most one
//     rename and one operation per attribute;
//   - namespace bindings (Delta.Namespaces, Op.Namespaces) can be written
//     as declarations, the default namespace only on a d or i whose
//     content is an element without an xmlns attribute of its own, and an
//     attribute operation or a rename binds none.
//
// The error is an *OpError wrapping ErrMalformed, placed in the delta's
// file when it was decoded (OpError.Line).
func (d *Delta) Validate() error { return d.locate(d.validate()) }

// validate is Validate without the place of the operation at fault, which
// the decoders give their own way.
func (d *Delta) validate() error {
	if len(d.Ops) > MaxOps {
		return fmt.Errorf("%w: %d operations, more than %d", ErrMalformed, len(d.Ops), MaxOps)
	}
	if d.Outside != nil {
		if err := d.Outside.validate(); err != nil {
			return err
		}
	}
	if err := validateNamespaces(d.Namespaces); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	deleted := make(map[tree.XID]int)
	inserted := make(map[tree.XID]int)
	moveDel := make(map[tree.XID]half)
	moveIns := make(map[tree.XID]half)
	updDel := make(map[tree.XID]half)
	updIns := make(map[tree.XID]half)
	type attrKey struct {
		node tree.XID
		name string
		kind OpKind // Rename, or 0 for attribute operations
	}
	attrs := make(map[attrKey]int)
	total := 0
	for i := range d.Ops {
		op := &d.Ops[i]
		switch op.Kind {
		case Delete, Insert:
			if err := checkTreeOp(i, op); err != nil {
				return err
			}
			if err := validateOpNamespaces(op); err != nil {
				return malformed(i, op, "%v", err)
			}
			total += len(op.XIDs.XIDs)
			if total > tree.MaxXIDMapLen {
				return malformed(i, op, "the delta holds more than %d XIDs", tree.MaxXIDMapLen)
			}
			seen := deleted
			if op.Kind == Insert {
				seen = inserted
			}
			for _, x := range op.XIDs.XIDs {
				if j, dup := seen[x]; dup {
					verb := "deleted"
					if op.Kind == Insert {
						verb = "inserted"
					}
					return malformed(i, op, "XID %d is %s twice (also by operation %d)", x, verb, d.opNumber(j))
				}
				seen[x] = i
			}
			h := half{i, op.Parent}
			switch {
			case op.Move && op.Kind == Delete:
				moveDel[op.Root()] = h
			case op.Move:
				moveIns[op.Root()] = h
			case op.Update && op.Kind == Delete:
				updDel[op.Root()] = h
			case op.Update:
				updIns[op.Root()] = h
			}
		case AttrDelete, AttrInsert, AttrUpdate, Rename:
			if op.Node == 0 {
				return malformed(i, op, "missing element XID")
			}
			if err := validateOpNamespaces(op); err != nil {
				return malformed(i, op, "namespace bindings: %v", err)
			}
			key := attrKey{node: op.Node, name: op.Name}
			if op.Kind == Rename {
				if op.OldValue == "" || op.NewValue == "" {
					return malformed(i, op, "a rename needs the old and the new name")
				}
				key = attrKey{node: op.Node, kind: Rename}
			} else if op.Name == "" {
				return malformed(i, op, "missing attribute name")
			}
			if j, dup := attrs[key]; dup {
				what := "attribute " + op.Name
				if op.Kind == Rename {
					what = "name"
				}
				return malformed(i, op, "the %s of element %d is changed twice (also by operation %d)", what, op.Node, d.opNumber(j))
			}
			attrs[key] = i
		default:
			return malformed(i, op, "unknown operation kind %d", op.Kind)
		}
	}
	// Every move has both halves; report in operation order, so that the
	// message is deterministic.
	for k, m := range []map[tree.XID]half{moveDel, moveIns} {
		other, missing := moveIns, "insert with move=yes"
		if k == 1 {
			other, missing = moveDel, "delete with move=yes"
		}
		var ops []int
		for x, h := range m {
			if _, ok := other[x]; !ok {
				ops = append(ops, h.op)
			}
		}
		if len(ops) > 0 {
			i := slices.Min(ops)
			return malformed(i, &d.Ops[i], "move of XID %d has no matching %s", d.Ops[i].Root(), missing)
		}
	}
	return d.pairUpdates(updDel, updIns)
}

// pairUpdates checks that the halves of updates come in pairs under the
// same parent: by XID when both halves have the same one (Vigil keeps a
// text's XID), otherwise by parent, as the XyDiff tool writes them with a
// new XID for the new text (<d xm="(15)" update="yes"> and
// <i xm="(66)" update="yes"> under parent 16).
func (d *Delta) pairUpdates(dels, ins map[tree.XID]half) error {
	left := [2]map[tree.XID][]int{{}, {}} // unpaired halves by parent
	for x, h := range dels {
		g, ok := ins[x]
		if !ok {
			left[0][h.parent] = append(left[0][h.parent], h.op)
			continue
		}
		if g.parent != h.parent {
			i := min(h.op, g.op)
			other := max(h.op, g.op)
			op := &d.Ops[i]
			return malformed(i, op, "the other half of the update (operation %d) has parent %d, not %d", d.opNumber(other), d.Ops[other].Parent, op.Parent)
		}
	}
	for x, h := range ins {
		if _, ok := dels[x]; !ok {
			left[1][h.parent] = append(left[1][h.parent], h.op)
		}
	}
	var bad []int
	for k := range left {
		for p, ops := range left[k] {
			if n := len(left[1-k][p]); len(ops) > n {
				slices.Sort(ops)
				bad = append(bad, ops[n:]...)
			}
		}
	}
	if len(bad) == 0 {
		return nil
	}
	i := slices.Min(bad)
	op := &d.Ops[i]
	missing := "insert"
	if op.Kind == Insert {
		missing = "delete"
	}
	return malformed(i, op, "update of XID %d has no matching %s with update=yes under parent %d", op.Root(), missing, op.Parent)
}

// half is one half of a move or an update: its operation and parent.
type half struct {
	op     int
	parent tree.XID
}

// checkTreeOp checks one delete or insert on its own.
func checkTreeOp(i int, op *Op) error {
	switch {
	case op.Parent == 0:
		return malformed(i, op, "missing parent XID")
	case op.Pos < 1:
		return malformed(i, op, "position %d: positions start at 1", op.Pos)
	case len(op.XIDs.XIDs) == 0:
		return malformed(i, op, "empty XID-map")
	case op.Move && op.Update:
		return malformed(i, op, "an operation cannot be both a move and an update")
	}
	for _, x := range op.XIDs.XIDs {
		if x == 0 {
			return malformed(i, op, "XID-map contains XID 0")
		}
		if x == op.Parent {
			return malformed(i, op, "the subtree contains its own parent %d", x)
		}
		if x == math.MaxUint64 && op.Kind == Insert && !op.Move {
			// The result's NextXID, one more than its largest XID,
			// would wrap to 0.
			return malformed(i, op, "XID %d is the largest XID, which leaves none to allocate next", x)
		}
	}
	if op.Move {
		if op.Content != nil {
			return malformed(i, op, "a move carries no content")
		}
		if len(op.XIDs.XIDs) != 1 {
			return malformed(i, op, "a move's XID-map holds only the moved root, not %d XIDs", len(op.XIDs.XIDs))
		}
		return nil
	}
	if op.Content == nil {
		return malformed(i, op, "missing content")
	}
	if op.Update && op.Content.Kind == tree.Element {
		return malformed(i, op, "an update changes a text, comment or processing instruction, not an element")
	}
	if size := op.Content.Size(); size != len(op.XIDs.XIDs) {
		return malformed(i, op, "XID-map has %d XIDs for content of %d nodes", len(op.XIDs.XIDs), size)
	}
	// Walk the content in post-order, comparing with the XID-map.
	k := 0
	var bad string
	seen := make(map[tree.XID]struct{}, len(op.XIDs.XIDs))
	tree.PostOrder(op.Content, func(n *tree.Node) {
		if bad != "" {
			return
		}
		switch {
		case n.Kind < tree.Element || n.Kind > tree.ProcInst:
			bad = fmt.Sprintf("content node of invalid kind %d", n.Kind)
		case n.Kind != tree.Element && (len(n.Children) > 0 || len(n.Attrs) > 0):
			bad = fmt.Sprintf("a %s in the content has children or attributes", n.Kind)
		case n.Kind == tree.Element && n.Name == "":
			bad = "an element in the content has no name"
		case n.Kind == tree.ProcInst && n.Name == "":
			bad = "a processing instruction in the content has no name"
		case n.Kind == tree.Element && n.Value != "":
			bad = "an element in the content has a value"
		case (n.Kind == tree.Text || n.Kind == tree.Comment) && n.Name != "":
			bad = fmt.Sprintf("a %s in the content has a name", n.Kind)
		case n.Kind == tree.Element && len(n.Attrs) > 0:
			bad = checkAttrs(n)
		case k >= len(op.XIDs.XIDs):
			bad = fmt.Sprintf("XID-map has %d XIDs for content of more nodes", len(op.XIDs.XIDs))
		case n.XID != op.XIDs.XIDs[k]:
			bad = fmt.Sprintf("content node %d in post-order has XID %d, the XID-map says %d", k+1, n.XID, op.XIDs.XIDs[k])
		}
		if bad == "" {
			if _, dup := seen[n.XID]; dup {
				bad = fmt.Sprintf("XID %d is used twice in the content", n.XID)
			}
			seen[n.XID] = struct{}{}
		}
		k++
	})
	if bad != "" {
		return malformed(i, op, "%s", bad)
	}
	if k != len(op.XIDs.XIDs) {
		return malformed(i, op, "XID-map has %d XIDs for content of %d nodes", len(op.XIDs.XIDs), k)
	}
	return nil
}

// checkAttrs returns what is wrong with the attributes of a content
// element, or "": every attribute has a name, and a name only once (no
// parser gives an element two attributes of one name, and XML cannot
// write them).
func checkAttrs(n *tree.Node) string {
	var seen map[string]struct{}
	if len(n.Attrs) > 8 {
		seen = make(map[string]struct{}, len(n.Attrs))
	}
	for i, a := range n.Attrs {
		if a.Name == "" {
			return fmt.Sprintf("element <%s> XID %d in the content has an attribute without a name", clip(n.Name), n.XID)
		}
		dup := false
		if seen != nil {
			_, dup = seen[a.Name]
			seen[a.Name] = struct{}{}
		} else {
			for _, b := range n.Attrs[:i] {
				dup = dup || b.Name == a.Name
			}
		}
		if dup {
			return fmt.Sprintf("element <%s> XID %d in the content has attribute %s twice", clip(n.Name), n.XID, clip(a.Name))
		}
	}
	return ""
}

// Validate reports whether d applies to doc: d is well-formed, and every
// operation fits the document (see Apply). It changes nothing.
func Validate(doc *tree.Document, d *Delta) error {
	_, err := Apply(doc, d)
	return err
}

// parseVersionMap parses the XID-map of a version (a delta's fromXidMap or
// toXidMap), which lists every node of the version once: a map that
// repeats an XID fits no document, and Apply would refuse every document
// as the wrong one.
func parseVersionMap(s string) (tree.XIDRanges, error) {
	m, err := tree.ParseXIDRanges(s)
	if err != nil {
		return m, err
	}
	// ParseXIDRanges refuses XID 0: Check finds repeats only.
	if err := m.Check(); err != nil {
		return m, err
	}
	return m, nil
}

// Limits bounds what DecodeXMLWithin and DecodeJSONAllWithin accept, for
// a reader that knows the document the deltas apply to (vigil patch).
type Limits struct {
	// MaxNodes, when not zero, bounds the XIDs a version's XID-map
	// (fromXidMap, toXidMap) may list: no version the deltas lead to has
	// more nodes than the document plus the nodes their contents hold,
	// which the size of their file bounds. A map past it is refused as
	// the file is read, naming its length and the bound, rather than by
	// Apply as a map that does not fit the document.
	MaxNodes int
}

// A MapSizeError refuses a version's XID-map that lists more XIDs than
// Limits.MaxNodes, found before the map is expanded. The decoders return it
// as the Err of a *DecodeError; it wraps ErrConflict: the delta may be well
// formed, but it fits no version the reader knows of.
type MapSizeError struct {
	XIDs, MaxNodes int
}

func (e *MapSizeError) Error() string {
	return fmt.Sprintf("XID-map has %d XIDs for a version of at most %d nodes", e.XIDs, e.MaxNodes)
}

func (e *MapSizeError) Unwrap() error { return ErrConflict }

// checkVersionMapSize refuses, before it is expanded, a version's XID-map
// that lists more XIDs than maxNodes (when not zero), with a
// *MapSizeError; syntax errors are left to parseVersionMap.
func checkVersionMapSize(s string, maxNodes int) error {
	if maxNodes <= 0 {
		return nil
	}
	if n, err := tree.CountXIDMap(s); err == nil && n > maxNodes {
		return &MapSizeError{XIDs: n, MaxNodes: maxNodes}
	}
	return nil
}

// keepMapSizeError makes the *MapSizeError that err may wrap the Err of
// de, a *DecodeError, which the decoders give ErrMalformed.
func keepMapSizeError(de, err error) error {
	var se *MapSizeError
	if d, ok := de.(*DecodeError); ok && errors.As(err, &se) {
		d.Err = se
	}
	return de
}

// checkXIDMapSize refuses, before it is expanded, an operation's XID-map
// that lists far more XIDs than the operation's subtree has nodes (size),
// so that a short hostile string such as (1-99999999) costs nothing. It
// counts without allocating; syntax errors are left to tree.ParseXIDMap.
func checkXIDMapSize(s string, size int) error {
	var n, a, cur uint64
	inRange, have := false, false
	limit := uint64(size) + 1024
	for i := 0; i <= len(s); i++ {
		c := byte(';')
		if i < len(s) {
			c = s[i]
		}
		switch {
		case c >= '0' && c <= '9':
			if cur > (1<<63)/10 {
				return nil // an invalid XID: ParseXIDMap says so
			}
			cur = cur*10 + uint64(c-'0')
			have = true
			continue
		case c == '-' && have && !inRange:
			a, cur, have, inRange = cur, 0, false, true
			continue
		case c == ';' || c == ')' || c == '|':
			if inRange && have && cur >= a {
				n += cur - a + 1
			} else if have {
				n++
			}
			if c == '|' {
				i = len(s) // the next-free counter is not an XID of the subtree
			}
			cur, have, inRange = 0, false, false
		}
		if n > limit {
			return fmt.Errorf("XID-map %q lists more than %d XIDs for a subtree of %d nodes", clip(s), limit, size)
		}
	}
	return nil
}

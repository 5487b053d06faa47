package delta

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestInsertLargestXIDRefused: an insert of the largest XID leaves Apply
// no next free XID: the delta is refused, naming the operation and its
// place, where Apply made NextXID the largest XID plus one, which wrapped
// to 0, below the XIDs of the result.
func TestInsertLargestXIDRefused(t *testing.T) {
	const max = "18446744073709551615"
	for _, c := range []struct{ name, in string }{
		{"xml", `<unit_delta><t>` + "\n  " + `<i par="1" pos="1" xm="(` + max + `)"><x/></i></t></unit_delta>`},
		{"xml subtree", `<unit_delta><t>` + "\n  " + `<i par="1" pos="1" xm="(2;` + max + `)"><x>a</x></i></t></unit_delta>`},
		{"json", `{"ops":[` + "\n  " + `{"op":"i","par":1,"pos":1,"xm":"(` + max + `)","content":{"kind":"element","name":"x"}}]}`},
	} {
		var err error
		if c.name == "json" {
			_, err = DecodeJSON(strings.NewReader(c.in))
		} else {
			_, err = DecodeXML(strings.NewReader(c.in))
		}
		if err == nil || !errors.Is(err, ErrMalformed) || !strings.Contains(strings.Replace(err.Error(), "ops[0]: ", "", 1), "line 2, column 3: operation 1 (i par=1 pos=1 xm=(") ||
			!strings.Contains(err.Error(), "XID "+max+" is the largest XID") {
			t.Errorf("%s: err = %v", c.name, err)
		}
	}
	// A delta built in code, applied without validation by the caller.
	d := &Delta{Ops: []Op{{Kind: Insert, Parent: 1, Pos: 1, XIDs: tree.XIDMap{XIDs: []tree.XID{math.MaxUint64}}, Content: &tree.Node{Kind: tree.Text, Value: "a", XID: math.MaxUint64}}}}
	res, err := Apply(doc(el("r", 1), 2), d)
	if err == nil || !strings.Contains(err.Error(), "operation 1 (i par=1 pos=1 xm=("+max+")): XID "+max+" is the largest XID") {
		t.Errorf("Apply: err = %v", err)
	}
	if res != nil && res.NextXID <= math.MaxUint64-1 {
		t.Errorf("Apply: NextXID %d", res.NextXID)
	}
	// A source that holds the largest XID already: Apply refuses the
	// result rather than give it a NextXID below its XIDs.
	d = &Delta{Ops: []Op{{Kind: Rename, Node: 1, OldValue: "r", NewValue: "s"}}}
	_, err = Apply(doc(el("r", 1, tx("a", math.MaxUint64)), math.MaxUint64), d)
	if err == nil || !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "the result holds XID "+max+", the largest") {
		t.Errorf("Apply to a document holding the largest XID: err = %v", err)
	}
}

// TestApplyLargestNextXIDRefused: a delta whose target XID-map gives the
// largest XID as the next to allocate is refused by Apply, where the
// result's NextXID was the largest XID: the diff of the next version gave
// a new node that XID and the ones after it 0 and the tree's own XIDs.
func TestApplyLargestNextXIDRefused(t *testing.T) {
	d := &Delta{Ops: []Op{{Kind: Rename, Node: 1, OldValue: "r", NewValue: "s"}},
		ToXIDMap: tree.RangesOf([]tree.XID{1}, math.MaxUint64)}
	res, err := Apply(doc(el("r", 1), 2), d)
	if err == nil || !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "next XID 18446744073709551615, the largest") {
		t.Errorf("Apply: err = %v", err)
	}
	if res != nil {
		t.Errorf("Apply: a result with NextXID %d", res.NextXID)
	}
	// The same as the second step of ApplyAll: refused too.
	maps := tree.RangesOf([]tree.XID{1}, 2)
	first := &Delta{Ops: []Op{{Kind: Rename, Node: 1, OldValue: "r", NewValue: "q"}}, FromXIDMap: maps, ToXIDMap: maps}
	second := &Delta{Ops: []Op{{Kind: Rename, Node: 1, OldValue: "q", NewValue: "s"}}, FromXIDMap: maps,
		ToXIDMap: tree.RangesOf([]tree.XID{1}, math.MaxUint64)}
	res, err = ApplyAll(doc(el("r", 1), 2), []*Delta{first, second})
	if err == nil || !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "next XID 18446744073709551615, the largest") {
		t.Errorf("ApplyAll: err = %v", err)
	}
	if res != nil {
		t.Errorf("ApplyAll: a result with NextXID %d", res.NextXID)
	}
}

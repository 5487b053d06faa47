package treediff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
)

// TestRecoveryAnchorsInOrder moves the first item of a list to the end and
// changes another: the gaps between the items that stayed in order must
// still be recovered (the changed text an update). Anchors taken greedily in
// old order would stop at the moved item and recover nothing after it.
func TestRecoveryAnchorsInOrder(t *testing.T) {
	// Post-order: old "a"=0 i=1 "b"=2 i=3 "c"=4 i=5 "d"=6 i=7 l=8;
	// new "b"=0 i=1 "C"=2 i=3 "d"=4 i=5 "a"=6 i=7 l=8.
	m := matchingOf(t, `<l><i>a</i><i>b</i><i>c</i><i>d</i></l>`, `<l><i>b</i><i>C</i><i>d</i><i>a</i></l>`)
	m.pair(8, 8)
	m.zip(1, 7) // a moved to the end
	m.zip(3, 1)
	m.zip(7, 5)
	recovery{}.run(m)
	if m.oldMatch[5] != 3 || m.oldMatch[4] != 2 {
		t.Errorf("the item between b and d and its text matched with %d and %d, want 3 and 2", m.oldMatch[5], m.oldMatch[4])
	}
}

// TestWrappedSubtree: a large subtree wrapped in a new element (or
// unwrapped) is an insert (or a delete) of that element and a move, not a
// delete and an insert of the whole subtree, however deep; too large for
// the exact recovery, it used to be, from about 150 nodes.
func TestWrappedSubtree(t *testing.T) {
	for _, n := range []int{40, 300, 1000} {
		old := "<r>" + strings.Repeat("<x>", n) + "t" + strings.Repeat("</x>", n) + "</r>"
		wrapped := "<r>" + strings.Repeat("<x>", n/2) + "<y>" + strings.Repeat("<x>", n/2) + "u" + strings.Repeat("</x>", n/2) + "</y>" + strings.Repeat("</x>", n/2) + "</r>"
		for _, tc := range []struct{ from, to, what string }{{old, wrapped, "wrapped"}, {wrapped, old, "unwrapped"}} {
			if s := diffXML(t, tc.from, tc.to).Stats(); s.InsertedNodes+s.DeletedNodes > 3 {
				t.Errorf("depth %d, %s: %+v, want a few nodes inserted or deleted, not a subtree", n, tc.what, s)
			}
		}
	}
}

// TestWrappedParagraphs: a list of paragraphs wrapped in a new element is
// an insert and a move when its words stayed, and a delete and an insert
// when they are other words: not a move and two hundred text updates.
func TestWrappedParagraphs(t *testing.T) {
	paragraphs := func(word string, edited int) string {
		var b strings.Builder
		for k := range 200 {
			w := word
			if k < edited {
				w = "edited"
			}
			fmt.Fprintf(&b, "<p>%s%d %s%d words</p>", w, k, w, k+1)
		}
		return b.String()
	}
	diff := func(old, new string) delta.Stats { return diffXML(t, old, new).Stats() }
	old := "<r><h>t</h><div>" + paragraphs("w", 0) + "</div></r>"
	if s := diff(old, "<r><h>t</h><sec><div>"+paragraphs("w", 2)+"</div></sec></r>"); s.InsertedNodes != 1 || s.DeletedNodes != 0 || s.Updates != 2 {
		t.Errorf("wrapped, two paragraphs edited: %+v, want one node inserted and two updates", s)
	}
	if s := diff(old, "<r><h>t</h><sec><div>"+paragraphs("v", 0)+"</div></sec></r>"); s.Moves != 0 || s.Updates != 0 {
		t.Errorf("wrapped with other words: %+v, want a delete and an insert", s)
	}
}

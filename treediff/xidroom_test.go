package treediff_test

import (
	"math"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// TestDiffNoXIDsLeft: a diff whose new nodes' fresh XIDs would run past
// the largest XID (an old version that holds it, or whose NextXID is near
// it) fails, leaving the new version without XIDs, where the XIDs wrapped
// to 0 and repeated the old version's.
func TestDiffNoXIDsLeft(t *testing.T) {
	for _, c := range []struct {
		name string
		xids []tree.XID
		next tree.XID
		want string
	}{
		{"next near the largest", []tree.XID{1, 2}, math.MaxUint64 - 2, "next XID 18446744073709551613 leaves too few"},
		{"the largest held", []tree.XID{1, math.MaxUint64}, 3, "holds XID 18446744073709551615"},
	} {
		old := &tree.Document{}
		old.Root = old.NewElement("r")
		old.Root.AppendChild(old.NewText("a"))
		nodes := tree.PostOrderNodes(old.Root)
		for i, n := range nodes {
			n.XID = c.xids[i]
		}
		old.NextXID = c.next
		nw := &tree.Document{}
		nw.Root = nw.NewElement("r")
		nw.Root.AppendChild(nw.NewText("a"))
		for range 3 {
			nw.Root.AppendChild(nw.NewElement("x"))
		}
		_, err := treediff.Diff(old, nw, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, new version's XIDs %s", c.name, err, nw.XIDMap())
		}
		if nw.Root.XID != 0 {
			t.Errorf("%s: the failed diff gave the new version XIDs %s", c.name, nw.XIDMap())
		}
	}
}

package intent

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestValuesChangedInPlace: in a table or a list whose prices change, a new
// price that another row or item held before is a coincidence, not a move.
// "Any change" reports each changed price as an update in place, and
// nothing else: one changed cell between unchanged ones, or a run of
// changed items together.
func TestValuesChangedInPlace(t *testing.T) {
	tests := []struct {
		name       string
		open, shut string // around the rows
		row        string // the markup of one row, given its number and price
		runs       int    // the changed rows come in runs of this many
	}{
		{"table", "<table><tbody>", "</tbody></table>", "<tr><td>%d</td><td>%s</td></tr>\n", 1},
		{"list", "<ul>", "</ul>", "<li class=n%d>%s</li>\n", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			const rows, changed = 2000, 198
			r := rand.New(rand.NewPCG(3, 4))
			price := make([]string, rows)
			for k := range price {
				price[k] = fmt.Sprintf("%d.%02d", r.IntN(1000), r.IntN(100))
			}
			page := func(price []string) string {
				var b strings.Builder
				b.WriteString("<html><body>" + tc.open + "\n")
				for k, p := range price {
					fmt.Fprintf(&b, tc.row, k, p)
				}
				b.WriteString(tc.shut + "</body></html>")
				return b.String()
			}
			// Runs of changed rows apart from each other, each row taking
			// the old price of the row at its place in another run.
			starts := r.Perm(rows / 10)[:changed/tc.runs]
			newPrice := append([]string(nil), price...)
			var picked []int
			for k, start := range starts {
				other := starts[(k+1)%len(starts)]
				for d := range tc.runs {
					newPrice[start*10+d] = price[other*10+d]
					picked = append(picked, start*10+d)
				}
			}
			res := evalClause(t, page(price), page(newPrice), "any change")
			ops := map[Operation]int{}
			for _, c := range res.Changes {
				ops[c.Op]++
				if c.Op != Update && ops[c.Op] <= 3 {
					t.Errorf("%s %q -> %q at %s%s: not an update in place", c.Op, c.Old, c.New, c.OldPath, c.NewPath)
				}
				if c.Op == Update && c.OldPath != c.NewPath {
					t.Errorf("update %q -> %q from %s to %s: not in place", c.Old, c.New, c.OldPath, c.NewPath)
				}
			}
			if ops[Update] != len(picked) || len(res.Changes) != len(picked) {
				t.Errorf("%v, want %d updates and nothing else", ops, len(picked))
			}
		})
	}
}

// TestNoUpdateThatChangesNothing: the LCS cuts long sequences at anchors,
// so it may leave equal values off it, at the same place in a gap on both
// sides; those are no update in place (move detection takes them). Pages
// of mostly "0" and "1", a few rare values, a quarter of the values
// redrawn and a few shifted, met such a gap (the twelfth pair below did).
func TestNoUpdateThatChangesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	page := func(v []string) string {
		var b strings.Builder
		b.WriteString("<html><body>")
		for _, x := range v {
			fmt.Fprintf(&b, "<p>%s</p>", x)
		}
		b.WriteString("</body></html>")
		return b.String()
	}
	for pair := 0; pair < 16; pair++ {
		n := 1500 + r.IntN(2000)
		a := make([]string, n)
		for i := range a {
			if r.IntN(20) == 0 {
				a[i] = fmt.Sprintf("r%d", i)
			} else {
				a[i] = []string{"0", "1"}[r.IntN(2)]
			}
		}
		b := append([]string(nil), a...)
		for range n / 4 {
			if i := r.IntN(n); len(b[i]) == 1 {
				b[i] = []string{"0", "1"}[r.IntN(2)]
			}
		}
		for range 5 {
			i := r.IntN(len(b))
			b = append(b[:i], b[i+1:]...)
			j := r.IntN(len(b))
			b = append(b[:j], append([]string{"1"}, b[j:]...)...)
		}
		for _, c := range evalClause(t, page(a), page(b), "any change").Changes {
			if c.Op == Update && c.Old == c.New {
				t.Fatalf("pair %d: update %q -> %q from %s to %s changes nothing", pair, c.Old, c.New, c.OldPath, c.NewPath)
			}
		}
	}
}

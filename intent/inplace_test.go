package intent

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestValuesChangedInPlace: in a table whose prices change, a new price
// that another row held before is a coincidence, not a move. "Any change"
// reports each changed price as an update in place, and nothing else.
func TestValuesChangedInPlace(t *testing.T) {
	const rows, changed = 2000, 200
	r := rand.New(rand.NewPCG(3, 4))
	price := make([]string, rows)
	for k := range price {
		price[k] = fmt.Sprintf("%d.%02d", r.IntN(1000), r.IntN(100))
	}
	page := func(price []string) string {
		var b strings.Builder
		b.WriteString("<html><body><table><tbody>\n")
		for k, p := range price {
			fmt.Fprintf(&b, "<tr><td>%d</td><td>item %s</td><td>%s</td></tr>\n", k, []string{"red", "green", "blue"}[k%3], p)
		}
		b.WriteString("</tbody></table></body></html>")
		return b.String()
	}
	newPrice := append([]string(nil), price...)
	// Each changed row takes the old price of another changed row.
	picked := r.Perm(rows)[:changed]
	for k, row := range picked {
		newPrice[row] = price[picked[(k+1)%changed]]
	}
	res := evalClause(t, page(price), page(newPrice), "any change")
	ops := map[Operation]int{}
	for _, c := range res.Changes {
		ops[c.Op]++
		if c.Op != Update && ops[c.Op] <= 3 {
			t.Errorf("%s %q -> %q at %s%s: not an update in place", c.Op, c.Old, c.New, c.OldPath, c.NewPath)
		}
	}
	if ops[Update] != changed || len(res.Changes) != changed {
		t.Errorf("%v, want %d updates and nothing else", ops, changed)
	}
	for _, c := range res.Changes {
		if c.Op == Update && c.OldPath != c.NewPath {
			t.Errorf("update %q -> %q from %s to %s: not in place", c.Old, c.New, c.OldPath, c.NewPath)
			break
		}
	}
}

package treediff

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
)

// TestValuesChangedInPlace: in a table whose cells change value, a new
// value that another row held before is a coincidence, not a move. Every
// changed cell is an update in place, and nothing else happens: no cell
// moves between rows, no row is deleted and inserted.
func TestValuesChangedInPlace(t *testing.T) {
	const rows, changed = 3000, 300
	r := rand.New(rand.NewPCG(1, 2))
	price := make([]string, rows)
	for k := range price {
		price[k] = fmt.Sprintf("%d.%02d", r.IntN(1000), r.IntN(100))
	}
	page := func(price []string) []byte {
		var b strings.Builder
		b.WriteString("<html><body><table><tbody>\n")
		for k, p := range price {
			fmt.Fprintf(&b, "<tr><td>%d</td><td>item %s</td><td>%s</td><td>t%d</td></tr>\n", k, []string{"red", "green", "blue"}[k%3], p, k%7)
		}
		b.WriteString("</tbody></table></body></html>")
		return []byte(b.String())
	}
	newPrice := append([]string(nil), price...)
	// Each changed row takes the old price of another changed row, the way
	// a random price list meets values it held elsewhere before.
	picked := r.Perm(rows)[:changed]
	for k, row := range picked {
		newPrice[row] = price[picked[(k+1)%changed]]
	}
	d := diffPages(t, page(price), page(newPrice))
	var updates, others int
	for _, op := range d.Ops {
		switch {
		case op.Kind == delta.Insert && op.Update:
			updates++
		case op.Kind == delta.Delete && op.Update:
		default:
			others++
			if others <= 3 {
				t.Errorf("%v %v at %d: not an update of a changed cell", op.Kind, op.Move, op.Parent)
			}
		}
	}
	if updates != changed || others != 0 {
		t.Errorf("%d updates and %d other operations, want %d updates and nothing else", updates, others, changed)
	}
}

// diffPages parses two HTML pages and diffs them with the default options.
func diffPages(t *testing.T, old, new []byte) *delta.Delta {
	t.Helper()
	a, err := markup.ParseHTMLBytes(old, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := markup.ParseHTMLBytes(new, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Diff(a, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestColumnShiftedInPlace: every row's price is the next row's old one (a
// price column shifted by a row, the last price new), while each row keeps
// its id and name. No row is matched when the heaviest-first phase ends,
// so the parents of the prices are placed only once the bottom-up pass
// has matched the rows (the strayMoves phase): every price is an update in
// place, not a move between rows.
func TestColumnShiftedInPlace(t *testing.T) {
	const rows = 500
	r := rand.New(rand.NewPCG(5, 6))
	price := make([]string, rows+1)
	for k := range price {
		price[k] = fmt.Sprintf("%d.%02d", r.IntN(100000), r.IntN(100))
	}
	page := func(price []string) []byte {
		var b strings.Builder
		b.WriteString("<html><body><table><tbody>\n")
		for k, p := range price {
			fmt.Fprintf(&b, "<tr><td>id%d</td><td>name %d</td><td>%s</td></tr>\n", k, k, p)
		}
		b.WriteString("</tbody></table></body></html>")
		return []byte(b.String())
	}
	d := diffPages(t, page(price[:rows]), page(price[1:]))
	s := d.Stats()
	if s.Updates != rows || s.Moves != 0 || s.InsertedNodes != 0 || s.DeletedNodes != 0 {
		t.Errorf("%+v, want %d updates and nothing else", s, rows)
	}
}

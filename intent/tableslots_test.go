package intent

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// tableCellChanges evaluates clause on two versions of a page and writes
// each change as "kind op row:column:header old->new", row "head" for a
// header row's cells, sorted.
func tableCellChanges(t *testing.T, old, new, clause string) []string {
	t.Helper()
	r := evalClause(t, old, new, clause)
	var got []string
	for _, c := range r.Changes {
		if c.Table == nil {
			t.Fatalf("change %+v without a table", c)
		}
		row := c.Table.Row
		if c.Table.HeaderRow {
			row = "head"
		}
		got = append(got, fmt.Sprintf("%s %s %s:%d:%s %q->%q", c.Kind, c.Op, row, c.Table.Column, c.Table.Header, c.Old, c.New))
	}
	slices.Sort(got)
	return got
}

// TestTableIgnoredCellsKeepSlots: a cell the monitor ignores keeps its
// slots in the table, so that the cells after it stay under their own
// columns' headers, while its text is no change and is shown nowhere.
func TestTableIgnoredCellsKeepSlots(t *testing.T) {
	page := func(head, body string) string {
		return `<html><body><table id="t"><thead>` + head + `</thead><tbody>` + body + `</tbody></table></body></html>`
	}
	const head = `<tr><th>Product</th><th class="stock">Stock</th><th>Price</th></tr>`
	for _, tc := range []struct {
		name, old, new, clause string
		want                   []string
	}{
		{"price after an ignored stock cell",
			page(head, `<tr><td>Coffee</td><td class="stock">12 left</td><td>10</td></tr><tr><td>Tea</td><td class="stock">3 left</td><td>5</td></tr>`),
			page(head, `<tr><td>Coffee</td><td class="stock">11 left</td><td>12</td></tr><tr><td>Tea</td><td class="stock">3 left</td><td>5</td></tr>`),
			`table {t} Ignore css "td.stock"`,
			[]string{`table-cell update Coffee:3:Price "10"->"12"`}},
		{"ignored stock cell changed alone",
			page(head, `<tr><td>Coffee</td><td class="stock">12 left</td><td>10</td></tr>`),
			page(head, `<tr><td>Coffee</td><td class="stock">11 left</td><td>10</td></tr>`),
			`table {t} Ignore css "td.stock"`,
			nil},
		// The column hidden whole, its header with it: the price is
		// still the third column, as the page has it.
		{"whole column ignored",
			page(head, `<tr><td>Coffee</td><td class="stock">12 left</td><td>10</td></tr>`),
			page(head, `<tr><td>Coffee</td><td class="stock">11 left</td><td>12</td></tr>`),
			`table {t} Ignore css ".stock"`,
			[]string{`table-cell update Coffee:3:Price "10"->"12"`}},
		// An ignored cell over two rows keeps its slot in both: the
		// second row's price is under Price, not Stock.
		{"ignored cell over two rows",
			page(head, `<tr><td>Coffee</td><td class="stock" rowspan="2">in stock</td><td>10</td></tr><tr><td>Tea</td><td>5</td></tr>`),
			page(head, `<tr><td>Coffee</td><td class="stock" rowspan="2">in stock</td><td>10</td></tr><tr><td>Tea</td><td>6</td></tr>`),
			`table {t} Ignore css "td.stock"`,
			[]string{`table-cell update Tea:3:Price "5"->"6"`}},
		// An ignored header cell keeps its slot too: the header row's
		// Price is the third column, and the ignored text is no header.
		{"ignored header cell",
			page(head, `<tr><td>Coffee</td><td>12 left</td><td>10</td></tr>`),
			page(`<tr><th>Product</th><th class="stock">In stock</th><th>Price</th></tr>`, `<tr><td>Coffee</td><td>11 left</td><td>12</td></tr>`),
			`table {t} Ignore css "th.stock"`,
			[]string{`table-cell update Coffee:2: "12 left"->"11 left"`, `table-cell update Coffee:3:Price "10"->"12"`}},
		// A row whose first cell is ignored is named by its first cell
		// shown.
		{"first cell ignored",
			page(`<tr><th>Code</th><th>Product</th><th>Price</th></tr>`, `<tr><td class="code">A-17</td><td>Coffee</td><td>10</td></tr>`),
			page(`<tr><th>Code</th><th>Product</th><th>Price</th></tr>`, `<tr><td class="code">A-18</td><td>Coffee</td><td>12</td></tr>`),
			`table {t} Ignore css "td.code"`,
			[]string{`table-cell update Coffee:3:Price "10"->"12"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tableCellChanges(t, tc.old, tc.new, tc.clause)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
		})
	}
}

// TestTableRowsUnderRowspan: a row under a body cell's rowspan is named by
// that cell, the row header a reader sees beside it, then its own first
// cell, which is in a later column: "row Berlin / Tea, Price: 5 -> 6" for
// the tea sold in Berlin, where it was "row Tea", and "row Berlin" would
// not say which of Berlin's rows.
func TestTableRowsUnderRowspan(t *testing.T) {
	page := func(body string) string {
		return `<html><body><table id="t"><thead><tr><th>City</th><th>Product</th><th>Price</th></tr></thead><tbody>` +
			body + `</tbody></table></body></html>`
	}
	prices := func(berlinTea string) string {
		return page(`<tr><td rowspan="3">Berlin</td><td>Coffee</td><td>10</td></tr><tr><td>Tea</td><td>` + berlinTea + `</td></tr>` +
			`<tr><td>Cake</td><td>7</td></tr><tr><td rowspan="2">Paris</td><td>Coffee</td><td>11</td></tr><tr><td>Tea</td><td>6</td></tr>`)
	}
	// cityShop is a price list whose rows are under two row headers,
	// a city over four rows and a shop over two.
	cityShop := func(price string) string {
		return `<html><body><table id="t"><thead><tr><th>City</th><th>Shop</th><th>Product</th><th>Price</th></tr></thead><tbody>` +
			`<tr><th rowspan="4">Berlin</th><td rowspan="2">Mitte</td><td>Coffee</td><td>10</td></tr><tr><td>Tea</td><td>5</td></tr>` +
			`<tr><td rowspan="2">Kreuzberg</td><td>Coffee</td><td>9</td></tr><tr><td>Tea</td><td>` + price + `</td></tr></tbody></table></body></html>`
	}
	for _, tc := range []struct {
		name, old, new, clause string
		want                   []string
	}{
		{"price changed in a row under the city",
			prices("5"), prices("6"), `table {t}`,
			[]string{`table-cell update Berlin / Tea:3:Price "5"->"6"`}},
		{"price changed in the city's own row",
			prices("5"), strings.Replace(prices("5"), "<td>10</td>", "<td>12</td>", 1), `table {t}`,
			[]string{`table-cell update Berlin:3:Price "10"->"12"`}},
		{"row added under the city",
			prices("5"),
			strings.Replace(strings.Replace(prices("5"), `rowspan="3"`, `rowspan="4"`, 1),
				"<tr><td>Cake</td>", "<tr><td>Juice</td><td>4</td></tr><tr><td>Cake</td>", 1), `table {t}`,
			[]string{`table-row insert Berlin / Juice:0: ""->"Juice | 4"`}},
		// Under two row headers, both name the row, left to right, a
		// th or a td alike.
		{"row under a city and a shop",
			cityShop("4"), cityShop("5"), `table {t}`,
			[]string{`table-cell update Berlin / Kreuzberg / Tea:4:Price "4"->"5"`}},
		// A city the monitor ignores names no row: the row's own first
		// cell does.
		{"city ignored",
			prices("5"), prices("6"), `table {t} Ignore css "td[rowspan]"`,
			[]string{`table-cell update Tea:3:Price "5"->"6"`}},
		// The city ignored, the shop still names the row.
		{"city ignored, shop shown",
			cityShop("4"), cityShop("5"), `table {t} Ignore css "th[rowspan]"`,
			[]string{`table-cell update Kreuzberg / Tea:4:Price "4"->"5"`}},
		// A row the monitor ignores is still one of the city's three:
		// Paris's row is not taken for a fourth.
		{"row ignored under the city",
			strings.Replace(prices("5"), "<tr><td>Tea</td>", `<tr class="promo"><td>Tea</td>`, 1),
			strings.Replace(strings.Replace(prices("5"), "<tr><td>Tea</td>", `<tr class="promo"><td>Tea</td>`, 1), "<td>11</td>", "<td>13</td>", 1),
			`table {t} Ignore css "tr.promo"`,
			[]string{`table-cell update Paris:3:Price "11"->"13"`}},
		// A header cell over the first body row names no row: it is a
		// column's header.
		{"header cell reaching the body",
			`<html><body><table id="t"><tr><th rowspan="2">Name</th><th>Price</th></tr><tr><td>10</td></tr></table></body></html>`,
			`<html><body><table id="t"><tr><th rowspan="2">Name</th><th>Price</th></tr><tr><td>12</td></tr></table></body></html>`,
			`table {t}`,
			[]string{`table-cell update 12:2:Price "10"->"12"`}},
		// A rowspan ends with its row group: the second tbody's rows
		// are their own.
		{"rowspan ends with its row group",
			page(`<tr><td rowspan="5">Berlin</td><td>Coffee</td><td>10</td></tr></tbody><tbody><tr><td>Paris</td><td>Tea</td><td>6</td></tr>`),
			page(`<tr><td rowspan="5">Berlin</td><td>Coffee</td><td>10</td></tr></tbody><tbody><tr><td>Paris</td><td>Tea</td><td>7</td></tr>`),
			`table {t}`,
			[]string{`table-cell update Paris:3:Price "6"->"7"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tableCellChanges(t, tc.old, tc.new, tc.clause)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
		})
	}
}

// TestSlotGridTaken: a column is taken in a row by a cell above whose
// rowspan reaches it, and free again past it or in another row group.
func TestSlotGridTaken(t *testing.T) {
	var g slotGrid
	group, other := &tree.Node{}, &tree.Node{}
	for _, step := range []struct {
		group *tree.Node
		taken bool // column 0 before the row's cells are placed
		cells [][2]int
	}{
		{group, false, [][2]int{{1, 3}, {1, 1}}},
		{group, true, [][2]int{{1, 1}}},
		{group, true, [][2]int{{1, 1}}},
		{group, false, [][2]int{{1, 0}}},
		{group, true, nil},
		{other, false, [][2]int{{1, 1}}},
	} {
		g.row(step.group)
		if got := g.taken(0); got != step.taken {
			t.Errorf("row %d: column 0 taken %v, want %v", g.y, got, step.taken)
		}
		for _, c := range step.cells {
			g.place(c[0], c[1])
		}
	}
	if g.taken(5) {
		t.Errorf("a column past the grid is taken")
	}
}

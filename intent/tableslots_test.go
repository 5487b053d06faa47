package intent

import (
	"fmt"
	"slices"
	"strings"
	"testing"
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

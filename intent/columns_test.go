package intent

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestTableColumns: the columns of a table's versions are paired by their
// headers, so that a column added, removed or renamed is reported as such,
// cell by cell, and the cells after it, unchanged, are no change.
func TestTableColumns(t *testing.T) {
	table := func(head string, rows ...string) string {
		s := `<html><body><table id="releases"><thead><tr>`
		for _, h := range strings.Split(head, ",") {
			s += "<th>" + h + "</th>"
		}
		s += "</tr></thead><tbody>"
		for _, r := range rows {
			s += "<tr>"
			for _, c := range strings.Split(r, ",") {
				s += "<td>" + c + "</td>"
			}
			s += "</tr>"
		}
		return s + "</tbody></table></body></html>"
	}
	old := table("Version,Date,Status", "2.1,2024-05,beta", "2.0,2024-01,stable")
	// cell shows a table-cell change: op, row ("head" for the header
	// row's cells), column, header, old -> new
	cell := func(c Change) string {
		row := c.Table.Row
		if c.Table.HeaderRow {
			row = "head"
		}
		return fmt.Sprintf("%s %s:%d:%s %q->%q", c.Op, row, c.Table.Column, c.Table.Header, c.Old, c.New)
	}
	for _, tc := range []struct {
		name, new string
		want      []string
	}{
		{"column inserted in the middle",
			table("Version,Downloads,Date,Status", "2.1,120,2024-05,beta", "2.0,900,2024-01,stable"),
			[]string{`insert 2.0:2:Downloads ""->"900"`, `insert 2.1:2:Downloads ""->"120"`, `insert head:2:Downloads ""->"Downloads"`}},
		{"column inserted at the end",
			table("Version,Date,Status,Downloads", "2.1,2024-05,beta,120", "2.0,2024-01,stable,900"),
			[]string{`insert 2.0:4:Downloads ""->"900"`, `insert 2.1:4:Downloads ""->"120"`, `insert head:4:Downloads ""->"Downloads"`}},
		{"column removed",
			table("Version,Status", "2.1,beta", "2.0,stable"),
			[]string{`delete 2.0:2:Date "2024-01"->""`, `delete 2.1:2:Date "2024-05"->""`, `delete head:2:Date "Date"->""`}},
		{"column inserted and a cell changed",
			table("Version,Downloads,Date,Status", "2.1,120,2024-05,stable", "2.0,900,2024-01,stable"),
			[]string{`insert 2.0:2:Downloads ""->"900"`, `insert 2.1:2:Downloads ""->"120"`, `insert head:2:Downloads ""->"Downloads"`, `update 2.1:4:Status "beta"->"stable"`}},
		{"header renamed",
			table("Version,Released,Status", "2.1,2024-05,beta", "2.0,2024-01,stable"),
			[]string{`update head:2:Released "Date"->"Released"`}},
		{"columns unchanged, a cell changed",
			table("Version,Date,Status", "2.1,2024-05,stable", "2.0,2024-01,stable"),
			[]string{`update 2.1:3:Status "beta"->"stable"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, old, tc.new, `table {releases}`)
			var got []string
			for _, c := range r.Changes {
				if c.Kind != KindTableCell {
					t.Errorf("%s %s %q -> %q", c.Kind, c.Op, c.Old, c.New)
					continue
				}
				got = append(got, cell(c))
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
		})
	}
}

// TestTableHeaderRowHeading: a cell of the header row is a column's
// header, and a change of it is told as the column's (added, removed,
// renamed), not as a cell of a row named by the first header ("cell
// added in row Item: Stock").
func TestTableHeaderRowHeading(t *testing.T) {
	table := func(head, row string) string {
		s := `<html><body><table><tr>`
		for _, h := range strings.Split(head, ",") {
			s += "<th>" + h + "</th>"
		}
		s += "</tr><tr>"
		for _, c := range strings.Split(row, ",") {
			s += "<td>" + c + "</td>"
		}
		return s + "</tr></table></body></html>"
	}
	old := table("Item,Price", "Boots,59")
	for _, tc := range []struct {
		name, new string
		want      []string
	}{
		{"column added", table("Item,Price,Stock", "Boots,59,3"), []string{"cell added in row Boots, column Stock: 3", "column added: Stock"}},
		{"column removed", table("Item", "Boots"), []string{"cell removed in row Boots, column Price: 59", "column removed: Price"}},
		{"header renamed", table("Item,Cost", "Boots,59"), []string{"column header changed: Price → Cost"}},
		{"first header renamed", table("Product,Price", "Boots,59"), []string{"column header changed: Item → Product"}},
	} {
		r := evalClause(t, old, tc.new, `table`)
		var got []string
		for _, c := range r.Changes {
			old, new := c.Texts()
			text := new
			switch {
			case c.Op == Delete:
				text = old
			case c.Op == Update:
				text = old + " → " + new
			}
			got = append(got, c.Heading()+": "+text)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTableTheadRows: every row of a thead is a header row (a group row
// whose cells span the columns under them, then the row that names each
// column): a change of a group header is a header's change, not a change
// of a row named by its first cell, a header row removed is a header
// row removed, and the cells of the body are named by the last header row.
func TestTableTheadRows(t *testing.T) {
	table := func(group, head string, rows ...string) string {
		s := `<html><body><table id="prices"><thead>`
		if group != "" {
			s += "<tr>"
			for _, h := range strings.Split(group, ",") {
				s += `<th colspan="2">` + h + "</th>"
			}
			s += "</tr>"
		}
		s += "<tr>"
		for _, h := range strings.Split(head, ",") {
			s += "<th>" + h + "</th>"
		}
		s += "</tr></thead><tbody>"
		for _, r := range rows {
			s += "<tr>"
			for _, c := range strings.Split(r, ",") {
				s += "<td>" + c + "</td>"
			}
			s += "</tr>"
		}
		return s + "</tbody></table></body></html>"
	}
	old := table("Camera,Price", "Brand,Model,USD,EUR", "Nikon,Z5,1299,1199", "Canon,R8,1499,1399")
	for _, tc := range []struct {
		name, new string
		want      []string // heading: text, sorted
	}{
		{"group header renamed", table("Camera,List price", "Brand,Model,USD,EUR", "Nikon,Z5,1299,1199", "Canon,R8,1499,1399"),
			[]string{"column header changed: Price → List price"}},
		{"group header row removed", table("", "Brand,Model,USD,EUR", "Nikon,Z5,1299,1199", "Canon,R8,1499,1399"),
			[]string{"header row removed: Camera | Price"}},
		{"cell of the body", table("Camera,Price", "Brand,Model,USD,EUR", "Nikon,Z5,1199,1199", "Canon,R8,1499,1399"),
			[]string{"cell changed in row Nikon, column USD: 1299 → 1199"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, old, tc.new, `table {prices}`)
			var got []string
			for _, c := range r.Changes {
				if c.Table == nil {
					t.Fatalf("change %+v without a table", c)
				}
				if c.Table.HeaderRow != (c.Table.Row == "") {
					t.Errorf("%s: header row %v, row %q", c.Heading(), c.Table.HeaderRow, c.Table.Row)
				}
				old, new := c.Texts()
				text := new
				switch c.Op {
				case Delete:
					text = old
				case Update:
					text = old + " → " + new
				}
				got = append(got, c.Heading()+": "+text)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
		})
	}
}

// TestTableColumnSpans: a cell is identified by the columns it spans
// (its colspan), in a header row as in a body row: a group header over
// several columns is numbered by the first of them and paired by them,
// so that a column added or removed beside a group is that column added
// or removed, not a group's header changed.
func TestTableColumnSpans(t *testing.T) {
	// row makes a row of tag cells, each "text" or "text:colspan".
	row := func(tag, cells string) string {
		s := "<tr>"
		for _, c := range strings.Split(cells, ",") {
			text, span, ok := strings.Cut(c, ":")
			if ok {
				s += "<" + tag + ` colspan="` + span + `">` + text + "</" + tag + ">"
			} else {
				s += "<" + tag + ">" + text + "</" + tag + ">"
			}
		}
		return s + "</tr>"
	}
	table := func(group, head string, rows ...string) string {
		s := `<html><body><table id="stock"><thead>` + row("th", group) + row("th", head) + "</thead><tbody>"
		for _, r := range rows {
			s += row("td", r)
		}
		return s + "</tbody></table></body></html>"
	}
	old := table("Price:2,Stock", "Min,Max,Qty", "10,20,5", "n/a:2,7")
	// cell shows a change: op, row ("head" for a header row's cells),
	// column, header, old -> new
	cell := func(c Change) string {
		row := c.Table.Row
		if c.Table.HeaderRow {
			row = "head"
		}
		return fmt.Sprintf("%s %s %s:%d:%s %q->%q", c.Kind, c.Op, row, c.Table.Column, c.Table.Header, c.Old, c.New)
	}
	for _, tc := range []struct {
		name, new string
		want      []string
	}{
		{"group header renamed", table("Price:2,Inventory", "Min,Max,Qty", "10,20,5", "n/a:2,7"),
			[]string{`table-cell update head:3:Inventory "Stock"->"Inventory"`}},
		{"column added under a group", table("Price:3,Stock", "Min,Avg,Max,Qty", "10,15,20,5", "n/a:3,7"),
			[]string{`table-cell insert 10:2:Avg ""->"15"`, `table-cell insert head:2:Avg ""->"Avg"`}},
		{"column added with its group", table("Price:2,Rating,Stock", "Min,Max,Stars,Qty", "10,20,4,5", "n/a:2,3,7"),
			[]string{`table-cell insert 10:3:Stars ""->"4"`, `table-cell insert head:3:Rating ""->"Rating"`,
				`table-cell insert head:3:Stars ""->"Stars"`, `table-cell insert n/a:3:Stars ""->"3"`}},
		{"column removed with its group", table("Price:2", "Min,Max", "10,20", "n/a:2"),
			[]string{`table-cell delete 10:3:Qty "5"->""`, `table-cell delete head:3:Qty "Qty"->""`,
				`table-cell delete head:3:Stock "Stock"->""`, `table-cell delete n/a:3:Qty "7"->""`}},
		{"column added before the groups", table("Item,Price:2,Stock", "Name,Min,Max,Qty", "A,10,20,5", "B,n/a:2,7"),
			[]string{`table-cell insert A:1:Name ""->"A"`, `table-cell insert B:1:Name ""->"B"`,
				`table-cell insert head:1:Item ""->"Item"`, `table-cell insert head:1:Name ""->"Name"`}},
		{"cell after a spanning cell", table("Price:2,Stock", "Min,Max,Qty", "10,20,5", "n/a:2,8"),
			[]string{`table-cell update n/a:3:Qty "7"->"8"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, old, tc.new, `table {stock}`)
			var got []string
			for _, c := range r.Changes {
				if c.Table == nil {
					t.Fatalf("change %+v without a table", c)
				}
				got = append(got, cell(c))
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
		})
	}
}

// TestColspan: a colspan is read as HTML reads it.
func TestColspan(t *testing.T) {
	for v, want := range map[string]int{
		"2": 2, " 3": 3, "+4": 4, "5px": 5, "0": 1, "": 1, "x": 1, "-2": 1, "99999999999999999999": maxColspan,
	} {
		n := &tree.Node{Kind: tree.Element, Name: "td", Attrs: []tree.Attr{{Name: "COLSPAN", Value: v}}}
		if got := colspan(n); got != want {
			t.Errorf("colspan=%q: got %d, want %d", v, got, want)
		}
	}
	if got := colspan(&tree.Node{Kind: tree.Element, Name: "td"}); got != 1 {
		t.Errorf("no colspan: got %d, want 1", got)
	}
}

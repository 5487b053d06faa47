package intent

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"runtime"
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

// TestTableRowSpans: a cell's columns are its slots in HTML's table model
// (slotGrid), rowspan read: a header cell over two header rows takes its
// column in the second too, so that the second row's cells are the
// columns after it, and a body cell over several rows shifts the cells of
// the rows below it, and names them; a change is told under its column's
// header.
func TestTableRowSpans(t *testing.T) {
	// page makes a table of the header and body rows given as HTML.
	page := func(head, body string) string {
		return `<html><body><table id="t"><thead>` + head + `</thead><tbody>` + body + `</tbody></table></body></html>`
	}
	const nameOverPrice = `<tr><th rowspan="2">Name</th><th colspan="2">Price</th></tr><tr><th>Old</th><th>New</th></tr>`
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
		name, old, new string
		want           []string
	}{
		{"rowspan header, new price changed",
			page(nameOverPrice, `<tr><td>Boots</td><td>59</td><td>49</td></tr>`),
			page(nameOverPrice, `<tr><td>Boots</td><td>59</td><td>45</td></tr>`),
			[]string{`table-cell update Boots:3:New "49"->"45"`}},
		{"rowspan header, old price changed",
			page(nameOverPrice, `<tr><td>Boots</td><td>59</td><td>49</td></tr>`),
			page(nameOverPrice, `<tr><td>Boots</td><td>69</td><td>49</td></tr>`),
			[]string{`table-cell update Boots:2:Old "59"->"69"`}},
		{"rowspan header, second header renamed",
			page(nameOverPrice, `<tr><td>Boots</td><td>59</td><td>49</td></tr>`),
			page(`<tr><th rowspan="2">Name</th><th colspan="2">Price</th></tr><tr><th>Was</th><th>New</th></tr>`,
				`<tr><td>Boots</td><td>59</td><td>49</td></tr>`),
			[]string{`table-cell update head:2:Was "Old"->"Was"`}},
		{"rowspan header, column added under the group",
			page(nameOverPrice, `<tr><td>Boots</td><td>59</td><td>49</td></tr>`),
			page(`<tr><th rowspan="2">Name</th><th colspan="3">Price</th></tr><tr><th>Old</th><th>New</th><th>Club</th></tr>`,
				`<tr><td>Boots</td><td>59</td><td>49</td><td>45</td></tr>`),
			[]string{`table-cell insert Boots:4:Club ""->"45"`, `table-cell insert head:4:Club ""->"Club"`}},
		// Boots spans two rows: the second row's cells are the second
		// and third columns, Old and New, and Boots names the row.
		{"body rowspan shifts the row below",
			page(nameOverPrice, `<tr><td rowspan="2">Boots</td><td>59</td><td>49</td></tr><tr><td>39</td><td>35</td></tr>`),
			page(nameOverPrice, `<tr><td rowspan="2">Boots</td><td>59</td><td>49</td></tr><tr><td>39</td><td>29</td></tr>`),
			[]string{`table-cell update Boots / 39:3:New "35"->"29"`}},
		{"rowspan 0 reaches the end of the row group",
			page(nameOverPrice, `<tr><td rowspan="0">Boots</td><td>59</td><td>49</td></tr><tr><td>39</td><td>35</td></tr><tr><td>19</td><td>15</td></tr>`),
			page(nameOverPrice, `<tr><td rowspan="0">Boots</td><td>59</td><td>49</td></tr><tr><td>39</td><td>35</td></tr><tr><td>19</td><td>12</td></tr>`),
			[]string{`table-cell update Boots / 19:3:New "15"->"12"`}},
		// A rowspan ends with its row group: the tbody's first row is
		// not shifted by the thead's Name, which asks for ten rows.
		{"rowspan ends with its row group",
			page(`<tr><th rowspan="10">Name</th><th>Old</th><th>New</th></tr>`, `<tr><td>Boots</td><td>59</td><td>49</td></tr>`),
			page(`<tr><th rowspan="10">Name</th><th>Old</th><th>New</th></tr>`, `<tr><td>Boots</td><td>59</td><td>45</td></tr>`),
			[]string{`table-cell update Boots:3:New "49"->"45"`}},
		{"huge spans are capped",
			page(`<tr><th rowspan="65534" colspan="1000">Name</th><th>Price</th></tr><tr><th>Old</th></tr>`,
				`<tr><td rowspan="99999999" colspan="99999999">Boots</td><td>59</td></tr><tr><td>49</td></tr>`),
			page(`<tr><th rowspan="65534" colspan="1000">Name</th><th>Price</th></tr><tr><th>Old</th></tr>`,
				`<tr><td rowspan="99999999" colspan="99999999">Boots</td><td>59</td></tr><tr><td>45</td></tr>`),
			[]string{`table-cell update Boots / 45:1001:Old "49"->"45"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, tc.old, tc.new, `table {t}`)
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

// TestTableHeadersOverColumns: a column's header is the lowest header
// cell over it, which may be one above the last header row whose rowspan
// reaches down past it.
func TestTableHeadersOverColumns(t *testing.T) {
	doc := parseDoc(t, `<html><body><table><thead>`+
		`<tr><th rowspan="2">Name</th><th colspan="2">Price</th><th rowspan="2">Stock</th></tr>`+
		`<tr><th>Old</th><th>New</th></tr></thead>`+
		`<tbody><tr><td>Boots</td><td>59</td><td>49</td><td>3</td></tr></tbody></table></body></html>`)
	tables := newContent(doc, nil, nil, false, newSymtab()).tableObjects()
	if len(tables) != 1 {
		t.Fatalf("%d tables, want 1", len(tables))
	}
	tb := tables[0]
	if want := []string{"Name", "Old", "New", "Stock"}; !slices.Equal(tb.headers, want) {
		t.Errorf("headers %q, want %q", tb.headers, want)
	}
	key := func(texts ...string) string {
		k := ""
		for _, s := range texts {
			k = headerKey(k, sha256.Sum256([]byte(s)))
		}
		return k
	}
	if want := []string{key("Name"), key("Price", "Old"), key("Price", "New"), key("Stock")}; !slices.Equal(tb.headerKeys, want) {
		t.Errorf("header keys %q, want %q", tb.headerKeys, want)
	}
	if got, want := tb.items[1].cols, []int{1, 2}; !slices.Equal(got, want) {
		t.Errorf("second header row's columns %v, want %v", got, want)
	}
}

// TestRowspan: a rowspan is read as HTML reads it.
func TestRowspan(t *testing.T) {
	for v, want := range map[string]int{
		"2": 2, " 3": 3, "+4": 4, "5px": 5, "0": 0, "00": 0, "": 1, "x": 1, "-2": 1, "99999999999999999999": maxRowspan,
	} {
		n := &tree.Node{Kind: tree.Element, Name: "td", Attrs: []tree.Attr{{Name: "ROWSPAN", Value: v}}}
		if got := rowspan(n); got != want {
			t.Errorf("rowspan=%q: got %d, want %d", v, got, want)
		}
	}
	if got := rowspan(&tree.Node{Kind: tree.Element, Name: "td"}); got != 1 {
		t.Errorf("no rowspan: got %d, want 1", got)
	}
}

// TestSlotGrid: cells take the first free slot of their row, and the
// grid keeps a column's free row, not its slots, so that the most a cell
// may span (maxRowspan rows of maxColspan columns), in every row, costs
// a few thousand columns, not a hundred million slots.
func TestSlotGrid(t *testing.T) {
	var g slotGrid
	group, other := &tree.Node{}, &tree.Node{}
	place := func(spans ...[2]int) []int {
		var cols []int
		for _, s := range spans {
			cols = append(cols, g.place(s[0], s[1]))
		}
		return cols
	}
	for _, step := range []struct {
		group *tree.Node
		cells [][2]int // colspan, rowspan
		want  []int
	}{
		{group, [][2]int{{1, 3}, {2, 1}, {1, 0}}, []int{0, 1, 3}},
		{group, [][2]int{{1, 1}, {1, 1}}, []int{1, 2}},
		{group, [][2]int{{1, 1}}, []int{1}},
		{group, [][2]int{{1, 1}}, []int{0}},
		{other, [][2]int{{1, 1}}, []int{0}},
	} {
		g.row(step.group)
		if got := place(step.cells...); !slices.Equal(got, step.want) {
			t.Errorf("row %d: columns %v, want %v", g.y, got, step.want)
		}
	}
	g = slotGrid{}
	for range 100 {
		g.row(group)
		place([2]int{maxColspan, maxRowspan}, [2]int{maxColspan, 0})
	}
	if len(g.freeY) > 200*maxColspan {
		t.Errorf("%d columns for 100 rows of two cells", len(g.freeY))
	}
}

// TestTableHeaderKeysLong: a column's key is a digest of the header cells
// over it, so that a long header over many columns, each under a cell of
// its own, is not copied into each column's key: here a quarter megabyte
// over 1000 columns, which as the texts joined were 250 MB.
func TestTableHeaderKeysLong(t *testing.T) {
	long := strings.Repeat("x", 1<<18)
	doc := parseDoc(t, `<html><body><table><thead><tr><th colspan="1000">`+long+`</th></tr><tr>`+
		strings.Repeat("<th>a</th>", 1000)+`</tr></thead></table></body></html>`)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tables := newContent(doc, nil, nil, false, newSymtab()).tableObjects()
	runtime.ReadMemStats(&after)
	if len(tables) != 1 || len(tables[0].headerKeys) != 1000 {
		t.Fatalf("%d tables, want 1 of 1000 columns", len(tables))
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 32<<20 {
		t.Errorf("the table's columns took %d MB, want at most 32", n>>20)
	}
}

// TestSlotGridFree: slotGrid places cells as a grid of slots filled one by
// one does, on tables of random spans, and finds a cell's column past
// those taken without stepping over them one by one: a row of a quarter
// million cells, and 65536 rows under a million columns that rowspan 0
// cells take, are placed at once, where a search from the row's first
// column, column by column, took minutes (and failed go test's -timeout).
func TestSlotGridFree(t *testing.T) {
	groups := []*tree.Node{{}, {}}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var g slotGrid
		taken := map[[3]int]bool{} // group, row, column
		y := -1
		var group *tree.Node
		for range 1 + rnd.IntN(8) {
			if next := groups[rnd.IntN(2)]; next != group || y < 0 {
				group, y = next, 0
			} else {
				y++
			}
			gi := 0
			if group == groups[1] {
				gi = 1
			}
			if y == 0 {
				for k := range taken {
					if k[0] == gi {
						delete(taken, k)
					}
				}
			}
			g.row(group)
			x := 0
			for range rnd.IntN(5) {
				colspan, rowspan := 1+rnd.IntN(3), rnd.IntN(4)
				for taken[[3]int{gi, y, x}] {
					x++
				}
				if got := g.place(colspan, rowspan); got != x {
					t.Fatalf("cell placed at column %d, want %d", got, x)
				}
				rows := rowspan
				if rows == 0 {
					rows = 10 // past any row of the test
				}
				for dy := range rows {
					for dx := range colspan {
						taken[[3]int{gi, y + dy, x + dx}] = true
					}
				}
				x += colspan
			}
		}
	}

	var g slotGrid
	group := &tree.Node{}
	g.row(group)
	for k := range 1 << 18 {
		if x := g.place(1, 1); x != k {
			t.Fatalf("cell %d placed at column %d", k, x)
		}
	}
	g.row(&tree.Node{})
	for range 1000 {
		g.place(1000, 0)
	}
	for range 1 << 16 {
		g.row(g.group)
		if x := g.place(1, 1); x != 1000*1000 {
			t.Fatalf("cell placed at column %d, want %d", x, 1000*1000)
		}
	}
}

// TestTableRowPastWideRowspan: a changed row's cells are paired by the
// columns they are over, looked up, not by every column of the row listed,
// so that a row under a rowspan 0 of a million columns costs its own
// cells: here 20 rows, which listed every column took 2 GB in all (the
// two versions' grids of a million columns take about 150 MB).
func TestTableRowPastWideRowspan(t *testing.T) {
	table := func(v string) string {
		return "<html><body><table><tr>" + strings.Repeat(`<td colspan="1000" rowspan="0">w</td>`, 1000) +
			strings.Repeat("<tr><td>a</td><td>"+v+"</td></tr>", 20) + "</table></body></html>"
	}
	p := NewPair(parseDoc(t, table("b")), parseDoc(t, table("c")), nil, nil)
	x := monitor(t, "table")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r, err := p.Evaluate(x)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Changes) != 20 {
		t.Fatalf("%d changes, want 20", len(r.Changes))
	}
	for _, c := range r.Changes {
		if c.Kind != KindTableCell || c.Op != Update || c.Table.Column != 1000*1000+2 || c.Old != "b" || c.New != "c" {
			t.Errorf("%s %s column %d %q -> %q, want a cell of column %d updated b -> c", c.Kind, c.Op, c.Table.Column, c.Old, c.New, 1000*1000+2)
		}
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 512<<20 {
		t.Errorf("the changes took %d MB, want at most 512", n>>20)
	}
}

// TestTableRowUnderWideHeader: a changed row of a table whose header
// spans a million columns (a thousand cells of colspan 1000) is told
// under its column, and pairs only the columns its cells are over
// (headColumns): each changed row stepped through every column of the
// header, a million a row.
func TestTableRowUnderWideHeader(t *testing.T) {
	table := func(v string) string {
		return "<html><body><table><tr><th>Name</th>" + strings.Repeat(`<th colspan="1000">w</th>`, 1000) + "</tr>" +
			strings.Repeat("<tr><td>a</td><td>"+v+"</td></tr>", 40) + "</table></body></html>"
	}
	p := NewPair(parseDoc(t, table("b")), parseDoc(t, table("c")), nil, nil)
	r, err := p.Evaluate(monitor(t, "table"))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Changes) != 40 {
		t.Fatalf("%d changes, want 40", len(r.Changes))
	}
	for _, c := range r.Changes {
		if c.Kind != KindTableCell || c.Op != Update || c.Table.Column != 2 || c.Table.Header != "w" || c.Old != "b" || c.New != "c" {
			t.Errorf("%s %s column %d (%q) %q -> %q, want a cell of column 2 (\"w\") updated b -> c", c.Kind, c.Op, c.Table.Column, c.Table.Header, c.Old, c.New)
		}
	}

	// The pairs a row reads are those of its cells' columns, in the
	// header's order, whatever the header's width.
	const width = 1000 * 1000
	head := make([][2]int, 0, width+1)
	head = append(head, [2]int{-1, 0}) // a column inserted first
	for c := range width {
		head = append(head, [2]int{c, c + 1})
	}
	oldPair, newPair := pairIndexes(head, width, width+1)
	a := &object{cells: []string{"a", "b"}, cols: []int{0, 5}, spans: []int{1, 3}}
	b := &object{cells: []string{"x", "a"}, cols: []int{0, 1}, spans: []int{1, 1}}
	got := headColumns(head, oldPair, newPair, a, b)
	want := [][2]int{{-1, 0}, {0, 1}, {5, 6}, {6, 7}, {7, 8}}
	if !slices.Equal(got, want) {
		t.Errorf("headColumns = %v, want %v", got, want)
	}
}

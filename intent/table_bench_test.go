package intent

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/spec"
)

// priceTable writes an HTML page holding one table of rows rows (id, name,
// price, tag). The second version, when changed is set, has the price of
// one row in thirty changed.
func priceTable(rows int, changed bool) []byte {
	r := rand.New(rand.NewPCG(3, 5))
	edits := rand.New(rand.NewPCG(7, 9)) // apart, so that both versions draw the same rows
	tags := []string{"red", "green", "blue", "new", "sale"}
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><title>Prices</title></head><body><h1>Prices</h1><table><tr><th>id</th><th>name</th><th>price</th><th>tag</th></tr>\n")
	for i := range rows {
		price := r.IntN(100000)
		if changed && i%30 == 7 {
			price = (price + 1 + edits.IntN(99998)) % 100000
		}
		fmt.Fprintf(&b, "<tr><td>%d</td><td>item-%d</td><td class=price>%d.%02d</td><td>%s</td></tr>\n", i, i, price/100, price%100, tags[r.IntN(len(tags))])
	}
	b.WriteString("</table></body></html>")
	return []byte(b.String())
}

// BenchmarkAnyChangeLargeTable evaluates "any change" on a 5 MB table page
// (60 000 rows, 2 000 prices changed), parsing excluded, and reports the
// memory it allocates (B/op) and what the evaluated pair still holds after
// a collection (held-MB), the figures that bound how many large pages the
// monitor checks at once:
//
//	go test -run '^$' -bench AnyChangeLargeTable -benchmem ./intent
func BenchmarkAnyChangeLargeTable(b *testing.B) {
	old, new := parseBench(b, priceTable(60000, false), priceTable(60000, true))
	any := &spec.ChangeType{Kind: spec.AnyChange}
	var held uint64
	var changes int
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		p := NewPair(old, new, nil, nil)
		r, err := p.Evaluate(any)
		if err != nil {
			b.Fatal(err)
		}
		changes = len(r.Changes)
		b.StopTimer()
		var alive, gone runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&alive)
		runtime.KeepAlive(p)
		p, r = nil, nil
		runtime.GC()
		runtime.ReadMemStats(&gone)
		held = max(held, alive.HeapAlloc-gone.HeapAlloc)
		b.StartTimer()
	}
	b.ReportMetric(float64(held)/(1<<20), "held-MB")
	b.ReportMetric(float64(changes), "changes")
}

// rowspanTable writes an HTML page holding one price list of rows rows and
// cols columns (cols at least 4): a city column whose cells span four rows
// each, a shop column whose cells span two, a note column the monitor
// ignores, then prices. The second version, when changed is set, has one
// price in thirty rows changed.
func rowspanTable(rows, cols int, changed bool) []byte {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><body><table id="prices"><thead><tr><th>City</th><th>Shop</th><th>Note</th>`)
	for c := 3; c < cols; c++ {
		fmt.Fprintf(&b, "<th>Price %d</th>", c)
	}
	b.WriteString("</tr></thead><tbody>\n")
	for i := range rows {
		b.WriteString("<tr>")
		if i%4 == 0 {
			fmt.Fprintf(&b, `<td rowspan="4">city-%d</td>`, i/4)
		}
		if i%2 == 0 {
			fmt.Fprintf(&b, `<td rowspan="2">shop-%d</td>`, i/2)
		}
		fmt.Fprintf(&b, `<td class="note">note %d</td>`, i)
		for c := 3; c < cols; c++ {
			price := i*cols + c
			if changed && i%30 == 7 && c == cols-1 {
				price++
			}
			fmt.Fprintf(&b, "<td>%d.%02d</td>", price/100, price%100)
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table></body></html>")
	return []byte(b.String())
}

// BenchmarkTableRowspans evaluates "table" on price lists of 2 000 and
// 20 000 rows of 20 columns, under cells of rowspan 4 and 2 and beside a
// column the monitor ignores (rowspanTable), parsing excluded: the two
// sizes show how the cost grows with the rows, which a table's slots
// (slotGrid) or its rows' names looked up column by column would make
// quadratic.
//
//	go test -run '^$' -bench TableRowspans -benchmem ./intent
func BenchmarkTableRowspans(b *testing.B) {
	s, err := spec.ParseSentinel("bench", []byte(`Create Sentinel s1 Using http://example.com/ Monitor table {prices} Ignore css "td.note"`))
	if err != nil {
		b.Fatal(err)
	}
	for _, rows := range benchSizes {
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			old, new := parseBench(b, rowspanTable(rows, 20, false), rowspanTable(rows, 20, true))
			var changes int
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				r, err := NewPair(old, new, nil, nil).Evaluate(s.Monitor.X)
				if err != nil {
					b.Fatal(err)
				}
				changes = len(r.Changes)
			}
			b.ReportMetric(float64(changes), "changes")
		})
	}
}

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

package intent

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// referencePairing pairs the values of two versions as pairValues does,
// but reads every number of both versions and every label, and finds
// their common ends by whole keys.
func referencePairing(old, new []scopeMatch, oldGroups, newGroups pageReading, oldSkip, newSkip func(*tree.Node) bool) ([]valueMatch, []valueMatch, []objEdit) {
	read := func(ms []scopeMatch, groups pageReading, skip func(*tree.Node) bool) *valueItems {
		var vs []valueMatch
		for _, m := range ms {
			if n, read, ok := matchNumber(m, groups, skip); ok {
				vs = append(vs, valueMatch{scopeMatch: m, num: n, read: read})
			}
		}
		findItems(vs)
		in := &valueItems{vs: vs, skip: skip}
		for i := range vs {
			vs[i].itemLabel(in)
		}
		return in
	}
	oi, ni := read(old, oldGroups, oldSkip), read(new, newGroups, newSkip)
	ov, nv := oi.vs, ni.vs
	key := func(v valueMatch) string { return v.label + "\x00" + v.text }
	pre, suf := 0, 0
	for pre < len(ov) && pre < len(nv) && key(ov[pre]) == key(nv[pre]) {
		pre++
	}
	for suf < len(ov)-pre && suf < len(nv)-pre && key(ov[len(ov)-1-suf]) == key(nv[len(nv)-1-suf]) {
		suf++
	}
	oo, ol := valueObjects(oi, pre, len(ov)-suf)
	no, nl := valueObjects(ni, pre, len(nv)-suf)
	labelKeys(oo, no, ol, nl)
	return ov, nv, pairAlone(shiftEdits(diffObjects(oo, no, true), pre), ov, nv)
}

// randomListing returns a page of rows (or cards, or rows selected whole)
// drawn from few names and prices, so that equal keys, equal labels and
// equal texts repeat; some rows hold no number.
func randomListing(r *rand.Rand, rows []string, shape int) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><body>`)
	switch shape {
	case 0:
		b.WriteString("<table>")
		for _, row := range rows {
			name, price, _ := strings.Cut(row, "=")
			fmt.Fprintf(&b, `<tr><td>%s</td><td class="v">%s</td></tr>`, name, price)
		}
		b.WriteString("</table>")
	case 1:
		for _, row := range rows {
			name, price, _ := strings.Cut(row, "=")
			fmt.Fprintf(&b, `<div class="card"><h2>%s</h2><span class="v">%s</span> <span class="v">%s</span></div>`, name, price, price)
		}
	default:
		b.WriteString("<ul>")
		for _, row := range rows {
			name, price, _ := strings.Cut(row, "=")
			fmt.Fprintf(&b, `<li class="v">%s %s</li>`, name, price)
		}
		b.WriteString("</ul>")
	}
	b.WriteString("</body></html>")
	return b.String()
}

// TestPairValuesCommonEnds: pairValues, which reads the numbers of the
// matches common to both versions' ends once and the labels of their
// values only where their texts do not settle them, pairs the values of
// random listings as it would with every number and label read.
func TestPairValuesCommonEnds(t *testing.T) {
	names := []string{"Alpha", "Bravo", "Bravo", "Charlie", "", "Add to cart"}
	prices := []string{"1999", "2 299", "$1,299.99", "call us", "10", "10", "3.499"}
	sel, err := CompileCSS(".v")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for iter := range 3000 {
		n := r.IntN(7)
		old := make([]string, n)
		for i := range old {
			old[i] = names[r.IntN(len(names))] + "=" + prices[r.IntN(len(prices))]
		}
		new := slices.Clone(old)
		for range r.IntN(3) + 1 {
			row := names[r.IntN(len(names))] + "=" + prices[r.IntN(len(prices))]
			switch k := r.IntN(len(new) + 1); r.IntN(3) {
			case 0:
				new = slices.Insert(new, k, row)
			case 1:
				if k < len(new) {
					new = slices.Delete(new, k, k+1)
				}
			default:
				if k < len(new) {
					new[k] = row
				}
			}
		}
		shape := r.IntN(3)
		od, err := markup.ParseHTMLBytes([]byte(randomListing(r, old, shape)), nil)
		if err != nil {
			t.Fatal(err)
		}
		nd, err := markup.ParseHTMLBytes([]byte(randomListing(r, new, shape)), nil)
		if err != nil {
			t.Fatal(err)
		}
		om, nm := selectMatches(sel, od.Root), selectMatches(sel, nd.Root)
		og, ng := pageReadingOf(od), pageReadingOf(nd)
		oSkip, nSkip := nonContentSkip(od), nonContentSkip(nd)
		wantOld, wantNew, want := referencePairing(om, nm, og, ng, oSkip, nSkip)
		ov, nv := numberedMatches(om, nm, og, ng, oSkip, nSkip)
		findItems(ov)
		findItems(nv)
		got := pairValues(&valueItems{vs: ov, skip: oSkip}, &valueItems{vs: nv, skip: nSkip})
		same := func(a, b []valueMatch) bool {
			return slices.EqualFunc(a, b, func(x, y valueMatch) bool { return x.node == y.node && x.num == y.num && x.item == y.item })
		}
		if !same(ov, wantOld) || !same(nv, wantNew) || !slices.Equal(got, want) {
			t.Fatalf("case %d (shape %d) %q -> %q: edits %v, want %v", iter, shape, old, new, got, want)
		}
	}
}

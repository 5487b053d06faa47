package warehouse

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
)

// SyntheticHistory returns n versions of a deterministic HTML page of about
// size bytes, each changing about change (0.01 for 1 %) of the previous
// version's bytes: sentences rewritten in place, items inserted and items
// removed, as a news or catalogue page changes. The same seed gives the
// same history. The benchmarks and `vigil bench store` use it.
func SyntheticHistory(n, size int, change float64, seed uint64) [][]byte {
	g := &synth{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	g.vocabulary(3000)
	var items []string
	total := 0
	for total < size-600 {
		it := g.item()
		items = append(items, it)
		total += len(it)
	}
	out := make([][]byte, 0, n)
	for v := range n {
		if v > 0 {
			budget := int(float64(total) * change)
			for budget > 0 {
				switch p := g.r.IntN(10); {
				case p < 6: // rewrite a sentence of an item
					i := g.r.IntN(len(items))
					old := items[i]
					items[i] = g.rewrite(old)
					budget -= max(len(items[i]), len(old)) / 3
				case p < 8: // a new item
					it := g.item()
					i := g.r.IntN(len(items) + 1)
					items = append(items[:i], append([]string{it}, items[i:]...)...)
					budget -= len(it)
				default: // an item goes
					i := g.r.IntN(len(items))
					budget -= len(items[i])
					items = append(items[:i], items[i+1:]...)
				}
			}
			total = 0
			for _, it := range items {
				total += len(it)
			}
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Synthetic catalogue</title>\n"+
			"<link rel=\"stylesheet\" href=\"/style.css\">\n</head>\n<body>\n<header><h1>Catalogue</h1><nav><a href=\"/\">Home</a> "+
			"<a href=\"/about\">About</a> <a href=\"https://other.example/\">Elsewhere</a></nav></header>\n<main>\n")
		for _, it := range items {
			b.WriteString(it)
		}
		b.WriteString("</main>\n<footer><p>Synthetic page for the warehouse benchmarks.</p></footer>\n</body>\n</html>\n")
		out = append(out, b.Bytes())
	}
	return out
}

type synth struct {
	r     *rand.Rand
	words []string
	next  int
}

func (g *synth) vocabulary(n int) {
	syll := []string{"ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "zen", "tor", "pel", "mar", "qui", "ost", "an", "el", "is", "ur", "ba", "do"}
	seen := map[string]bool{}
	for len(g.words) < n {
		var w strings.Builder
		for range 1 + g.r.IntN(3) {
			w.WriteString(syll[g.r.IntN(len(syll))])
		}
		if !seen[w.String()] {
			seen[w.String()] = true
			g.words = append(g.words, w.String())
		}
	}
}

// word draws from a Zipf-like distribution, as natural text does.
func (g *synth) word() string {
	i := int(float64(len(g.words)) * g.r.Float64() * g.r.Float64() * g.r.Float64())
	return g.words[i]
}

func (g *synth) sentence() string {
	n := 6 + g.r.IntN(12)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = g.word()
	}
	s := strings.Join(ws, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func (g *synth) item() string {
	g.next++
	var b strings.Builder
	fmt.Fprintf(&b, "<article class=\"item\" id=\"item-%d\">\n<h2><a href=\"/item/%d\">%s %s</a></h2>\n<p>", g.next, g.next, g.word(), g.word())
	for i := range 2 + g.r.IntN(3) {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.sentence())
	}
	fmt.Fprintf(&b, "</p>\n<p class=\"price\">%d.%02d EUR</p>\n</article>\n", 1+g.r.IntN(500), g.r.IntN(100))
	return b.String()
}

// rewrite replaces one sentence of an item's first paragraph, or its price.
func (g *synth) rewrite(it string) string {
	if g.r.IntN(4) == 0 {
		i := strings.Index(it, "<p class=\"price\">")
		j := strings.Index(it[i:], "</p>")
		return it[:i] + fmt.Sprintf("<p class=\"price\">%d.%02d EUR", 1+g.r.IntN(500), g.r.IntN(100)) + it[i+j:]
	}
	start := strings.Index(it, "<p>") + 3
	end := start + strings.Index(it[start:], "</p>")
	sents := strings.SplitAfter(it[start:end], ". ")
	k := g.r.IntN(len(sents))
	repl := g.sentence()
	if strings.HasSuffix(sents[k], " ") {
		repl += " "
	}
	sents[k] = repl
	return it[:start] + strings.Join(sents, "") + it[end:]
}

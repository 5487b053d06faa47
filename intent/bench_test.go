package intent

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

var benchWords = strings.Fields(`the of and to in a is that for it as was with be by on not he this are or his from at which but
have an they you were her she there been one all we their has would when if so no will more can who about up out them
then some could into other time only new these two may first any like now my such make over our even most me state
after also made many did must before back see through way where get much go well your know should down work year
because come people just say each those take day good how long little use great right old think place under being
price order product service terms privacy account member contract data person user clause section page`)

// benchPage writes a page of about size bytes: sections with a heading,
// paragraphs, a list, a table with prices, links and images. edit makes
// the second version: words replaced, a row added, a list reordered, a
// link retargeted, an image replaced and a price changed, in a few percent
// of the sections.
func benchPage(size int, edit bool) []byte {
	r := rand.New(rand.NewPCG(7, 11))
	er := rand.New(rand.NewPCG(13, 17))
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><title>Benchmark page</title><script>var x = 1;</script><style>p{}</style></head><body><nav><a href=\"/\">Home</a></nav>\n")
	for s := 0; b.Len() < size; s++ {
		ed := edit && er.IntN(25) == 0
		fmt.Fprintf(&b, "<section id=\"s%d\"><h2>Section %d %s</h2>\n", s, s, benchWords[r.IntN(len(benchWords))])
		for p := 0; p < 4; p++ {
			b.WriteString("<p>")
			n := 40 + r.IntN(40)
			for w := 0; w < n; w++ {
				word := benchWords[r.IntN(len(benchWords))]
				if ed && er.IntN(60) == 0 {
					word = "changed"
				}
				b.WriteString(word)
				if w == n/2 {
					fmt.Fprintf(&b, " <a href=\"/doc/%d/%d\">%s</a>", s, p, benchWords[r.IntN(len(benchWords))])
				}
				b.WriteByte(' ')
			}
			b.WriteString("</p>\n")
		}
		items := []string{"alpha", "beta", "gamma", "delta", "epsilon"}
		if ed {
			items[0], items[2] = items[2], items[0]
		}
		b.WriteString("<ul>")
		for _, it := range items {
			fmt.Fprintf(&b, "<li>%s %d</li>", it, s)
		}
		b.WriteString("</ul>\n<table><tr><th>Item</th><th>Price</th></tr>")
		for row := 0; row < 6; row++ {
			price := 100 + r.IntN(2000)
			if ed && row == 2 {
				price++
			}
			fmt.Fprintf(&b, "<tr><td>item %d-%d</td><td>$%d.00</td></tr>", s, row, price)
			if ed && row == 3 {
				fmt.Fprintf(&b, "<tr><td>item %d-new</td><td>$1.00</td></tr>", s)
			}
		}
		img := fmt.Sprintf("/img/%d.png", s)
		href := fmt.Sprintf("https://example.com/%d", s)
		if ed {
			img, href = fmt.Sprintf("/img/%d-v2.png", s), href+"?v=2"
		}
		fmt.Fprintf(&b, "</table>\n<p><img src=\"%s\" alt=\"figure %d\"> <a href=\"%s\">more</a></p></section>\n", img, s, href)
	}
	b.WriteString(`<div id="total">Total: <span class="price">$1,299.00</span></div>`)
	if edit {
		return []byte(strings.Replace(b.String()+"</body></html>", "$1,299.00", "$1,199.00", 1))
	}
	b.WriteString("</body></html>")
	return []byte(b.String())
}

// benchClauses are all the change types, each evaluated once per pair.
var benchClauses = []string{
	`any change`, `all words`, `keywords {price, clause, changed}`, `phrase {"the terms of service", "changed data"}`,
	`all links`, `all images`, `table`, `list`, `regular expression {"\\$\\d+\\.\\d\\d"}`,
	`value In css "#total .price" changes`,
}

func parseBench(b *testing.B, old, new []byte) (*tree.Document, *tree.Document) {
	d1, err := markup.ParseHTMLBytes(old, nil)
	if err != nil {
		b.Fatal(err)
	}
	d2, err := markup.ParseHTMLBytes(new, nil)
	if err != nil {
		b.Fatal(err)
	}
	return d1, d2
}

// corpusPage builds a 1 MB page of real markup: the body of a corpus page
// repeated, each copy in its own section.
func corpusPage(b *testing.B, path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skip(err)
	}
	s := string(data)
	i, j := strings.Index(s, "<body"), strings.LastIndex(s, "</body>")
	if i < 0 || j < i {
		b.Skip("no body")
	}
	body := s[strings.IndexByte(s[i:], '>')+i+1 : j]
	var out strings.Builder
	out.WriteString(s[:i] + "<body>")
	for k := 0; out.Len() < 1<<20; k++ {
		fmt.Fprintf(&out, "<section id=\"copy%d\">%s</section>\n", k, body)
	}
	out.WriteString("</body></html>")
	return []byte(out.String())
}

// BenchmarkIntentCorpus1MB is BenchmarkIntent1MB on real markup: two
// consecutive versions of a corpus page (real edits), each repeated to
// 1 MB.
func BenchmarkIntentCorpus1MB(b *testing.B) {
	old := corpusPage(b, "testdata/corpus/page-lovoo-terms-of-service/v0037.html")
	new := corpusPage(b, "testdata/corpus/page-lovoo-terms-of-service/v0038.html")
	benchDetect(b, old, new)
}

// BenchmarkIntent1MB measures typed detection for every change type on a
// 1 MB HTML pair, parsing included, against parsing both versions alone in
// the same run (target: under 3 times). Each iteration times both phases;
// the ratios reported are the median of the per-iteration wall-clock
// ratios and the ratio of the process CPU times (garbage collection
// included), which a shared machine disturbs less.
func BenchmarkIntent1MB(b *testing.B) {
	benchDetect(b, benchPage(1<<20, false), benchPage(1<<20, true))
}

func benchDetect(b *testing.B, old, new []byte) {
	var exprs []spec.Expr
	for _, c := range benchClauses {
		s, err := spec.ParseSentinel("bench", []byte("Create Sentinel s Using http://example.com/ Monitor "+c))
		if err != nil {
			b.Fatal(err)
		}
		exprs = append(exprs, s.Monitor.X)
	}
	b.SetBytes(int64(len(old) + len(new)))
	b.ReportAllocs()
	var parse, detect, parseCPU, detectCPU time.Duration
	var ratios []float64
	changes := 0
	for i := 0; i < b.N; i++ {
		runtime.GC()
		c0, t0 := cpuTime(), time.Now()
		p1, p2 := parseBench(b, old, new)
		// Each phase ends with a collection while its documents are live,
		// so both pay for their garbage and for marking the documents once.
		runtime.GC()
		runtime.KeepAlive(p1)
		runtime.KeepAlive(p2)
		c1, t1 := cpuTime(), time.Now()
		d1, d2 := parseBench(b, old, new)
		p := NewPair(d1, d2, nil, nil)
		changes = 0
		for _, x := range exprs {
			r, err := p.Evaluate(x)
			if err != nil {
				b.Fatal(err)
			}
			changes += len(r.AllChanges())
		}
		runtime.GC()
		runtime.KeepAlive(p)
		c2, t2 := cpuTime(), time.Now()
		parse += t1.Sub(t0)
		detect += t2.Sub(t1)
		parseCPU += c1 - c0
		detectCPU += c2 - c1
		ratios = append(ratios, float64(t2.Sub(t1))/float64(t1.Sub(t0)))
	}
	slices.Sort(ratios)
	b.ReportMetric(float64(parse.Microseconds())/1e3/float64(b.N), "parse-ms/op")
	b.ReportMetric(float64(detect.Microseconds())/1e3/float64(b.N), "detect-ms/op")
	b.ReportMetric(ratios[len(ratios)/2], "ratio-median")
	if parseCPU > 0 {
		b.ReportMetric(float64(detectCPU)/float64(parseCPU), "ratio-cpu")
	}
	b.ReportMetric(float64(changes), "changes")
}

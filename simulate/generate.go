package simulate

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// Shape is a kind of generated document.
type Shape string

// The document shapes Generate knows.
const (
	Records  Shape = "records"  // data records with key attributes and fields
	Deep     Shape = "deep"     // nested sections with mixed content
	FlatList Shape = "flatlist" // one long list of similar items
	TextPage Shape = "text"     // a page of long paragraphs
)

// Shapes lists every shape, for benchmarks and tests that cover them all.
var Shapes = []Shape{Records, Deep, FlatList, TextPage}

// vocabulary gives generated text a realistic spread of word lengths.
var vocabulary = strings.Fields(`the of and to in is that for it as was with on by at from this are be or
have an which one all were when there can more if no out so what up about into than them its time only
could new some these two may then do first any my now such like our over even most after also made many
before must through back years where much your way well down should because each just those people how
too little state good very make world still own see men work long get here between both life being under
never same another know while last might great old year off come since against go came right used take
three change version page document tree node delta price camera catalog product monitor sentinel archive`)

func words(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(vocabulary[r.IntN(len(vocabulary))])
	}
	return b.String()
}

// Generate returns a document of the given shape whose XML serialisation is
// about size bytes, with the XIDs of a first version. The same shape, size
// and seed always give the same document.
func Generate(shape Shape, size int, seed uint64) (*tree.Document, error) {
	g := &generator{r: rand.New(rand.NewPCG(seed, 0x5eed)), d: &tree.Document{}}
	switch shape {
	case Records:
		g.d.Root = g.records(size)
	case Deep:
		g.d.Root = g.deep(size)
	case FlatList:
		g.d.Root = g.flatList(size)
	case TextPage:
		g.d.Root = g.textPage(size)
	default:
		return nil, fmt.Errorf("simulate: unknown shape %q (known: %v)", shape, Shapes)
	}
	g.d.AssignXIDs()
	return g.d, nil
}

type generator struct {
	r     *rand.Rand
	d     *tree.Document
	bytes int // estimated serialised size so far
}

func (g *generator) el(name string, kids ...*tree.Node) *tree.Node {
	n := g.d.NewElement(name)
	g.bytes += 2*len(name) + 5
	for _, k := range kids {
		n.AppendChild(k)
	}
	return n
}

func (g *generator) text(s string) *tree.Node {
	g.bytes += len(s)
	return g.d.NewText(s)
}

func (g *generator) attr(n *tree.Node, name, value string) {
	g.bytes += len(name) + len(value) + 4
	n.SetAttr(name, value)
}

func (g *generator) records(size int) *tree.Node {
	root := g.el("records")
	kinds := []string{"book", "camera", "phone", "laptop", "bike"}
	for i := 1; g.bytes < size; i++ {
		rec := g.el("record",
			g.el("name", g.text(words(g.r, 2+g.r.IntN(3)))),
			g.el("price", g.text(strconv.Itoa(10+g.r.IntN(2000))+"."+strconv.Itoa(10+g.r.IntN(90)))),
			g.el("qty", g.text(strconv.Itoa(g.r.IntN(100)))),
		)
		g.attr(rec, "id", "r"+strconv.Itoa(i))
		g.attr(rec, "kind", kinds[g.r.IntN(len(kinds))])
		if g.r.IntN(3) == 0 {
			tags := g.el("tags")
			for k := 0; k < 1+g.r.IntN(3); k++ {
				tags.AppendChild(g.el("tag", g.text(words(g.r, 1))))
			}
			rec.AppendChild(tags)
		}
		if g.r.IntN(2) == 0 {
			rec.AppendChild(g.el("note", g.text(words(g.r, 4+g.r.IntN(12)))))
		}
		root.AppendChild(rec)
	}
	return root
}

func (g *generator) deep(size int) *tree.Node {
	root := g.el("doc")
	for g.bytes < size {
		root.AppendChild(g.section(1, size))
	}
	return root
}

func (g *generator) section(depth, size int) *tree.Node {
	s := g.el("section", g.el("title", g.text(words(g.r, 2+g.r.IntN(4)))))
	g.attr(s, "level", strconv.Itoa(depth))
	for k := 0; k < 1+g.r.IntN(3) && g.bytes < size; k++ {
		s.AppendChild(g.paragraph(6 + g.r.IntN(20)))
	}
	if depth < 12 {
		for k := 0; k < g.r.IntN(4) && g.bytes < size; k++ {
			s.AppendChild(g.section(depth+1, size))
		}
	}
	return s
}

// paragraph returns mixed content: text with inline elements between.
func (g *generator) paragraph(n int) *tree.Node {
	p := g.el("p")
	p.AppendChild(g.text(words(g.r, n)))
	for k := 0; k < g.r.IntN(3); k++ {
		inline := []string{"b", "i", "a", "code"}[g.r.IntN(4)]
		e := g.el(inline, g.text(words(g.r, 1+g.r.IntN(3))))
		if inline == "a" {
			g.attr(e, "href", "/page/"+strconv.Itoa(g.r.IntN(1000)))
		}
		p.AppendChild(e)
		p.AppendChild(g.text(words(g.r, 2+g.r.IntN(n))))
	}
	return p
}

func (g *generator) flatList(size int) *tree.Node {
	root := g.el("list")
	for i := 1; g.bytes < size; i++ {
		root.AppendChild(g.el("item", g.text("Item "+strconv.Itoa(i)+": "+words(g.r, 2+g.r.IntN(5)))))
	}
	return root
}

func (g *generator) textPage(size int) *tree.Node {
	body := g.el("body")
	root := g.el("html", g.el("head", g.el("title", g.text(words(g.r, 5)))), body)
	article := g.el("article", g.el("h1", g.text(words(g.r, 6))))
	body.AppendChild(article)
	for g.bytes < size {
		if g.r.IntN(8) == 0 {
			article.AppendChild(g.el("h2", g.text(words(g.r, 4))))
		}
		article.AppendChild(g.paragraph(40 + g.r.IntN(80)))
	}
	return root
}

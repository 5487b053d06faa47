package delta

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// benchCase is a generated document of about the given size in bytes (as
// compact XML) and two next versions, each with changed% of its nodes
// changed.
type benchCase struct {
	a, b, c *tree.Document
	d1, d2  *Delta
	bytes   int
}

var benchCases sync.Map

func xmlSize(d *tree.Document) int {
	var b bytes.Buffer
	dd := &Delta{Ops: []Op{{Kind: Insert, Parent: 1, Pos: 1, XIDs: d.XIDMap(), Content: d.Root}}}
	if err := EncodeXML(&b, dd); err != nil {
		panic(err)
	}
	return b.Len()
}

func getBenchCase(b *testing.B, nodes int, changed int) *benchCase {
	key := [2]int{nodes, changed}
	if c, ok := benchCases.Load(key); ok {
		return c.(*benchCase)
	}
	r := rand.New(rand.NewPCG(42, uint64(nodes)))
	c := &benchCase{a: genDoc(r, nodes)}
	n := c.a.Root.Size()
	c.b = mutate(r, c.a, n*changed/100)
	c.c = mutate(r, c.b, n*changed/100)
	var err error
	if c.d1, err = Build(c.a, c.b); err != nil {
		b.Fatal(err)
	}
	if c.d2, err = Build(c.b, c.c); err != nil {
		b.Fatal(err)
	}
	c.bytes = xmlSize(c.a)
	benchCases.Store(key, c)
	return c
}

const (
	nodes1MB  = 40000
	nodes10MB = 400000
)

func BenchmarkApply(b *testing.B) {
	for _, size := range []struct {
		name  string
		nodes int
	}{{"1MB", nodes1MB}, {"10MB", nodes10MB}} {
		b.Run(size.name, func(b *testing.B) {
			c := getBenchCase(b, size.nodes, 10)
			b.SetBytes(int64(c.bytes))
			for b.Loop() {
				if _, err := Apply(c.a, c.d1); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(c.d1.Ops)), "ops")
			b.ReportMetric(float64(c.a.Root.Size()), "nodes")
		})
	}
}

func BenchmarkInvert(b *testing.B) {
	c := getBenchCase(b, nodes1MB, 10)
	for b.Loop() {
		Invert(c.d1)
	}
}

func BenchmarkCompose(b *testing.B) {
	c := getBenchCase(b, nodes1MB, 10)
	b.Run("pure", func(b *testing.B) {
		for b.Loop() {
			if _, err := Compose(c.d1, c.d2); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(c.d1.Ops)+len(c.d2.Ops)), "ops")
	})
	b.Run("with-documents", func(b *testing.B) {
		for b.Loop() {
			if _, err := ComposeWith(c.a, c.d1, c.d2); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkEncodeXML(b *testing.B) {
	c := getBenchCase(b, nodes1MB, 10)
	var buf bytes.Buffer
	if err := EncodeXML(&buf, c.d1); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		buf.Reset()
		if err := EncodeXML(&buf, c.d1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeXML(b *testing.B) {
	c := getBenchCase(b, nodes1MB, 10)
	var buf bytes.Buffer
	if err := EncodeXML(&buf, c.d1); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := DecodeXML(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeJSON(b *testing.B) {
	c := getBenchCase(b, nodes1MB, 10)
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := EncodeJSON(&buf, c.d1); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}

func BenchmarkDecodeJSON(b *testing.B) {
	c := getBenchCase(b, nodes1MB, 10)
	var buf bytes.Buffer
	if err := EncodeJSON(&buf, c.d1); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := DecodeJSON(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyChain patches a document of 10 000 nodes with a file of
// 1 000 consecutive deltas (one attribute update each, the whole
// document's XID-maps on every step), as `vigil patch` does: decoded, then
// applied at once with ApplyAll, or one Apply per step as before.
func BenchmarkApplyChain(b *testing.B) {
	const nodes, steps = 10000, 1000
	var file strings.Builder
	file.WriteString("<unit_delta>\n")
	for i := range steps {
		fmt.Fprintf(&file, "<t fromXidMap=\"(1-%d|%d)\" toXidMap=\"(1-%d|%d)\"><au xid=\"%d\" a=\"v\" ov=\"%d\" nv=\"%d\"/></t>\n",
			nodes, nodes+1, nodes, nodes+1, nodes, i, i+1)
	}
	file.WriteString("</unit_delta>\n")
	root := el("r", nodes)
	root.attrs = []tree.Attr{{Name: "v", Value: "0"}}
	for i := 1; i < nodes; i++ {
		root.kids = append(root.kids, el("a", tree.XID(i)))
	}
	d := doc(root, nodes+1)
	for _, each := range []bool{false, true} {
		name := "ApplyAll"
		if each {
			name = "Apply-each"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ds, err := DecodeXML(strings.NewReader(file.String()))
				if err != nil {
					b.Fatal(err)
				}
				got := d
				if each {
					for _, step := range ds {
						if got, err = Apply(got, step); err != nil {
							b.Fatal(err)
						}
					}
				} else if got, err = ApplyAll(d, ds); err != nil {
					b.Fatal(err)
				}
				if got.Root.Attrs[0].Value != fmt.Sprint(steps) {
					b.Fatalf("v=%s", got.Root.Attrs[0].Value)
				}
			}
		})
	}
}

// BenchmarkComposeChain composes 500 consecutive deltas of a random
// document of 2 000 nodes (1 to 4 random changes each: inserts, deletes,
// moves, updates), as `vigil compose` does: ComposeAll's balanced tree, or
// one Compose after another.
func BenchmarkComposeChain(b *testing.B) {
	const steps = 500
	vs := versions(11, 2000, 4, steps+1)
	ds := make([]*Delta, steps)
	for i := range ds {
		ds[i] = mustBuild(b, vs[i], vs[i+1])
	}
	b.Run("ComposeAll", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ComposeAll(ds); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fold(b, ds)
		}
	})
}

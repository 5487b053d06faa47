package xmlpatch

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/simulate"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// benchPair returns a generated document of size bytes and the patch that
// turns it into a version with rate of its nodes changed, encoded.
func benchPair(b *testing.B, size int, rate float64) (*tree.Document, []byte, *Patch) {
	b.Helper()
	old, err := simulate.Generate(simulate.Records, size, 1)
	if err != nil {
		b.Fatal(err)
	}
	newDoc, _, err := simulate.Change(old, simulate.Spread(rate), 2)
	if err != nil {
		b.Fatal(err)
	}
	tree.Walk(newDoc.Root, func(n *tree.Node) bool { n.XID = 0; return true })
	newDoc.NextXID = 0
	d, err := treediff.Diff(old, newDoc, nil)
	if err != nil {
		b.Fatal(err)
	}
	p, err := Export(old, d)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, p); err != nil {
		b.Fatal(err)
	}
	return old, buf.Bytes(), p
}

// BenchmarkXMLPatch exports the delta of a generated pair as a patch,
// decodes the patch, and applies it to the old version, at 10 KB and 1 MB
// with 1 % and 10 % of the nodes changed.
func BenchmarkXMLPatch(b *testing.B) {
	for _, size := range []int{10 << 10, 1 << 20} {
		for _, rate := range []float64{0.01, 0.1} {
			old, enc, p := benchPair(b, size, rate)
			name := fmt.Sprintf("%dKB/%g%%", size>>10, rate*100)
			b.Run("export/"+name, func(b *testing.B) {
				newDoc, _, _ := simulate.Change(old, simulate.Spread(rate), 2)
				tree.Walk(newDoc.Root, func(n *tree.Node) bool { n.XID = 0; return true })
				newDoc.NextXID = 0
				d, err := treediff.Diff(old, newDoc, nil)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(size))
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := Export(old, d); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("decode/"+name, func(b *testing.B) {
				b.SetBytes(int64(len(enc)))
				for i := 0; i < b.N; i++ {
					if _, err := Decode(bytes.NewReader(enc)); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("apply/"+name, func(b *testing.B) {
				b.SetBytes(int64(size))
				b.ReportMetric(float64(len(p.Ops)), "ops")
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					doc := old.Clone()
					b.StartTimer()
					if err := Apply(doc, p); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkApplyDeep applies a patch whose selector has [.='x'] at each
// step down a chain of elements, at two depths: string values are read
// once, so the time per node stays flat as the depth grows tenfold (it
// grew with the depth when each step read its subtree again).
func BenchmarkApplyDeep(b *testing.B) {
	for _, depth := range []int{10000, 100000} {
		doc := deepDoc(b, depth)
		p := &Patch{Ops: []Op{{Kind: Replace, Sel: stringValuePath(depth) + "/text()", Content: []*tree.Node{{Kind: tree.Text, Value: "y"}}}}}
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			b.ReportMetric(float64(depth), "nodes")
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				d := doc.Clone()
				b.StartTimer()
				if err := Apply(d, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// manyRemovesDoc returns the text of a list of n items and a <keep/>, and
// a patch that removes every item, from the last to the first, as vigil
// diff --format xmlpatch writes it.
func manyRemovesDoc(n int) (doc, patch string) {
	var d, p strings.Builder
	d.WriteString("<r>")
	p.WriteString("<diff>")
	for i := range n {
		fmt.Fprintf(&d, "<i>%d</i>", i)
		fmt.Fprintf(&p, `<remove sel="/r/i[%d]"/>`, n-i)
	}
	d.WriteString("<keep/></r>")
	p.WriteString("</diff>")
	return d.String(), p.String()
}

// BenchmarkExportManyRemoves exports the removal of every item of a list
// of 100 000 and of 300 000 (vigil diff --format xmlpatch of a list
// emptied): the delta is computed once, outside the timer.
func BenchmarkExportManyRemoves(b *testing.B) {
	for _, n := range []int{100_000, 300_000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			text, _ := manyRemovesDoc(n)
			old, newDoc := parseXML(b, text), parseXML(b, "<r><keep/></r>")
			d, err := treediff.Diff(old, newDoc, nil)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p, err := Export(old, d)
				if err != nil {
					b.Fatal(err)
				}
				if len(p.Ops) != n {
					b.Fatalf("%d operations, want %d", len(p.Ops), n)
				}
			}
		})
	}
}

// BenchmarkApplyManyRemoves applies the removal of every item of a list
// of 100 000 and of 300 000, from the last to the first, to a copy of the
// document made outside the timer.
func BenchmarkApplyManyRemoves(b *testing.B) {
	for _, n := range []int{100_000, 300_000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			text, patch := manyRemovesDoc(n)
			doc := parseXML(b, text)
			p, err := Decode(strings.NewReader(patch))
			if err != nil {
				b.Fatal(err)
			}
			benchmarkApplyToCopies(b, doc, p, func(d *tree.Document) {
				if len(d.Root.Children) != 1 {
					b.Fatalf("%d children left, want 1", len(d.Root.Children))
				}
			})
		})
	}
}

// BenchmarkApplyManyReplaced applies the replacement of every element of
// a list of 100 000 and of 300 000 texts and elements, from the first
// (each <replace sel="/r/b[1]">), to a copy of the document made outside
// the timer.
func BenchmarkApplyManyReplaced(b *testing.B) {
	for _, n := range []int{100_000, 300_000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			var text, patch strings.Builder
			text.WriteString("<r>")
			patch.WriteString("<diff>")
			for i := range n {
				fmt.Fprintf(&text, "t%d<b/>", i)
				patch.WriteString(`<replace sel="/r/b[1]"><i/></replace>`)
			}
			text.WriteString("</r>")
			patch.WriteString("</diff>")
			doc := parseXML(b, text.String())
			p, err := Decode(strings.NewReader(patch.String()))
			if err != nil {
				b.Fatal(err)
			}
			benchmarkApplyToCopies(b, doc, p, func(d *tree.Document) {
				if last := d.Root.Children[2*n-1]; last.Name != "i" {
					b.Fatalf("the last child is <%s>, want <i>", last.Name)
				}
			})
		})
	}
}

// BenchmarkApplyManyEmptied applies the replacement by an empty value of
// every text of a list of 100 000 and of 300 000 texts and elements, from
// the first (each <replace sel="/r/text()[1]"/>, which removes the text),
// to a copy of the document made outside the timer.
func BenchmarkApplyManyEmptied(b *testing.B) {
	for _, n := range []int{100_000, 300_000} {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			text, patch := manyEmptiedDoc(n)
			doc := parseXML(b, text)
			p, err := Decode(strings.NewReader(patch))
			if err != nil {
				b.Fatal(err)
			}
			benchmarkApplyToCopies(b, doc, p, func(d *tree.Document) {
				if len(d.Root.Children) != n+1 {
					b.Fatalf("%d children left, want %d", len(d.Root.Children), n+1)
				}
			})
		})
	}
}

// benchmarkApplyToCopies times Apply of p to a copy of doc, made outside
// the timer, and checks each result.
func benchmarkApplyToCopies(b *testing.B, doc *tree.Document, p *Patch, check func(*tree.Document)) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		d := doc.Clone()
		b.StartTimer()
		if err := Apply(d, p); err != nil {
			b.Fatal(err)
		}
		check(d)
	}
}

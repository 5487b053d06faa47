package treediff

import (
	"bytes"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/simulate"
)

// BenchmarkParseAndDiff10MB parses and diffs a 10 MB records pair with 10 %
// of nodes changed: the speed bar compares the diff with the parse.
func BenchmarkParseAndDiff10MB(b *testing.B) {
	old, _ := simulate.Generate(simulate.Records, 10<<20, 1)
	newDoc, _, _ := simulate.Change(old, simulate.Spread(0.1), 2)
	var x, y bytes.Buffer
	markup.WriteXML(&x, old, nil)
	markup.WriteXML(&y, newDoc, nil)
	b.Run("parse", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			markup.ParseXMLBytes(x.Bytes(), nil)
			markup.ParseXMLBytes(y.Bytes(), nil)
		}
	})
	b.Run("diff", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			o, _ := markup.ParseXMLBytes(x.Bytes(), nil)
			n, _ := markup.ParseXMLBytes(y.Bytes(), nil)
			b.StartTimer()
			if _, err := Diff(o, n, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Logf("nodes: %d + %d for %d + %d bytes", old.Root.Size(), newDoc.Root.Size(), x.Len(), y.Len())
}

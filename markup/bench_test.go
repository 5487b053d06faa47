package markup_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// genXML returns deterministic data-oriented XML of about size bytes:
// records with attributes and short text, as a catalogue or a feed is.
func genXML(size int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 42))
	words := strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango")
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<catalog>\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "  <product id=\"p%06d\" category=\"c%d\" price=\"%d.%02d\">\n", i, r.IntN(50), r.IntN(1000), r.IntN(100))
		b.WriteString("    <name>")
		for k := 0; k < 2+r.IntN(3); k++ {
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[r.IntN(len(words))])
		}
		b.WriteString("</name>\n    <description>")
		for k := 0; k < 8+r.IntN(12); k++ {
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[r.IntN(len(words))])
		}
		if r.IntN(8) == 0 {
			b.WriteString(" &amp; more")
		}
		fmt.Fprintf(&b, "</description>\n    <stock warehouse=\"w%d\">%d</stock>\n  </product>\n", r.IntN(9), r.IntN(500))
	}
	b.WriteString("</catalog>\n")
	return b.Bytes()
}

// reportCPU reports throughput per second of CPU time (all threads, GC
// included) since start, next to the wall-clock MB/s.
func reportCPU(b *testing.B, start time.Duration, bytes int) {
	if cpu := cpuTime() - start; cpu > 0 {
		b.ReportMetric(float64(b.N)*float64(bytes)/cpu.Seconds()/1e6, "MB/cpu-s")
	}
}

var benchSizes = []struct {
	name string
	size int
}{{"10KB", 10 << 10}, {"1MB", 1 << 20}, {"10MB", 10 << 20}}

func BenchmarkParseXML(b *testing.B) {
	for _, s := range benchSizes {
		data := genXML(s.size, 1)
		b.Run(s.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				if _, err := markup.ParseXMLBytes(data, nil); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start, len(data))
		})
	}
}

func BenchmarkParseXMLStdlib(b *testing.B) {
	for _, s := range benchSizes {
		data := genXML(s.size, 1)
		b.Run(s.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				if _, err := parseStdlib(data); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start, len(data))
		})
	}
}

// parseStdlib builds the same tree as ParseXML with the Normalize policy
// from an encoding/xml token loop: the baseline ParseXML is measured
// against.
func parseStdlib(data []byte) (*tree.Document, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	doc := &tree.Document{}
	var stack []*tree.Node
	qname := func(n xml.Name) string {
		if n.Space == "" {
			return n.Local
		}
		return n.Space + ":" + n.Local
	}
	for {
		tok, err := dec.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := doc.NewElement(qname(t.Name))
			for _, a := range t.Attr {
				n.Attrs = append(n.Attrs, tree.Attr{Name: qname(a.Name), Value: a.Value})
			}
			if len(stack) > 0 {
				stack[len(stack)-1].AppendChild(n)
			} else {
				doc.Root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			s := strings.TrimSpace(string(t))
			if s != "" {
				stack[len(stack)-1].AppendChild(doc.NewText(s))
			}
		case xml.Comment:
			if len(stack) > 0 {
				stack[len(stack)-1].AppendChild(doc.NewNode(tree.Comment, "", string(t)))
			}
		}
	}
	return doc, nil
}

func BenchmarkParseHTML(b *testing.B) {
	path := filepath.Join("..", "testdata", "corpus", "page-finya-terms-of-service", "v0001.html")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		if _, err := markup.ParseHTMLBytes(data, nil); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start, len(data))
}

// BenchmarkParseHTMLTablePeak parses a 3 MB page of one long table twice,
// holding the first, as a diff does, and reports the most heap in use
// meanwhile, above what was in use before (sampled every millisecond): the
// x/net/html tree is released subtree by subtree while ours is built, so
// that the two are not held whole together.
func BenchmarkParseHTMLTablePeak(b *testing.B) {
	var page strings.Builder
	page.WriteString("<!DOCTYPE html><html><head><title>Stock</title></head><body><table><tbody>\n")
	for i := range 40000 {
		fmt.Fprintf(&page, "<tr><td>%d</td><td>item %d of the stock</td><td>%d.%02d</td><td class=tag>t%d</td></tr>\n", i, i*7, i%997, i%100, i%13)
	}
	page.WriteString("</tbody></table></body></html>")
	data := []byte(page.String())
	var worst uint64
	for b.Loop() {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base := ms.HeapAlloc
		stop, done := make(chan struct{}), make(chan uint64)
		go func() {
			var peak uint64
			tick := time.NewTicker(time.Millisecond)
			defer tick.Stop()
			for {
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapAlloc)
				select {
				case <-stop:
					done <- peak
					return
				case <-tick.C:
				}
			}
		}()
		old, err := markup.ParseHTMLBytes(data, nil)
		if err != nil {
			b.Fatal(err)
		}
		doc, err := markup.ParseHTMLBytes(data, nil)
		close(stop)
		peak := <-done
		if err != nil {
			b.Fatal(err)
		}
		runtime.KeepAlive(old)
		runtime.KeepAlive(doc)
		if peak > base {
			worst = max(worst, peak-base)
		}
	}
	b.ReportMetric(float64(worst)/(1<<20), "peak-heap-MB")
}

func BenchmarkWriteXML(b *testing.B) {
	for _, s := range benchSizes[1:] {
		data := genXML(s.size, 1)
		d, err := markup.ParseXMLBytes(data, &markup.Options{Whitespace: markup.Keep})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(s.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				if err := markup.WriteXML(io.Discard, d, nil); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start, len(data))
		})
	}
}

// BenchmarkParseXMLCorpus parses real documents of testdata/corpus: an RSS
// feed (text-heavy, CDATA) and a configuration file (attribute-heavy, long
// comments).
func BenchmarkParseXMLCorpus(b *testing.B) {
	for _, name := range []string{"feed-artsy-engineering-rss/v0001.xml", "xml-sysmon-config/v0001.xml"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.Split(name, "/")[0], func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				if _, err := markup.ParseXMLBytes(data, nil); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start, len(data))
		})
		b.Run(strings.Split(name, "/")[0]+"-stdlib", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				if _, err := parseStdlib(data); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start, len(data))
		})
	}
}

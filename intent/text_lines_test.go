package intent

import (
	"fmt"
	"html"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

// TestNormalizeSpaceOfALine: a text with white space only at its ends, a
// line of a page read as its source ("GET /index.html 200\n"), is
// normalised without a copy; every text is normalised as strings.Fields
// joins it.
func TestNormalizeSpaceOfALine(t *testing.T) {
	for _, s := range []string{"", " ", "\n", "a", "a\n", " a b\n", "\ta  b\n", "a\u00a0b\n", "\u00a0a\n", "a\r\n", "é ü\n", " \n \n", "a\v", "x y z"} {
		if got, want := normalizeSpace(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("normalizeSpace(%q) = %q, want %q", s, got, want)
		}
	}
	line := "203.0.113.7 - - [29/Nov/2026] \"GET /index.html HTTP/1.1\" 200 512\n"
	if n := testing.AllocsPerRun(100, func() { _ = normalizeSpace(line) }); n != 0 {
		t.Errorf("normalizeSpace of a line: %v allocations, want none", n)
	}
}

// BenchmarkTextPageLines evaluates "any change" on a page read as its
// source text, as the warehouse reads one (a <pre> of one text node a
// line): 65,536 lines, one of them changed.
func BenchmarkTextPageLines(b *testing.B) {
	page := func(changed bool) *tree.Document {
		var sb strings.Builder
		for i := range 1 << 16 {
			if changed && i == 1<<15 {
				sb.WriteString("changed\n")
				continue
			}
			fmt.Fprintf(&sb, "203.0.113.%d - - [29/Nov/2026] \"GET /page/%d HTTP/1.1\" 200 %d\n", i%256, i, 1000+i%9000)
		}
		d := parseDoc(b, "<!DOCTYPE html><html><head></head><body><pre>\n"+html.EscapeString(sb.String())+"</pre></body></html>")
		pre := d.Root.Children[1].Children[0]
		var kids []*tree.Node
		for _, line := range strings.SplitAfter(pre.Children[0].Value, "\n") {
			if line != "" {
				kids = append(kids, &tree.Node{Kind: tree.Text, Value: line, Parent: pre})
			}
		}
		pre.Children = kids
		d.AssignXIDs()
		return d
	}
	old, new := page(false), page(true)
	s, err := spec.ParseSentinel("bench", []byte("Create Sentinel s Using http://example.com/ Monitor any change"))
	if err != nil {
		b.Fatal(err)
	}
	expr := s.Monitor.X
	for b.Loop() {
		r, err := NewPair(old, new, nil, nil).Evaluate(expr)
		if err != nil || !r.Matched {
			b.Fatal(err, r)
		}
	}
}

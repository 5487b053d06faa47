package warehouse

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkReadLog reads a log of 16 MB served as text/plain (ReadBody:
// sourceDocument, and splitLines), some 200,000 lines, past
// maxSourceNodes, so cut into runs; and splits its text alone, for
// splitLines's share.
func BenchmarkReadLog(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 16<<20; i++ {
		fmt.Fprintf(&sb, "203.0.113.%d - - [29/Nov/2026:14:%02d:%02d +0000] \"GET /page/%d HTTP/1.1\" 200 %d\n", i%256, i/60%60, i%60, i, 1000+i%9000)
	}
	body := []byte(sb.String())
	b.Run("lines", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			if _, _, err := ReadBody(body, "", "text/plain"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("split", func(b *testing.B) {
		text := sb.String() // the <pre>'s text: a log has nothing to escape
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			split(text)
		}
	})
}

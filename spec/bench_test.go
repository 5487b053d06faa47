package spec

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// benchSource returns n sentinels of one owner in the shapes users write:
// plain pages, inheritance from an earlier sentinel, lifespans tied to the
// events of an earlier sentinel, composite change types and several
// contacts.
func benchSource(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "Create Sentinel s%d Using http://www.example%d.com/class/schedule\n"+
				"\tMonitor keywords {cse%d, 5324} OR phrase {\"Optical Network\"} In css \"table#schedule\"\n"+
				"\tFetch 1 day\n\tFrom 12/02/2026 To 01/02/2027\n"+
				"\tNotify By email jill%d@example.com, slack://hooks/T0/B%d Every best effort\n\tCompare pairwise\n\n", i, i, i, i, i)
		case 1:
			fmt.Fprintf(&b, "Create Sentinel s%d Using s%d\n\tMonitor all words AND NOT phrase {\"Lord of the Rings\"} Ignore css \".ad\"\n\n", i, i-1)
		case 2:
			fmt.Fprintf(&b, "Create Sentinel s%d Using www%d.example.org/a/b.htm\n"+
				"\tMonitor value In css \".price\" falls below 99.5 OR all links\n\tFetch on change render\n"+
				"\tFrom start(s%d) + 2 day To end(s%d)\n\tNotify By webhook https://hooks.example.com/%d Every 1 day\n\tCompare moving 4\n\n", i, i, i-2, i-2, i)
		case 3:
			fmt.Fprintf(&b, "Create Sentinel s%d Using http://a%d.example AND http://b%d.example\n"+
				"\tMonitor regular expression {\"[0-9]+ seats\"} AND NOT any change In xpath \"//footer\"\n"+
				"\tFetch 6 hour Confirm after 30 second\n\tFrom Now + 1 hour To Now + 3 month\n\n", i, i, i)
		}
	}
	return []byte(b.String())
}

// BenchmarkParseCheck parses and checks 10 000 sentinels of one owner, as
// a bulk import does.
func BenchmarkParseCheck(b *testing.B) {
	src := benchSource(10000)
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		f, err := Parse("bench.ssl", src)
		if err != nil {
			b.Fatal(err)
		}
		c := NewChecker(now)
		if _, err := c.CheckFile(f); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10000, "ns/sentinel")
}

// BenchmarkParse parses the same 10 000 sentinels without checking them.
func BenchmarkParse(b *testing.B) {
	src := benchSource(10000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("bench.ssl", src); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBenchSourceIsValid(t *testing.T) {
	f, err := Parse("bench.ssl", benchSource(40))
	if err != nil {
		t.Fatal(err)
	}
	out, err := NewChecker(time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)).CheckFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if out[1].Parent != "s0" || !out[2].Start.Equal(time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("s1 parent %q, s2 start %v", out[1].Parent, out[2].Start)
	}
}

package intent

import (
	"fmt"
	"testing"

	"github.com/vigil-web/vigil/spec"
)

// BenchmarkPageBaseScopes measures a pair of 1 MB pages without a base
// element, read from an address, whose sentinel names several change
// types, each with its own scope: each scope's content resolves its links
// against the page's base, which a page without a base element finds
// only by walking the whole of each version, once for the pair
// (Pair.pageBase), not once a scope.
//
//	go test ./intent -run '^$' -bench PageBaseScopes -benchtime 20x
func BenchmarkPageBaseScopes(b *testing.B) {
	d1, d2 := parseBench(b, benchPage(1<<20, false), benchPage(1<<20, true))
	var exprs []spec.Expr
	for k := range 6 {
		c := fmt.Sprintf(`all links In xpath "/html/body/section[%d]"`, k+1)
		s, err := spec.ParseSentinel("bench", []byte("Create Sentinel s Using http://example.com/ Monitor "+c))
		if err != nil {
			b.Fatal(err)
		}
		exprs = append(exprs, s.Monitor.X)
	}
	b.ReportAllocs()
	for b.Loop() {
		p := NewPair(d1, d2, nil, nil)
		p.OldURL, p.NewURL = "https://example.com/page", "https://example.com/page"
		for _, x := range exprs {
			if _, err := p.Evaluate(x); err != nil {
				b.Fatal(err)
			}
		}
	}
}

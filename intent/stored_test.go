package intent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/vigil-web/vigil/spec"
)

// TestStoredMonitorEvaluates: a sentinel the previous release stored with
// a Monitor expression a later rule of spec refuses (spec's
// testdata/stored, as that release wrote it) is read back and evaluated
// as the expression it was written as, for every pair: the later rules
// do not change what it fires on.
func TestStoredMonitorEvaluates(t *testing.T) {
	pages := []string{
		`<p>Price 10, sale</p><a href="/a">a</a><img src="x.png">`,
		`<p>price 12, Sale offer</p><a href="/b">b</a><img src="x.png">`,
		`<p>price 12, Sale offer x</p><a href="/b">b</a><img src="y.png">`,
	}
	for file, source := range map[string]string{
		"not_alone.json":     "NOT keywords {x}",
		"or_not.json":        "all links OR NOT all images",
		"case_distinct.json": "keywords {Price} OR keywords {price}",
		"case_subsumed.json": "keywords {sale} AND NOT keywords {Sale, offer}",
	} {
		data, err := os.ReadFile(filepath.Join("..", "spec", "testdata", "stored", file))
		if err != nil {
			t.Fatal(err)
		}
		var c spec.Checked
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatalf("%s: a stored sentinel does not load: %v", file, err)
		}
		for i, old := range pages {
			for j, new := range pages {
				p := NewPair(parseDoc(t, old), parseDoc(t, new), nil, nil)
				got, err := p.Evaluate(c.Sentinel.Monitor.X)
				if err != nil {
					t.Fatalf("%s: %v", file, err)
				}
				want, err := p.Evaluate(monitor(t, source))
				if err != nil {
					t.Fatalf("%s: %v", source, err)
				}
				if got.Matched != want.Matched {
					t.Errorf("%s, pages %d to %d: stored Monitor matched %v, %s matches %v", file, i, j, got.Matched, source, want.Matched)
				}
			}
		}
	}
}

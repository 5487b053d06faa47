package web

import (
	"fmt"
	"strings"
	"testing"
)

// TestDiffTextBoundedWork: the text format of the diff of a 10 MB page
// parses each version once, however large the page: the view read the
// old version's body twice and parsed it twice (once for the document the
// changes are laid over, once for the tree differ), so that the diff of
// a 10 MB page parsed 20 MB of old page for 10 of new. The work is
// counted in bytes parsed (warehouse.ParsedBytes), not timed; the answer
// is the one line a rewritten paragraph, each naming its word.
func TestDiffTextBoundedWork(t *testing.T) {
	if testing.Short() {
		t.Skip("a 10 MB page")
	}
	old, new, changed := bigPagePair(t, 10<<20)
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	createChecked(t, s, u, "Create Sentinel big Using http://a.example/big Fetch 1 hour")
	resource, from, to := putBigPages(t, s, w, old, new)
	c := newSignedIn(t, s, u)
	before := w.ParsedBytes()
	status, body := c.do("GET", fmt.Sprintf("/api/v1/resources/%d/diff?from=%d&to=%d&format=text", resource, from, to), "")
	if status != 200 {
		t.Fatalf("GET the text diff: %d %.500s", status, body)
	}
	if parsed, most := w.ParsedBytes()-before, int64(len(old)+len(new)); parsed > most {
		t.Errorf("the text diff of a %d-byte page parsed %d bytes, more than the two versions' %d", len(new), parsed, most)
	}
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	if len(lines) != changed {
		t.Fatalf("%d lines, want one for each of the %d paragraphs rewritten:\n%.1000s", len(lines), changed, body)
	}
	for i, line := range lines {
		if want := fmt.Sprintf("rewritten%d", 10*i); !strings.HasPrefix(line, "~ ") || !strings.Contains(line, want) {
			t.Fatalf("line %d: %.300q, want an update naming %s", i+1, line, want)
		}
	}
}

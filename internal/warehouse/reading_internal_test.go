package warehouse

import (
	"bytes"
	"fmt"
	"html"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// TestSourceDocumentWritesOnePage: reading a body as its source costs the
// parse of its page and the page, written once: the body was copied to a
// string, escaped into another and copied into a buffer grown by doubling,
// some 2.8 GB allocated for a body of 200 MB. The page is the one it was
// (html.EscapeString's), so the reading does not change.
func TestSourceDocumentWritesOnePage(t *testing.T) {
	body := bytes.Repeat([]byte("a<b&c d\"e'f>\n"), 1<<22/13) // 4 MiB, a third of it escaped
	page := []byte("<!DOCTYPE html><html><body><pre>\n" + html.EscapeString(string(body)) + "</pre></body></html>")
	opt := &markup.Options{MaxBytes: max(int64(len(page)), markup.DefaultMaxBytes)}
	allocated := func(f func()) uint64 {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		f()
		runtime.ReadMemStats(&m1)
		return m1.TotalAlloc - m0.TotalAlloc
	}
	read := func() (*tree.Document, error) { // the parse, and the text cut in lines
		doc, err := markup.ParseHTMLBytes(page, opt)
		if err == nil {
			splitLines(sourcePre(doc))
		}
		return doc, err
	}
	want, err := read()
	if err != nil {
		t.Fatal(err)
	}
	parse := allocated(func() { _, _ = read() })
	var got *tree.Document
	all := allocated(func() { got, err = sourceDocument(body, "") })
	if err != nil {
		t.Fatal(err)
	}
	if extra := int64(all) - int64(parse); extra > int64(len(page))+64<<10 {
		t.Errorf("sourceDocument allocated %d bytes besides the parse, want at most the page's %d", extra, len(page))
	}
	if diff := documentDiff(got, want); diff != "" {
		t.Errorf("the source read otherwise than the page escaped by html.EscapeString: %s", diff)
	}
}

// TestSplitLines: the text of a body read as its source is one text node a
// line, each with its newline, up to maxSourceNodes lines; past them, runs
// of lines cut by content, so that a line inserted in the middle of a long
// log changes a node or two, not every node after it.
func TestSplitLines(t *testing.T) {
	numbered := func(n int, extra string) string {
		var b strings.Builder
		for i := range n {
			if i == n/2 {
				b.WriteString(extra)
			}
			fmt.Fprintf(&b, "%d GET /index.html 200\n", i)
		}
		return b.String()
	}
	tests := []struct {
		name     string
		text     string
		maxNodes int // 0: one a line
	}{
		{"empty", "", 0},
		{"one line", "a", 0},
		{"one line and its newline", "a\n", 0},
		{"lines", "a\n\nb\nc", 0},
		{"as many lines as nodes", numbered(maxSourceNodes, ""), 0},
		{"more lines than nodes", numbered(4*maxSourceNodes, ""), maxSourceNodes},
		{"the same line over and over", strings.Repeat("x\n", 3*maxSourceNodes), maxSourceNodes},
		{"a line whose hash cuts, over and over", strings.Repeat(cutting(t)+"\n", 3*maxSourceNodes), maxSourceNodes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pre := split(tt.text)
			var got strings.Builder
			for _, n := range pre.Children {
				if n.Kind != tree.Text || n.Parent != pre || n.Value == "" {
					t.Fatalf("node %+v in the <pre>, want a text", n)
				}
				got.WriteString(n.Value)
			}
			if got.String() != tt.text {
				t.Fatalf("the nodes hold %.60q..., want the text", got.String())
			}
			if tt.maxNodes == 0 {
				want := strings.SplitAfter(tt.text, "\n")
				if want[len(want)-1] == "" {
					want = want[:len(want)-1]
				}
				if len(pre.Children) != len(want) {
					t.Errorf("%d nodes, want one a line: %d", len(pre.Children), len(want))
				}
			} else if len(pre.Children) > tt.maxNodes {
				t.Errorf("%d nodes, want at most %d", len(pre.Children), tt.maxNodes)
			}
		})
	}
	// A line inserted in the middle of a long log changes one run (the
	// log crossing no power of two, where the cut changes: see below).
	before, after := split(numbered(3*maxSourceNodes, "")), split(numbered(3*maxSourceNodes, "inserted\n"))
	values := func(pre *tree.Node) map[string]bool {
		m := map[string]bool{}
		for _, n := range pre.Children {
			m[n.Value] = true
		}
		return m
	}
	old := values(before)
	changed := 0
	for _, n := range after.Children {
		if !old[n.Value] {
			changed++
		}
	}
	if changed > 1 {
		t.Errorf("%d runs of %d changed by one line inserted, want 1", changed, len(after.Children))
	}
	// The cut changes where the lines cross a power of two from
	// maxSourceNodes on, not a line later: a log that grows by a line past
	// maxSourceNodes + 1 keeps its runs but the last.
	for _, n := range []int{maxSourceNodes + 1, 2*maxSourceNodes + 1} {
		log := numbered(n, "")
		longer := log + "one more line\n"
		a, b := lineEnds(log), lineEnds(longer)
		if len(b) < len(a) || !slices.Equal(a[:len(a)-1], b[:len(a)-1]) {
			t.Errorf("%d lines and one more: cut anew (%d runs, then %d)", n, len(a), len(b))
		}
	}
}

// split returns the <pre> of text read as its source.
func split(text string) *tree.Node {
	pre := &tree.Node{Kind: tree.Element, Name: "pre"}
	if text != "" {
		pre.Children = []*tree.Node{{Kind: tree.Text, Value: text, Parent: pre}}
	}
	splitLines(pre)
	return pre
}

// cutting returns a line whose hash cuts a run at any number of bits.
func cutting(t *testing.T) string {
	for i := 0; ; i++ {
		line := fmt.Sprint("line ", i)
		if lineHash(line+"\n")&0xffff == 0xffff {
			return line
		}
		if i > 1<<24 {
			t.Fatal("no line found")
		}
	}
}

// TestServedAsText: text that is not markup, as the fetcher keeps it, is
// read as its source; HTML, XML and what is not text are parsed.
func TestServedAsText(t *testing.T) {
	for mediaType, want := range map[string]bool{
		"text/plain":                      true,
		"text/plain; charset=utf-8":       true,
		"Text/CSV":                        true,
		"text/markdown":                   true,
		"text/css":                        true,
		"application/json":                true,
		"application/ld+json":             true,
		"application/javascript":          true,
		"text/html":                       false,
		"text/html; charset=windows-1252": false,
		"text/xml":                        false,
		"application/xml":                 false,
		"application/xhtml+xml":           false,
		"application/rss+xml":             false,
		"image/svg+xml":                   false,
		"":                                false,
		"application/octet-stream":        false,
	} {
		if got := ServedAsText(mediaType); got != want {
			t.Errorf("ServedAsText(%q) = %v, want %v", mediaType, got, want)
		}
	}
}

// TestLooksLikeMarkup: a body served as text that begins as markup does is
// parsed as markup, as before text was read as its source: an XML file or
// an HTML page served as text/plain by a host of raw files.
func TestLooksLikeMarkup(t *testing.T) {
	for body, want := range map[string]bool{
		"<?xml version=\"1.0\"?><rss/>":   true,
		"\n  <html><body>x</body></html>": true,
		"\xEF\xBB\xBF<feed/>":             true,
		"\xFF\xFE<\x00":                   true,
		"User-agent: *\nDisallow: /x\n":   false,
		"{\"a\": \"<b>\"}":                false,
		"":                                false,
		"a < b":                           false,
	} {
		if got := looksLikeMarkup([]byte(body)); got != want {
			t.Errorf("looksLikeMarkup(%q) = %v, want %v", body, got, want)
		}
	}
}

// TestDocumentDiffDoctypePlace: a DOCTYPE moved past a comment before the
// root is a difference, so that a delta that leaves it in the old place is
// not taken for one that leads to the version.
func TestDocumentDiffDoctypePlace(t *testing.T) {
	read := func(s string) *tree.Document {
		d, err := markup.ParseXML(strings.NewReader(s), nil)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, tc := range []struct{ a, b string }{
		{`<!-- a --><!DOCTYPE r><r>x</r>`, `<!DOCTYPE r><!-- a --><r>x</r>`},
		{`<?xml version="1.0"?><?p x?><!DOCTYPE r><!-- a --><r/>`, `<?xml version="1.0"?><?p x?><!-- a --><!DOCTYPE r><r/>`},
	} {
		if diff := documentDiff(read(tc.a), read(tc.b)); !strings.Contains(diff, "DOCTYPE") {
			t.Errorf("documentDiff(%s, %s) = %q, want the DOCTYPE's place", tc.a, tc.b, diff)
		}
	}
	if diff := documentDiff(read(`<!-- a --><!DOCTYPE r><r/>`), read(`<!-- a --><!DOCTYPE r><r/>`)); diff != "" {
		t.Errorf("documentDiff of one document read twice: %q", diff)
	}
}

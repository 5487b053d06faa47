package intent_test

import (
	"fmt"
	"strings"

	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/spec"
)

func Example() {
	old, _, _ := markup.ParseBytes([]byte(`<html><body>
<p>Course <b>cse5324</b> is offered.</p>
<a href="/schedule/2025">Schedule</a></body></html>`), nil)
	new, _, _ := markup.ParseBytes([]byte(`<html><body>
<p>Course <b>cse5331</b> is offered.</p>
<a href="/schedule/2026">Schedule</a></body></html>`), nil)
	s, err := spec.ParseSentinel("s1", []byte(`Create Sentinel s1 Using http://www.uta.edu/class/schedule
Monitor keywords {cse5331} AND all links`))
	if err != nil {
		panic(err)
	}
	p := intent.NewPair(old, new, nil, nil)
	r, err := p.Evaluate(s.Monitor.X)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Type, "=>", r.Matched)
	for _, c := range r.AllChanges() {
		fmt.Println(c.Kind, c.Op, strings.TrimSpace(c.Old+" "+c.New), c.Fields)
	}
	// Output:
	// keywords {cse5331} AND all links => true
	// keyword insert cse5331 []
	// link update /schedule/2025 /schedule/2026 [href]
}

func ExampleCompare() {
	c := intent.CompareOf(&spec.CompareClause{Method: spec.MovingN, N: 4})
	fmt.Println(c.Pairs(6))
	// Output: [{1 4} {2 5} {3 6}]
}

func ExampleCompileCSS() {
	_, err := intent.CompileCSS("table#prices > tr:nth-child(2n+1")
	fmt.Println(err)
	// Output: css "table#prices > tr:nth-child(2n+1": column 28: unclosed (
}

func ExampleTextLinks() {
	text := "See https://example.com/releases/2.1 (or <https://example.com/notes/text.>).\n" +
		"- [Sentinels](https://example.com/docs/sentinels.md): the language\n" +
		"Sitemap: https://en.wikipedia.org/wiki/Mercury_(planet)\r\n" +
		`{"feed":"https:\/\/example.com\/feed.json"}` + "\n" +
		"Mirror: www.example.org/mirror.\n"
	for _, l := range intent.TextLinks(text) {
		fmt.Printf("%s [%s]\n", l.URL, l.Text)
	}
	// Output:
	// https://example.com/releases/2.1 [https://example.com/releases/2.1]
	// https://example.com/notes/text. [https://example.com/notes/text.]
	// https://example.com/docs/sentinels.md [Sentinels]
	// https://en.wikipedia.org/wiki/Mercury_(planet) [https://en.wikipedia.org/wiki/Mercury_(planet)]
	// https://example.com/feed.json [https://example.com/feed.json]
	// http://www.example.org/mirror [http://www.example.org/mirror]
}

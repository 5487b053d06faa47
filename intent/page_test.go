package intent

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestPageChangeLines(t *testing.T) {
	tests := map[string]struct {
		c          Change
		line, html string
	}{
		"added": {
			NewPageChange(Insert, &PageInfo{URL: "https://a.example/new", Title: "New <page>", Note: "failed before: HTTP 500"}),
			`+ page added: https://a.example/new "New <page>" (failed before: HTTP 500)`,
			`page added: <a href="https://a.example/new">https://a.example/new</a> &#34;New &lt;page&gt;&#34; (failed before: HTTP 500)`,
		},
		"title with quotes and a backslash": {
			// The title was written as a Go string literal, so readers saw
			// "C & \"quotes\" \\ D", in HTML too.
			NewPageChange(Insert, &PageInfo{URL: "https://a.example/c", Title: `C & "quotes" \ D`}),
			`+ page added: https://a.example/c "C & "quotes" \ D"`,
			`page added: <a href="https://a.example/c">https://a.example/c</a> &#34;C &amp; &#34;quotes&#34; \ D&#34;`,
		},
		"title with a control character": {
			NewPageChange(Insert, &PageInfo{URL: "https://a.example/t", Title: "Tab\there"}),
			`+ page added: https://a.example/t "Tab here"`,
			`page added: <a href="https://a.example/t">https://a.example/t</a> &#34;Tab here&#34;`,
		},
		"deleted": {
			NewPageChange(Delete, &PageInfo{URL: "https://a.example/old?a=1&b=2", Note: "no longer reached"}),
			`- page removed: https://a.example/old?a=1&b=2 (no longer reached)`,
			`page removed: <a href="https://a.example/old?a=1&amp;b=2">https://a.example/old?a=1&amp;b=2</a> (no longer reached)`,
		},
		"modified": {
			NewPageChange(Update, &PageInfo{URL: "https://a.example/", Title: "Home", OldTitle: "Welcome", Summary: "keywords {x}: 1 keyword added"}),
			`~ page changed: https://a.example/ "Welcome -> Home": keywords {x}: 1 keyword added`,
			`page changed: <a href="https://a.example/">https://a.example/</a> &#34;Welcome -&gt; Home&#34;: keywords {x}: 1 keyword added`,
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			if got := tt.c.Line(); got != tt.line {
				t.Errorf("Line\n got %s\nwant %s", got, tt.line)
			}
			if got := tt.c.LineHTML(); got != tt.html {
				t.Errorf("LineHTML\n got %s\nwant %s", got, tt.html)
			}
			b, err := json.Marshal(tt.c)
			if err != nil {
				t.Fatal(err)
			}
			var back Change
			if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, tt.c) {
				t.Errorf("JSON round trip: %s gives %+v, %v", b, back, err)
			}
		})
	}
	all := []Change{tests["added"].c, tests["deleted"].c, tests["modified"].c, tests["added"].c}
	if got, want := Count(all), "2 pages added, 1 page removed, 1 page changed"; got != want {
		t.Errorf("Count %q, want %q", got, want)
	}
}

package spec

import "testing"

// TestCheckPartialSite: a site target read before the syntax error of its
// header (or the error after it) is checked as a piece, as a page or a
// sentinel of the target is: its URL, depth, pages, scope and match, as
// far as they were read cleanly, each told at its line and column;
// nothing read after the error (the depth of "depth 200,000", where the
// comma is the mistake). The site's URL was not checked at all, nor its
// bounds and scope.
func TestCheckPartialSite(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{{
		name: "a bad URL, the depth missing",
		src:  "Create Sentinel a Using site \"http://x .example/\" depth\nFetch 0 hours\n",
		want: `f:1:25: invalid URL "http://x .example/": invalid character " " in host name
f:2:1: expected number of links (the depth of the crawl), found "Fetch"
f:2:7: Fetch 0 hours: interval must be greater than 0
`,
	}, {
		name: "bounds, scope and match read before the error",
		src:  "Create Sentinel a Using site a.example depth 200 scope \"http://y .example/\" match \"(\" pages\n",
		want: `f:1:46: site depth 200: want 0 (the start page alone) to 64
f:1:56: site scope: invalid URL "http://y .example/": invalid character " " in host name
f:1:83: site match: error parsing regexp: missing closing ): ` + "`(`" + `
f:1:92: expected number of pages, found end of file
`,
	}, {
		name: "the number before a comma not told",
		src:  "Create Sentinel a Using site \"http://x .example/\" depth 200,000\n",
		want: `f:1:25: invalid URL "http://x .example/": invalid character " " in host name
f:1:60: write the depth without grouping: 200,... is read as 200 then a comma (write 200000)
`,
	}, {
		name: "a match holding a bad escape not told twice",
		src:  "Create Sentinel a Using site a.example pages 0 match \"\\q(\" depth\n",
		want: `f:1:46: site pages 0: want 1 to 10000
f:1:55: invalid escape \q in string: write \\q for a backslash (strings take Go's escapes: \" \\ \n \t \u00e9)
`,
	}, {
		name: "a site operand before the error",
		src:  "Create Sentinel a Using https://example.org/ OR site \"http://x .example/\" pages 0 AND\n",
		want: `f:1:49: invalid URL "http://x .example/": invalid character " " in host name
f:1:81: site pages 0: want 1 to 10000
f:1:86: expected URL or sentinel name, found end of file
`,
	}, {
		name: "a site after a header error not read",
		src:  "Create Sentinel a Using nowhere OR OR site \"http://x .example/\" pages 0\n",
		want: `f:1:25: unknown sentinel nowhere
f:1:36: expected URL or sentinel name, found "OR"
`,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("f", []byte(tc.src))
			if err == nil {
				t.Fatal("Parse: no syntax error")
			}
			_, semantic := NewChecker(date(2003, 6, 1, 12, 0)).CheckFile(f)
			var list ErrorList
			if semantic != nil {
				list = semantic.(ErrorList)
			}
			if got := MergeErrors(err, list).String(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

package spec

import "testing"

// TestStringSwallowsCreate: a string left open on its line that holds a
// Create Sentinel after its opening quote has read that sentinel as its
// text: the error says so, with where the Create is, so that the user
// knows why the sentinel is not seen. The scanner said only "string
// literal not terminated".
func TestStringSwallowsCreate(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{{
		name: "a sentinel on the same line",
		src:  "Create Sentinel a Using https://example.org/ Monitor keywords {\"x Create Sentinel b Using nowhere\nEvery 0 hours\n",
		want: `f:1:64: string literal not terminated: it runs to the end of the line and holds the Create Sentinel b at 1:67, which is not read as a sentinel: close the string before it
f:2:7: Every 0 hours: interval must be greater than 0
`,
	}, {
		name: "in lower case, without a name",
		src:  "Create Sentinel a Using https://example.org/ Monitor keywords {\"x create\tsentinel\n",
		want: `f:1:64: string literal not terminated: it runs to the end of the line and holds the Create Sentinel at 1:67, which is not read as a sentinel: close the string before it
`,
	}, {
		name: "closed with the other quote",
		src:  "Create Sentinel a Using https://example.org/ Monitor phrase {\"sold out” OR create  sentinel c2 Using x\n",
		want: `f:1:62: string literal not terminated: found the typographic quote ” at 1:71, but a literal opened with " ends with " (or write it in “ and ”); it runs to the end of the line and holds the Create Sentinel c2 at 1:76, which is not read as a sentinel: close the string before it
`,
	}, {
		name: "the words in others",
		src:  "Create Sentinel a Using https://example.org/ Monitor phrase {\"we created sentinels\n",
		want: `f:1:62: string literal not terminated
`,
	}, {
		name: "Create without Sentinel",
		src:  "Create Sentinel a Using https://example.org/ Monitor phrase {\"Create an account\n",
		want: `f:1:62: string literal not terminated
`,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("f", []byte(tc.src))
			if err == nil {
				t.Fatal("Parse: no syntax error")
			}
			if len(f.Sentinels) != 1 {
				t.Errorf("%d sentinels, want 1", len(f.Sentinels))
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

package spec

import "testing"

// TestSecondUsing: a second Using in a header whose target it breaks is
// read as the keyword it is, a duplicate ("duplicate Using"), and the
// text after it is no target of the sentinel: its pages and sentinels are
// not checked as pieces ("unknown sentinel nowhere"). The parser reported
// "expected URL or sentinel name, found "Using"" and then read what
// followed the second Using as the sentinel's target, as it does after a
// header broken before its target, where a Using is the first (and the
// target after it is read: see targetAfterError). One after the whole
// target ("Using a Using b") is a duplicate too, told how to join both
// targets with OR, where the parser said "expected Monitor, Fetch, ...,
// found "Using"".
func TestSecondUsing(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{{
		name: "after OR",
		src:  "Create Sentinel a Using https://x.example/ OR Using nowhere\nFetch 0 hours\n",
		want: `f:1:47: duplicate Using: a sentinel has one Using; join the pages and sentinels of its target with OR or AND
f:2:7: Fetch 0 hours: interval must be greater than 0
`,
	}, {
		name: "the target before it checked",
		src:  "Create Sentinel a Using \"http://x .example/\" OR Using nowhere\n",
		want: `f:1:25: invalid URL "http://x .example/": invalid character " " in host name
f:1:49: duplicate Using: a sentinel has one Using; join the pages and sentinels of its target with OR or AND
`,
	}, {
		name: "Using twice",
		src:  "Create Sentinel a Using Using https://y.example/\n",
		want: `f:1:25: duplicate Using: a sentinel has one Using; join the pages and sentinels of its target with OR or AND
`,
	}, {
		name: "in parentheses",
		src:  "Create Sentinel a Using (nowhere OR Using elsewhere)\n",
		want: `f:1:26: unknown sentinel nowhere
f:1:37: duplicate Using: a sentinel has one Using; join the pages and sentinels of its target with OR or AND
`,
	}, {
		name: "on the next line",
		src:  "Create Sentinel a Using https://x.example/ OR\nUsing nowhere\n",
		want: `f:2:1: duplicate Using: a sentinel has one Using; join the pages and sentinels of its target with OR or AND
`,
	}, {
		name: "after another mistake in the target",
		src:  "Create Sentinel a Using https://x.example/ OR OR Using nowhere\n",
		want: `f:1:47: expected URL or sentinel name, found "OR"
`,
	}, {
		name: "the first after a header broken before its target: read",
		src:  "Create Sentinel a https://x.example/ Using nowhere\n",
		want: `f:1:19: expected Using, found "https://x.example/"
f:1:44: unknown sentinel nowhere
`,
	}, {
		name: "after a target read cleanly",
		src:  "Create Sentinel s Using https://a.example/ Using https://b.example/ Monitor any change\n",
		want: `f:1:44: duplicate Using: a sentinel has one Using; to watch both pages, join them with OR: Using https://a.example/ OR https://b.example/
`,
	}, {
		name: "after a target read cleanly, the clauses after it read",
		src:  "Create Sentinel s Using https://a.example/\nUsing https://b.example/\nFetch 0 hours\nEvery 0 hours\n",
		want: `f:2:1: duplicate Using: a sentinel has one Using; to watch both pages, join them with OR: Using https://a.example/ OR https://b.example/
f:3:7: Fetch 0 hours: interval must be greater than 0
f:4:7: Every 0 hours: interval must be greater than 0
`,
	}, {
		name: "after a target read cleanly, that target checked",
		src:  "Create Sentinel s Using nowhere AND (https://a.example/) Using elsewhere\n",
		want: `f:1:25: unknown sentinel nowhere
f:1:58: duplicate Using: a sentinel has one Using; to watch both, join them with OR: Using (nowhere AND (https://a.example/)) OR elsewhere
`,
	}, {
		name: "after a site",
		src:  "Create Sentinel s Using site https://a.example/ depth 2 Using https://b.example/\nEvery 0 hours\n",
		want: `f:1:57: duplicate Using: a sentinel has one Using, and a site is watched alone: write another sentinel for the second target
f:2:7: Every 0 hours: interval must be greater than 0
`,
	}, {
		name: "after a target read cleanly, nothing after it",
		src:  "Create Sentinel s Using https://a.example/ Using\nMonitor any change\n",
		want: `f:1:44: duplicate Using: a sentinel has one Using; join the pages and sentinels of its target with OR or AND
`,
	}, {
		name: "after a clause of a sentinel whose target did not parse",
		src:  "Create Sentinel a Using https://a.example/\nCreate Sentinel b Using (\nMonitor any change Using x\n",
		want: `f:3:1: expected URL or sentinel name, found "Monitor"
f:3:20: duplicate Using: a sentinel has one Using; join the pages and sentinels of its target with OR or AND
`,
	}, {
		name: "a second target without OR",
		src:  "Create Sentinel s Using https://a.example/ https://b.example/\nEvery 0 hours\n",
		want: `f:1:44: expected Monitor, Fetch, Confirm, From, To, Notify, Every, Compare or Create, found "https://b.example/": to watch both pages, join them with OR: Using https://a.example/ OR https://b.example/
f:2:7: Every 0 hours: interval must be greater than 0
`,
	}, {
		name: "a second target without OR, quoted",
		src:  "Create Sentinel s Using a OR https://a.example/ \"https://b.example/\"\n",
		want: `f:1:25: unknown sentinel a
f:1:49: expected Monitor, Fetch, Confirm, From, To, Notify, Every, Compare or Create, found "https://b.example/": to watch them all, join them with OR: Using a OR https://a.example/ OR "https://b.example/"
`,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("f", []byte(tc.src))
			if err == nil {
				t.Fatal("Parse: no syntax error")
			}
			if !f.Sentinels[len(f.Sentinels)-1].HasSyntaxErrors() {
				t.Error("HasSyntaxErrors false")
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

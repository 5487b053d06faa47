package spec

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// suggested is the text a message tells to write: after its last
// "write", "as in", "did you mean" or "with OR:", up to the end, a "?", or a note
// in parentheses or after it ("for 2026-03-01 (MM/DD/YYYY)").
var suggested = regexp.MustCompile(`^.*(?:\bwrite|as in|did you mean|with OR:) (.*?)(?: for \S+ \(.*\)| \([A-Z/: ]+\)|, with slashes.*|\?)?$`)

// TestSuggestionsParse: a mistake told what to write, written as told
// (the suggestion put in place of the clause, date, change type,
// condition, name or header of the mistake), parses and checks without
// error: a suggestion that does not is worse than none.
func TestSuggestionsParse(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	const head = "Create Sentinel a Using http://a.example/ "
	for _, tc := range []struct {
		src, fixed string // fixed has %s where the suggestion goes
	}{
		{head + "From 2027-03-01", head + "From %s"},
		{head + "From 2027-03-01T09:30", head + "From %s"},
		{head + "From 03-01-2027", head + "From %s"},
		{head + "From 2027/03/01", head + "From %s"},
		{head + "From 31-12-2026", head + "From %s"},
		{head + "From 31/12/2026", head + "From %s"},
		{head + "From 12/01/2027 9am", head + "From %s"},
		{head + "From 12/01/2027 9:30 p.m.", head + "From %s"},
		{head + "From 12/01/2027 23:59:59", head + "From %s"},
		{head + "To +1 month", head + "%s"},
		{head + "Fetch every day", head + "%s"},
		{head + "Fetch every month", head + "%s"},
		{head + "Fetch every 2 hours", head + "%s"},
		{head + "Fetch every 2 months", head + "%s"},
		{head + "Fetch every 0 hours", head + "%s"},
		{head + "Fetch every 0 months", head + "%s"},
		{head + "Fetch every second", head + "%s"},
		{head + "Fetch on changes", head + "%s"},
		{head + "Every immediately", head + "%s"},
		{head + "Every interactively", head + "%s"},
		{head + "Every best efforts", head + "%s"},
		{head + "Confirm 10 minutes", head + "%s"},
		{head + "Confirm 2 months", head + "%s"},
		{head + "Confirm 0 minutes", head + "%s"},
		{head + "Compare pairwise 2", head + "%s"},
		{head + "Notify mailto:me@example.org", head + "%s"},
		{head + "Notify HTTPS://hooks.example/x", head + "%s"},
		{head + "Notify me@example.org", head + "%s"},
		{head + "Notify https://hooks.example/x", head + "%s"},
		{head + "Notify slack://x", head + "%s"},
		{head + "Notify me@example.org, you@example.org", head + "%s"},
		{head + "Notify me@example.org, https://hooks.example/x, slack://t", head + "%s"},
		{head + "Notify me@example.org, you@example.org, me@example.org", head + "%s"},
		{head + "Notify slack://t, slack://t", head + "%s"},
		{head + "Notify By slack URL", head + "%s"},
		{head + "Notify By ntfy", head + "%s"},
		{head + "Monitor any changes", head + "Monitor %s"},
		{head + "Monitor changes", head + "Monitor %s"},
		{head + "Monitor any links", head + "Monitor %s"},
		{head + "Monitor keywords {a} and {b}", head + "Monitor %s"},
		{head + `Monitor all words AND NOT phrase {"a"} OR {"b"}`, head + "Monitor %s"},
		{head + "Monitor all words except {a} AND {b}", head + "Monitor %s"},
		{head + "Monitor keywords {a}, {b}", head + "Monitor %s"},
		{head + "Monitor keywords {a}, {b}, {c}", head + "Monitor %s"},
		{head + "Monitor keywords {a} AND {b} AND {c}", head + "Monitor keywords {a} AND %s AND keywords {c}"},
		{head + `Monitor keywords {a}, phrase {"x"}`, head + "Monitor %s"},
		{head + `Monitor all links, all images AND keywords {a}, phrase {"x"}`, head + "Monitor %s"},
		{head + `Monitor phrase {"a"; "b"}`, head + "Monitor %s"},
		{head + `Monitor keywords {a; b}`, head + "Monitor %s"},
		{head + `Monitor all words except {a; b}`, head + "Monitor %s"},
		{head + "Monitor any words", head + "Monitor %s"},
		{head + "Monitor anychanges", head + "Monitor %s"},
		{head + `Monitor value In css ".p" above 10`, head + `Monitor value In css ".p" %s`},
		{head + `Monitor value In css ".p" greater than 10.5`, head + `Monitor value In css ".p" %s`},
		{head + `Monitor value In css ".p" less than 3`, head + `Monitor value In css ".p" %s`},
		{head + `Monitor value In css ".p" over 10,000`, head + `Monitor value In css ".p" %s`},
		{head + `Monitor value In css ".p" above 1e5`, head + `Monitor value In css ".p" %s`},
		{head + `Monitor value In css ".p" above 10%`, head + `Monitor value In css ".p" %s`},
		{head + "Until 1/1/2030", head + "%s"},
		{head + "Montior any change", head + "%s any change"},
		{"Create Sentinel my shop Using http://a.example/", "Create Sentinel %s Using http://a.example/"},
		{"Crate Sentinal b Using http://a.example/", "%s b Using http://a.example/"},
		{"Create Sentinel b Usin http://a.example/", "Create Sentinel b %s http://a.example/"},
		{"Create Sentinel 1s Using http://a.example/", "Create Sentinel %s Using http://a.example/"},
		{"Create Sentinel 1Using Using http://a.example/", "Create Sentinel %s Using http://a.example/"},
		{"Create Sentinel 1monitor Using http://a.example/", "Create Sentinel %s Using http://a.example/"},
		{head + "Using http://b.example/", "Create Sentinel a %s"},
		{head + "http://b.example/", "Create Sentinel a %s"},
		{head + "AND http://c.example/ Using http://b.example/", "Create Sentinel a %s"},
	} {
		_, err := Parse("f.ssl", []byte(tc.src))
		list, _ := err.(ErrorList)
		if len(list) == 0 {
			t.Errorf("%s: no error", tc.src)
			continue
		}
		g := suggested.FindStringSubmatch(list[0].Msg)
		if g == nil {
			t.Errorf("%s: %q suggests nothing", tc.src, list[0].Msg)
			continue
		}
		write := g[1]
		if n, ok := strings.CutSuffix(write, " N"); ok {
			write = n + " 1" // N stands for the number the user gives
		}
		fixed := strings.Replace(tc.fixed, "%s", write, 1)
		f, err := Parse("f.ssl", []byte(fixed))
		if err == nil {
			_, err = NewChecker(now).CheckFile(f)
		}
		if err != nil {
			t.Errorf("%s: told %q; %s: %v", tc.src, list[0].Msg, fixed, err)
		}
	}
}

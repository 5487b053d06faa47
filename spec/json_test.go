package spec

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

func TestJSONRoundTrip(t *testing.T) {
	srcs := map[string]string{
		"scenario 1": "Create Sentinel s1 Using http://www.uta.edu/class/schedule Monitor keyword (5331, 5324) Fetch 1 day From 12/02/02 To 01/02/03 Notify By email jill@aol.com Every best effort Compare pairwise",
		"scenario 2": "Create Sentinel s2 Using www2.uta.edu/x.htm Monitor all words OR anychange Fetch on change From start (s1) To end (s1) Notify By email jill@aol.com Every 1 day Compare pairwise",
		"scenario 3": "Create Sentinel s3 Using s1 Monitor phrase (“Optical Network”)",
		"everything": `Create Sentinel p Using (http://a.example OR s1) AND "https://b.example/x y"
			Monitor NOT (value In xpath "//p" rises above 10.5 Ignore css ".ad" AND all links) OR all words except {a} OR (table {t} OR list) AND regular expression {"\\d+"}
			Fetch 2 hour render Confirm after 5 minute From during(s1) + 1 hour To 12/31/2030 23:59 + 1 month
			Notify By slack://a/b, webhook https://h.example/x, fax 555, PDA "pda"
			Every interactive Compare moving 4`,
		"left and right chains": "Create Sentinel c Using http://a.example Monitor all links OR (all images OR all words) OR any change Every immediate Compare every 3",
		"site":                  "Create Sentinel docs Using site https://docs.example/guide/ pages 20 depth 1 Monitor keywords {deprecated}",
		"site without bounds":   "Create Sentinel docs Using site docs.example",
		"site with scope":       `Create Sentinel docs Using site docs.example/guide/ scope docs.example/ scope "https://docs.example/api%20v2" match "\\.html$"`,
		"value conditions":      `Create Sentinel v Using http://a.example Monitor value In css ".a" changes AND value In css ".b" increases AND value In css ".c" decreases AND value In css ".d" falls below -1 From Now + 1 day`,
	}
	for name, src := range srcs {
		t.Run(name, func(t *testing.T) {
			s := mustParse(t, src).Sentinels[0]
			data, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			back, err := DecodeSentinel(data)
			if err != nil && name != "everything" {
				t.Fatalf("decode %s: %v", data, err)
			}
			if !equalModuloPos(s, back) {
				t.Errorf("JSON round trip changed the sentinel:\n%s\n%s\n%s", data, Print(s), Print(back))
			}
			var s2 Sentinel
			if err := json.Unmarshal(data, &s2); err != nil && name != "everything" {
				t.Errorf("json.Unmarshal: %v", err)
			}
		})
	}
}

func TestJSONForm(t *testing.T) {
	s := mustParse(t, "Create Sentinel s1 Using http://www.uta.edu/class/schedule Monitor keyword (5331, 5324) AND NOT all links Fetch 1 day From 12/02/02 + 1 day To end(s0) Notify By email jill@aol.com Every best effort Compare moving 4").Sentinels[0]
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"s1","using":{"url":"http://www.uta.edu/class/schedule"},"monitor":{"and":[{"kind":"keywords","args":["5331","5324"]},{"not":{"kind":"all links"}}]},"fetch":{"interval":"1 day"},"from":{"date":"2002-12-02","offsets":["1 day"]},"to":{"end":"s0"},"notify":[{"email":"jill@aol.com"}],"every":"best effort","compare":"moving 4"}`
	if string(data) != want {
		t.Errorf("JSON form\n got %s\nwant %s", data, want)
	}
}

func TestCheckedJSON(t *testing.T) {
	c := NewChecker(date(2002, 11, 1, 12, 0))
	f := mustParse(t, "Create Sentinel s1 Using www.uta.edu/class From 12/02/2002 To 01/02/2003 Create Sentinel s3 Using s1 Monitor all words OR any change")
	out, err := c.CheckFile(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(out[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{`"parent":"s1"`, `"inherited":["From","To"]`, `"defaulted":["Fetch","Every","Compare"]`, `"urls":["http://www.uta.edu/class"]`,
		`"start":"2002-12-02T00:00:00Z"`, `"end":"2003-01-02T00:00:00Z"`, `"warnings":["all words OR any change is the same as any change`} {
		if !strings.Contains(string(data), part) {
			t.Errorf("checked JSON lacks %s:\n%s", part, data)
		}
	}
	// The API accepts what it returns: the read-only members are ignored.
	back, err := DecodeSentinel(data)
	if err != nil {
		t.Fatal(err)
	}
	if !equalModuloPos(back, out[1].Sentinel) {
		t.Errorf("decoded checked JSON:\n%s\nwant\n%s", Print(back), Print(out[1].Sentinel))
	}
	// A store keeps the JSON and gives it back to a Checker through Lookup.
	var stored Checked
	if err := json.Unmarshal(data, &stored); err != nil {
		t.Fatal(err)
	}
	if stored.Parent != "s1" || !stored.Start.Equal(out[1].Start) || !reflect.DeepEqual(stored.URLs, out[1].URLs) || len(stored.Warnings) != 1 {
		t.Errorf("decoded Checked %+v", stored)
	}
	c2 := &Checker{Now: date(2002, 11, 2, 0, 0), Lookup: func(name string) *Stored {
		if name == "s3" {
			return &Stored{Checked: &stored}
		}
		return nil
	}}
	ch, err := c2.Check(mustParse(t, "Create Sentinel s4 Using s3 From start(s3) To end(s3)").Sentinels[0])
	if err != nil || !ch.Start.Equal(out[1].Start) || !reflect.DeepEqual(ch.URLs, out[1].URLs) {
		t.Errorf("check against a stored JSON sentinel: %v %+v", err, ch)
	}
}

// keywordsOrJSON returns the JSON form of n change types "keywords {w0}
// OR keywords {w1} OR ...".
func keywordsOrJSON(n int) string {
	terms := make([]string, n)
	for i := range terms {
		terms[i] = fmt.Sprintf(`{"kind":"keywords","args":["w%d"]}`, i)
	}
	return `{"or":[` + strings.Join(terms, ",") + `]}`
}

func TestJSONErrors(t *testing.T) {
	tests := map[string]struct {
		json string
		want []string // "path: message" prefixes, in order
	}{
		"not json":         {`{`, []string{"invalid JSON"}},
		"not an object":    {`[]`, []string{"want an object, found an array"}},
		"missing":          {`{}`, []string{"name: missing", "using: missing"}},
		"unknown field":    {`{"name":"a","using":{"url":"http://a.example"},"colour":1}`, []string{"colour: unknown field"}},
		"bad name":         {`{"name":"Create","using":{"url":"http://a.example"}}`, []string{"name: invalid sentinel name"}},
		"combining":        {`{"name":"x\u0301","using":{"url":"http://a.example"}}`, []string{"name: invalid sentinel name \"x́\": U+0301 (a combining mark) makes no one character with the letter before it"}},
		"two targets":      {`{"name":"a","using":{"url":"http://a.example","sentinel":"b"}}`, []string{"using: want exactly one of url, site, sentinel, and, or"}},
		"bad url":          {`{"name":"a","using":{"or":[{"url":"http://a.example"},{"url":"ftp://b"}]}}`, []string{"using.or[1].url: invalid URL"}},
		"empty label":      {`{"name":"a","using":{"site":{"url":"http://a.example/","scope":["http://a..example/"]}}}`, []string{`using.site.scope[0]: site scope: invalid URL "http://a..example/": host "a..example" has an empty label`}},
		"bad kind":         {`{"name":"a","using":{"sentinel":"b"},"monitor":{"and":[{"kind":"all links"},{"kind":"most words"}]}}`, []string{"monitor.and[1].kind: unknown change type \"most words\""}},
		"bad arg":          {`{"name":"a","using":{"sentinel":"b"},"monitor":{"and":[{"kind":"all links"},{"not":{"kind":"keywords","args":["ok",3]}}]}}`, []string{"monitor.and[1].not.args[1]: want a string, found a number"}},
		"no args":          {`{"name":"a","using":{"sentinel":"b"},"monitor":{"kind":"keywords","args":[]}}`, []string{"monitor.args: keywords needs at least one word"}},
		"args missing":     {`{"name":"a","using":{"sentinel":"b"},"monitor":{"or":[{"kind":"all links"},{"kind":"phrase"}]}}`, []string{"monitor.or[1].args: phrase needs at least one phrase"}},
		"args no array":    {`{"name":"a","using":{"sentinel":"b"},"monitor":{"kind":"keywords","args":"price"}}`, []string{"monitor.args: want an array, found a string"}},
		"arg no string":    {`{"name":"a","using":{"sentinel":"b"},"monitor":{"kind":"keywords","args":[3]}}`, []string{"monitor.args[0]: want a string, found a number"}},
		"bad regexp":       {`{"name":"a","using":{"sentinel":"b"},"monitor":{"or":[{"kind":"all links"},{"kind":"regular expression","args":["("]}]}}`, []string{"monitor.or[1].args[0]: invalid regular expression"}},
		"one operand":      {`{"name":"a","using":{"sentinel":"b"},"monitor":{"or":[{"kind":"all links"}]}}`, []string{"monitor.or: want at least two operands"}},
		"value":            {`{"name":"a","using":{"sentinel":"b"},"monitor":{"kind":"value","in":{"css":".p"},"condition":{"op":"rises above"}}}`, []string{"monitor.condition.threshold: missing"}},
		"selector":         {`{"name":"a","using":{"sentinel":"b"},"monitor":{"kind":"all words","ignore":[{"css":".a"},{"css":"a[b"}]}}`, []string{"monitor.ignore[1].css: invalid css selector"}},
		"interval":         {`{"name":"a","using":{"sentinel":"b"},"fetch":{"interval":"0 hour"},"confirm":"2 fortnight"}`, []string{"fetch.interval: Fetch 0 hours: interval must be greater than 0", "confirm: duration \"2 fortnight\": unknown time unit"}},
		"interval unit":    {`{"name":"a","using":{"sentinel":"b"},"fetch":{"interval":"2 hourz"}}`, []string{`fetch.interval: duration "2 hourz": unknown time unit "hourz"`}},
		"onChange":         {`{"name":"a","using":{"sentinel":"b"},"fetch":{"onChange":"yes"}}`, []string{"fetch.onChange: want a boolean, found a string"}},
		"no interval":      {`{"name":"a","using":{"sentinel":"b"},"fetch":{"onChange":false,"render":true}}`, []string{"fetch: want an interval or onChange: true"}},
		"fetch huge":       {`{"name":"a","using":{"sentinel":"b"},"fetch":{"interval":"99999999999 weeks"}}`, []string{"fetch.interval: Fetch 99999999999 weeks is longer than Vigil can count"}},
		"confirm huge":     {`{"name":"a","using":{"sentinel":"b"},"confirm":"99999999999 weeks"}`, []string{"confirm: Confirm after 99999999999 weeks is longer than Vigil can count"}},
		"every huge":       {`{"name":"a","using":{"sentinel":"b"},"every":"99999999999 weeks"}`, []string{"every: Every 99999999999 weeks is longer than Vigil can count"}},
		"every too large":  {`{"name":"a","using":{"sentinel":"b"},"every":"99999999999999999999999 weeks"}`, []string{"every: Every 99999999999999999999999 weeks is longer than Vigil can count (about 292 years)"}},
		"fetch too large":  {`{"name":"a","using":{"sentinel":"b"},"fetch":{"interval":"99999999999999999999999 days"}}`, []string{"fetch.interval: Fetch 99999999999999999999999 days is longer than Vigil can count"}},
		"offset too large": {`{"name":"a","using":{"sentinel":"b"},"to":{"now":true,"offsets":["99999999999999999999999 months"]}}`, []string{"to.offsets[0]: offset 99999999999999999999999 months is longer than Vigil can count"}},
		"offset huge":      {`{"name":"a","using":{"sentinel":"b"},"to":{"now":true,"offsets":["1 day","9999999999999 months"]}}`, []string{"to.offsets[1]: offset 9999999999999 months is longer than Vigil can count"}},
		"fetch month":      {`{"name":"a","using":{"sentinel":"b"},"fetch":{"interval":"1 month"}}`, []string{"fetch.interval: Fetch 1 month: unit not allowed here"}},
		"to during":        {`{"name":"a","using":{"sentinel":"b"},"to":{"during":"b"}}`, []string{"to: want exactly one of date, now, start, end", "to.during: unknown field"}},
		"date":             {`{"name":"a","using":{"sentinel":"b"},"from":{"date":"12/02/2002"}}`, []string{"from.date: invalid date"}},
		"offset":           {`{"name":"a","using":{"sentinel":"b"},"from":{"now":true,"offsets":["1 day","-1 day"]}}`, []string{"from.offsets[1]: offset -1 day: interval must be greater than 0"}},
		"email":            {`{"name":"a","using":{"sentinel":"b"},"notify":[{"email":"jill@aol.com"},{"email":"jill"}]}`, []string{"notify[1].email: invalid email address"}},
		"chat":             {`{"name":"a","using":{"sentinel":"b"},"notify":[{"chat":"irc://x"}]}`, []string{"notify[0].chat: invalid chat URL"}},
		"webhook label":    {`{"name":"a","using":{"sentinel":"b"},"notify":[{"email":"jill@aol.com"},{"webhook":"https://hooks..example/x"}]}`, []string{`notify[1].webhook: invalid webhook URL "https://hooks..example/x": host "hooks..example" has an empty label`}},
		"webhook idna":     {`{"name":"a","using":{"sentinel":"b"},"notify":[{"webhook":"https://a\u200db.example/x"}]}`, []string{`notify[0].webhook: invalid webhook URL "https://a\u200db.example/x": host "a\u200db.example": idna: invalid label`}},
		"webhook host":     {`{"name":"a","using":{"sentinel":"b"},"notify":[{"webhook":"https://:8080/x"}]}`, []string{`notify[0].webhook: invalid webhook URL "https://:8080/x": no host`}},
		"every":            {`{"name":"a","using":{"sentinel":"b"},"every":"sometimes"}`, []string{"every: duration \"sometimes\""}},
		"compare":          {`{"name":"a","using":{"sentinel":"b"},"compare":"moving 1"}`, []string{"compare: Compare moving 1: n must be at least 2"}},
		"compare form":     {`{"name":"a","using":{"sentinel":"b"},"compare":"twice"}`, []string{"compare: invalid compare option"}},
		"name twice":       {`{"name":"a","name":"b","using":{"sentinel":"b"}}`, []string{`name: given twice: write each member once (the last would replace the others)`}},
		"monitor twice":    {`{"name":"a","using":{"sentinel":"b"},"monitor":{"kind":"all links"},"monitor":{"kind":"keywords","args":["x"]}}`, []string{`monitor: given twice`}},
		"nested twice":     {`{"name":"a","using":{"or":[{"url":"http://a.example"},{"url":"http://b.example","url":"http://c.example"}]}}`, []string{`using.or[1].url: given twice`}},
		"condition twice":  {`{"name":"a","using":{"sentinel":"b"},"monitor":{"kind":"value","in":{"css":".p"},"condition":{"op":"rises above","threshold":1,"threshold":2}}}`, []string{`monitor.condition.threshold: given twice`}},
		"change types":     {`{"name":"a","using":{"sentinel":"b"},"monitor":` + keywordsOrJSON(MaxChangeTypes+1) + `}`, []string{"monitor.or[256]: 257 change types in Monitor: want at most 256"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := DecodeSentinel([]byte(tt.json))
			var fe FieldErrors
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T), want FieldErrors", err, err)
			}
			if len(fe) != len(tt.want) {
				t.Fatalf("errors %q, want %q", fe.Error(), tt.want)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(fe[i].Error(), w) {
					t.Errorf("error %d = %q, want prefix %q", i, fe[i].Error(), w)
				}
			}
		})
	}
}

// TestSchemaMatchesDecoder keeps schema/sentinel.schema.json in step with
// the decoder: the same top-level members and the same change kinds.
func TestSchemaMatchesDecoder(t *testing.T) {
	data, err := os.ReadFile("schema/sentinel.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties map[string]any `json:"properties"`
		Defs       struct {
			ChangeType struct {
				Properties struct {
					Kind struct {
						Enum []string `json:"enum"`
					} `json:"kind"`
				} `json:"properties"`
			} `json:"changeType"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatalf("schema is not valid JSON: %v", err)
	}
	var members []string
	for k := range schema.Properties {
		members = append(members, k)
	}
	sort.Strings(members)
	want := []string{"compare", "confirm", "defaulted", "end", "every", "fetch", "from", "inherited", "monitor", "name", "notify", "parent", "requires", "site", "start", "to", "urls", "using", "warnings"}
	if !reflect.DeepEqual(members, want) {
		t.Errorf("schema members %v, want %v", members, want)
	}
	var kinds []string
	for k := AnyChange; k <= Value; k++ {
		kinds = append(kinds, k.String())
	}
	if !reflect.DeepEqual(schema.Defs.ChangeType.Properties.Kind.Enum, kinds) {
		t.Errorf("schema kinds %v, want %v", schema.Defs.ChangeType.Properties.Kind.Enum, kinds)
	}
}

func TestCheckedSite(t *testing.T) {
	c := NewChecker(date(2003, 6, 1, 12, 0))
	for src, want := range map[string]string{
		"Create Sentinel a Using site https://a.example/docs/index.html?x=1": "https://a.example/docs/index.html?x=1",
		"Create Sentinel a Using site a.example":                             "http://a.example/",
		"Create Sentinel a Using http://a.example/":                          "",
	} {
		ch, err := c.Check(mustParse(t, src).Sentinels[0])
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(ch)
		if err != nil {
			t.Fatal(err)
		}
		site, err := CheckedSite(data)
		got := ""
		if site != nil {
			got = site.URL
		}
		if err != nil || got != want {
			t.Errorf("%s: site %q, %v; want %q", src, got, err, want)
		}
	}
}

// TestStoredCheckedLoadsUnderLaterRules: a checked sentinel stored before
// NormalizeURL refused a port outside 1 to 65535, a mistyped "http:/"
// scheme and a space in a URL still decodes from the store, as it was checked then:
// refusing it stopped the monitor from checking the sentinel at all
// (decodePlan), even one whose only such URL is a webhook's, and hid it
// from the sentinels that use it. New input is held to the rules.
func TestStoredCheckedLoadsUnderLaterRules(t *testing.T) {
	for name, tc := range map[string]struct {
		doc  string
		urls []string
	}{
		"page port":        {`{"name":"s","using":{"url":"a.example:99999"},"urls":["http://a.example:99999/"]}`, []string{"http://a.example:99999/"}},
		"page scheme":      {`{"name":"s","using":{"url":"http:/a.example/"},"urls":["http://http/a.example/"]}`, []string{"http://http/a.example/"}},
		"page empty label": {`{"name":"s","using":{"url":"http://a..example/"},"urls":["http://a..example/"]}`, []string{"http://a..example/"}},
		"webhook port": {`{"name":"s","using":{"url":"http://a.example/"},"notify":[{"webhook":"http://h.example:0/x"},{"email":"a@b.example"}],"urls":["http://a.example/"]}`,
			[]string{"http://a.example/"}},
		"webhook empty label": {`{"name":"s","using":{"url":"http://a.example/"},"notify":[{"webhook":"http://h..example/x"}],"urls":["http://a.example/"]}`,
			[]string{"http://a.example/"}},
		"webhook idna": {`{"name":"s","using":{"url":"http://a.example/"},"notify":[{"webhook":"http://a\u200db.example/x"}],"urls":["http://a.example/"]}`,
			[]string{"http://a.example/"}},
		"page space": {`{"name":"s","using":{"url":"http://a.example/my page"},"urls":["http://a.example/my%20page"]}`, []string{"http://a.example/my%20page"}},
		"webhook space": {`{"name":"s","using":{"url":"http://a.example/"},"notify":[{"webhook":"http://h.example/a b"}],"urls":["http://a.example/"]}`,
			[]string{"http://a.example/"}},
		"webhook no host": {`{"name":"s","using":{"url":"http://a.example/"},"notify":[{"webhook":"http://:8080/x"}],"urls":["http://a.example/"]}`,
			[]string{"http://a.example/"}},
		"site port": {`{"name":"s","using":{"site":{"url":"http://a.example:70000/","scope":["http://a.example:70000/x"]}},"urls":["http://a.example:70000/"],"site":{"url":"http://a.example:70000/","scope":["http://a.example:70000/x"],"depth":2,"pages":10}}`,
			[]string{"http://a.example:70000/"}},
	} {
		t.Run(name, func(t *testing.T) {
			var c Checked
			if err := json.Unmarshal([]byte(tc.doc), &c); err != nil {
				t.Fatalf("a stored sentinel does not load: %v", err)
			}
			if c.Sentinel == nil || !slices.Equal(c.URLs, tc.urls) {
				t.Errorf("loaded %v with urls %q, want %q", c.Sentinel, c.URLs, tc.urls)
			}
			if _, err := DecodeSentinel([]byte(tc.doc)); err == nil {
				t.Errorf("DecodeSentinel accepts it: new input must follow the rules")
			}
		})
	}
}

// TestJSONTwiceQuotesName: a member written twice is named in its error as
// an unknown member is, through short: a name that holds a terminal's
// control characters, or a long one, is not written raw into the message.
func TestJSONTwiceQuotesName(t *testing.T) {
	long := strings.Repeat("k", 500)
	for _, key := range []string{"\x1b]0;x\x07", long} {
		k, _ := json.Marshal(key)
		doc := `{"name":"a","using":{"sentinel":"b"},"monitor":{"kind":"all links",` + string(k) + `:1,` + string(k) + `:2}}`
		_, err := DecodeSentinel([]byte(doc))
		var fe FieldErrors
		if !errors.As(err, &fe) {
			t.Fatalf("error %v (%T), want FieldErrors", err, err)
		}
		twice := false
		for _, e := range fe {
			if strings.ContainsAny(e.Error(), "\x1b\x07") || strings.Contains(e.Error(), long) {
				t.Errorf("error %q holds the member's name raw", e.Error())
			}
			twice = twice || strings.Contains(e.Msg, "given twice")
		}
		if !twice {
			t.Errorf("errors %q: want one of a member given twice", fe.Error())
		}
	}
}

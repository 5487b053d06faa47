package vigil

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// recordsOf returns a JSON array of n records, each with a text of size
// bytes.
func recordsOf(n, size int) json.RawMessage {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"row":%d,"text":%q}`, i, strings.Repeat("x", size))
	}
	b.WriteString("]")
	return json.RawMessage(b.String())
}

// TestFirstRecords: a change's first records, within a count and a byte
// bound, and how many are left out.
func TestFirstRecords(t *testing.T) {
	for _, tc := range []struct {
		name       string
		records    json.RawMessage
		n, size    int
		kept, left int
	}{
		{"none", nil, 10, 1000, 0, 0},
		{"fewer than n", recordsOf(3, 5), 10, 1 << 20, 3, 0},
		{"count bound", recordsOf(100, 5), 10, 1 << 20, 10, 90},
		{"byte bound", recordsOf(100, 1000), 50, 10_000, 9, 91},
		{"first record too long", recordsOf(5, 5000), 50, 1000, 0, 5},
		{"not an array", json.RawMessage(`{"a":1}`), 0, 0, -1, 0},
	} {
		c := &Change{Records: tc.records}
		got, omitted := c.FirstRecords(tc.n, tc.size)
		if omitted != tc.left {
			t.Errorf("%s: %d omitted, want %d", tc.name, omitted, tc.left)
		}
		if tc.kept < 0 {
			if string(got) != string(tc.records) {
				t.Errorf("%s: %s, want the records whole", tc.name, got)
			}
			continue
		}
		var all []json.RawMessage
		if len(got) > 0 {
			if err := json.Unmarshal(got, &all); err != nil {
				t.Fatalf("%s: %v: %s", tc.name, err, got)
			}
		}
		if len(all) != tc.kept || omitted > 0 && len(got) > tc.size {
			t.Errorf("%s: kept %d records in %d bytes, want %d within %d", tc.name, len(all), len(got), tc.kept, tc.size)
		}
	}
}

// TestChangeNamed: a change names the resource it is recorded on, then
// each distinct page its records list (the "page" object of a record, by
// URL and resource id as written); records that are not an array of
// objects list none.
func TestChangeNamed(t *testing.T) {
	own := ChangePage{SentinelID: 3, ResourceID: 7}
	for name, tc := range map[string]struct {
		records string
		want    []ChangePage
	}{
		"none":       {"", []ChangePage{own}},
		"not a site": {`[{"op":"insert","kind":"text","text":"x"}]`, []ChangePage{own}},
		"an object":  {`{"page":{"url":"http://a.example/"}}`, []ChangePage{own}},
		"a number":   {`[{"page":{"url":"http://a.example/"}},1]`, []ChangePage{own}},
		"pages": {`[{"op":"insert","kind":"page","page":{"url":"http://a.example/g","resourceId":9,"title":"G"}},
			{"op":"delete","kind":"page","page":{"url":"http://a.example/gone"}},
			{"op":"update","kind":"page","page":{"url":"http://a.example/g","resourceId":9}},
			{"op":"insert","kind":"text"},{"page":null}]`,
			[]ChangePage{own, {SentinelID: 3, URL: "http://a.example/g", ResourceID: 9}, {SentinelID: 3, URL: "http://a.example/gone"}}},
		"its own resource listed": {`[{"page":{"resourceId":7}}]`, []ChangePage{own}},
	} {
		t.Run(name, func(t *testing.T) {
			c := &Change{SentinelID: 3, ResourceID: 7, Records: json.RawMessage(tc.records)}
			got := c.Named()
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("Named() = %+v, want %+v", got, tc.want)
			}
		})
	}
}

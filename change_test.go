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

package web

import (
	"reflect"
	"testing"
)

// FuzzReadMembers: reading a request body against the type it decodes
// into (readMembers, which every JSON route runs on what a client sends)
// never panics, places every value within the body, and names an unknown
// member's place.
func FuzzReadMembers(f *testing.F) {
	for _, seed := range []string{
		`{"source":"Create Sentinel a Using https://example.org/\nMonitor any change\nNotify By feed\nEvery 1 day"}`,
		`{"monitor":{"op":"and","operands":[{"type":"keywords","args":["a"]},{"type":"links","args":[1]}]}}`,
		`{"name":"x","extra":{"deep":[1,2,{"x":null}]}}`,
		`{"Source":"x"}`,
		`[1,2,3]`,
		`{"a":`,
		`{"\u0000":1,"":2}`,
		`"x"`,
		`{"notify":[{"kind":"webhook","url":1e400}]}`,
	} {
		f.Add([]byte(seed))
	}
	types := []reflect.Type{reflect.TypeOf(&sentinelInput{})}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, typ := range types {
			m, ok := readMembers(body, typ)
			if !ok || m == nil {
				continue
			}
			for _, v := range m.values {
				if v.start < 0 || v.start > v.end || v.end > int64(len(body)) {
					t.Fatalf("value %q at %d-%d of a body of %d bytes", v.path, v.start, v.end, len(body))
				}
			}
			for off := int64(0); off <= int64(len(body)); off += 7 {
				m.at(off)
			}
			if u := m.unknown; u != nil && u.path() == "" && u.name != "" {
				t.Fatalf("unknown member %q with no path", u.name)
			}
		}
	})
}

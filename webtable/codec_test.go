package webtable

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestDecodeTable(t *testing.T) {
	w := valid()
	data, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeTable(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(got)
	if !bytes.Equal(again, data) {
		t.Errorf("round trip:\n%s\n%s", data, again)
	}
	tests := []struct{ name, in, want string }{
		{"syntax", `{"name": "x",}`, "webtable: decode table: byte 14: invalid character '}' looking for beginning of object key string"},
		{"type", `{"name": 3}`, "webtable: decode table: byte 10: name: want a string, not a JSON number"},
		{"list", `{"tuples": [{"id": "t", "nodes": "a0"}]}`, "webtable: decode table: byte 37: tuples.nodes: want a list, not a JSON string"},
		{"unknown field", `{"name": "x", "schema": {}}`, `webtable: decode table: json: unknown field "schema"`},
		{"date", `{"name": "x", "nodes": [{"id": "a", "version": "1", "url": "u", "modified": "15 Jan 2001"}]}`,
			`webtable: table "x": nodes[0].modified: node "a": date "15 Jan 2001" is not RFC 3339 (2001-01-15T09:30:00Z)`},
		{"trailing data", `{"name": "x"} {}`, "webtable: decode table: byte 13: data after the table"},
		{"null", `null`, "webtable: decode table: null instead of a table"},
		{"empty", ``, "webtable: decode table: EOF"},
		{"invalid table", `{"name": "x", "nodes": [], "tuples": [{"id": "t1", "nodes": ["a"]}]}`,
			`webtable: table "x": tuple "t1": tuples[0].nodes[0]: node "a" is not in the node pool`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeTable(strings.NewReader(tc.in))
			if err == nil || err.Error() != tc.want {
				t.Errorf("DecodeTable = %v\nwant %s", err, tc.want)
			}
		})
	}
	_, err = DecodeTable(strings.NewReader(tests[len(tests)-1].in))
	var e *Error
	if !errors.As(err, &e) || e.Tuple != "t1" || e.Field != "tuples[0].nodes[0]" {
		t.Errorf("validation error %#v", err)
	}
}

// A delta's tables are tables: each decodes and validates.
func TestDeltaJSON(t *testing.T) {
	d, err := Diff(build("Drugs", f1Old...), build("New Drugs", f1New...), nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var parts struct {
		Plus, Minus json.RawMessage
		Mod         struct{ Old, New json.RawMessage }
	}
	if err := json.Unmarshal(data, &parts); err != nil {
		t.Fatal(err)
	}
	for _, raw := range []json.RawMessage{parts.Plus, parts.Minus, parts.Mod.Old, parts.Mod.New} {
		if _, err := DecodeTable(bytes.NewReader(raw)); err != nil {
			t.Error(err)
		}
	}
	var back Delta
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if again, _ := json.Marshal(&back); !bytes.Equal(again, data) {
		t.Errorf("delta round trip differs")
	}
}

func TestOrigin(t *testing.T) {
	for _, o := range []Origin{FromJoin, FromOuter, FromCover, FromComplete} {
		b, err := o.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Origin
		if err := back.UnmarshalText(b); err != nil || back != o || o.String() != string(b) {
			t.Errorf("%v: %s %v %v", o, b, back, err)
		}
	}
	if _, err := Origin(0).MarshalText(); err == nil {
		t.Error("origin 0 marshalled")
	}
	if err := new(Origin).UnmarshalText([]byte("joined")); err == nil {
		t.Error(`"joined" unmarshalled`)
	}
	if Origin(9).String() != "Origin(9)" || Change(9).String() != "Change(9)" {
		t.Error("String of unknown values")
	}
}

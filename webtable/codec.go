package webtable

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"time"
)

// DecodeTable reads one web table in the JSON form encoding/json writes for
// a Table (and for the tables of a Delta), and validates it:
//
//	{"name": "Drugs",
//	 "nodes": [{"id": "a0", "version": "1", "url": "http://www.panacea.gov/",
//	            "modified": "2001-01-10T09:00:00Z"}, ...],
//	 "links": [{"id": "l1", "from": "a0", "to": "b0", "label": "AIDS", "type": "local"}, ...],
//	 "tuples": [{"id": "t1", "nodes": ["a0", "b0"], "links": ["l1"]}, ...]}
//
// Dates are RFC 3339. Unknown fields and anything after the table are
// errors; a syntax or type error gives its byte offset, a bad date or a
// malformed table its field (an *Error). Use io.LimitReader to bound what is
// read.
func DecodeTable(r io.Reader) (*Table, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var in *struct {
		Name  string `json:"name"`
		Nodes []struct {
			ID       NodeID    `json:"id"`
			Version  VersionID `json:"version"`
			URL      string    `json:"url"`
			Modified string    `json:"modified"`
		} `json:"nodes"`
		Links  []Link  `json:"links"`
		Tuples []Tuple `json:"tuples"`
	}
	if err := dec.Decode(&in); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			return nil, fmt.Errorf("webtable: decode table: byte %d: %w", syn.Offset, err)
		case errors.As(err, &typ):
			return nil, fmt.Errorf("webtable: decode table: byte %d: %s: want %s, not a JSON %s", typ.Offset, typ.Field, kind(typ.Type), typ.Value)
		}
		return nil, fmt.Errorf("webtable: decode table: %w", err)
	}
	if in == nil {
		return nil, errors.New("webtable: decode table: null instead of a table")
	}
	if off := dec.InputOffset(); !errors.Is(nextToken(dec), io.EOF) {
		return nil, fmt.Errorf("webtable: decode table: byte %d: data after the table", off)
	}
	t := &Table{Name: in.Name, Nodes: make([]Node, len(in.Nodes)), Links: in.Links, Tuples: in.Tuples}
	if in.Nodes == nil {
		t.Nodes = nil
	}
	for i, n := range in.Nodes {
		t.Nodes[i] = Node{ID: n.ID, Version: n.Version, URL: n.URL}
		if n.Modified == "" {
			continue
		}
		date, err := time.Parse(time.RFC3339Nano, n.Modified)
		if err != nil {
			return nil, &Error{Table: in.Name, Field: fmt.Sprintf("nodes[%d].modified", i),
				Msg: fmt.Sprintf("node %q: date %q is not RFC 3339 (2001-01-15T09:30:00Z)", n.ID, n.Modified)}
		}
		t.Nodes[i].Modified = date
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return t, nil
}

func nextToken(dec *json.Decoder) error {
	_, err := dec.Token()
	return err
}

// kind names a Go type as JSON does.
func kind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list"
	case reflect.Struct:
		return "an object"
	}
	return t.String()
}

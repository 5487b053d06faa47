package spec

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestReferences(t *testing.T) {
	for src, want := range map[string][]string{
		"Create Sentinel a Using http://a.example":                                               nil,
		"Create Sentinel a Using b":                                                              {"b"},
		"Create Sentinel a Using http://a.example AND (b OR C) From start(c) To end(d)":          {"b", "C", "d"},
		"Create Sentinel a Using http://a.example From during(x) To end(X)":                      {"x"},
		"Create Sentinel a Using http://a.example From 01/01/2030 To end(y) + 1 day":             {"y"},
		"Create Sentinel a Using sentinel b OR http://a.example From start(b) To end(b) + 1 day": {"b"},
	} {
		f, err := Parse("", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := References(f.Sentinels[0]); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %q, want %q", src, got, want)
		}
	}
}

// TestUsedBy: the sentinels that use another, in their stored JSON form,
// through inheritance or an event, and not itself.
func TestUsedBy(t *testing.T) {
	f := mustParse(t, "Create Sentinel a Using http://a.example\n"+
		"Create Sentinel b Using a\n"+
		"Create Sentinel c Using http://c.example To end(A)\n"+
		"Create Sentinel d Using http://d.example To end(b)\n")
	checked, err := NewChecker(date(2026, 1, 1, 0, 0)).CheckFile(f)
	if err != nil {
		t.Fatal(err)
	}
	var specs [][]byte
	for _, c := range checked {
		data, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, data)
	}
	specs = append(specs, []byte(`{"not a sentinel"`))
	for name, want := range map[string][]string{"a": {"b", "c"}, "b": {"d"}, "c": nil, "zz": nil} {
		if got := UsedBy(name, specs); !reflect.DeepEqual(got, want) {
			t.Errorf("UsedBy(%s) = %q, want %q", name, got, want)
		}
	}
}

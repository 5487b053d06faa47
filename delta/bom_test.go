package delta

import (
	"strings"
	"testing"
)

// TestDecodeXMLLeadingByteOrderMark: a XyDelta document whose file begins
// with a byte-order mark reads as the one without, as DecodeJSON and
// DecodeJSONAll read a JSON delta. DecodeXML refused it: "line 1, column
// 1: text before the root element", which only the vigil CLI, taking the
// mark off first, did not meet.
func TestDecodeXMLLeadingByteOrderMark(t *testing.T) {
	in := `<?xml version="1.0"?>` + "\n" + `<unit_delta><t><i par="1" pos="1" xm="(2)"><x/></i></t></unit_delta>`
	want, err := DecodeXML(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, bom := range []string{"\uFEFF", "\uFEFF\n"} {
		got, err := DecodeXML(strings.NewReader(bom + in))
		if err != nil {
			t.Fatalf("%q: %v", bom, err)
		}
		if len(got) != 1 || opStrings(got[0]) != opStrings(want[0]) {
			t.Errorf("%q: got %v, want %v", bom, got, want)
		}
	}
	// Only at the start of the file: a second one is text before the root.
	if _, err := DecodeXML(strings.NewReader("\uFEFF\uFEFF" + in)); err == nil || !strings.Contains(err.Error(), "text before the root element") {
		t.Errorf("two byte-order marks: %v", err)
	}
}

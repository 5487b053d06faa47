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

// TestByteOrderMarkColumns: the byte-order marks the decoders skip, at the
// start of the input and between deltas put end to end, are not counted in
// the columns of errors, which are those of the input without them, as an
// editor shows it. A mark between deltas made every column after it on its
// line one too many ("line 2, column 49" for 48).
func TestByteOrderMarkColumns(t *testing.T) {
	const bad = `{"ops":[{"op":"d","par":1,"pos":1,"xm":"(3-2)"}]}`
	const badXML = `<unit_delta><t><d par="1" pos="1" xm="(3-2)"><x/></d></t></unit_delta>`
	const badSyntax = `{"ops":[{"op":"d","par":1,"pos":1,"xm":"(2)" "x"}]}`
	const badXMLSyntax = `<unit_delta><t><d par="1" pos="1" xm="(2)"><x></d></t></unit_delta>`
	const badField = `{"ops":[{"op":"d","par":1,"pos":0,"xm":"(2)"}]}`
	for _, c := range []struct {
		name, in string
		xml      bool
		want     string // the error's start, checked against the input without marks too
	}{
		{"json line 2", "{}\n\uFEFF" + bad, false, "line 2, column 35: "},
		{"json same line", "{}\uFEFF" + bad, false, "line 1, column 37: "},
		{"json leading", "\uFEFF" + bad, false, "line 1, column 35: "},
		{"json leading, two", "\uFEFF{}\n\uFEFF" + bad, false, "line 2, column 35: "},
		{"json syntax", "{}\n\uFEFF" + badSyntax, false, "line 2, column "},
		{"json field", "{}\n\uFEFF" + badField, false, "line 2, column "},
		{"xml line 2", "<unit_delta/>\n\uFEFF" + badXML, true, "line 2, column "},
		{"xml same line", "<unit_delta/>\uFEFF" + badXML, true, "line 1, column "},
		{"xml leading", "\uFEFF" + badXML, true, "line 1, column "},
		{"xml syntax", "<unit_delta/>\n\uFEFF" + badXMLSyntax, true, "line 2, column "},
		{"xml leading syntax", "\uFEFF" + badXMLSyntax, true, "line 1, column "},
	} {
		decode := func(s string) error {
			if c.xml {
				_, err := DecodeXML(strings.NewReader(s))
				return err
			}
			_, err := DecodeJSONAll(strings.NewReader(s))
			return err
		}
		err := decode(c.in)
		want := decode(strings.ReplaceAll(c.in, "\uFEFF", ""))
		if err == nil || want == nil {
			t.Errorf("%s: err = %v, without the marks %v", c.name, err, want)
			continue
		}
		if err.Error() != want.Error() || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %v (starting %q)", c.name, err, want, c.want)
		}
	}
}

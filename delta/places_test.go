package delta

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/vigil-web/vigil/tree"
)

// decodeBoth decodes a delta file in the codec its text is in.
func decodeBoth(t *testing.T, text string) []*Delta {
	t.Helper()
	var ds []*Delta
	var err error
	if strings.HasPrefix(text, "{") {
		ds, err = DecodeJSONAll(strings.NewReader(text))
	} else {
		ds, err = DecodeXML(strings.NewReader(text))
	}
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return ds
}

// TestApplyErrorsPlaced: a decoded delta that does not fit its document
// names, in the errors of Apply and ApplyAll, the line and column where
// the operation at fault starts in the delta file (its < in XML, its { in
// JSON; columns in characters), in both codecs, for a delta of a file of
// several, and for the inverse of a decoded delta (the operation it
// undoes, numbered as the file numbers it: Invert's canonical order is
// not the file's). They named only the operation's index.
func TestApplyErrorsPlaced(t *testing.T) {
	for _, tc := range []struct {
		name      string
		xml, json string
		// where the operation at fault starts in each form
		xmlAt, jsonAt [2]int
		invert        bool
		step          int // the delta of the file at fault, when it holds several
		want          string
	}{
		{
			name:  "parent not in document",
			xmlAt: [2]int{4, 3}, jsonAt: [2]int{3, 3},
			xml: "<unit_delta>\n<t>\n<rn xid=\"9\" ov=\"name\" nv=\"title\"/>\n" +
				"  <i par=\"17\" pos=\"1\" xm=\"(20)\"><new/></i>\n</t>\n</unit_delta>\n",
			json: "{\"ops\":[\n{\"op\":\"rn\",\"xid\":9,\"ov\":\"name\",\"nv\":\"title\"},\n" +
				"  {\"op\":\"i\",\"par\":17,\"pos\":1,\"xm\":\"(20)\",\"content\":{\"kind\":\"element\",\"name\":\"new\"}}]}\n",
			want: "operation 2 (i par=17 pos=1 xm=(20)): parent XID 17 not in document",
		},
		{
			name:  "old name differs",
			xmlAt: [2]int{1, 27}, jsonAt: [2]int{1, 22},
			xml:  "<unit_delta><t from=\"日本語\"><rn xid=\"9\" ov=\"title\" nv=\"x\"/></t></unit_delta>",
			json: "{\"from\":\"日本語\",\"ops\":[{\"op\":\"rn\",\"xid\":9,\"ov\":\"title\",\"nv\":\"x\"}]}",
			want: `operation 1 (rn xid=9 ov="title" nv="x"): element XID 9 is named "name", not "title"`,
		},
		{
			name:  "updated text differs",
			xmlAt: [2]int{2, 1}, jsonAt: [2]int{2, 1},
			xml: "<unit_delta><t>\n<d par=\"2\" pos=\"1\" xm=\"(1)\" update=\"yes\">Laptop</d>\n" +
				"<i par=\"2\" pos=\"1\" xm=\"(1)\" update=\"yes\">Netbook</i>\n</t></unit_delta>",
			json: "{\"ops\":[\n{\"op\":\"d\",\"par\":2,\"pos\":1,\"xm\":\"(1)\",\"update\":true,\"content\":{\"kind\":\"text\",\"value\":\"Laptop\"}},\n" +
				"{\"op\":\"i\",\"par\":2,\"pos\":1,\"xm\":\"(1)\",\"update\":true,\"content\":{\"kind\":\"text\",\"value\":\"Netbook\"}}]}",
			want: `operation 1 (d par=2 pos=1 xm=(1) update): deleted subtree differs from the document's: at XID 1: value "Laptop" in the delta, "Notebook" in the document`,
		},
		{
			name:  "second delta of the file",
			xmlAt: [2]int{4, 1}, jsonAt: [2]int{3, 1},
			xml: "<unit_delta>\n<t><rn xid=\"9\" ov=\"name\" nv=\"title\"/></t>\n" +
				"<t>\n<au xid=\"9\" a=\"lang\" ov=\"en\" nv=\"fr\"/>\n</t>\n</unit_delta>",
			json: "{\"ops\":[{\"op\":\"rn\",\"xid\":9,\"ov\":\"name\",\"nv\":\"title\"}]}\n" +
				"{\"ops\":[\n{\"op\":\"au\",\"xid\":9,\"a\":\"lang\",\"ov\":\"en\",\"nv\":\"fr\"}]}",
			step: 2,
			want: "operation 1 (au xid=9 a=lang ov=\"en\" nv=\"fr\"): element XID 9 has no attribute lang",
		},
		{
			// Undone, the insert is a delete of a node the document does
			// not have, after the rename in canonical order: the place
			// and the number are the insert's in the file.
			name:  "inverse",
			xmlAt: [2]int{2, 1}, jsonAt: [2]int{2, 1},
			xml: "<unit_delta><t>\n<i par=\"14\" pos=\"4\" xm=\"(20)\"><new/></i>\n<rn xid=\"9\" ov=\"name\" nv=\"name\"/></t></unit_delta>",
			json: "{\"ops\":[\n{\"op\":\"i\",\"par\":14,\"pos\":4,\"xm\":\"(20)\",\"content\":{\"kind\":\"element\",\"name\":\"new\"}},\n" +
				"{\"op\":\"rn\",\"xid\":9,\"ov\":\"name\",\"nv\":\"name\"}]}",
			invert: true,
			want:   "operation 1 (d par=14 pos=4 xm=(20)): position 4 out of range: parent XID 14 has 3 children",
		},
	} {
		for _, form := range []string{"xml", "json"} {
			t.Run(tc.name+"/"+form, func(t *testing.T) {
				text, at := tc.xml, tc.xmlAt
				if form == "json" {
					text, at = tc.json, tc.jsonAt
				}
				ds := decodeBoth(t, text)
				if tc.invert {
					ds[0] = Invert(ds[0])
				}
				var err error
				if len(ds) == 1 {
					_, err = Apply(catalog(), ds[0])
				} else {
					_, err = ApplyAll(catalog(), ds)
				}
				want := fmt.Sprintf("line %d, column %d: %s", at[0], at[1], tc.want)
				if tc.step > 0 {
					want = fmt.Sprintf("delta %d: %s", tc.step, want)
				}
				if err == nil || err.Error() != want {
					t.Fatalf("err = %v\nwant %s", err, want)
				}
				var oe *OpError
				if !errors.As(err, &oe) || oe.Line != at[0] || oe.Column != at[1] || !errors.Is(err, ErrConflict) {
					t.Errorf("err = %#v, want an *OpError at line %d, column %d wrapping ErrConflict", oe, at[0], at[1])
				}
			})
		}
	}
}

// TestErrorsOfBuiltDeltasUnplaced: a delta made in memory has no file to
// name: its errors are as they were, and an operation appended to a
// decoded delta has no place either.
func TestErrorsOfBuiltDeltasUnplaced(t *testing.T) {
	d := &Delta{Ops: []Op{{Kind: Rename, Node: 9, OldValue: "title", NewValue: "x"}}}
	_, err := Apply(catalog(), d)
	if want := `operation 1 (rn xid=9 ov="title" nv="x"): element XID 9 is named "name", not "title"`; err == nil || err.Error() != want {
		t.Errorf("built: err = %v, want %s", err, want)
	}
	ds := decodeBoth(t, "<unit_delta><t>\n<rn xid=\"9\" ov=\"name\" nv=\"title\"/></t></unit_delta>")
	ds[0].Ops = append(ds[0].Ops, Op{Kind: AttrDelete, Node: 2, Name: "lang", OldValue: "en"})
	_, err = Apply(catalog(), ds[0])
	if want := `operation 2 (ad xid=2 a=lang v="en"): element XID 2 has no attribute lang`; err == nil || err.Error() != want {
		t.Errorf("appended: err = %v, want %s", err, want)
	}
}

// TestValidatePlaced: Delta.Validate names the place of a decoded
// operation that was changed in memory since, and Canonicalize, which
// reorders the operations, keeps each operation's place and number in
// the file.
func TestValidatePlaced(t *testing.T) {
	ds := decodeBoth(t, "{\"ops\":[\n{\"op\":\"i\",\"par\":14,\"pos\":4,\"xm\":\"(20)\",\"content\":{\"kind\":\"element\",\"name\":\"new\"}},\n"+
		"  {\"op\":\"rn\",\"xid\":9,\"ov\":\"name\",\"nv\":\"title\"}]}")
	d := ds[0]
	Canonicalize(d) // the rename first
	if d.Ops[0].Kind != Rename {
		t.Fatalf("canonical order: %s", opStrings(d))
	}
	d.Ops[0].NewValue = ""
	want := "line 3, column 3: operation 2 (rn xid=9 ov=\"name\" nv=\"\"): a rename needs the old and the new name"
	if err := d.Validate(); err == nil || err.Error() != want {
		t.Errorf("Validate = %v\nwant %s", err, want)
	}
}

// TestRebaseKeepsPlaces: a delta renumbered onto other XIDs (vigil patch
// does so for a delta of a separate diff) still names where its
// operations were read.
func TestRebaseKeepsPlaces(t *testing.T) {
	ds := decodeBoth(t, "<unit_delta><t fromXidMap=\"(1-3|4)\" toXidMap=\"(1-3|4)\">\n  <au xid=\"2\" a=\"k\" ov=\"1\" nv=\"2\"/></t></unit_delta>")
	r, err := Rebase(ds[0], tree.RangesOf([]tree.XID{10, 11, 12}, 13))
	if err != nil {
		t.Fatal(err)
	}
	d := doc(el("r", 12, el("a", 11, tx("t", 10))), 13)
	_, err = Apply(d, r)
	if want := "line 2, column 3: operation 1 (au xid=11 a=k ov=\"1\" nv=\"2\"): element XID 11 has no attribute k"; err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// TestOpSize: an operation's place takes the room the alignment of its
// fields leaves: an operation takes 128 bytes, as before (a delta of a
// large document holds millions).
func TestOpSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) == 8 && unsafe.Sizeof(Op{}) != 128 {
		t.Errorf("an Op takes %d bytes, want 128", unsafe.Sizeof(Op{}))
	}
}

// TestLineCounter: the places a lineCounter gives ascending offsets are
// lineCol's, lines and columns in characters alike.
func TestLineCounter(t *testing.T) {
	data := []byte("{\"a\":\"日本\",\r\n\n  \"b\":[\t1,\n日\n]}\n")
	for step := 1; step <= 4; step++ {
		var c lineCounter
		for off := 0; off <= len(data); off += step {
			if off < len(data) && !utf8.RuneStart(data[off]) {
				continue // operations start at a { or a <
			}
			line, col := lineCol(data, nil, off)
			if got := c.place(data, nil, off); got != newPlace(line, col) {
				t.Fatalf("step %d: place(%d) = %v, want %d:%d", step, off, got, line, col)
			}
		}
	}
}

// TestComposeErrorsPlaced: Compose names the place of the operation of a
// decoded delta at which two deltas do not follow each other, after the
// operation, where "second delta's line 2, column 1: operation 1" came
// from the error of Apply.
func TestComposeErrorsPlaced(t *testing.T) {
	for _, tc := range []struct{ name, d1, d2, want string }{
		{"second does not fit", `<unit_delta><t><i par="14" pos="1" xm="(20)">x</i></t></unit_delta>`,
			"<unit_delta><t>\n  <i par=\"14\" pos=\"2\" xm=\"(20)\">y</i></t></unit_delta>",
			"the second delta does not fit the first's result: the second delta's operation 1 (i par=14 pos=2 xm=(20)) at line 2, column 3: inserted XID 20 is in use in the document"},
		{"first does not lead to the second", "<unit_delta><t>\n\n<d par=\"14\" pos=\"3\" xm=\"(12-13)\"><status>Not Available</status></d></t></unit_delta>",
			`<unit_delta><t><ai xid="13" a="a" v="1"/></t></unit_delta>`,
			"the first delta does not lead to the second's source: undoing the first delta's operation 1 (d par=14 pos=3 xm=(12-13)) at line 3, column 1: inserted XID 13 is in use"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d1, d2 := decodeBoth(t, tc.d1)[0], decodeBoth(t, tc.d2)[0]
			_, err := Compose(d1, d2)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrNotComposable) {
				t.Errorf("err = %v\nwant containing %s", err, tc.want)
			}
		})
	}
	// ComposeAll follows the values through the chain first.
	ds := decodeBoth(t, "<unit_delta><t><rn xid=\"9\" ov=\"name\" nv=\"title\"/></t>\n<t>\n <rn xid=\"9\" ov=\"name\" nv=\"x\"/></t></unit_delta>")
	_, err := ComposeAll(ds)
	want := `delta 2: deltas cannot be composed: line 3, column 2: operation 1 (rn xid=9 ov="name" nv="x"): the name of XID 9 is "name", where delta 1 leaves "title"`
	if err == nil || err.Error() != want {
		t.Errorf("ComposeAll: err = %v\nwant %s", err, want)
	}
}

// TestApplyOutsideErrorPlaced: a change outside the root element that
// does not fit the document names where it starts in the delta file (its
// <outside>, its "outside" key), undone with Invert too.
func TestApplyOutsideErrorPlaced(t *testing.T) {
	withComment := func(c string) *tree.Document {
		d := catalog()
		d.Prolog = []*tree.Node{{Kind: tree.Comment, Value: c}}
		return d
	}
	for _, tc := range []struct {
		name, text string
		line, col  int
	}{
		{"xml", "<unit_delta><t>\n<rn xid=\"9\" ov=\"name\" nv=\"name\"/>\n  <outside>\n<old><prolog><!--one--></prolog></old>\n<new><prolog><!--two--></prolog></new>\n</outside></t></unit_delta>", 3, 3},
		{"json", "{\"ops\":[],\n \"outside\":{\"old\":{\"prolog\":[{\"kind\":\"comment\",\"value\":\"one\"}]},\"new\":{\"prolog\":[{\"kind\":\"comment\",\"value\":\"two\"}]}}}", 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := decodeBoth(t, tc.text)[0]
			_, err := Apply(withComment("three"), d)
			want := fmt.Sprintf(`line %d, column %d: delta does not fit the document: outside the root element, the document has comment "three" as node 1 before the root, not comment "one"`, tc.line, tc.col)
			if err == nil || err.Error() != want || !errors.Is(err, ErrConflict) {
				t.Errorf("Apply: err = %v\nwant %s", err, want)
			}
			_, err = Apply(withComment("three"), Invert(d))
			inverse := strings.Replace(want, `"one"`, `"two"`, 1)
			if err == nil || err.Error() != inverse {
				t.Errorf("Apply of the inverse: err = %v\nwant %s", err, inverse)
			}
			// Composed with a delta that leaves the outside alone, the
			// change is the composition's, which no file holds.
			c, err := Compose(d, &Delta{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = Apply(withComment("three"), c)
			unplaced := want[strings.Index(want, "delta does not fit"):]
			if err == nil || err.Error() != unplaced {
				t.Errorf("Apply of the composition: err = %v\nwant %s", err, unplaced)
			}
		})
	}
}

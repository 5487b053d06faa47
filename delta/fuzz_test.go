package delta

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

// fuzzSeeds returns the XML and JSON golden files and a few malformed inputs.
func fuzzSeeds(t interface{ Fatal(...any) }) (xmls, jsons []string) {
	data, err := os.ReadFile("testdata/seed.txtar")
	if err != nil {
		t.Fatal(err)
	}
	a := parseTxtar(string(data))
	for _, n := range a.order {
		if strings.HasSuffix(n, ".xml") {
			xmls = append(xmls, a.files[n])
		} else {
			jsons = append(jsons, a.files[n])
		}
	}
	xmls = append(xmls,
		"<unit_delta><t><d par='15' pos='2' xm='(14)' move='yes'/><i par='7' pos='1' xm='(14)' move='yes'/></t></unit_delta>",
		"<unit_delta><t><d par='14' pos='3' xm='(12-13)'><status>Not Available</status></d><i par='14' pos='1' xm='(13;12)'><b>x</b></i></t></unit_delta>",
		"<unit_delta><t><au xid='14' a='a' ov='' nv='1'/><rn xid='15' ov='catalog' nv='c'/><ai xid='7' a='z' v='&#xD;'/></t></unit_delta>",
		// Declarations on an attribute operation: XML's scoping, no binding.
		"<unit_delta><t><au xid='14' a='a' ov='' nv='1' xmlns:p='urn:p' xmlns='urn:d'/><rn xid='15' ov='catalog' nv='c' xmlns:q='urn:q'/></t></unit_delta>",
		"<unit_delta><t><d par='13' pos='1' xm='(12)' update='yes'>Not Available</d><i par='13' pos='1' xm='(12)' update='yes'>x<![CDATA[]]></i></t></unit_delta>",
		"<xy:unit_delta><xy:t><xy:i par='15' pos='3' xm='(99;98)'><a><!--c--></a></xy:i></xy:t></xy:unit_delta>",
		"<unit_delta><t><i par='15' pos='1' xm='(1-99999999999)'/></t></unit_delta>",
		"<unit_delta><t><d par='1",
		"<unit_delta><t xmlns:dc='urn:dc' xmlns:fb='urn:vigil:undeclared:fb'><i par='15' pos='1' xm='(2;1)' xmlns:dc='urn:dc2'><dc:a fb:x='1'><xy:element xmlns:xy='urn:vigil:xydelta' name='xmlns:b'><xy:attr xmlns:xy='urn:vigil:xydelta' name='xmlns:og'></xy:attr></xy:element></dc:a></i></t></unit_delta>",
		// A default namespace declared on a content's root (addedXmlns),
		// a root's own, and one in no namespace under it.
		"<unit_delta><t><i par='15' pos='1' xm='(1-4)' addedXmlns='yes'><entry xmlns='http://www.w3.org/2005/Atom'><title>t</title><x xmlns=''/></entry></i>"+
			"<i par='15' pos='2' xm='(5)'><svg xmlns='http://www.w3.org/2000/svg'/></i><d par='14' pos='1' xm='(13)' addedXmlns='yes'><a xmlns='urn:a'/></d></t></unit_delta>",
		"<unit_delta><t><au xid='2' a='a' ov='1' nv='2'/><outside>\n<old doctype='r SYSTEM &quot;r.dtd&quot;'><prolog><!-- a --></prolog><epilog><?pi x?></epilog></old>\n<new><prolog><xy:comment>a--b</xy:comment></prolog></new>\n</outside></t></unit_delta>",
		// An XML declaration as an HTML parser reads it: refused before
		// the root, where a delta leaves it out, kept after it.
		"<unit_delta><t><outside><old doctype='html'/><new doctype='html' doctype-after='1'><prolog><!-- a --></prolog><prolog><!--?xml version=\"1.0\"?--></prolog></new></outside></t></unit_delta>",
		"<unit_delta><t><outside><old/><new><epilog><!--?xml version=\"1.0\"?--></epilog></new></outside></t></unit_delta>",
	)
	jsons = append(jsons,
		`{"namespaces":{"dc":"urn:dc"},"ops":[{"op":"i","par":14,"pos":4,"xm":"(20)","namespaces":{"dc":"urn:dc2"},"content":{"kind":"element","name":"dc:a"}}]}`,
		`{"ops":[{"op":"i","par":14,"pos":4,"xm":"(20)","namespaces":{"":"http://www.w3.org/2005/Atom","dc":"urn:dc"},"content":{"kind":"element","name":"entry"}}]}`,
		`{"ops":[{"op":"d","par":15,"pos":2,"xm":"(14)","move":true},{"op":"i","par":7,"pos":1,"xm":"(14)","move":true}]}`,
		// Namespaces the decoder refuses where it reads them, naming the
		// field and the operation.
		`{"ops":[{"op":"au","xid":14,"a":"a","ov":"1","nv":"2","namespaces":{"":"urn:a"}}]}`,
		`{"ops":[{"op":"i","par":14,"pos":4,"xm":"(20)","namespaces":{"":"urn:a"},"content":{"kind":"element","name":"e","attrs":[["xmlns","urn:b"]]}}]}`,
		`{"ops":[{"op":"i","par":14,"pos":4,"xm":"(20)","namespaces":{"":1,"a:b":"u"},"content":{"kind":"element","name":"e"}}]}`,
		`{"ops":[{"op":"i","par":14,"pos":4,"xm":"(20)","namespaces":{"":"u","":"v"},"content":{"kind":"element","name":"e"}}]}`,
		`{"namespaces":{"":"urn:a"},"ops":[]}`,
		`{"ops":[{"op":"i","par":14,"pos":4,"xm":"(20;21)","content":{"kind":"element","name":"a","attrs":[["x","1"]],"children":[{"kind":"pi","name":"t","value":"d"}]}}]}`,
		`{"ops":[{"op":"au","xid":14,"a":"a","ov":"1","nv":"2"}]`,
		`{"ops":[],"outside":{"old":{"doctype":"html","prolog":[{"kind":"comment","value":"a"}],"epilog":[]},"new":{"doctype":"","prolog":[],"epilog":[{"kind":"pi","name":"p","value":"v"}]}}}`,
		`{"ops":[],"outside":{"old":{"doctype":"html","prolog":[],"epilog":[]},"new":{"doctype":"html","prolog":[{"kind":"comment","value":"?xml version=\"1.0\"?"}],"epilog":[]}}}`,
		`{"ops":[],"outside":{"old":{"prolog":[],"epilog":[]},"new":{"prolog":[],"epilog":[{"kind":"comment","value":"?XML encoding=\"utf-8\"?"}]}}}`,
		// Characters XML, and so a delta, cannot hold: refused.
		`{"ops":[{"op":"au","xid":14,"a":"a","ov":"1","nv":"a\u0001b"}]}`,
		`{"ops":[{"op":"au","xid":14,"a":"a","ov":"1","nv":"\ud800"}]}`,
		`{"ops":[{"op":"au","xid":14,"a":"a","ov":"1","nv":"\uffff"}]}`,
		`{"ops":[{"op":"au","xid":14,"a":"a","ov":"1","nv":"\u0000"}]}`,
		`{"ops":[{"op":"i","par":14,"pos":4,"xm":"(20)","content":{"kind":"text","value":"\b\ud83d\ude00"}}]}`,
		"{\"ops\":[{\"op\":\"au\",\"xid\":14,\"a\":\"a\",\"ov\":\"1\",\"nv\":\"\xef\xbf\xbe \xff\"}]}",
	)
	return xmls, jsons
}

func FuzzDecodeXML(f *testing.F) {
	xmls, _ := fuzzSeeds(f)
	for _, s := range xmls {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		ds, err := DecodeXML(strings.NewReader(in))
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) || de.Line == 0 {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		var b bytes.Buffer
		if err := EncodeXML(&b, ds...); err != nil {
			return // a value XML cannot write back, such as a carriage return in a comment
		}
		again, err := DecodeXML(&b)
		if err != nil {
			t.Fatalf("re-decoding what EncodeXML wrote: %v\n%s", err, b.String())
		}
		for i := range ds {
			if !Equal(ds[i], again[i]) {
				t.Fatalf("round trip differs for delta %d:\n%s", i+1, b.String())
			}
		}
	})
}

func FuzzDecodeJSON(f *testing.F) {
	_, jsons := fuzzSeeds(f)
	for _, s := range jsons {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		// The stream reader agrees with the single one on one delta, and
		// places its errors too.
		all, errAll := DecodeJSONAll(strings.NewReader(in))
		if errAll != nil {
			var de *DecodeError
			if !errors.As(errAll, &de) || (de.Line == 0 && de.Path == "") {
				t.Fatalf("DecodeJSONAll: error without a position: %v", errAll)
			}
		}
		d, err := DecodeJSON(strings.NewReader(in))
		if err == nil && (errAll != nil || len(all) != 1 || !Equal(all[0], d)) {
			t.Fatalf("DecodeJSON reads one delta, DecodeJSONAll %d (%v)", len(all), errAll)
		}
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) || (de.Line == 0 && de.Path == "") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		var b bytes.Buffer
		if err := EncodeJSON(&b, d); err != nil {
			t.Fatal(err)
		}
		again, err := DecodeJSON(&b)
		if err != nil || !Equal(d, again) {
			t.Fatalf("round trip: %v\n%s", err, b.String())
		}
		// The XML form holds the same delta, when XML can hold its values.
		b.Reset()
		if err := EncodeXML(&b, d); err != nil {
			return
		}
		xs, err := DecodeXML(&b)
		if err != nil || len(xs) != 1 || !Equal(d, xs[0]) {
			t.Fatalf("JSON to XML round trip: %v\n%s", err, b.String())
		}
	})
}

// FuzzApply decodes a delta and applies it to the catalog: never a panic;
// an error leaves the document as it was; a success is undone by Invert.
func FuzzApply(f *testing.F) {
	xmls, _ := fuzzSeeds(f)
	for _, s := range xmls {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		ds, err := DecodeXML(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, d := range ds {
			a := catalog()
			before := a.Clone()
			got, err := Apply(a, d)
			if diff := sameDoc(a, before); diff != "" {
				t.Fatalf("Apply changed its input: %s", diff)
			}
			if err != nil {
				if !errors.Is(err, ErrConflict) && !errors.Is(err, ErrMalformed) {
					t.Fatalf("error of no kind: %v", err)
				}
				continue
			}
			back, err := Apply(got, Invert(d))
			if err != nil {
				t.Fatalf("Apply(Apply(a, d), Invert(d)): %v\n%s", err, opStrings(d))
			}
			if diff := sameDoc(back, a); diff != "" {
				t.Fatalf("invert did not give back the document: %s\n%s", diff, opStrings(d))
			}
		}
	})
}

// FuzzApplyAll decodes a chain of deltas and applies it to the catalog
// with ApplyAll: never a panic; an error leaves the document as it was and
// is the error of the step Apply in a loop stops at; a success gives what
// Apply in a loop gives.
func FuzzApplyAll(f *testing.F) {
	xmls, _ := fuzzSeeds(f)
	for _, s := range xmls {
		f.Add(s)
	}
	f.Add(`<unit_delta><t><d par="14" pos="3" xm="(12-13)"><status>Not Available</status></d><i par="14" pos="3" xm="(16-17)"><price>$299</price></i></t>` +
		`<t><ai xid="17" a="c" v="USD"/><d par="14" pos="3" xm="(17)" move="yes"/><i par="7" pos="1" xm="(17)" move="yes"/><d par="17" pos="1" xm="(16)" update="yes">$299</d><i par="17" pos="1" xm="(16)" update="yes">$199</i></t></unit_delta>`)
	// The second step refers to a node the first deleted.
	f.Add(`<unit_delta><t><d par="14" pos="3" xm="(12-13)"><status>Not Available</status></d></t>` +
		`<t><ai xid="13" a="c" v="USD"/></t></unit_delta>`)
	f.Fuzz(func(t *testing.T, in string) {
		ds, err := DecodeXML(strings.NewReader(in))
		if err != nil || len(ds) == 0 {
			return
		}
		a := catalog()
		before := a.Clone()
		got, err := ApplyAll(a, ds)
		if diff := sameDoc(a, before); diff != "" {
			t.Fatalf("ApplyAll changed its input: %s", diff)
		}
		want, step, wantErr := a, 0, error(nil)
		for i, d := range ds {
			if want, wantErr = Apply(want, d); wantErr != nil {
				step = i + 1
				break
			}
		}
		switch {
		case err != nil && wantErr == nil:
			// ApplyAll alone checks that each delta's source fingerprint
			// is the previous one's target.
			if !errors.Is(err, ErrOtherSource) {
				t.Fatalf("ApplyAll: %v; Apply in a loop succeeds", err)
			}
		case err == nil && wantErr != nil:
			t.Fatalf("ApplyAll succeeds; Apply of delta %d: %v", step, wantErr)
		case err != nil:
			if !errors.Is(err, ErrConflict) && !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrOtherSource) {
				t.Fatalf("error of no kind: %v", err)
			}
			if errors.Is(err, ErrOtherSource) {
				break // checked before any step, where the loop does not check
			}
			var se *StepError
			switch {
			case len(ds) == 1 && err.Error() != wantErr.Error():
				t.Fatalf("ApplyAll: %v; Apply: %v", err, wantErr)
			case len(ds) > 1 && (!errors.As(err, &se) || se.Step != step || se.Err.Error() != wantErr.Error()):
				t.Fatalf("ApplyAll: %v; Apply of delta %d: %v", err, step, wantErr)
			}
		default:
			if diff := sameDoc(got, want); diff != "" {
				t.Fatalf("ApplyAll and Apply in a loop differ: %s", diff)
			}
		}
	})
}

// FuzzCompose decodes two deltas and composes them: never a panic, and
// when both apply in turn to the catalog, the composition gives the same
// result (or Compose refuses).
func FuzzCompose(f *testing.F) {
	xmls, _ := fuzzSeeds(f)
	for _, s := range xmls {
		f.Add(s)
	}
	// Two steps that compose: the catalog's E2 delta, then a move and an
	// attribute change on its result.
	f.Add(`<unit_delta><t><d par="14" pos="3" xm="(12-13)"><status>Not Available</status></d><i par="14" pos="3" xm="(16-17)"><price>$299</price></i></t>` +
		`<t><ai xid="17" a="c" v="USD"/><d par="14" pos="3" xm="(17)" move="yes"/><i par="7" pos="1" xm="(17)" move="yes"/><d par="17" pos="1" xm="(16)" update="yes">$299</d><i par="17" pos="1" xm="(16)" update="yes">$199</i></t></unit_delta>`)
	// A content in a default namespace, then a declaration changed above
	// its place, which Compose refuses to guess.
	f.Add(`<unit_delta><t><i par="14" pos="3" xm="(16)" addedXmlns="yes"><price xmlns="urn:a"/></i></t>` +
		`<t><ai xid="15" a="xmlns" v="urn:b"/><au xid="7" a="xmlns:p" ov="urn:a" nv="urn:c"/></t></unit_delta>`)
	f.Fuzz(func(t *testing.T, in string) {
		ds, err := DecodeXML(strings.NewReader(in))
		if err != nil || len(ds) < 2 {
			return
		}
		d, err := Compose(ds[0], ds[1])
		a := catalog()
		v1, err1 := Apply(a, ds[0])
		if err1 != nil {
			return
		}
		v2, err2 := Apply(v1, ds[1])
		if err2 != nil || err != nil {
			return
		}
		got, err := Apply(a, d)
		if err != nil {
			t.Fatalf("Apply(a, Compose(d1, d2)): %v\nd1:\n%s\nd2:\n%s\ncomposed:\n%s", err, opStrings(ds[0]), opStrings(ds[1]), opStrings(d))
		}
		if diff := sameDoc(got, v2); diff != "" {
			t.Fatalf("Apply(a, Compose(d1, d2)) differs: %s\nd1:\n%s\nd2:\n%s\ncomposed:\n%s", diff, opStrings(ds[0]), opStrings(ds[1]), opStrings(d))
		}
	})
}

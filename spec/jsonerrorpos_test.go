package spec

import (
	"slices"
	"testing"
)

// TestFieldErrorsInDocumentOrder: the problems of the JSON form are listed
// in the order of their places in the document, as ErrorList lists those
// of the source language, not by their paths' names: "using" written
// before "fetch" is said first, and of a list its items in order
// (args[2] before args[10]).
func TestFieldErrorsInDocumentOrder(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []string // the paths, in order
	}{
		{"members in written order",
			`{"name":"s","using":{"url":"ftp://a.example"},"fetch":{"interval":"2 hourz"}}`,
			[]string{"using.url", "fetch.interval"}},
		{"written the other way",
			`{"name":"s","fetch":{"interval":"2 hourz"},"using":{"url":"ftp://a.example"}}`,
			[]string{"fetch.interval", "using.url"}},
		{"unknown members where they are",
			`{"zzz":1,"name":"s","using":{"url":"http://a.example"},"aaa":2}`,
			[]string{"zzz", "aaa"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeSentinel([]byte(tc.doc))
			var fe FieldErrors
			if !errorsAs(err, &fe) {
				t.Fatalf("error %v, want FieldErrors", err)
			}
			var got []string
			for _, e := range fe {
				got = append(got, e.Path)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("paths %q, want %q (%v)", got, tc.want, err)
			}
		})
	}
}

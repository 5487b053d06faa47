package warehouse_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/tree"
)

// TestDocumentDiff: DocumentDiff gives what Document(from) and
// Diff(from, to) give, XIDs and delta alike, parsing each version's body
// once at most (ParsedBytes), where the two calls parsed from's twice:
// with a stored tree delta, from's alone; diffed, from's and to's.
func TestDocumentDiff(t *testing.T) {
	page := func(i int) []byte {
		return fmt.Appendf(nil, "<html><body><h1>Prices</h1><ul><li>tea %d</li><li>coffee</li></ul><p>Version %d.</p></body></html>", i, i)
	}
	for _, tc := range []struct {
		name       string
		treeDeltas bool
		from, to   int // indexes of the versions put
		stored     bool
	}{
		{"consecutive, stored tree delta", true, 0, 1, true},
		{"consecutive, diffed", false, 0, 1, false},
		{"two apart", true, 0, 2, false},
		{"backwards", false, 2, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			w, _ := newWarehouse(t, warehouse.Options{TreeDeltas: tc.treeDeltas})
			var vs []*vigil.Version
			for i := range 3 {
				vs = append(vs, put(t, w, "http://example.com/", i, page(i)))
			}
			from, to := vs[tc.from].ID, vs[tc.to].ID
			before := w.ParsedBytes()
			doc, d, err := w.DocumentDiff(ctx, from, to)
			if err != nil {
				t.Fatal(err)
			}
			parsed := w.ParsedBytes() - before
			want := int64(len(page(tc.from)))
			if !tc.stored {
				want += int64(len(page(tc.to)))
			}
			if parsed != want {
				t.Errorf("parsed %d bytes, want %d (each version needed once)", parsed, want)
			}
			wantDoc, err := w.Document(ctx, from)
			if err != nil {
				t.Fatal(err)
			}
			if diff := tree.Diff(doc.Root, wantDoc.Root, tree.ContentAndXIDs); diff != "" {
				t.Errorf("the document is not Document(from)'s: %s", diff)
			}
			wantDelta, err := w.Diff(ctx, from, to)
			if err != nil {
				t.Fatal(err)
			}
			var got, wantXML bytes.Buffer
			if err := delta.EncodeXML(&got, d); err != nil {
				t.Fatal(err)
			}
			if err := delta.EncodeXML(&wantXML, wantDelta); err != nil {
				t.Fatal(err)
			}
			if got.String() != wantXML.String() {
				t.Errorf("the delta is not Diff's:\n%s\nwant\n%s", got.String(), wantXML.String())
			}
			diffLeads(t, w, from, to)
		})
	}
}

package editdist_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/editdist"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// TestMatchFlatForestsAgrees matches the children of two roots as forests,
// once as *Node trees and once as flat trees: the same pairs.
func TestMatchFlatForestsAgrees(t *testing.T) {
	for _, tc := range []struct {
		a, b      string
		unmatched bool // nothing to match: relabelling costs more than a delete and an insert
	}{
		{`<r><p>one two</p><p>three</p><q x="1">four</q></r>`, `<r><p>one two</p><q x="2">four</q><p>three!</p><s/></r>`, false},
		{`<r><a><b>x</b><c>y</c></a><a><b>z</b></a>t</r>`, `<r>t<a><c>y</c><b>x</b></a><d><b>z</b></d></r>`, false},
		{`<r/>`, `<r><x/></r>`, false},
		// One leaf on each side: the short cut for a gap of two leaves.
		{`<r>old text</r>`, `<r>new text</r>`, false},
		{`<r>same</r>`, `<r>same</r>`, false},
		{`<r>text</r>`, `<r><!--text--></r>`, true},
		{`<r><x a="1" b="2"/></r>`, `<r><y a="1" b="3"/></r>`, false},
		{`<r><x a="1" b="2" c="3"/></r>`, `<r><x a="2" b="3" c="4"/></r>`, true},
		{`<r><x a="1" b="2"/></r>`, `<r><y a="2" b="3"/></r>`, true},
	} {
		da, err := markup.ParseXMLBytes([]byte(tc.a), nil)
		if err != nil {
			t.Fatal(err)
		}
		db, err := markup.ParseXMLBytes([]byte(tc.b), nil)
		if err != nil {
			t.Fatal(err)
		}
		fa, _ := tree.Flatten(da.Root) // sets Post: index + 1
		fb, _ := tree.Flatten(db.Root)
		want, err := editdist.MatchForests(da.Root.Children, db.Root.Children, editdist.MaxPairs)
		if err != nil {
			t.Fatal(err)
		}
		var wantIdx [][2]int32
		for _, p := range want {
			wantIdx = append(wantIdx, [2]int32{p[0].Post - 1, p[1].Post - 1})
		}
		got, err := editdist.MatchFlatForests(fa, fa.ChildList(fa.Root(), nil), fb, fb.ChildList(fb.Root(), nil), editdist.MaxPairs)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, wantIdx) {
			t.Errorf("%s -> %s: flat pairs %v, tree pairs %v", tc.a, tc.b, got, wantIdx)
		}
		if len(da.Root.Children) > 0 && len(db.Root.Children) > 0 && len(got) == 0 != tc.unmatched {
			t.Errorf("%s -> %s: %d pairs, want some: %t", tc.a, strings.TrimSpace(tc.b), len(got), !tc.unmatched)
		}
	}
	if _, err := editdist.MatchFlatForests(&tree.Flat{}, nil, &tree.Flat{}, nil, 0); err != nil {
		t.Fatalf("empty forests: %v", err)
	}
}

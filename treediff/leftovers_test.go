package treediff

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
)

// matchingOf parses two XML documents flat and returns their matching,
// measured, with nothing paired yet.
func matchingOf(t *testing.T, oldXML, newXML string) *matching {
	t.Helper()
	old, err := markup.ParseXMLFlat(strings.NewReader(oldXML), nil)
	if err != nil {
		t.Fatal(err)
	}
	new, err := markup.ParseXMLFlat(strings.NewReader(newXML), nil)
	if err != nil {
		t.Fatal(err)
	}
	return newMatching(old, new, nil)
}

// TestZipMakesRegionRoots pairs two identical regions of which one node is
// already matched elsewhere: its counterpart, inside the region zipped, is
// left unmatched under a matched parent, a region root that the leftovers
// must see although it was not one before.
func TestZipMakesRegionRoots(t *testing.T) {
	// Post-order: old "one"=0 p=1 "two"=2 q=3 x=4 y=5 r=6;
	// new y=0 "two"=1 q=2 z=3 "one"=4 p=5 "two"=6 q=7 x=8 r=9.
	m := matchingOf(t, `<r><x><p>one</p><q>two</q></x><y/></r>`, `<r><y/><z><q>two</q></z><x><p>one</p><q>two</q></x></r>`)
	m.pair(6, 9)
	m.pair(5, 0)
	m.zip(3, 2) // the old x's q went into the new z

	oldRoots := regionRoots(m.old, m.oldMatch, m.oldParent)
	newRoots := regionRoots(m.new, m.newMatch, m.newParent)
	if !slices.Equal(oldRoots, []int32{4}) || !slices.Equal(newRoots, []int32{3, 8}) {
		t.Fatalf("region roots before: old %v, new %v; want [4] and [3 8]", oldRoots, newRoots)
	}
	zips := m.pairIdenticalRegions(oldRoots, newRoots)
	if !slices.Equal(zips, [][2]int32{{4, 8}}) {
		t.Fatalf("zipped %v, want [[4 8]]", zips)
	}
	if got := m.elementRoots(m.new, m.newMatch, m.newParent, newRoots, zips, 1); !slices.Equal(got, []int32{3, 7}) {
		t.Errorf("new element roots after the zip: %v, want [3 7] (z, and the q inside the zipped x)", got)
	}
	if got := m.elementRoots(m.old, m.oldMatch, m.oldParent, oldRoots, zips, 0); len(got) != 0 {
		t.Errorf("old element roots after the zip: %v, want none", got)
	}
}

// keyedList returns a list of n empty items whose id attributes start with
// prefix.
func keyedList(n int, prefix string) string {
	var b strings.Builder
	b.WriteString("<r>")
	for k := range n {
		fmt.Fprintf(&b, `<i id="%s%d"/>`, prefix, k)
	}
	b.WriteString("</r>")
	return b.String()
}

// TestKeyedSmallRegions diffs a list whose items all changed their key:
// regions are paired only with a region of the same key, so none is, and
// the delta deletes and inserts every item; a list where only some keys
// changed keeps the others.
func TestKeyedSmallRegions(t *testing.T) {
	opt := &Options{KeyAttrs: []string{"id"}}
	for _, tt := range []struct {
		old, new         string
		deletes, inserts int
	}{
		{keyedList(50, "a"), keyedList(50, "b"), 50, 50},
		{keyedList(50, "a"), strings.Replace(keyedList(50, "a"), `id="a7"`, `id="b7"`, 1), 1, 1},
	} {
		old, err := markup.ParseXMLFlat(strings.NewReader(tt.old), nil)
		if err != nil {
			t.Fatal(err)
		}
		new, err := markup.ParseXMLFlat(strings.NewReader(tt.new), nil)
		if err != nil {
			t.Fatal(err)
		}
		d, err := DiffFlat(old, new, opt)
		if err != nil {
			t.Fatal(err)
		}
		if s := d.Stats(); s.Deletes != tt.deletes || s.Inserts != tt.inserts || s.Moves != 0 {
			t.Errorf("stats %+v, want %d deletes and %d inserts, no move", s, tt.deletes, tt.inserts)
		}
	}
}

// BenchmarkKeyedSmallRegions diffs a list of n items whose keys all changed,
// with the key attribute: linear in n (a scan of every small candidate of a
// name for each inserted item made 40 000 items take 3.3 s).
func BenchmarkKeyedSmallRegions(b *testing.B) {
	opt := &Options{KeyAttrs: []string{"id"}}
	for _, n := range []int{2000, 20000} {
		oldXML, newXML := keyedList(n, "a"), keyedList(n, "b")
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for range b.N {
				old, _ := markup.ParseXMLFlat(strings.NewReader(oldXML), nil)
				new, _ := markup.ParseXMLFlat(strings.NewReader(newXML), nil)
				if _, err := DiffFlat(old, new, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSmallRegionsNotPairedByShape: a small item (an element with one text)
// deleted in one place and another of its name inserted elsewhere, with
// no word in common, are a delete and an insert. Pairing them because
// they are small made a move and an update of what a reader sees as one
// item gone and another added: a feed item's category "review" moved to
// another item and rewritten "licensing" (feed-artsy-engineering-rss
// v0016 -> v0017), the oldest entry of a list moved to its top and
// rewritten.
func TestSmallRegionsNotPairedByShape(t *testing.T) {
	for _, tc := range []struct {
		name, old, new string
		want           delta.Stats
	}{
		{"a category gone from one item, another added to the next",
			"<channel><item><title>Eidolon</title><category>review</category><category>video</category></item><item><title>RxSwift</title><category>ios</category></item></channel>",
			"<channel><item><title>Eidolon</title><category>video</category></item><item><title>RxSwift</title><category>ios</category><category>licensing</category></item></channel>",
			delta.Stats{Inserts: 1, Deletes: 1, InsertedNodes: 2, DeletedNodes: 2}},
		{"a new item on top, the oldest gone", "<ul><li>aa aa</li><li>bb bb</li><li>cc cc</li></ul>", "<ul><li>zz new</li><li>aa aa</li><li>bb bb</li></ul>",
			delta.Stats{Inserts: 1, Deletes: 1, InsertedNodes: 2, DeletedNodes: 2}},
	} {
		v1, v2 := parse(t, tc.old), parse(t, tc.new)
		d, err := Diff(v1, v2, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkApplies(t, v1, v2, d)
		if got := d.Stats(); got != tc.want {
			t.Errorf("%s: %+v, want %+v\n%s", tc.name, got, tc.want, ops(d))
		}
	}
}

// TestSeparatorsNotMovedAlone: a link deleted at the end of a bar of links
// separated by " | " and another inserted before the last takes one
// separator away and brings one: a delete and an insert of each. Pairing
// the two separators as identical regions made a move of a " | ", which a
// summary shows as a change where none is seen.
func TestSeparatorsNotMovedAlone(t *testing.T) {
	bar := func(names ...string) string {
		var b strings.Builder
		for k, n := range names {
			if k > 0 {
				b.WriteString(" | ")
			}
			fmt.Fprintf(&b, `<a href="/%s">%s</a>`, n, n)
		}
		return "<html><body><nav>" + b.String() + "</nav><p>footer</p></body></html>"
	}
	v1 := parse(t, bar("Date41", "Sage21", "Apple52", "Nectar9", "Date16", "Kiwi60", "Sage57"))
	v2 := parse(t, bar("Date41", "Sage21", "Apple52", "Nectar9", "Date16", "Kiwi42", "Kiwi60"))
	d, err := Diff(v1, v2, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkApplies(t, v1, v2, d)
	want := delta.Stats{Inserts: 2, Deletes: 2, InsertedNodes: 3, DeletedNodes: 3}
	if got := d.Stats(); got != want {
		t.Errorf("%+v, want %+v\n%s", got, want, ops(d))
	}
}

// TestKeyedRegionsWithWords: items whose keys all changed but whose words
// did not are not paired by their words either: an element with a key
// matches only an element with the same key (the text inside may move
// from the one to the other). TestKeyedSmallRegions's items have no words,
// so that the leftovers phase never pairs them whatever the keys.
func TestKeyedRegionsWithWords(t *testing.T) {
	list := func(prefix string) string {
		var b strings.Builder
		b.WriteString("<r>")
		for k := range 5 {
			fmt.Fprintf(&b, `<i id="%s%d">item number %d</i>`, prefix, k, k)
		}
		b.WriteString("</r>")
		return b.String()
	}
	v1, v2 := parse(t, list("a")), parse(t, list("b"))
	d, err := Diff(v1, v2, &Options{KeyAttrs: []string{"id"}})
	if err != nil {
		t.Fatal(err)
	}
	checkApplies(t, v1, v2, d)
	if s := d.Stats(); s.Deletes != 5 || s.Inserts != 5 || s.AttrUpd != 0 {
		t.Errorf("stats %+v, want the 5 items deleted and inserted, no key changed\n%s", s, ops(d))
	}
}

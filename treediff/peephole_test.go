package treediff

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/tree"
)

// TestPairUniqueChildrenAgree runs the top-down pairing of a root's
// children both ways, pairwise and through the map of names, on random
// lists of children with repeated names and some children already
// matched, elsewhere or to each other: the same pairs, in both modes
// (the seed's, and Vigil's in-order one).
func TestPairUniqueChildrenAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"a", "b", "c", "d"}
	children := func() string {
		var b strings.Builder
		for range rng.IntN(topDownScan) {
			if rng.IntN(5) == 0 {
				fmt.Fprintf(&b, "text%d<z/>", rng.IntN(3))
				continue
			}
			fmt.Fprintf(&b, "<%s/>", names[rng.IntN(len(names))])
		}
		return b.String()
	}
	for _, inOrder := range []bool{false, true} {
		paired := 0
		for n := range 300 {
			oldXML, newXML := "<r>"+children()+"</r>", "<r>"+children()+"</r>"
			var results [2][]int32
			for k := range results {
				m := matchingOf(t, oldXML, newXML)
				i, j := m.old.Root(), m.new.Root()
				m.pair(i, j)
				// The same children matched beforehand, both times:
				// elsewhere (to the other root, which is all the pass
				// reads of them), or to a child of the other side, in
				// any order.
				pre := rand.New(rand.NewPCG(uint64(n), 3))
				oc := slices.Clone(m.oldChildren(i))
				vc := slices.Clone(m.newChildren(j))
				for _, ci := range oc {
					if pre.IntN(4) == 0 {
						m.oldMatch[ci] = j
					}
				}
				for _, cj := range vc {
					if pre.IntN(4) == 0 {
						m.newMatch[cj] = i
					}
				}
				for range min(len(oc), len(vc)) / 3 {
					ci, cj := oc[pre.IntN(len(oc))], vc[pre.IntN(len(vc))]
					if m.oldMatch[ci] < 0 && m.newMatch[cj] < 0 {
						m.pair(ci, cj)
					}
				}
				before := slices.Clone(m.newMatch)
				if k == 0 {
					m.pairUniqueChildren(i, j, inOrder)
				} else {
					var slots nameSlots
					m.pairUniqueChildrenByName(i, j, &slots, inOrder)
				}
				results[k] = slices.Clone(m.newMatch)
				if k == 0 {
					for c := range before {
						if before[c] != m.newMatch[c] {
							paired++
						}
					}
				}
			}
			if !slices.Equal(results[0], results[1]) {
				t.Fatalf("inOrder %v: %s -> %s: pairwise %v, by name %v", inOrder, oldXML, newXML, results[0], results[1])
			}
		}
		if paired == 0 {
			t.Fatalf("inOrder %v: no child was paired: the lists do not exercise the pass", inOrder)
		}
	}
}

// TestTopDownKeepsOrder: an item inserted at one end of a list and another
// deleted at the other end (a feed that rolls: a new story on top, the
// oldest gone) are an insert and a delete. The top-down pass, pairing the
// only unmatched child of a name on each side wherever it stands, made of
// them a move of the oldest item to the top and a rewrite of all its
// content, which is not what happened. An item that moved and kept most of
// its words is still a move, and so is a child alone of its name.
func TestTopDownKeepsOrder(t *testing.T) {
	story := func(n int, title string) string {
		return fmt.Sprintf(`<li><a href="/n/%d">%s</a></li>`, n, title)
	}
	s1, s2, s3 := story(1, "First story about cats"), story(2, "Second story about dogs"), story(3, "Third story about birds")
	s4, s5 := story(4, "Fourth story about fish"), story(5, "Breaking: new story on markets")
	section := func(h, p string) string { return "<div><h2>" + h + "</h2><p>" + p + "</p></div>" }
	a, b := section("Alpha", "the first section of the page"), section("Beta", "a section in the middle that goes")
	c, d := section("Gamma", "the last section for now"), section("Delta", "one more added at the end later")
	fox := "<p>The quick brown fox jumps over the lazy dog near the river bank</p>"
	foxText := "The quick brown fox jumps over the lazy dog near the river bank today"
	otherText := "Another sentence about something else"
	for _, tc := range []struct {
		name, old, new string
		want           delta.Stats
	}{
		{"new story on top, oldest gone", "<ul>" + s1 + s2 + s3 + s4 + "</ul>", "<ul>" + s5 + s1 + s2 + s3 + "</ul>",
			delta.Stats{Inserts: 1, Deletes: 1, InsertedNodes: 3, DeletedNodes: 3}},
		{"first gone, new one at the end", "<ul>" + s1 + s2 + s3 + s4 + "</ul>", "<ul>" + s2 + s3 + s4 + s5 + "</ul>",
			delta.Stats{Inserts: 1, Deletes: 1, InsertedNodes: 3, DeletedNodes: 3}},
		{"a section removed, another added", "<body>" + a + b + c + "</body>", "<body>" + a + c + d + "</body>",
			delta.Stats{Inserts: 1, Deletes: 1, InsertedNodes: 5, DeletedNodes: 5}},
		{"a paragraph moved and edited", "<body>" + fox + "<p>x y</p><p>z w</p></body>",
			"<body><p>x y</p><p>z w</p>" + strings.Replace(fox, "dog", "cat", 1) + "</body>",
			delta.Stats{Moves: 1, Updates: 1}},
		// A child alone of its name on both sides is the same child
		// wherever it stands: a title rewritten where the head's other
		// children moved around it is an update, not a delete and an
		// insert (page-lovoo-terms-of-service v0038 -> v0039 read
		// "rename script -> title" and "delete title").
		{"the title rewritten, the head reordered", `<html><head><title>Home</title><meta name="a" content="b"/></head><body><p>x y</p></body></html>`,
			`<html><head><meta name="a" content="b"/><title>Start</title></head><body><p>x y</p></body></html>`,
			delta.Stats{Moves: 1, Updates: 1}},
		// A text between elements, its siblings moved around it, and
		// edited, is the same text when it keeps most of its words: an
		// update (and the moves of the others), where the text matched
		// beside it made it a delete and an insert of the whole text.
		{"a bare text edited while its siblings moved around it", "<p>" + foxText + "<b>x</b>" + otherText + "</p>",
			"<p>" + otherText + "<b>x</b>" + strings.Replace(foxText, "today", "yesterday", 1) + "</p>",
			delta.Stats{Moves: 2, Updates: 1}},
		// A text that shares too few words with the one it would
		// replace across its siblings is not the same text moved: a
		// delete and an insert.
		{"a bare text replaced across its siblings", "<p>" + foxText + "<b>x</b>" + otherText + "</p>",
			"<p>" + otherText + "<b>x</b>" + "Markets opened higher on the news of the merger, the river bank today" + "</p>",
			delta.Stats{Moves: 1, Inserts: 1, Deletes: 1, InsertedNodes: 1, DeletedNodes: 1}},
		{"a heading rewritten between two blocks that swapped", "<div><aside><p>side bar text</p></aside><h1>Welcome</h1><main><p>main text here</p></main></div>",
			"<div><main><p>main text here</p></main><h1>Hello</h1><aside><p>side bar text</p></aside></div>",
			delta.Stats{Moves: 2, Updates: 1}},
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

// TestTopDownTextFeedRolls: bare lines written from one template (a log:
// a name and a time change from line to line), a new one on top and the
// oldest gone from the end. Their words read much alike, but the new line
// is not the oldest rewritten: it gets a fresh XID, and no line keeps the
// XID of another.
func TestTopDownTextFeedRolls(t *testing.T) {
	line := func(name string, hour int) string {
		return fmt.Sprintf("User %s logged in from host example.org at %02d:00 today", name, hour)
	}
	t1, t2, t3, t4, t5 := line("alice", 1), line("bob", 2), line("carol", 3), line("dave", 4), line("erin", 5)
	for _, sep := range []string{"<br/>", "<hr/>"} {
		v1 := parse(t, "<div>"+t1+sep+t2+"<br/>"+t3+"<br/>"+t4+"</div>")
		v2 := parse(t, "<div>"+t5+sep+t1+"<br/>"+t2+"<br/>"+t3+"</div>")
		d, err := Diff(v1, v2, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkApplies(t, v1, v2, d)
		deleted := map[tree.XID]bool{}
		for _, op := range d.Ops {
			if op.Kind == delta.Delete && !op.Move && !op.Update {
				deleted[op.Root()] = true
			}
		}
		for _, op := range d.Ops {
			if op.Kind == delta.Insert && !op.Move && !op.Update && deleted[op.Root()] {
				t.Errorf("separator %s: an inserted line took the XID %d of a deleted one:\n%s", sep, op.Root(), ops(d))
			}
		}
		if got := d.Stats(); got.Inserts != 1 || got.Deletes != 1 {
			t.Errorf("separator %s: %+v, want one insert and one delete\n%s", sep, got, ops(d))
		}
	}
}

package treediff

import (
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
)

// Paragraphs of the moved-and-changed tests: p1b is p1 with one word
// changed.
const (
	mcP1  = "<p>The quick brown fox jumps over the lazy dog near the river bank</p>"
	mcP1b = "<p>The quick brown fox leaps over the lazy dog near the river bank</p>"
	mcP2  = "<p>Another paragraph about something else entirely different here</p>"
	mcP3  = "<p>Third paragraph is also present with its own words inside it</p>"
	mcP4  = "<p>Fourth paragraph has words as well so that lists are longer</p>"
)

// TestMovedAndChanged diffs items that moved and changed at once where
// the item is not a region the other phases left alone on both sides: a
// paragraph moved into a new wrapper or out of a deleted one. Each is a move and an update
// (the wrapper inserted or deleted alone), not a delete and an insert of
// the item; items that only share a few words, or the same words in
// another order, stay deleted and inserted.
func TestMovedAndChanged(t *testing.T) {
	for _, tc := range []struct {
		name, old, new string
		want           delta.Stats
	}{
		{"a paragraph moved into a new wrapper, a word changed",
			"<body>" + mcP1 + mcP2 + mcP3 + mcP4 + "</body>",
			"<body>" + mcP2 + mcP3 + "<div>" + mcP1b + "</div>" + mcP4 + "</body>",
			delta.Stats{Inserts: 1, InsertedNodes: 1, Moves: 1, Updates: 1}},
		{"a paragraph moved out of a deleted wrapper, a word changed",
			"<body><div>" + mcP1 + "</div>" + mcP2 + mcP3 + mcP4 + "</body>",
			"<body>" + mcP2 + mcP3 + mcP1b + mcP4 + "</body>",
			delta.Stats{Deletes: 1, DeletedNodes: 1, Moves: 1, Updates: 1}},
		{"a paragraph moved from a deleted wrapper into a new one of another name",
			"<body><div>" + mcP1 + "</div>" + mcP2 + mcP3 + mcP4 + "</body>",
			"<body>" + mcP2 + mcP3 + "<section>" + mcP1b + "</section>" + mcP4 + "</body>",
			delta.Stats{Deletes: 1, DeletedNodes: 1, Inserts: 1, InsertedNodes: 1, Moves: 1, Updates: 1}},
		{"a paragraph moved two levels down into new wrappers",
			"<body>" + mcP1 + mcP2 + mcP3 + mcP4 + "</body>",
			"<body>" + mcP2 + mcP3 + "<div><blockquote>" + mcP1b + "</blockquote></div>" + mcP4 + "</body>",
			delta.Stats{Inserts: 1, InsertedNodes: 2, Moves: 1, Updates: 1}},
		{"a quote moved from a deleted wrapper into a new one, a word changed",
			"<body><div><blockquote>" + mcP1 + "</blockquote></div>" + mcP2 + mcP3 + mcP4 + "</body>",
			"<body>" + mcP2 + mcP3 + "<section><blockquote>" + mcP1b + "</blockquote></section>" + mcP4 + "</body>",
			delta.Stats{Deletes: 1, DeletedNodes: 1, Inserts: 1, InsertedNodes: 1, Moves: 1, Updates: 1}},
		{"two paragraphs moved into a new wrapper, each changed",
			"<body>" + mcP1 + mcP2 + mcP3 + mcP4 + "</body>",
			"<body>" + mcP3 + "<div>" + mcP1b + strings.Replace(mcP2, "else", "more", 1) + "</div>" + mcP4 + "</body>",
			delta.Stats{Inserts: 1, InsertedNodes: 1, Moves: 2, Updates: 2}},
		{"an item gone and another come, each in a wrapper, sharing a byline",
			"<body><div><item><h2>Cats rule the internet today, say owners</h2><p>Posted by John Smith on March 3</p></item></div><div>" + mcP2 + "</div></body>",
			"<body><div>" + mcP2 + "</div><div><item><h2>Markets fall sharply after the news from Asia</h2><p>Posted by John Smith on March 5</p></item></div></body>",
			delta.Stats{Deletes: 1, DeletedNodes: 6, Inserts: 1, InsertedNodes: 6}},
		{"a paragraph gone from a wrapper and another of its words in another order come",
			"<body><div>" + mcP1 + "</div>" + mcP2 + mcP3 + mcP4 + "</body>",
			"<body>" + mcP2 + mcP3 + "<p>fox lazy bank the over dog river near brown the jumps quick The</p>" + mcP4 + "</body>",
			delta.Stats{Deletes: 1, DeletedNodes: 3, Inserts: 1, InsertedNodes: 2}},
		{"a short value gone from a wrapper and one like it come in another",
			"<body><div><span>so</span></div>" + mcP2 + mcP3 + mcP4 + "</body>",
			"<body>" + mcP2 + mcP3 + "<section><span>so #55</span></section>" + mcP4 + "</body>",
			delta.Stats{Deletes: 1, DeletedNodes: 3, Inserts: 1, InsertedNodes: 3}},
		// Attributes are not words of the text: three in common do not
		// make the same item of two notes that share no words.
		{"a note gone from a wrapper and another of its attributes come in another",
			"<body><div><p class=\"note\" lang=\"en\" dir=\"ltr\">Sold out</p></div>" + mcP2 + mcP3 + mcP4 + "</body>",
			"<body>" + mcP2 + mcP3 + "<section><p class=\"note\" lang=\"en\" dir=\"ltr\">Free delivery today</p></section>" + mcP4 + "</body>",
			delta.Stats{Deletes: 1, DeletedNodes: 3, Inserts: 1, InsertedNodes: 3}},
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

package intent

import (
	"slices"
	"testing"
)

// TestPhraseWordSwapped: a phrase of two words of which one was replaced
// by one other word, in its place, in a block of text whose other words
// around it are kept (at least minSwapContext of them), is changed, both
// sides as the pages write them ("Free shipping on orders over $50" ->
// "Fast shipping on orders over $50"): the sentence is the same, edited.
// It was always removed, as one word left of a phrase is (minPhraseKept).
// A word swapped where the block keeps too few words around it to tell an
// edit from other text ("Reviews: closed shop."), a word taken out or
// replaced by several, or a block whose other words changed too, is
// still the phrase removed.
func TestPhraseWordSwapped(t *testing.T) {
	page := func(b string) string { return `<html><body>` + b + `</body></html>` }
	for _, tc := range []struct {
		name, phrase, old, new, line string
	}{
		{"first word swapped", "free shipping", `<p>Free shipping on orders over $50</p>`, `<p>Fast shipping on orders over $50</p>`, "~ phrase changed: Free shipping -> Fast shipping"},
		{"context on both sides", "free shipping", `<p>We offer free shipping today</p>`, `<p>We offer fast shipping today</p>`, "~ phrase changed: free shipping -> fast shipping"},
		{"last word swapped", "free shipping", `<p>Enjoy free shipping on all orders</p>`, `<p>Enjoy free returns on all orders</p>`, "~ phrase changed: free shipping -> free returns"},
		{"the phrase appears", "free shipping", `<p>Fast shipping on orders over $50</p>`, `<p>Free shipping on orders over $50</p>`, "~ phrase changed: Fast shipping -> Free shipping"},
		{"too few words around", "great shop", `<p>Reviews: great shop.</p>`, `<p>Reviews: closed shop.</p>`, "- phrase removed: great shop"},
		{"a word taken out", "free shipping", `<p>Free shipping on orders over $50</p>`, `<p>Shipping on orders over $50</p>`, "- phrase removed: free shipping"},
		{"a word replaced by two", "free shipping", `<p>Free shipping on orders over $50</p>`, `<p>Paid express shipping on orders over $50</p>`, "- phrase removed: free shipping"},
		{"the words around changed too", "free shipping", `<p>Free shipping on orders over $50</p>`, `<p>Fast shipping for members only</p>`, "- phrase removed: free shipping"},
		{"the words around in another block", "free shipping", `<h2>Free shipping</h2><p>On orders over $50</p>`, `<h2>Fast shipping</h2><p>On orders over $50</p>`, "- phrase removed: free shipping"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, page(tc.old), page(tc.new), `phrase {"`+tc.phrase+`"}`)
			var lines []string
			for _, c := range r.Changes {
				lines = append(lines, c.Line())
			}
			if !slices.Equal(lines, []string{tc.line}) {
				t.Errorf("%q: %s -> %s: %q, want %q", tc.phrase, tc.old, tc.new, lines, tc.line)
			}
		})
	}
}

// TestPhraseUpdatedOnce: two phrases watched, one edited into the other
// ("free shipping" -> "fast shipping", "big sale today" -> "big sale
// tomorrow"), are one change, the phrase changed, told once: the removed
// phrase's update and the added phrase's are the same edit of the same
// words, which was told twice.
func TestPhraseUpdatedOnce(t *testing.T) {
	page := func(b string) string { return `<html><body>` + b + `</body></html>` }
	for _, tc := range []struct {
		name, phrases, old, new, line string
	}{
		{"a word swapped", `"free shipping", "fast shipping"`, `<p>Free shipping on orders over $50</p>`, `<p>Fast shipping on orders over $50</p>`, "~ phrase changed: Free shipping -> Fast shipping"},
		{"two words kept", `"big sale today", "big sale tomorrow"`, `<p>Come to our big sale today at noon</p>`, `<p>Come to our big sale tomorrow at noon</p>`, "~ phrase changed: big sale today -> big sale tomorrow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := evalClause(t, page(tc.old), page(tc.new), `phrase {`+tc.phrases+`}`)
			var lines []string
			for _, c := range r.Changes {
				lines = append(lines, c.Line())
			}
			if !slices.Equal(lines, []string{tc.line}) {
				t.Errorf("%s: %s -> %s: %q, want %q", tc.phrases, tc.old, tc.new, lines, tc.line)
			}
		})
	}
}

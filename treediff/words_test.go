package treediff

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
)

// words returns the hashes of the given words as wordsOf makes them.
func words(ws ...string) wordSet {
	var s wordSet
	for _, w := range ws {
		s = append(s, mixWord(wordHash(fnvBasis, w)))
	}
	return s
}

func TestNewWordSet(t *testing.T) {
	long := strings.Repeat("x", leftoverTextLimit-5)
	for _, tc := range []struct {
		name, xml string
		want      wordSet
	}{
		{"distinct, in first order", `<p>b a  b<i>c a</i>d</p>`, words("b", "a", "c", "d")},
		{"attributes", `<p k="v">w</p>`, append(words("w"), mixWord(wordHash(wordHash(fnvBasis, "k")^'=', "v")))},
		{"empty", `<p/>`, nil},
		// The budget ends inside "end": its first letter is read, the
		// element after it is not.
		{"budget", `<p><q>abc ` + long + `end</q><r k="v">more</r></p>`, words("abc", long+"e")},
	} {
		f, err := markup.ParseXMLFlat(strings.NewReader(tc.xml), nil)
		if err != nil {
			t.Fatal(err)
		}
		var scratch, store wordSet
		var index wordIndex
		got := wordsOf(f, f.Root(), wordOptions{}, &scratch, &index, &store)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %x, want %x", tc.name, got, tc.want)
		}
		for _, w := range tc.want {
			if !index.has(w) {
				t.Errorf("%s: the index does not hold %x", tc.name, w)
			}
		}
		if index.has(mixWord(wordHash(fnvBasis, "absent"))) {
			t.Errorf("%s: the index holds a word it was not given", tc.name)
		}
	}
}

func TestDice(t *testing.T) {
	var index wordIndex
	for _, tc := range []struct {
		a, b wordSet
		want float64
	}{
		{nil, nil, 1},
		{words("a"), nil, 0},
		{words("a", "b"), words("b", "a"), 1},
		{words("a", "b", "c"), words("c", "d"), 0.4},
	} {
		index.reset(len(tc.a))
		for _, w := range tc.a {
			index.add(w)
		}
		if got, _ := index.diceCommon(tc.a, tc.b); got != tc.want {
			t.Errorf("dice(%x, %x) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestWordSetBoundsAttributes: the attributes of an element are read up
// to a bound too, as its text is: one element with thousands of them,
// compared with each of thousands of inserted ones that share a word with
// it, made the leftover search quadratic.
func TestWordSetBoundsAttributes(t *testing.T) {
	var b strings.Builder
	b.WriteString("<p")
	for k := range 3 * leftoverTextLimit {
		fmt.Fprintf(&b, ` a%d="v"`, k)
	}
	b.WriteString(">text</p>")
	f, err := markup.ParseXMLFlat(strings.NewReader(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	var scratch, store wordSet
	var index wordIndex
	got := wordsOf(f, f.Root(), wordOptions{}, &scratch, &index, &store)
	if len(got) > leftoverTextLimit {
		t.Errorf("%d words, want %d at most", len(got), leftoverTextLimit)
	}
	if first := mixWord(wordHash(wordHash(fnvBasis, "a0")^'=', "v")); len(got) < 2 || got[0] != words("text")[0] || got[1] != first {
		t.Errorf("the text and the first attribute are not read first: %x", got[:min(len(got), 2)])
	}
}

package intent

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

func parseDoc(t testing.TB, s string) *tree.Document {
	t.Helper()
	d, _, err := markup.ParseBytes([]byte(s), nil)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return d
}

// brief writes a change as the note's §7 does: delete(v,pos),
// insert(v,pos), move(v,old,new), update(old->new,oldpos,newpos); keyword
// changes as delete_keyword(k,pos).
func brief(c Change) string {
	switch c.Kind {
	case KindKeyword:
		v := c.Old
		pos := c.OldPos
		if c.Op == Insert {
			v, pos = c.New, c.NewPos
		}
		return fmt.Sprintf("%s_keyword(%s,%d)", c.Op, v, pos)
	}
	switch c.Op {
	case Delete:
		return fmt.Sprintf("delete(%s,%d)", c.Old, c.OldPos)
	case Insert:
		return fmt.Sprintf("insert(%s,%d)", c.New, c.NewPos)
	case Move:
		return fmt.Sprintf("move(%s,%d,%d)", c.Old, c.OldPos, c.NewPos)
	}
	return fmt.Sprintf("update(%s->%s,%d,%d)", c.Old, c.New, c.OldPos, c.NewPos)
}

func briefs(cs []Change) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, brief(c))
	}
	slices.Sort(out)
	return out
}

func evalType(t *testing.T, old, new string, ct *spec.ChangeType, opt *Options) *Result {
	t.Helper()
	p := NewPair(parseDoc(t, old), parseDoc(t, new), nil, opt)
	r, err := p.Evaluate(ct)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func lits(ss ...string) []*spec.Lit {
	var out []*spec.Lit
	for _, s := range ss {
		out = append(out, &spec.Lit{Value: s})
	}
	return out
}

// books is the Books document of the seed's Fig 4.1 (the note's §7.2).
const books = `<Books><Section> Children
<Book><Name> Harry Potter And the Sorcerer's Stone </Name>
<Author> by J. K Rowling </Author>
</Book> <Book>
<Name> Harry Potter And the Chamber of Secrets
</Name> <Author> by J. K Rowling </Author>
</Book></Section></Books>`

func booksWith(from, to string) string { return strings.Replace(books, from, to, 1) }

var seedOnly = &Options{SeedOnly: true, PhraseThreshold: 2}

// TestAnyChange runs the note's §7.1-7.3 (T1-T8).
func TestAnyChange(t *testing.T) {
	any := &spec.ChangeType{Kind: spec.AnyChange}
	tests := []struct {
		name     string
		old, new string
		opt      *Options
		want     []string
	}{
		{"T1 running example", `<R><S><P>A</P><P>D</P><Q>G</Q><P>C</P><P>E</P><P>D</P></S></R>`,
			`<R><S><P>A</P><Q>F</Q><P>E</P><P>D</P><P>C</P></S></R>`, seedOnly,
			[]string{"delete(D,2)", "delete(G,3)", "insert(F,2)", "move(C,4,5)"}},
		{"T1 with updates", `<R><S><P>A</P><P>D</P><Q>G</Q><P>C</P><P>E</P><P>D</P></S></R>`,
			`<R><S><P>A</P><Q>F</Q><P>E</P><P>D</P><P>C</P></S></R>`, nil,
			[]string{"delete(D,2)", "move(C,4,5)", "update(G->F,3,2)"}},
		{"T2 duplicate delete at the right position", books,
			booksWith("<Author> by J. K Rowling </Author>\n</Book> <Book>", "\n</Book> <Book>"), seedOnly,
			[]string{"delete(by J. K Rowling,3)"}},
		{"T3 root mismatch", `<R><a>1</a></R>`, `<X><a>1</a></X>`, seedOnly,
			[]string{"delete(1,1)", "insert(1,1)"}},
		{"T5 same value other context", `<R><a>x</a></R>`, `<R><b>x</b></R>`, seedOnly,
			[]string{"delete(x,1)", "insert(x,1)"}},
		{"T6 attribute signature", `<R><p cur="USD">5</p></R>`, `<R><p cur="EUR">5</p></R>`, seedOnly,
			[]string{"delete(USD,1)", "insert(EUR,1)"}},
		{"T6 with updates", `<R><p cur="USD">5</p></R>`, `<R><p cur="EUR">5</p></R>`, nil,
			[]string{"update(USD->EUR,1,1)"}},
		{"T7 no change", books, books, nil, []string{}},
		{"T7 no change optimized", books, books, &Options{Optimize: true}, []string{}},
		{"T8 white space only", `<R><a>one  two</a><b>three</b></R>`, "<R>\n  <a>one\n two</a>\n  <b>three</b>\n</R>", nil, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := evalType(t, tc.old, tc.new, any, tc.opt)
			got := briefs(r.Changes)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got %v\nwant %v", got, want)
			}
			if r.Matched != (len(want) > 0) {
				t.Errorf("Matched = %v", r.Matched)
			}
		})
	}
}

// TestSwap is T4: a swap is exactly one move without the optimization, and
// with the repaired optimization too (the seed's optimization reports
// nothing, its admitted accuracy loss).
func TestSwap(t *testing.T) {
	any := &spec.ChangeType{Kind: spec.AnyChange}
	for _, opt := range []*Options{seedOnly, {SeedOnly: true, Optimize: true}} {
		r := evalType(t, `<R><a>1</a><b>2</b></R>`, `<R><b>2</b><a>1</a></R>`, any, opt)
		if len(r.Changes) != 1 || r.Changes[0].Op != Move {
			t.Errorf("optimize=%v: got %v, want exactly one move", opt.Optimize, briefs(r.Changes))
		}
	}
}

// TestKeywords runs the note's §7.4 (K1-K7).
func TestKeywords(t *testing.T) {
	phil := booksWith("Sorcerer's", "Philosopher's")
	tests := []struct {
		name     string
		old, new string
		kw       string
		want     []string
	}{
		{"K1", books, phil, "Harry", nil},
		{"K2", books, phil, "Sorcerer's", []string{"delete_keyword(Sorcerer's,2)"}},
		{"K2b", books, phil, "Philosopher's", []string{"insert_keyword(Philosopher's,2)"}},
		{"K3", books, booksWith("Harry Potter And the Chamber of Secrets", "The Hobbit"), "Harry",
			[]string{"delete_keyword(Harry,4)"}},
		{"K5 root renamed", books, strings.ReplaceAll(books, "Books>", "Library>"), "Harry",
			[]string{"delete_keyword(Harry,2)", "delete_keyword(Harry,4)", "insert_keyword(Harry,2)", "insert_keyword(Harry,4)"}},
		{"K6 identical", books, books, "Harry", nil},
		{"K7 early stop", `<Books><Section><Book><Name>Hobbit</Name></Book></Section></Books>`,
			`<Books><Section><Book><Name>Hobbit</Name></Book></Section><New><Book><Name>Harry</Name></Book></New></Books>`,
			"Harry", []string{"insert_keyword(Harry,2)"}},
		{"case folded", books, booksWith("Harry Potter And the Chamber", "HARRY Potter And the Chamber"), "harry", nil},
		{"J.K.Rowling is one word", books, booksWith("J. K Rowling", "J.K.Rowling"), "Rowling", []string{"delete_keyword(Rowling,3)"}},
		// The record names the keyword as the page writes it, its case
		// kept, without the punctuation around it, which is no part of
		// the word found: "+ keyword added: red", not "red.".
		{"punctuation after", "<p>Status: green.</p>", "<p>Status: red.</p>", "red", []string{"insert_keyword(red,1)"}},
		{"punctuation around", "<p>No offer</p>", `<p>Our offer: "SALE!" (sale), ¡Sale!</p>`, "sale",
			[]string{"insert_keyword(SALE,1)", "insert_keyword(Sale,1)", "insert_keyword(sale,1)"}},
		{"C++ keeps its signs", "<p>Go</p>", "<p>Go, (C++).</p>", "C++", []string{"insert_keyword(C++,1)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := evalType(t, tc.old, tc.new, &spec.ChangeType{Kind: spec.Keywords, Args: lits(tc.kw)}, seedOnly)
			got := briefs(r.Changes)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got %v\nwant %v", got, want)
			}
		})
	}
	// The keyword's word position in its leaf and its signature.
	r := evalType(t, books, phil, &spec.ChangeType{Kind: spec.Keywords, Args: lits("Sorcerer's")}, nil)
	if c := r.Changes[0]; c.WordPos != 5 || c.Signature != "Books-Section-Book-Name" || c.OldPath != "/Books[1]/Section[1]/Book[1]/Name[1]/text()[1]" {
		t.Errorf("record %+v", c)
	}
	// Case-sensitive comparison is an option.
	r = evalType(t, books, booksWith("Harry Potter And the Chamber", "HARRY Potter And the Chamber"),
		&spec.ChangeType{Kind: spec.Keywords, Args: lits("Harry")}, &Options{CaseSensitive: true})
	if got := briefs(r.Changes); !slices.Equal(got, []string{"delete_keyword(Harry,4)"}) {
		t.Errorf("case-sensitive: got %v", got)
	}
}

// TestPhrases runs the note's §7.5 (P1-P3).
func TestPhrases(t *testing.T) {
	const phrase = "the Sorcerer's Stone by J. K Rowling"
	phil := booksWith("Sorcerer's", "Philosopher's")
	tests := []struct {
		name     string
		old, new string
		phrase   string
		opt      *Options
		want     []string
	}{
		{"P1", books, phil, phrase, seedOnly, []string{"delete(" + phrase + ",3)"}},
		{"P1rev", phil, books, phrase, seedOnly, []string{"insert(" + phrase + ",3)"}},
		{"P1 update", books, phil, phrase, nil,
			[]string{"update(" + phrase + "->the Philosopher's Stone by J. K Rowling,3,0)"}},
		{"P1 update below f", books, phil, phrase, &Options{PhraseThreshold: 0.9}, []string{"delete(" + phrase + ",3)"}},
		{"P2", books, books, phrase, nil, nil},
		{"P3", books, booksWith("<Author> by J. K Rowling </Author>\n</Book> <Book>", "\n</Book> <Book>"),
			"by J. K Rowling", nil, []string{"delete(by J. K Rowling,3)"}},
		{"punctuation and case", books, booksWith("J. K Rowling", "j k rowling"), phrase, nil, nil},
		// The note's §7.5 gap, decided as doc.go says: words are split at
		// white space, so the thesis's "J.K.Rowling" is one word, and not
		// the phrase "by J. K Rowling".
		{"J.K.Rowling is one word", books, booksWith("J. K Rowling", "J.K.Rowling"), "by J. K Rowling", nil,
			[]string{"delete(by J. K Rowling,3)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := evalType(t, tc.old, tc.new, &spec.ChangeType{Kind: spec.Phrase, Args: lits(tc.phrase)}, tc.opt)
			got := briefs(r.Changes)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got %v\nwant %v", got, want)
			}
		})
	}
	// The phrase's signature spans Name and Author (§4.6.1).
	r := evalType(t, books, phil, &spec.ChangeType{Kind: spec.Phrase, Args: lits(phrase)}, seedOnly)
	if got := r.Changes[0].Signature; got != "Books-Section-Book-Name-Author" {
		t.Errorf("signature %q", got)
	}
	if s := r.Changes[0]; s.OldPath == "" {
		t.Errorf("no path: %+v", s)
	}
}

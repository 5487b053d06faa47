package spec

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestFormatMonitorCommentsProperty formats Monitor clauses of random
// shape (AND, OR, NOT, parentheses; lists of several items, phrases,
// scopes, values with conditions and Ignores) with comments between any two of their tokens, on lines of
// their own or at the end of one. The canonical form must be a fixed
// point, keep every comment's text, and keep every comment between the
// same list items: the items written before a comment are the items
// printed before it (one before the first operand goes above the clause,
// before every item in both).
func TestFormatMonitorCommentsProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := range 3000 {
		var toks []string
		item := 0
		next := func() string { item++; return "i" + strconv.Itoa(item) }
		var operand func(depth int)
		var expr func(depth int)
		operand = func(depth int) {
			switch r := rng.IntN(8); {
			case r == 0 && depth < 3:
				toks = append(toks, "NOT")
				operand(depth + 1)
			case r == 1 && depth < 3:
				toks = append(toks, "(")
				expr(depth + 1)
				toks = append(toks, ")")
			case r == 2:
				toks = append(toks, "value", "In", "xpath", `"//`+next()+`"`, []string{"changes", "rises", "falls"}[rng.IntN(3)])
				switch toks[len(toks)-1] {
				case "rises":
					toks = append(toks, "above", "1.5")
				case "falls":
					toks = append(toks, "below", "-2")
				}
			case r == 3:
				toks = append(toks, "phrase", "{")
				for k := range 1 + rng.IntN(3) {
					if k > 0 {
						toks = append(toks, ",")
					}
					toks = append(toks, `"`+next()+` x"`)
				}
				toks = append(toks, "}")
			default:
				kind := []string{"keywords", "table", "list", "all words except"}[rng.IntN(4)]
				toks = append(toks, kind, "{")
				for k := range 1 + rng.IntN(3) {
					if k > 0 {
						toks = append(toks, ",")
					}
					toks = append(toks, next())
				}
				toks = append(toks, "}")
				if rng.IntN(4) == 0 {
					toks = append(toks, "In", "css", `"#`+next()+`"`)
				}
				if rng.IntN(4) == 0 {
					toks = append(toks, "Ignore", "css", `".`+next()+`"`)
				}
			}
		}
		expr = func(depth int) {
			operand(depth)
			for range rng.IntN(3) {
				toks = append(toks, []string{"AND", "OR"}[rng.IntN(2)])
				operand(depth)
			}
		}
		expr(0)
		var b strings.Builder
		b.WriteString("Create Sentinel s Using http://a.example\n  Monitor")
		n := 0
		for _, tok := range toks {
			if rng.IntN(4) == 0 {
				n++
				if rng.IntN(2) == 0 {
					b.WriteString(" # c" + strconv.Itoa(n) + "\n    ")
				} else {
					b.WriteString("\n    # c" + strconv.Itoa(n) + "\n    ")
				}
			}
			b.WriteString(" " + tok)
		}
		b.WriteString("\n  Fetch 1 hour # f\n")
		src := b.String()
		f, err := Parse("p.ssl", []byte(src))
		if err != nil {
			t.Fatalf("%d: %v\n%s", iter, err, src)
		}
		out := Print(f)
		g, err := Parse("q.ssl", []byte(out))
		if err != nil {
			t.Fatalf("%d: the canonical form does not parse: %v\n%s", iter, err, out)
		}
		if again := Print(g); again != out {
			t.Fatalf("%d: not a fixed point\ninput:\n%s\nprinted:\n%s\nreprinted:\n%s", iter, src, out, again)
		}
		if got, want := commentTexts(g), commentTexts(f); !slices.Equal(got, want) {
			t.Fatalf("%d: comments %q, want %q\ninput:\n%s\nprinted:\n%s", iter, got, want, src, out)
		}
		if got, want := itemsBeforeComments(out), itemsBeforeComments(src); !slices.Equal(got, want) {
			t.Fatalf("%d: comments moved between items: %q, want %q\ninput:\n%s\nprinted:\n%s", iter, got, want, src, out)
		}
	}
}

var itemOrComment = regexp.MustCompile(`# c[0-9]+|\bi[0-9]+\b`)

// itemsBeforeComments returns, for each comment "# cN" of src in the
// order of N, the items "iK" written before it.
func itemsBeforeComments(src string) []string {
	var out []string
	var items []string
	for _, m := range itemOrComment.FindAllString(src, -1) {
		if strings.HasPrefix(m, "#") {
			out = append(out, m+" after "+strings.Join(items, " "))
		} else {
			items = append(items, m)
		}
	}
	slices.Sort(out)
	return out
}

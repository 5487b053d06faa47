package spec

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestFormatMonitorCommentsProperty formats Monitor clauses of random
// shape (AND, OR, NOT, parentheses; lists of several items, phrases,
// scopes, values with conditions and Ignores) with comments between any
// two of their tokens (see checkOperandComments).
func TestFormatMonitorCommentsProperty(t *testing.T) {
	checkOperandComments(t, rand.New(rand.NewPCG(3, 4)),
		"Create Sentinel s Using http://a.example\n  Monitor%s\n  Fetch 1 hour # f\n",
		func(rng *rand.Rand, next func() string) ([]string, bool) {
			var toks []string
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
			return toks, true
		})
}

// TestFormatTargetCommentsProperty formats Using clauses of random shape
// (URLs, quoted or not, and sentinels combined by AND and OR, with
// parentheses; or a site with its depth, pages, scopes and match) with
// comments between any two of their tokens (see checkOperandComments).
func TestFormatTargetCommentsProperty(t *testing.T) {
	checkOperandComments(t, rand.New(rand.NewPCG(5, 6)),
		"Create Sentinel s Using%s\n  Monitor any change # m\n",
		func(rng *rand.Rand, next func() string) ([]string, bool) {
			var toks []string
			if rng.IntN(4) == 0 {
				toks = append(toks, "site", "http://"+next()+".example/")
				var parts [][]string
				if rng.IntN(2) == 0 {
					parts = append(parts, []string{"depth", "2"})
				}
				if rng.IntN(2) == 0 {
					parts = append(parts, []string{"pages", "10"})
				}
				for range rng.IntN(4) {
					parts = append(parts, []string{"scope", "http://a.example/" + next() + "/"})
				}
				if rng.IntN(2) == 0 {
					parts = append(parts, []string{"match", `"\\.` + next() + `$"`})
				}
				// Sometimes in another order than the printer's, which
				// moves the parts, not the comments between them.
				canonical := rng.IntN(3) > 0
				if !canonical {
					rng.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
				}
				return slices.Concat(append([][]string{toks}, parts...)...), canonical
			}
			var operand func(depth int)
			var expr func(depth int)
			operand = func(depth int) {
				switch r := rng.IntN(6); {
				case r == 0 && depth < 3:
					toks = append(toks, "(")
					expr(depth + 1)
					toks = append(toks, ")")
				case r == 1:
					toks = append(toks, "sentinel", next())
				case r == 2:
					toks = append(toks, next())
				case r == 3:
					toks = append(toks, `"http://a.example/`+next()+` x"`)
				default:
					toks = append(toks, "http://"+next()+".example/")
				}
			}
			expr = func(depth int) {
				operand(depth)
				for range rng.IntN(4) {
					toks = append(toks, []string{"AND", "OR"}[rng.IntN(2)])
					operand(depth)
				}
			}
			expr(0)
			return toks, true
		})
}

// TestFormatNotifyCommentsProperty formats Notify clauses of one to four
// contacts of every kind, with comments between any two of their tokens
// (see checkOperandComments).
func TestFormatNotifyCommentsProperty(t *testing.T) {
	checkOperandComments(t, rand.New(rand.NewPCG(7, 8)),
		"Create Sentinel s Using http://a.example\n  Notify%s\n  Every 1 day # e\n",
		func(rng *rand.Rand, next func() string) ([]string, bool) {
			toks := []string{"By"}
			for k := range 1 + rng.IntN(4) {
				if k > 0 {
					toks = append(toks, ",")
				}
				switch rng.IntN(4) {
				case 0:
					toks = append(toks, "email", next()+"@a.example")
				case 1:
					toks = append(toks, "email", `"`+next()+`@a.example"`)
				case 2:
					toks = append(toks, "webhook", `"https://`+next()+`.example/h?x=1"`)
				default:
					toks = append(toks, "slack://"+next()+".example/x")
				}
			}
			return toks, true
		})
}

// checkOperandComments formats 3000 files made by writing the tokens of a
// random clause (from clause, whose items "iN" are numbered by next) into
// layout, with comments "# cN" between any two of them, on lines of their
// own or at the end of one, and sometimes a comment "# t" at the end of
// the clause's last line, between two other sentinels. The canonical
// form must parse to the same syntax tree, be a fixed point, keep every
// comment's text in the same order, be the sentinels' canonical forms
// (Split) joined, and keep every comment between the same items: the items
// written before a comment are the items printed before it (one before
// the first operand goes above the clause, before every item in both),
// unless clause reports that it wrote its parts in another order than the
// printer's.
// "# t" stays at the end of the clause's last line, but where comments
// written after the clause's last part took it: it then follows them, on
// a line of its own.
func checkOperandComments(t *testing.T, rng *rand.Rand, layout string, clause func(rng *rand.Rand, next func() string) (toks []string, canonical bool)) {
	t.Helper()
	for iter := range 3000 {
		item := 0
		next := func() string { item++; return "i" + strconv.Itoa(item) }
		toks, canonical := clause(rng, next)
		text, trailing := commentedClause(rng, toks)
		// Between two other sentinels, for Split.
		src := "Create Sentinel a Using http://a.example/ # a\n\n" + fmt.Sprintf(layout, text) + "\nCreate Sentinel z Using http://z.example/ # z\n"
		out := checkFormatted(t, iter, src)
		if got, want := itemsBeforeComments(out), itemsBeforeComments(src); canonical && !slices.Equal(got, want) {
			t.Fatalf("%d: comments moved between items: %q, want %q\ninput:\n%s\nprinted:\n%s", iter, got, want, src, out)
		}
		if trailing && !endsClause(out, "# t") {
			t.Fatalf("%d: # t no longer ends the clause\ninput:\n%s\nprinted:\n%s", iter, src, out)
		}
	}
}

// commentedClause writes toks apart by spaces, with comments "# cN"
// (numbered from 1) before any of them, on lines of their own or at the
// end of one, and sometimes "# t" after the last, which trailing reports.
func commentedClause(rng *rand.Rand, toks []string) (text string, trailing bool) {
	var b strings.Builder
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
	trailing = rng.IntN(2) == 0
	if trailing {
		b.WriteString(" # t")
	}
	return b.String(), trailing
}

// checkFormatted formats src, which must parse, and returns its canonical
// form, which must parse to the same syntax tree, be a fixed point, keep
// every comment's text in the same order, and be the sentinels'
// canonical forms (Split) joined; iter names the case in a failure.
func checkFormatted(t *testing.T, iter int, src string) string {
	t.Helper()
	f, err := Parse("p.ssl", []byte(src))
	if err != nil {
		t.Fatalf("%d: %v\n%s", iter, err, src)
	}
	out := Print(f)
	g, err := Parse("q.ssl", []byte(out))
	if err != nil {
		t.Fatalf("%d: the canonical form does not parse: %v\ninput:\n%s\nprinted:\n%s", iter, err, src, out)
	}
	if !equalModuloPos(f.Sentinels, g.Sentinels) {
		t.Fatalf("%d: Parse(Print(x)) != x\ninput:\n%s\nprinted:\n%s", iter, src, out)
	}
	if again := Print(g); again != out {
		t.Fatalf("%d: not a fixed point\ninput:\n%s\nprinted:\n%s\nreprinted:\n%s", iter, src, out, again)
	}
	if got, want := commentTexts(g), commentTexts(f); !slices.Equal(got, want) {
		t.Fatalf("%d: comments %q, want %q\ninput:\n%s\nprinted:\n%s", iter, got, want, src, out)
	}
	var parts []string
	for _, p := range Split(f) {
		parts = append(parts, Print(p))
	}
	if joined := strings.Join(parts, "\n"); joined != out {
		t.Fatalf("%d: the parts (Split) differ from the file\ninput:\n%s\nprinted:\n%s\nparts:\n%s", iter, src, out, joined)
	}
	if got, want := commentOrder.FindAllString(out, -1), commentOrder.FindAllString(src, -1); !slices.Equal(got, want) {
		t.Fatalf("%d: comments in the order %q, want %q\ninput:\n%s\nprinted:\n%s", iter, got, want, src, out)
	}
	return out
}

var commentOrder = regexp.MustCompile(`# [a-z][0-9]*`)

// endsClause reports whether the comment c of the canonical form out ends
// the line of code before it, or follows, on lines of their own, the
// comment that does.
func endsClause(out, c string) bool {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if !strings.HasSuffix(l, c) {
			continue
		}
		for j := i; j >= 0; j-- {
			code, comment, ok := strings.Cut(lines[j], "#")
			if !ok {
				return false
			}
			if strings.TrimSpace(code) != "" {
				return j == i || strings.HasPrefix(lines[j+1], "\t#")
			}
			if j < i && !strings.HasPrefix(lines[j+1], "\t#") || comment == "" {
				return false
			}
		}
	}
	return false
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

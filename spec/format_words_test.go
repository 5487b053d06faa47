package spec

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestFormatClauseCommentsProperty formats the clauses without operands
// (Fetch, Confirm, From and To, Every, Compare), of random forms and
// spellings, with comments between any two of their tokens (see
// checkWordComments).
func TestFormatClauseCommentsProperty(t *testing.T) {
	interval := func(rng *rand.Rand) []string {
		n := 1 + rng.IntN(30)
		unit := []string{"second", "minute", "hour", "day", "week", "month"}[rng.IntN(6)]
		switch rng.IntN(3) {
		case 0:
			unit += "s"
		case 1:
			unit = strings.ToUpper(unit[:1]) + unit[1:]
		}
		return []string{strconv.Itoa(n), unit}
	}
	timeSpec := func(rng *rand.Rand, keyword string) []string {
		toks := []string{keyword}
		switch r := rng.IntN(4); {
		case r == 0:
			toks = append(toks, fmt.Sprintf("%d/%d/%d", 1+rng.IntN(12), 1+rng.IntN(28), 2030+rng.IntN(3)))
			if rng.IntN(2) == 0 {
				toks = append(toks, fmt.Sprintf("%d:%02d", rng.IntN(24), rng.IntN(60)))
			}
		case r == 1:
			toks = append(toks, []string{"Now", "now"}[rng.IntN(2)])
		default:
			events := []string{"start", "end"}
			if keyword == "From" {
				events = append(events, "during")
			}
			toks = append(toks, events[rng.IntN(len(events))], "(", "s"+strconv.Itoa(rng.IntN(9)), ")")
		}
		for range rng.IntN(3) {
			toks = append(append(toks, "+"), interval(rng)...)
		}
		return toks
	}
	tests := map[string]struct {
		layout string // the sentinel, the clause at %s
		clause func(rng *rand.Rand) []string
	}{
		"Fetch": {
			"Create Sentinel s Using http://a.example\n  Monitor any change # m\n  %s\n  Notify By email a@b.example # n\n",
			func(rng *rand.Rand) []string {
				toks := []string{[]string{"Fetch", "fetch"}[rng.IntN(2)]}
				if rng.IntN(3) == 0 {
					toks = append(toks, "on", "change")
				} else {
					toks = append(toks, interval(rng)...)
				}
				if rng.IntN(2) == 0 {
					toks = append(toks, "render")
				}
				return toks
			},
		},
		"Confirm": {
			"Create Sentinel s Using http://a.example\n  Fetch 1 hour # f\n  %s\n  Every 1 day # e\n",
			func(rng *rand.Rand) []string {
				return append([]string{"Confirm", "after"}, interval(rng)...)
			},
		},
		"From and To": {
			"Create Sentinel s Using http://a.example\n  Fetch 1 hour # f\n  %s\n  Every 1 day # e\n",
			func(rng *rand.Rand) []string {
				switch rng.IntN(4) {
				case 0:
					return timeSpec(rng, "From")
				case 1:
					return timeSpec(rng, "To")
				}
				return append(timeSpec(rng, "From"), timeSpec(rng, "To")...)
			},
		},
		"Every": {
			"Create Sentinel s Using http://a.example\n  Notify By email a@b.example # n\n  %s\n  Compare pairwise # c\n",
			func(rng *rand.Rand) []string {
				switch rng.IntN(4) {
				case 0:
					return []string{"Every", "immediate"}
				case 1:
					return []string{"Every", "best", []string{"effort", "Effort"}[rng.IntN(2)]}
				case 2:
					return []string{"Every", "interactive"}
				}
				return append([]string{"Every"}, interval(rng)...)
			},
		},
		"Compare": {
			"Create Sentinel s Using http://a.example\n  Every 1 day # e\n  %s\n",
			func(rng *rand.Rand) []string {
				n := strconv.Itoa(2 + rng.IntN(9))
				switch rng.IntN(4) {
				case 0:
					return []string{"Compare", "pairwise"}
				case 1:
					return []string{"Compare", "every", n}
				case 2:
					return []string{"Compare", "moving", n}
				}
				return []string{"Compare", "moving" + n} // the seed's glued form
			},
		},
	}
	seed := uint64(11)
	for name, tt := range tests {
		seed++
		t.Run(name, func(t *testing.T) {
			checkWordComments(t, rand.New(rand.NewPCG(seed, seed)), tt.layout, tt.clause)
		})
	}
}

// checkWordComments formats 2000 files made by writing the tokens of a
// random clause (from clause, its keyword first) into layout with
// comments "# cN" before any of them, on lines of their own or at the
// end of one, and sometimes a comment "# t" at the end of the clause's
// last line, between two other sentinels. Besides what checkFormatted
// checks, every comment must stay between the same two tokens (as many
// come before it), at the end of a line if it was written at the end of
// one and on a line of its own if it was written on one; "# t" must end
// the clause's last line.
func checkWordComments(t *testing.T, rng *rand.Rand, layout string, clause func(rng *rand.Rand) []string) {
	t.Helper()
	for iter := range 2000 {
		text, trailing := commentedClause(rng, clause(rng))
		src := "Create Sentinel a Using http://a.example/ # a\n\n" + fmt.Sprintf(layout, text) + "\nCreate Sentinel z Using http://z.example/ # z\n"
		out := checkFormatted(t, iter, src)
		got, want := commentGaps(out), commentGaps(src)
		for c, w := range want {
			if g := got[c]; g != w {
				t.Fatalf("%d: %s: %d tokens before it, at the end of a line %v; want %d, %v\ninput:\n%s\nprinted:\n%s", iter, c, g.tokens, g.code, w.tokens, w.code, src, out)
			}
		}
		if trailing && !endsClause(out, "# t") {
			t.Fatalf("%d: # t no longer ends the clause\ninput:\n%s\nprinted:\n%s", iter, src, out)
		}
	}
}

// commentGap is where a comment is among the tokens of a file.
type commentGap struct {
	tokens int  // the tokens before it, comments aside
	code   bool // a token before it on its line
}

// commentGaps returns where each comment of src is, by its text. The
// seed's glued "moving4", which the printer writes as two tokens, counts
// as two.
func commentGaps(src string) map[string]commentGap {
	gaps := map[string]commentGap{}
	var sc Scanner
	sc.Init([]byte(src), nil)
	n, line := 0, 0
	for {
		pos, tok, lit := sc.Scan()
		switch tok {
		case EOF:
			return gaps
		case COMMENT:
			gaps[lit] = commentGap{n, pos.Line == line}
		default:
			n, line = n+1, pos.Line
			if tok == IDENT && glued(lit) != 0 {
				n++
			}
		}
	}
}

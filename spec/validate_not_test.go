package spec

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestNotPlacement: a NOT is refused, at the NOT, only where nothing
// narrows it: where no enclosing AND (with the NOTs around it pushed
// inward, as package intent's ¬, ∧ and ∨ allow) has an operand that
// holds only beside a change. Each want is "column in the expression:
// message"; the suggestions are written with the parentheses their
// meaning needs.
func TestNotPlacement(t *testing.T) {
	const hint = "NOT only narrows a change type it is combined with by AND"
	for _, tc := range []struct {
		expr string
		want []string
	}{
		// Narrowed: valid.
		{"all links AND NOT keywords {sale}", nil},
		{"all links AND (NOT keywords {sale} OR NOT keywords {offer})", nil},
		{"(NOT keywords {sale} OR NOT keywords {offer}) AND all links", nil},
		{"all words AND (all links OR NOT all images)", nil},
		{"all words AND (all links OR (all images AND (NOT keywords {a} OR NOT keywords {b})))", nil},
		{"all words AND ((NOT keywords {a} OR NOT keywords {b}) OR all links)", nil},
		{"all words AND NOT keywords {a} OR all links AND NOT all images", nil},
		{"(all links OR all images) AND NOT (keywords {a} OR keywords {b})", nil},
		{"all words AND NOT (all links AND NOT all images)", nil},
		{"all words AND NOT (keywords {a} OR NOT keywords {b})", nil},
		{"all words AND NOT (NOT keywords {a} AND NOT keywords {b})", nil},
		{"(all links OR NOT keywords {a}) AND (all images OR NOT keywords {b}) AND all words", nil},
		// NOT of a NOT of what changes: a change type.
		{"NOT (NOT all links OR NOT all images)", nil},
		{"NOT (NOT all links AND NOT all images)", nil},
		{"all links OR NOT (NOT all images OR NOT keywords {a})", nil},

		// Nothing narrows: refused, with what to write.
		{"NOT keywords {x}", []string{"1: NOT keywords {x} has no change type to narrow, so the sentinel would fire on every change that is not to keywords {x}: " + hint + "; write what to watch before it, e.g. any change AND NOT keywords {x}"}},
		{"NOT any change", []string{"1: NOT any change has no change type to narrow, so the sentinel could never fire: " + hint + "; write what to watch, e.g. all links AND NOT keywords {sale}"}},
		{"NOT (keywords {a} OR keywords {b})", []string{"1: NOT (keywords {a} OR keywords {b}) has no change type to narrow, so the sentinel would fire on every change that is not to (keywords {a} OR keywords {b}): " + hint + "; write what to watch before it, e.g. any change AND NOT (keywords {a} OR keywords {b})"}},
		{"NOT (all links AND NOT all images)", []string{"1: NOT (all links AND NOT all images) has no change type to narrow, so the sentinel would fire on every change that is not to (all links AND NOT all images): " + hint + "; write what to watch before it, e.g. any change AND NOT (all links AND NOT all images)"}},
		{"NOT all images AND NOT keywords {x}", []string{"1: NOT all images AND NOT keywords {x} has no change type to narrow, so the sentinel would fire on every change that is to none of all images, keywords {x}: " + hint + "; write what to watch before it, e.g. any change AND NOT all images AND NOT keywords {x}"}},
		{"NOT keywords {sale} OR NOT keywords {offer}", []string{"1: NOT keywords {sale} OR NOT keywords {off... has no change type to narrow, so the sentinel would fire on every change that is not to all of keywords {sale}, keywords {offer}: " + hint + "; write what to watch before it, e.g. any change AND (NOT keywords {sale} OR NOT keywords {offer})"}},
		{"all links OR NOT keywords {x}", []string{"14: all links OR NOT keywords {x} would fire on every change that is not to keywords {x}: " + hint + "; write all links AND NOT keywords {x}"}},
		{"all links OR all images OR NOT keywords {x}", []string{"28: all links OR all images OR NOT keywords ... would fire on every change that is not to keywords {x}: " + hint + "; write (all links OR all images) AND NOT keywords {x}"}},
		{"all words OR (all links OR NOT all images)", []string{"28: all words OR (all links OR NOT all image... would fire on every change that is not to all images: " + hint + "; write (all words OR all links) AND NOT all images"}},
		{"all links AND NOT all images OR NOT keywords {x}", []string{"33: all links AND NOT all images OR NOT keyw... would fire on every change that is not to keywords {x}: " + hint + "; write all links AND NOT all images AND NOT keywords {x}"}},
		{"all links OR NOT (keywords {a} OR keywords {b})", []string{"14: all links OR NOT (keywords {a} OR keywor... would fire on every change that is not to (keywords {a} OR keywords {b}): " + hint + "; write all links AND NOT (keywords {a} OR keywords {b})"}},
		{"all links OR all images OR NOT any change", []string{"28: all links OR all images OR NOT any chang...: NOT any change never holds, since every new version is a change: " + hint + "; write all links OR all images"}},
		{"NOT all images AND (all links OR NOT keywords {x})", []string{"1: NOT all images AND (all links OR NOT key... has no change type to narrow, so the sentinel would fire on every change that is not to all images: " + hint + "; write what to watch before it, e.g. any change AND NOT all images AND (all links OR NOT keywords {x})"}},
		{"(all links OR NOT keywords {a}) AND (all images OR NOT keywords {b})", []string{
			"15: all links OR NOT keywords {a} would fire on every change that is not to keywords {a}: " + hint + "; write all links AND NOT keywords {a}",
			"52: all images OR NOT keywords {b} would fire on every change that is not to keywords {b}: " + hint + "; write all images AND NOT keywords {b}"}},
		{"all words AND NOT (NOT keywords {a} OR keywords {b}) OR NOT all links", []string{"57: all words AND NOT (NOT keywords {a} OR k... would fire on every change that is not to all links: " + hint + "; write all words AND NOT (NOT keywords {a} OR keywords {b}) AND NOT all links"}},
		// NOT NOT.
		{"NOT NOT all links", []string{"1: NOT NOT all links is all links: write all links"}},
		{"all words AND NOT NOT all links", []string{"15: NOT NOT all links is all links: write all links"}},
		{"NOT NOT (all links OR NOT all images)", []string{
			"1: NOT NOT (all links OR NOT all images) is all links OR NOT all images: write all links OR NOT all images",
			"23: all links OR NOT all images would fire on every change that is not to all images: " + hint + "; write (all links AND NOT all images)"}},
		{"all words AND NOT NOT (all links OR all images)", []string{"15: NOT NOT (all links OR all images) is (all links OR all images): write (all links OR all images)"}},
		{"NOT NOT NOT keywords {x}", []string{
			"1: NOT NOT NOT keywords {x} is NOT keywords {x}: write NOT keywords {x}",
			"9: NOT keywords {x} has no change type to narrow, so the sentinel would fire on every change that is not to keywords {x}: " + hint + "; write what to watch before it, e.g. (any change AND NOT keywords {x})"}},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			const prefix = "Create Sentinel s Using http://a.example Monitor "
			f := mustParse(t, prefix+tc.expr)
			_, err := NewChecker(date(2026, 11, 1, 12, 0)).Check(f.Sentinels[0])
			var got []string
			if el, ok := err.(ErrorList); ok {
				for _, e := range el {
					got = append(got, fmt.Sprintf("%d: %s", e.Pos.Column-len(prefix), e.Msg))
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("errors\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestNotPlacementMeaning: over random expressions, a NOT is refused
// exactly when the expression holds for a new version that changes none
// of its change types (package intent evaluates NOT, AND and OR as ¬, ∧
// and ∨ of the primitives), that is, when it would fire on almost every
// change.
func TestNotPlacementMeaning(t *testing.T) {
	prims := []string{"keywords {a}", "keywords {b}", "all links"}
	rng := rand.New(rand.NewPCG(1, 2))
	var gen func(depth int) Expr
	gen = func(depth int) Expr {
		if depth == 0 || rng.IntN(4) == 0 {
			return mustParse(t, "Create Sentinel s Using http://a.example Monitor "+prims[rng.IntN(len(prims))]).Sentinels[0].Monitor.X
		}
		switch rng.IntN(3) {
		case 0:
			return &NotExpr{X: gen(depth - 1)}
		case 1:
			return &BinaryExpr{X: gen(depth - 1), Op: And, Y: gen(depth - 1)}
		}
		return &BinaryExpr{X: gen(depth - 1), Op: Or, Y: gen(depth - 1)}
	}
	// noChange is the expression for a version that changes none of
	// its change types.
	var noChange func(x Expr) bool
	noChange = func(x Expr) bool {
		switch x := x.(type) {
		case *NotExpr:
			return !noChange(x.X)
		case *BinaryExpr:
			if x.Op == And {
				return noChange(x.X) && noChange(x.Y)
			}
			return noChange(x.X) || noChange(x.Y)
		}
		return false
	}
	for range 3000 {
		src := Print(gen(4))
		f := mustParse(t, "Create Sentinel s Using http://a.example Monitor "+src)
		_, err := NewChecker(date(2026, 11, 1, 12, 0)).Check(f.Sentinels[0])
		refused := false
		if el, ok := err.(ErrorList); ok {
			for _, e := range el {
				refused = refused || strings.Contains(e.Msg, "NOT only narrows")
			}
		}
		if want := noChange(f.Sentinels[0].Monitor.X); refused != want {
			t.Errorf("Monitor %s: NOT refused %v, want %v (it holds for a version that changes none of its change types: %v)", src, refused, want, want)
		}
	}
}

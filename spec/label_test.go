package spec

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// orChain returns n change types "keywords {w0} OR keywords {w1} OR ...":
// a Monitor expression as long as a user cares to make it.
func orChain(n int) string {
	terms := make([]string, n)
	for i := range terms {
		terms[i] = fmt.Sprintf("keywords {w%d}", i)
	}
	return strings.Join(terms, " OR ")
}

// labelUp labels x bottom up, each node from its operands' labels, as
// package intent labels the results of an evaluation.
func labelUp(x Expr) string {
	switch x := x.(type) {
	case *NotExpr:
		return Label(x, labelUp(x.X))
	case *BinaryExpr:
		return Label(x, labelUp(x.X), labelUp(x.Y))
	}
	return Label(x)
}

func monitorOf(t *testing.T, clause string) Expr {
	t.Helper()
	return mustParse(t, "Create Sentinel s Using http://a.example Monitor "+clause).Sentinels[0].Monitor.X
}

// TestLabelIsPrintWhenShort: the label of an expression that is not long
// is its text as Print writes it, parentheses and all, whether made at
// once or from its operands' labels.
func TestLabelIsPrintWhenShort(t *testing.T) {
	for _, clause := range []string{
		"all links",
		"keywords {a, b} In css \"#main\"",
		"all words AND NOT phrase {\"Lord of the Rings\"}",
		"(all words OR all links) AND NOT keywords {Tolkien}",
		"all words AND (all links OR all images)",
		"all words OR (all links AND all images)",
		"NOT (all links OR all images) AND all words",
		"all words AND NOT NOT all links",
	} {
		x := monitorOf(t, clause)
		if got, want := Label(x), Print(x); got != want {
			t.Errorf("Label(%s) = %q, want %q", clause, got, want)
		}
		if got, want := labelUp(x), Print(x); got != want {
			t.Errorf("Label(%s) from its operands' = %q, want %q", clause, got, want)
		}
	}
}

// TestLabelCutsLongExpression: the label of a long expression is the
// start of its text, at most MaxLabel bytes and cut at a rune boundary,
// then "...": what a notice shows of a Monitor clause of thousands of
// change types stays short.
func TestLabelCutsLongExpression(t *testing.T) {
	long := orChain(5000)
	for _, clause := range []string{
		long,
		"(" + long + ") AND all links",
		"all links AND (" + long + ")",
		"all links AND NOT (" + long + ")",
		"keywords {a" + strings.Repeat("é", MaxLabel) + "}", // the cut falls inside an é
		"keywords {" + strings.Repeat("a", MaxLabel) + "}",
	} {
		x := monitorOf(t, clause)
		full := Print(x)
		for how, got := range map[string]string{"at once": Label(x), "from its operands'": labelUp(x)} {
			text, cut := strings.CutSuffix(got, "...")
			if !cut || len(text) > MaxLabel || len(text) < MaxLabel-utf8.UTFMax {
				t.Errorf("%.30s: label %s of %d bytes (%.40q...), want %d bytes at most then \"...\"", clause, how, len(got), got, MaxLabel)
			}
			if !strings.HasPrefix(full, text) || !utf8.ValidString(got) {
				t.Errorf("%.30s: label %s %q is not the start of %.600q", clause, how, got, full)
			}
		}
	}
}

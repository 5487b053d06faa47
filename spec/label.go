package spec

import (
	"strings"
	"unicode/utf8"
)

// MaxLabel is the longest label (Label) of a change-type expression, in
// bytes, before the "..." that ends a cut one: what a check shows of its
// expression (a notice's summary, a result's type) stays this short
// however long the Monitor clause is.
const MaxLabel = 500

// Label returns the text of the change-type expression x as Print writes
// it, cut after at most MaxLabel bytes (at a rune boundary) and ended with
// "..." when longer. operands, if given, are the labels Label gave the
// operands of x (X, then Y), which the label of x is made of: labelling
// each node of an expression bottom up, as package intent does for the
// results of an evaluation, then takes time linear in the expression's
// size, where printing each node would take time quadratic in the length
// of an AND or OR chain. Without them, Label labels the operands itself.
// The text Print writes never ends with "...", so a label that does was
// cut.
func Label(x Expr, operands ...string) string {
	if isNilNode(x) {
		return "<missing change type>"
	}
	operand := func(i int, y Expr, ctx int) string {
		s := ""
		if i < len(operands) {
			s = operands[i]
		} else {
			s = Label(y)
		}
		if b, ok := y.(*BinaryExpr); ok && b != nil && opPrec(b.Op) < ctx {
			return joinLabel("(", s, ")")
		}
		return s
	}
	switch x := x.(type) {
	case *NotExpr:
		return joinLabel("NOT ", operand(0, x.X, precNot))
	case *BinaryExpr:
		prec := opPrec(x.Op)
		left := operand(0, x.X, prec)
		if strings.HasSuffix(left, "...") {
			return left // cut already: the rest is not shown
		}
		return joinLabel(left, " "+x.Op.String()+" ", operand(1, x.Y, prec+1))
	}
	return joinLabel(Print(x))
}

// joinLabel returns the label made of parts, in order: their text up to
// MaxLabel bytes, and "..." after it if a part was cut (ends with "...")
// or the text is longer.
func joinLabel(parts ...string) string {
	var b strings.Builder
	for _, s := range parts {
		text, cut := strings.CutSuffix(s, "...")
		if room := MaxLabel - b.Len(); len(text) > room {
			for room > 0 && !utf8.RuneStart(text[room]) {
				room--
			}
			text, cut = text[:room], true
		}
		b.WriteString(text)
		if cut {
			b.WriteString("...")
			break
		}
	}
	return b.String()
}

package spec

import (
	"fmt"
	"strings"
)

// Where NOT may stand. NOT Y is ¬Y for a pair of versions (package intent:
// (NOT C)(V1, V2) = ¬C(V1, V2), AND is ∧ and OR is ∨), and a sentinel's
// expression is evaluated for each new version of its page. So NOT Y
// narrows what it is combined with by AND, "X AND NOT Y": a change to X
// that is not one to Y. Where no AND gives it such an X it narrows
// nothing: alone, beside other NOTs only, or as an operand of an OR that
// no AND around narrows, it fires on every new version without a Y change
// (and never for Y = any change, since every new version is a change);
// NOT NOT Y is Y. Each is refused at the NOT, saying what to write
// instead. The operands of a NOT are judged with the NOT pushed inward
// (¬(A ∧ B) = ¬A ∨ ¬B, ¬(A ∨ B) = ¬A ∧ ¬B, ¬¬A = A), so NOT (NOT X OR
// NOT Y), which is X AND Y, narrows nothing and needs nothing.

// notHint is what every message about a misplaced NOT says.
const notHint = "NOT only narrows a change type it is combined with by AND"

// misplacedNot reports a NOT that narrows nothing: an error, but a
// warning for a stored sentinel (validator.stored), which may have been
// stored before the rule and must still load and run as it did.
func (v *validator) misplacedNot(n Node, msg string) {
	if v.stored {
		v.warn(n, "NOT", msg)
		return
	}
	v.report(n, "NOT", msg)
}

// negated checks the operand of a NOT and reports whether there is one.
// Where the NOT stands is checked by notPlacement.
func (v *validator) negated(x *NotExpr) bool {
	if isNilNode(x.X) {
		v.report(x, "NOT", "NOT needs an operand")
		return false
	}
	if inner, ok := x.X.(*NotExpr); ok {
		v.negated(inner)
		return false
	}
	v.expr(x.X)
	return true
}

// notPlacement reports the NOTs of the Monitor expression x that narrow
// nothing, and NOT NOT.
func (v *validator) notPlacement(x Expr) { v.placeNots(x, false, false, 0) }

// placeNots checks the NOTs of x, which stands under an odd number of
// NOTs if neg, where an AND around it already has an operand that holds
// only beside a change (positive) if narrowed, and in the precedence
// context ctx (that of Print: 0 for the whole expression) if it is
// replaced by a suggestion.
func (v *validator) placeNots(x Expr, neg, narrowed bool, ctx int) {
	switch x := x.(type) {
	case *NotExpr:
		if isNilNode(x.X) {
			return
		}
		if inner, ok := x.X.(*NotExpr); ok {
			if !isNilNode(inner.X) {
				y := printIn(inner.X, ctx)
				v.misplacedNot(x, fmt.Sprintf("%s is %s: write %s", shortCode(Print(x)), shortCode(y), suggestion(y)))
				v.placeNots(inner.X, neg, narrowed, precNot)
			}
			return
		}
		if !neg && !narrowed && !positive(x.X, true) {
			v.misplacedNot(x, notNarrowsNothing(x, []*NotExpr{x}, ctx))
			narrowed = true // said: nothing more to say inside
		}
		v.placeNots(x.X, !neg, narrowed, precNot)
	case *BinaryExpr:
		if isNilNode(x.X) || isNilNode(x.Y) {
			return
		}
		var ops []Expr
		flattenExpr(x, x.Op, &ops)
		v.placeOperands(x, ops, neg, narrowed, ctx)
	}
}

// placeOperands is placeNots for the operands ops of the AND or OR chain x.
func (v *validator) placeOperands(x *BinaryExpr, ops []Expr, neg, narrowed bool, ctx int) {
	conj := (x.Op == And) != neg // an AND, once the NOTs around are pushed in
	var positives int
	for _, o := range ops {
		if positive(o, neg) {
			positives++
		}
	}
	if conj && positives > 0 {
		narrowed = true
	}
	// Under a NOT, the NOTs of the chain make their operands positive;
	// narrowed, they are fine.
	if neg || narrowed {
		for _, o := range ops {
			v.placeNots(o, neg, narrowed, opPrec(x.Op))
		}
		return
	}
	// The chain's own NOTs that narrow nothing.
	var nots []*NotExpr
	for _, o := range ops {
		if n, ok := o.(*NotExpr); ok && !isNilNode(n.X) && !isNotExpr(n.X) && !positive(n.X, true) {
			nots = append(nots, n)
		}
	}
	if len(nots) > 0 && positives == 0 {
		// Nothing in the chain to narrow: one message for it.
		v.misplacedNot(nots[0], notNarrowsNothing(x, nots, ctx))
		for _, o := range ops {
			v.placeNots(o, neg, true, opPrec(x.Op))
		}
		return
	}
	// An OR with a change type: each NOT fires it on every change that
	// is not to its operand. The operands are printed only now, for the
	// messages.
	what := shortCode(Print(x))
	var watched []Expr
	for _, o := range ops {
		if n, ok := o.(*NotExpr); !ok || !containsNot(nots, n) {
			watched = append(watched, o)
		}
	}
	for _, o := range ops {
		n, ok := o.(*NotExpr)
		if !ok || !containsNot(nots, n) {
			v.placeNots(o, neg, false, opPrec(x.Op))
			continue
		}
		if neverChanges(n.X) {
			v.misplacedNot(n, fmt.Sprintf("%s: %s never holds, since every new version is a change: %s; write %s", what, Print(n), notHint, suggestion(printIn(chain(Or, watched...), ctx))))
		} else {
			v.misplacedNot(n, fmt.Sprintf("%s would fire on every change that is not to %s: %s; write %s", what, shortCode(negatedText(n)), notHint, suggestion(printIn(chain(And, chain(Or, watched...), n), ctx))))
		}
		v.placeNots(n.X, !neg, true, precNot)
	}
}

// positive reports whether x, under an odd number of NOTs if neg, holds
// only beside a change to some change type: whether each way it can hold
// has one (the expression with the NOTs pushed inward, each of its
// disjuncts has a change type not negated).
func positive(x Expr, neg bool) bool {
	switch x := x.(type) {
	case *ChangeType:
		return !neg
	case *NotExpr:
		return isNilNode(x.X) || positive(x.X, !neg)
	case *BinaryExpr:
		if isNilNode(x.X) || isNilNode(x.Y) {
			return true
		}
		a, b := positive(x.X, neg), positive(x.Y, neg)
		if (x.Op == And) != neg {
			return a || b
		}
		return a && b
	}
	return true // missing: reported as such
}

func isNotExpr(x Expr) bool {
	_, ok := x.(*NotExpr)
	return ok
}

func containsNot(nots []*NotExpr, n *NotExpr) bool {
	for _, m := range nots {
		if m == n {
			return true
		}
	}
	return false
}

// chain returns the operands combined by op, left to right; a single one
// is itself.
func chain(op Op, ops ...Expr) Expr {
	x := ops[0]
	for _, o := range ops[1:] {
		x = &BinaryExpr{X: x, Op: op, Y: o}
	}
	return x
}

// printIn is x printed where its precedence context is ctx (that of
// Print): in parentheses if it needs them there, so that a suggestion
// put in place of what it replaces means what it says.
func printIn(x Expr, ctx int) string {
	if b, ok := x.(*BinaryExpr); ok && opPrec(b.Op) < ctx {
		return "(" + Print(x) + ")"
	}
	return Print(x)
}

// negatedText is the operand of a NOT as written after it, in parentheses
// if it needs them.
func negatedText(n *NotExpr) string { return strings.TrimPrefix(Print(n), "NOT ") }

// suggestion is code to write in a message: whole, unless it is long.
func suggestion(code string) string {
	if len(code) <= 160 {
		return code
	}
	return shortCode(code)
}

// notNarrowsNothing is the message for what, a NOT or an AND or OR chain
// whose NOT operands nots narrow nothing and whose other operands are no
// change type either, standing in the precedence context ctx.
func notNarrowsNothing(what Expr, nots []*NotExpr, ctx int) string {
	text := Print(what)
	for _, n := range nots {
		if neverChanges(n.X) {
			return fmt.Sprintf("%s has no change type to narrow, so the sentinel could never fire: %s; write what to watch, e.g. all links AND NOT keywords {sale}", shortCode(text), notHint)
		}
	}
	var names []string
	for _, n := range nots {
		names = append(names, shortCode(negatedText(n)))
	}
	to := "not to " + names[0]
	anyChange := &ChangeType{Kind: AnyChange}
	fix := chain(And, anyChange, what)
	if b, ok := what.(*BinaryExpr); ok {
		var ops []Expr
		flattenExpr(b, b.Op, &ops)
		switch {
		case b.Op == And:
			fix = chain(And, append([]Expr{anyChange}, ops...)...)
			if len(names) > 1 {
				to = "to none of " + strings.Join(names, ", ")
			}
		case len(names) > 1:
			to = "not to all of " + strings.Join(names, ", ")
		}
	}
	return fmt.Sprintf("%s has no change type to narrow, so the sentinel would fire on every change that is %s: %s; write what to watch before it, e.g. %s", shortCode(text), to, notHint, suggestion(printIn(fix, ctx)))
}

// neverChanges reports whether NOT y never holds: y is any change of the
// whole page, which every new version is.
func neverChanges(y Expr) bool {
	c, ok := y.(*ChangeType)
	return ok && c.Kind == AnyChange && c.Scope == nil && len(c.Ignore) == 0 && c.Condition == nil
}

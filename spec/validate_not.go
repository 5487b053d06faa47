package spec

import (
	"fmt"
	"strings"
)

// Where NOT may stand. NOT Y is ¬Y for a pair of versions (package intent:
// (NOT C)(V1, V2) = ¬C(V1, V2)), and a sentinel's expression is evaluated
// for each new version of its page. So NOT Y narrows the change type X it
// is combined with by AND, "X AND NOT Y": a change to X that is not one to
// Y. Anywhere else it narrows nothing: alone, or beside other NOTs only,
// it fires on every new version without a Y change (and never for Y = any
// change, since every new version is a change); as an operand of OR it
// makes the OR fire on all those versions too; NOT NOT Y is Y. Each is
// refused at the NOT, saying what to write instead.

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

// notHint is what every message about a misplaced NOT says.
const notHint = "NOT only narrows a change type it is combined with by AND"

// negated checks the operand of a NOT and reports whether there is one.
// A NOT operand is reported: NOT NOT Y is Y.
func (v *validator) negated(x *NotExpr) bool {
	if isNilNode(x.X) {
		v.report(x, "NOT", "NOT needs an operand")
		return false
	}
	if inner, ok := x.X.(*NotExpr); ok {
		if v.negated(inner) {
			y := Print(inner.X)
			v.misplacedNot(x, fmt.Sprintf("%s is %s: write %s", shortCode(Print(x)), shortCode(y), suggestion(y)))
		}
		return false
	}
	v.expr(x.X)
	return true
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

// notNarrowsNothing is the message for what, an expression of the NOTs
// nots alone.
func notNarrowsNothing(what string, nots []*NotExpr) string {
	for _, n := range nots {
		if neverChanges(n.X) {
			return fmt.Sprintf("%s has no change type to narrow, so the sentinel could never fire: %s; write what to watch, e.g. all links AND NOT keywords {sale}", shortCode(what), notHint)
		}
	}
	var names []string
	for _, n := range nots {
		names = append(names, shortCode(negatedText(n)))
	}
	to := "not to " + names[0]
	if len(names) > 1 {
		to = "to none of " + strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s has no change type to narrow, so the sentinel would fire on every change that is %s: %s; write what to watch before it, e.g. %s", shortCode(what), to, notHint, suggestion("any change AND "+what))
}

// neverChanges reports whether NOT y never holds: y is any change of the
// whole page, which every new version is.
func neverChanges(y Expr) bool {
	c, ok := y.(*ChangeType)
	return ok && c.Kind == AnyChange && c.Scope == nil && len(c.Ignore) == 0 && c.Condition == nil
}

// notOperands checks where the NOT operands of the chain x (ops) stand:
// they are fine in an AND chain with an operand that is not a NOT, and
// reported, at the NOT, anywhere else.
func (v *validator) notOperands(x *BinaryExpr, ops []Expr) {
	var nots []*NotExpr
	var others []Expr
	for _, o := range ops {
		if n, ok := o.(*NotExpr); ok {
			if !isNilNode(n.X) {
				nots = append(nots, n)
			}
		} else {
			others = append(others, o)
		}
	}
	if len(nots) == 0 || x.Op == And && len(others) > 0 {
		return
	}
	if len(others) == 0 {
		v.misplacedNot(nots[0], notNarrowsNothing(Print(x), nots))
		return
	}
	// An OR: each NOT fires it on every change that is not to its
	// operand. The operands are printed only now, for the messages.
	what := shortCode(Print(x))
	watched := make([]string, len(others))
	for i, o := range others {
		watched[i] = Print(o)
	}
	base := strings.Join(watched, " OR ")
	if len(others) > 1 {
		base = "(" + base + ")"
	}
	for _, n := range nots {
		if neverChanges(n.X) {
			v.misplacedNot(n, fmt.Sprintf("%s: %s never holds, since every new version is a change: %s; write %s", what, Print(n), notHint, suggestion(strings.Join(watched, " OR "))))
			continue
		}
		v.misplacedNot(n, fmt.Sprintf("%s would fire on every change that is not to %s: %s; write %s", what, shortCode(negatedText(n)), notHint, suggestion(base+" AND "+Print(n))))
	}
}

package spec

// Inspect traverses the change-type expression x in depth-first order:
// it calls f(x); if f returns true, Inspect visits the operands of x
// (X then Y for a *BinaryExpr, X for a *NotExpr). A nil x is not visited.
func Inspect(x Expr, f func(Expr) bool) {
	if x == nil || !f(x) {
		return
	}
	switch x := x.(type) {
	case *NotExpr:
		Inspect(x.X, f)
	case *BinaryExpr:
		Inspect(x.X, f)
		Inspect(x.Y, f)
	}
}

// ChangeTypes returns the primitive change types of x, left to right: the
// change detectors a monitor must run for the expression.
func ChangeTypes(x Expr) []*ChangeType {
	var out []*ChangeType
	Inspect(x, func(e Expr) bool {
		if c, ok := e.(*ChangeType); ok {
			out = append(out, c)
		}
		return true
	})
	return out
}

// Eval evaluates the expression x given whether each primitive change type
// was detected between the two versions compared (the seed's §5.3: NOT is
// ¬, AND is ∧, OR is ∨).
func Eval(x Expr, detected func(*ChangeType) bool) bool {
	switch x := x.(type) {
	case *ChangeType:
		return detected(x)
	case *NotExpr:
		return !Eval(x.X, detected)
	case *BinaryExpr:
		if x.Op == And {
			return Eval(x.X, detected) && Eval(x.Y, detected)
		}
		return Eval(x.X, detected) || Eval(x.Y, detected)
	}
	return false
}

// Targets returns the leaves of a target expression, left to right.
func Targets(t Target) []Target {
	var out []Target
	var walk func(Target)
	walk = func(t Target) {
		switch x := t.(type) {
		case *BinaryTarget:
			walk(x.X)
			walk(x.Y)
		case nil:
		default:
			out = append(out, t)
		}
	}
	walk(t)
	return out
}

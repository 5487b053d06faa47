package spec

// Mistakes in joining the change types of a Monitor clause: a list
// written without its change type after AND or OR ("keywords {a} and
// {b}"), told with the expression to write.

// listWords are the change types that take a list, with the word that
// parseList is given for them.
var listWords = map[Kind]string{Keywords: "keywords", Phrase: "phrase", Regex: "regular expression", Table: "table", List: "list", Words: "except"}

// lastChangeType returns the change type that x ends with, the one an
// operand written after it follows: x itself, the last operand of AND
// and OR, the operand of NOT.
func lastChangeType(x Expr) *ChangeType {
	for {
		switch e := x.(type) {
		case *ChangeType:
			return e
		case *BinaryExpr:
			x = e.Y
		case *NotExpr:
			x = e.X
		default:
			return nil
		}
	}
}

// bareList fails at a list, the current token "{", written without its
// change type after x and op ("keywords {a} AND {b}"), with the
// expression to write: the change type of the list before it given
// again (keywords {a} AND keywords {b}), or, for all words except, one
// list of the items of both (all words except {a, b}). It returns, failing
// nothing, when x ends with no change type that takes a list, or with
// all words without exceptions.
func (p *parser) bareList(x Expr, op Op) {
	last := lastChangeType(x)
	if last == nil || last.Kind == Words && len(last.Args) == 0 {
		return
	}
	what, ok := listWords[last.Kind]
	if !ok {
		return
	}
	at := p.pos
	msg := "a list follows its change type"
	list := p.parseList(what)
	var write Expr
	if last.Kind == Words {
		merged := *last
		merged.Args = append(append([]*Lit{}, last.Args...), list...)
		write = replaceLast(x, &merged)
	} else {
		write = &BinaryExpr{X: x, Op: op, Y: &ChangeType{Kind: last.Kind, Args: list}}
	}
	if text := Print(write); len(text) <= 2*maxQuoted {
		msg += ": write " + text
	} else {
		msg += ", as in " + Print(&ChangeType{Kind: last.Kind, Args: list[:1]})
	}
	p.fail(at, "{", changeTypes, msg)
}

// replaceLast returns x with the change type it ends with (see
// lastChangeType) replaced by c, x itself unchanged.
func replaceLast(x Expr, c *ChangeType) Expr {
	switch e := x.(type) {
	case *BinaryExpr:
		return &BinaryExpr{X: e.X, OpPos: e.OpPos, Op: e.Op, Y: replaceLast(e.Y, c)}
	case *NotExpr:
		return &NotExpr{NotPos: e.NotPos, X: replaceLast(e.X, c)}
	}
	return c
}

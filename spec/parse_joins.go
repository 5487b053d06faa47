package spec

// Mistakes in joining the change types of a Monitor clause: a list
// written without its change type after AND or OR ("keywords {a} and
// {b}"), and change types separated by commas ("keywords {a}, phrase
// {"x"}"), told with the expression to write.

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
// change type after x and op ("keywords {a} AND {b}"), or after x and a
// comma (op 0, the comma at comma: "keywords {a}, {b}"), with the
// expression to write: after AND or OR, the change type of the list
// before it given again (keywords {a} AND keywords {b}); after a comma,
// or for all words except, one list of the items of both (keywords {a,
// b}, the lists after further commas too). The expression is written
// when it ends with the list, and is short enough to quote; else the
// change type with the list (as in keywords {b}). The error is at the
// list, or at the comma. It returns, failing
// nothing, when x ends with no change type that takes a list, or with
// all words without exceptions.
func (p *parser) bareList(x Expr, op Op, comma Pos) {
	last := lastChangeType(x)
	if last == nil || last.Kind == Words && len(last.Args) == 0 {
		return
	}
	what, ok := listWords[last.Kind]
	if !ok {
		return
	}
	at, found := p.pos, "{"
	msg := "a list follows its change type"
	if op == 0 {
		at, found = comma, ","
		msg = "the items of one list are written in its braces, not in another list after a comma"
	}
	list := p.parseList(what)
	// An expression that goes on after the list is not all written.
	more := false
	for n := 1; op == 0 && p.tok == COMMA && n < maxCommaJoined; n++ {
		// keywords {a}, {b}, {c}: one list of them all.
		p.next()
		if p.tok != LBRACE {
			more = true // keywords {a}, {b}, phrase {"x"}
			break
		}
		list = append(list, p.parseList(what)...)
	}
	more = more || p.tok == AND || p.tok == OR || p.tok == COMMA
	var write Expr
	if op == 0 || last.Kind == Words {
		merged := *last
		merged.Args = withoutRepeats(last.Kind, append(append([]*Lit{}, last.Args...), list...))
		write = replaceLast(x, &merged)
	} else {
		write = &BinaryExpr{X: x, Op: op, Y: &ChangeType{Kind: last.Kind, Args: list}}
	}
	if text := Print(write); len(text) <= 2*maxQuoted && !more {
		msg += ": write " + text
	} else {
		msg += ", as in " + Print(&ChangeType{Kind: last.Kind, Args: list[:1]})
	}
	p.fail(at, found, changeTypes, msg)
}

// withoutRepeats returns the items of a list of a change type of kind k
// without those the checker would call duplicates of one before them
// (argKey), so that the list a message says to write passes the check.
func withoutRepeats(k Kind, items []*Lit) []*Lit {
	seen := map[string]bool{}
	out := items[:0]
	for _, a := range items {
		if a != nil {
			key := argKey(k, a.Value)
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		out = append(out, a)
	}
	return out
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

// maxCommaJoined is the number of operands after commas that
// commaJoined reads, at most.
const maxCommaJoined = 8

// commaJoined fails at a comma after the expression x, the current
// token: change types separated by commas ("keywords {a}, phrase
// {"x"}"), told to join them with OR or AND, with the expression that
// joins them with OR when each after a comma reads, at most
// maxCommaJoined of them, and the expression is short enough to quote.
// A list after the comma ("keywords {a}, {b}") is told as bareList
// tells it.
func (p *parser) commaJoined(x Expr) {
	comma := p.pos
	p.next()
	if p.tok == LBRACE {
		p.bareList(x, 0, comma)
	}
	e := &Error{Pos: comma.Position(p.filename), Found: ",", Expected: "AND, OR or a clause",
		Msg: `change types are joined with OR (a change in either) or AND (in both), not with ","`}
	p.record(e)
	write := x
	for n := 0; ; n++ {
		write = &BinaryExpr{X: write, Op: Or, Y: p.parseAndExpr()}
		if p.tok != COMMA || n+1 == maxCommaJoined {
			break
		}
		p.next()
	}
	if text := Print(write); len(text) <= 2*maxQuoted && p.tok != COMMA {
		e.Msg += ": write " + text
	}
	panic(bailout{})
}

package spec

import (
	"sort"
	"strings"
)

// Comments inside a Monitor clause. A clause the printer would write on
// one line is broken where a comment was written between its parts, so
// that the comment stays between the same two parts:
//
//	Monitor keywords {price} # the headline figure
//		# or when it sells out
//		OR phrase {"sold out"}
//
// A comment is attached to the first part that follows it, a slot: the
// right operand of AND or OR (the line breaks before the operator), an
// item of a list but the first (after its comma), or a scope, condition
// or Ignore of a change type. A part that cannot be broken before (the
// first item of a list, the operand of NOT, the left operand of AND or
// OR, the selector of a scope) gives its comments to the part it begins
// (or holds it); the whole expression gives them to the clause, above
// which they go. A comment after the last slot ends the clause: the first ends its line, the others go on lines
// of their own below it, where they read back as the next clause's (or
// the sentinel's closing) comments.

// monitorSlot returns the part of m's expression to whose left the
// comment at offset off is printed, or nil when the comment goes before
// the clause; end reports a comment after every part, which ends the
// clause.
func monitorSlot(m *MonitorClause, off int) (slot Node, end bool) {
	var best Node
	consider := func(n Node) {
		if isNilNode(n) || !n.Pos().IsValid() {
			return
		}
		// Strictly before the best: of the parts that begin at one
		// place, the outermost (visited first) wins.
		if o := n.Pos().Offset; o > off && (best == nil || o < best.Pos().Offset) {
			best = n
		}
	}
	parents := map[Node]Node{}
	var walk func(x Expr, parent Node)
	walk = func(x Expr, parent Node) {
		if isNilNode(x) {
			return
		}
		parents[x] = parent
		consider(x)
		switch x := x.(type) {
		case *NotExpr:
			walk(x.X, x)
		case *BinaryExpr:
			walk(x.X, x)
			walk(x.Y, x)
		case *ChangeType:
			for _, a := range x.Args {
				parents[a] = x
				consider(a)
			}
			consider(x.Condition)
			for _, sel := range append([]*Selector{x.Scope}, x.Ignore...) {
				if sel != nil {
					consider(sel)
					if sel.Expr != nil {
						parents[sel.Expr] = sel
						consider(sel.Expr)
					}
				}
			}
		}
	}
	walk(m.X, nil)
	if best == nil {
		return nil, true
	}
	n := best
	for {
		switch x := n.(type) {
		case *Lit:
			switch parent := parents[x].(type) {
			case *Selector: // inside "In css ...": before it
				n = parent
				continue
			case *ChangeType:
				if parent.Args[0] == x {
					n = parent
					continue
				}
			}
			return x, false
		case *Selector, *Condition:
			return x, false
		}
		switch parent := parents[n].(type) {
		case *BinaryExpr:
			if parent.Y == n {
				return n, false
			}
			n = parent
		case *NotExpr:
			n = parent
		default: // the whole expression
			return nil, false
		}
	}
}

// attachMonitor places the comment c, written inside the Monitor clause m
// (code of the clause follows it), by monitorSlot.
func (p *printer) attachMonitor(m *MonitorClause, c *Comment) {
	slot, end := monitorSlot(m, c.Hash.Offset)
	switch {
	case end:
		p.ending[m] = append(p.ending[m], c)
	case slot == nil:
		p.leading[m] = append(p.leading[m], c)
		return
	default:
		p.operand[slot] = append(p.operand[slot], c)
	}
	p.inside[m] = append(p.inside[m], c)
}

// space writes what goes before the part n of a Monitor clause: a space,
// or a line break with the comments attached to n (see breakLine).
func (p *printer) space(n Node) { p.breakLine(p.operand[n], true) }

// operator writes op before the right operand y of a Monitor clause's
// AND or OR at opPos, after a line break with the comments attached to y
// (see breakLine): one written after the operator, at the end of its line
// ("OR # why"), goes on a line of its own before it, which it describes.
func (p *printer) operator(op Op, opPos Pos, y Expr) {
	cs := p.operand[y]
	afterOp := len(cs) > 0 && opPos.IsValid() && cs[0].Hash.Offset > opPos.Offset
	p.breakLine(cs, !afterOp)
	p.str(op.String() + " ")
}

// breakLine writes a space, or, with comments, a line break with them and
// the indentation of a continued clause. The first ends the current line
// if code came before it in the source and trail allows it.
func (p *printer) breakLine(cs []*Comment, trail bool) {
	if len(cs) == 0 {
		p.str(" ")
		return
	}
	for i, c := range cs {
		text := strings.TrimRight(c.Text, " \t")
		if i == 0 && c.code && trail {
			p.str(" " + text)
		} else {
			p.str("\n\t\t" + text)
		}
	}
	p.str("\n\t\t")
}

// monitorEnd ends the line of the Monitor clause m with the first of the
// comments that end it (after its last part, or at the end of its last
// line) and writes the others on lines of their own below it.
func (p *printer) monitorEnd(m *MonitorClause) {
	cs := append(append([]*Comment(nil), p.ending[m]...), p.trailing[m]...)
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].Hash.Offset < cs[j].Hash.Offset })
	for i, c := range cs {
		text := strings.TrimRight(c.Text, " \t")
		if i == 0 {
			p.str(" " + text)
		} else {
			p.str("\n\t" + text)
		}
	}
}

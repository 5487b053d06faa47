package spec

import (
	"sort"
	"strings"
)

// Comments between the operands of a clause: the Monitor clause, the
// Using target (its AND and OR, and a site's depth, pages, scopes and
// match) and the Notify clause (its contacts). A clause the printer would
// write on one line is broken where a comment was written between its
// parts, so that the comment stays between the same two parts:
//
//	Monitor keywords {price} # the headline figure
//		# or when it sells out
//		OR phrase {"sold out"}
//
// A comment is attached to the first part that follows it, a slot: the
// right operand of AND or OR (the line breaks before the operator), an
// item of a list but the first (after its comma), a contact but the first
// (after its comma), a scope, condition or Ignore of a change type, or
// the depth, pages, a scope or the match of a site. A part that cannot be
// broken before (the first item of a list or contact of a clause, the
// operand of NOT, the left operand of AND or OR, the selector of a scope,
// a site's URL) gives its comments to the part it begins (or holds it);
// the whole expression gives them to the clause, above which they go (to
// the sentinel for its target). A comment after the last slot ends the
// clause: the first ends its line, the others go on lines of their own
// below it, where they read back as the next clause's (or the sentinel's
// closing) comments. A site's parts are printed in one order (depth,
// pages, scopes, match) whatever the source's: a comment between them
// goes before the first part, in the printer's order, written after it
// (siteSlot), so that the comments keep their order.
//
// The other clauses (Fetch, Confirm, From, To, Every, Compare) have no
// operands: a comment inside one stays between the same two tokens (see
// words).

// operands holds the parts of a clause that a comment may precede, for
// operands.slot.
type operands struct {
	// The parts by the offset at which they begin, outermost first
	// among those that begin at one place.
	parts   []operandPart
	parents map[Node]Node
}

type operandPart struct {
	off int
	n   Node
}

// add records n, a part of the clause inside parent (nil for the whole
// expression), at its position; a nil part, or one without a position,
// is left out.
func (o *operands) add(n, parent Node) {
	if isNilNode(n) {
		return
	}
	o.parents[n] = parent
	if n.Pos().IsValid() {
		o.parts = append(o.parts, operandPart{n.Pos().Offset, n})
	}
}

// within records a place inside the part n, at pos, that a comment before
// it cannot be printed at (a site's URL after "site", a sentinel's name
// after "sentinel", a contact's address after its kind): the comment
// goes where one before n does.
func (o *operands) within(n Node, pos Pos) {
	if pos.IsValid() {
		o.parts = append(o.parts, operandPart{pos.Offset, n})
	}
}

// clauseOperands returns the parts of the clause n (a *MonitorClause, a
// *NotifyClause, or the *Sentinel for its target), or nil for a clause
// without slots.
func clauseOperands(n Node) *operands {
	o := &operands{parents: map[Node]Node{}}
	switch n := n.(type) {
	case *MonitorClause:
		o.expr(n.X, nil)
	case *Sentinel:
		o.target(n.Target, nil)
	case *NotifyClause:
		for _, c := range n.Contacts {
			o.add(c, n)
			if c != nil {
				o.within(c, c.addr)
			}
		}
	default:
		return nil
	}
	return o
}

func (o *operands) expr(x Expr, parent Node) {
	if isNilNode(x) {
		return
	}
	o.add(x, parent)
	switch x := x.(type) {
	case *NotExpr:
		o.expr(x.X, x)
	case *BinaryExpr:
		o.expr(x.X, x)
		o.expr(x.Y, x)
	case *ChangeType:
		for _, a := range x.Args {
			o.add(a, x)
		}
		o.add(x.Condition, x)
		for _, sel := range append([]*Selector{x.Scope}, x.Ignore...) {
			if sel != nil {
				o.add(sel, x)
				o.add(sel.Expr, sel)
			}
		}
	}
}

func (o *operands) target(t Target, parent Node) {
	if isNilNode(t) {
		return
	}
	o.add(t, parent)
	switch t := t.(type) {
	case *BinaryTarget:
		o.target(t.X, t)
		o.target(t.Y, t)
	case *SentinelTarget:
		if t.Name != nil {
			o.within(t, t.Name.NamePos)
		}
	case *SiteTarget:
		o.within(t, t.URLPos)
		o.add(t.Depth, t)
		o.add(t.Pages, t)
		for _, s := range t.Scope {
			o.add(s, t)
		}
		o.add(t.Match, t)
	}
}

// slot returns the part of the clause to whose left the comment at offset
// off is printed, or nil when the comment goes before the clause; end
// reports a comment after every part, which ends the clause.
func (o *operands) slot(off int) (slot Node, end bool) {
	best := -1
	for i, pt := range o.parts {
		// Strictly before the best: of the parts that begin at one
		// place, the outermost (added first) wins.
		if pt.off > off && (best < 0 || pt.off < o.parts[best].off) {
			best = i
		}
	}
	if best < 0 {
		return nil, true
	}
	n := o.parts[best].n
	for {
		if site, ok := o.parents[n].(*SiteTarget); ok {
			return siteSlot(site, off), false
		}
		switch x := n.(type) {
		case *Lit:
			switch parent := o.parents[x].(type) {
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
		case *Contact:
			if c, ok := o.parents[x].(*NotifyClause); ok && c.Contacts[0] == x {
				return nil, false
			}
			return x, false
		}
		switch parent := o.parents[n].(type) {
		case *BinaryExpr:
			if parent.Y == n {
				return n, false
			}
			n = parent
		case *BinaryTarget:
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

// siteSlot returns the first of the parts of the site t that the printer
// writes after its URL (depth, pages, scopes, match) to begin after off,
// or nil if none does. Where the source writes them in the printer's
// order, that is the first part after off; where it does not, the parts
// move, and the comments between them stay in their order, before the
// first part that the printer writes after them all.
func siteSlot(t *SiteTarget, off int) Node {
	parts := []Node{t.Depth, t.Pages}
	for _, s := range t.Scope {
		parts = append(parts, s)
	}
	for _, n := range append(parts, t.Match) {
		if !isNilNode(n) && n.Pos().IsValid() && n.Pos().Offset > off {
			return n
		}
	}
	return nil
}

// attachOperand places the comment c, written inside the clause n (code
// of the clause follows it), by the slots of o (see operands.slot):
// before the clause (for the sentinel's target, before the sentinel),
// before a part of it, or at its end.
func (p *printer) attachOperand(n Node, o *operands, c *Comment) {
	slot, end := o.slot(c.Hash.Offset)
	switch {
	case end:
		p.ending[n] = append(p.ending[n], c)
	case slot == nil:
		if s, ok := n.(*Sentinel); ok {
			p.before[s] = append(p.before[s], c)
		} else {
			p.leading[n] = append(p.leading[n], c)
		}
		return
	default:
		p.operand[slot] = append(p.operand[slot], c)
	}
	p.inside[n] = append(p.inside[n], c)
}

// space writes what goes before the part n of a clause: a space, or a
// line break with the comments attached to n (see breakLine).
func (p *printer) space(n Node) { p.breakLine(p.operand[n], true) }

// operator writes op before the right operand y of an AND or OR at
// opPos, after a line break with the comments attached to y (see
// breakLine): one written after the operator, at the end of its line
// ("OR # why"), goes on a line of its own before it, which it describes.
func (p *printer) operator(op Op, opPos Pos, y Node) {
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

// end ends the line of the clause n (or of the sentinel's first line)
// with the first of the comments that end it (after its last part, or at
// the end of its last line) and writes the others on lines of their own
// below it.
func (p *printer) end(n Node) {
	cs := append(append([]*Comment(nil), p.ending[n]...), p.trailing[n]...)
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

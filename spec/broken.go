package spec

// A sentinel read with syntax errors (Parse's partial result) is still
// checked, so that one run tells every problem of a file (see
// Checker.CheckPartial), but a clause that did not parse is not taken as
// absent: no inherited or default clause stands in for it, and the rules
// that need it are not applied, lest its mistake be reported a second
// time in other words ("Confirm after 2 hours must be shorter than
// Fetch 1 hour", the Fetch clause being a default).

// part is a piece of a clause that did not parse (or of the header,
// clause USING) that was read cleanly before its syntax error: a change
// type, a contact, an interval, an event, or a page, a site (as far as
// it was read) or a sentinel of the target. A partial check applies to
// each the rules of the piece alone (checking.parts), none that
// combines it with the rest of its clause, which is not known: "Notify By email nope, ???" is told that nope is
// no address, "Fetch every 0 hours" nothing of 0 hours, which comes
// after its mistake.
type part struct {
	clause Token
	n      Node
}

// clauseSet is a set of the parts of a sentinel that had a syntax error.
type clauseSet uint16

const (
	// brokenHeader: "Create Sentinel NAME Using TARGET" had an error;
	// its target is not known.
	brokenHeader clauseSet = 1 << iota
	// brokenUnknown: text that is no clause came between the clauses
	// (perhaps one misspelt), or the parse stopped in the sentinel (too
	// many errors): any clause it does not state may be meant.
	brokenUnknown
	// brokenOther: an error that left every part read, as the parser
	// keeps the first of two clauses of a kind ("duplicate Fetch
	// clause") and reads on after a misspelt Create: nothing is left
	// out of the check, but the sentinel is not valid.
	brokenOther
	// brokenMonitor and the next are the clauses by keyword, in the
	// order of their tokens (see brokenClause).
	brokenMonitor
)

// brokenClause returns the member of the clause that tok, a clause
// keyword (MONITOR to COMPARE), begins.
func brokenClause(tok Token) clauseSet {
	if tok < MONITOR || tok > COMPARE {
		return 0
	}
	return brokenMonitor << (tok - MONITOR)
}

// clause returns the clause of s that tok begins, nil if s has none.
func (s *Sentinel) clause(tok Token) Node {
	switch tok {
	case MONITOR:
		return nodeOrNil(s.Monitor)
	case FETCH:
		return nodeOrNil(s.Fetch)
	case CONFIRM:
		return nodeOrNil(s.Confirm)
	case FROM:
		return nodeOrNil(s.From)
	case TO:
		return nodeOrNil(s.To)
	case NOTIFY:
		return nodeOrNil(s.Notify)
	case EVERY:
		return nodeOrNil(s.Every)
	case COMPARE:
		return nodeOrNil(s.Compare)
	}
	return nil
}

// nodeOrNil returns n, or a nil Node for a nil pointer.
func nodeOrNil[T interface {
	comparable
	Node
}](n T) Node {
	var zero T
	if n == zero {
		return nil
	}
	return n
}

// HasSyntaxErrors reports whether the parser met a syntax error in the
// text of s: s is then Parse's partial result, to be checked with
// Checker.CheckPartial, never stored.
func (s *Sentinel) HasSyntaxErrors() bool { return s != nil && s.broken != 0 }

// readable returns s without the clauses that had a syntax error (a copy
// if it has any), and whether a clause s does not state may be one that
// did not parse (unknown): the input of a partial check.
func (s *Sentinel) readable() (r *Sentinel, unknown func(tok Token) bool) {
	known := func(Token) bool { return false }
	if s.broken == 0 {
		return s, known
	}
	c := *s
	if s.broken&brokenHeader != 0 {
		c.Target = nil
	}
	drop := func(tok Token) bool { return s.broken&brokenClause(tok) != 0 }
	if drop(MONITOR) {
		c.Monitor = nil
	}
	if drop(FETCH) {
		c.Fetch = nil
	}
	if drop(CONFIRM) {
		c.Confirm = nil
	}
	if drop(FROM) {
		c.From = nil
	}
	if drop(TO) {
		c.To = nil
	}
	if drop(NOTIFY) {
		c.Notify = nil
	}
	if drop(EVERY) {
		c.Every = nil
	}
	if drop(COMPARE) {
		c.Compare = nil
	}
	return &c, func(tok Token) bool {
		return c.clause(tok) == nil && (drop(tok) || s.broken&brokenUnknown != 0)
	}
}

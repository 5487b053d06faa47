package spec

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Print returns the canonical form of node: a *File, a *Sentinel, or a part
// of one (an Expr, a Target, a *TimeSpec, a clause). Parsing the canonical
// form of a sentinel gives the same syntax tree, positions aside.
//
// The canonical form writes keywords as the seed capitalises them, one clause
// a line indented by a tab in the order Monitor, Fetch, Confirm, From/To,
// Notify, Every, Compare; units in plural English ("1 day", "2 days"); dates as
// MM/DD/YYYY; "keywords" for "keyword"; lists in braces; the fewest
// parentheses the precedence NOT > AND > OR needs; and quotes only where a
// value would not scan back as one word (phrases, regular expressions and
// selectors are always quoted). Comments of a *File are kept where they
// are relative to the clauses (see attach): one on a line of its own
// before a clause stays before it, wherever the canonical order puts the
// clause; one at the end of a clause's line stays at its end; one inside
// a Monitor clause, a Notify clause or the Using target written over
// several lines stays between the same two operands (list items,
// contacts, targets, a site's parts), the clause broken there (see
// operands); one inside another clause (Fetch, Confirm, From, To, Every,
// Compare) stays between the same two tokens, the clause broken there
// (see words), and one between From and To stays between them. Those after
// a sentinel's last clause that are indented close that sentinel, those
// at the start of a line open the next one. A blank line (or several)
// before a comment, or between a comment and a sentinel, is kept as one;
// sentinels are always apart by one.
func Print(node Node) string {
	var b bytes.Buffer
	Fprint(&b, node)
	return b.String()
}

// Fprint writes the canonical form of node to w (see Print).
func Fprint(w io.Writer, node Node) error {
	p := &printer{}
	p.node(node)
	_, err := w.Write(p.buf.Bytes())
	return err
}

// Format parses src and returns its canonical form, as gofmt does for Go.
func Format(filename string, src []byte) ([]byte, error) {
	f, err := Parse(filename, src)
	if err != nil {
		return nil, err
	}
	return []byte(Print(f)), nil
}

type printer struct {
	buf bytes.Buffer
	// Where the comments of a *File go (see attach); empty when printing
	// anything else.
	leading  map[Node][]*Comment      // on lines of their own before a clause
	trailing map[Node][]*Comment      // at the end of a clause's line
	closing  map[*Sentinel][]*Comment // indented lines after the last clause
	before   map[*Sentinel][]*Comment // top-level lines before a sentinel
	after    []*Comment               // top-level lines after the last sentinel

	// Inside a clause with operands, or the sentinel's target (see
	// operands): before a part, at the clause's end, and all of a
	// clause's together (for Split).
	operand map[Node][]*Comment
	ending  map[Node][]*Comment
	inside  map[Node][]*Comment
	// Between two tokens of a clause without operands, by the offset of
	// the token after them (see words).
	gaps map[int][]*Comment
}

func (p *printer) printf(format string, args ...any) { fmt.Fprintf(&p.buf, format, args...) }
func (p *printer) str(s string)                      { p.buf.WriteString(s) }

func (p *printer) node(n Node) {
	if isNilNode(n) {
		return
	}
	switch n := n.(type) {
	case *File:
		p.file(n)
	case *Sentinel:
		p.sentinel(n)
	case Expr:
		p.expr(n, 0)
	case Target:
		p.target(n, 0)
	case *TimeSpec:
		p.timeSpec(n, "")
	case *MonitorClause:
		p.str("Monitor ")
		p.expr(n.X, 0)
	case *FetchClause:
		p.fetch(n)
	case *ConfirmClause:
		p.words(words(n, ""))
	case *NotifyClause:
		p.notify(n)
	case *EveryClause:
		p.every(n)
	case *CompareClause:
		p.compare(n)
	case *Interval:
		p.interval(n)
	case *Contact:
		p.contact(n)
	case *Selector:
		p.selector(n, "In")
	case *Ident:
		p.str(n.Name)
	case *Lit:
		p.str(quoteItem(n.Value))
	case *Comment:
		p.str(n.Text)
	case *Condition:
		p.condition(n)
	case TimeBase:
		p.timeBase(n)
	case nil:
	default:
		p.printf("<%T>", n)
	}
}

// units returns the parts of s that the printer writes on a line of their
// own, in source order: the header ("Create Sentinel ... Using ...", s
// itself) and the clauses (From and To apart). Parts without a position
// are left out.
func units(s *Sentinel) []Node {
	var out []Node
	for _, n := range []Node{s, s.Monitor, s.Fetch, s.Confirm, s.From, s.To, s.Notify, s.Every, s.Compare} {
		if !isNilNode(n) && n.Pos().IsValid() {
			out = append(out, n)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos().Offset < out[j].Pos().Offset })
	return out
}

// attach decides where each comment of f is printed, by where it is
// relative to the parts of the sentinels (units):
//   - a comment inside a Monitor or Notify clause or the sentinel's target
//     (code of the part follows it) stays between the same two operands
//     of it (attachOperand), or goes before the clause (the sentinel)
//     when none comes before it;
//   - a comment inside a Fetch, Confirm, From, To, Every or Compare
//     clause stays before the token that follows it (wordAt), or goes on
//     a line of its own before the clause when the printer has no word
//     for that token;
//   - a comment that ends the last line of a part stays at the end of it;
//   - a comment on a line of its own between two parts of a sentinel goes
//     before the second;
//   - after a sentinel's last part, the comments that are indented close
//     the sentinel, up to the first at the start of a line, which with
//     those that follow it opens the next sentinel (or ends the file);
//   - the comments before the first sentinel open it.
func (p *printer) attach(f *File) {
	p.leading = map[Node][]*Comment{}
	p.trailing = map[Node][]*Comment{}
	p.closing = map[*Sentinel][]*Comment{}
	p.before = map[*Sentinel][]*Comment{}
	p.operand = map[Node][]*Comment{}
	p.ending = map[Node][]*Comment{}
	p.inside = map[Node][]*Comment{}
	p.gaps = map[int][]*Comment{}
	type unit struct {
		n   Node
		off int
		s   int // index of the sentinel
	}
	var us []unit
	for i, s := range f.Sentinels {
		for _, n := range units(s) {
			us = append(us, unit{n, n.Pos().Offset, i})
		}
	}
	sort.SliceStable(us, func(i, j int) bool { return us[i].off < us[j].off })
	top := func(i int, c *Comment) {
		if i < len(f.Sentinels) {
			p.before[f.Sentinels[i]] = append(p.before[f.Sentinels[i]], c)
		} else {
			p.after = append(p.after, c)
		}
	}
	opened := map[int]bool{} // the sentinels whose closing comments have ended
	for _, c := range f.Comments {
		off := c.Hash.Offset
		j := sort.Search(len(us), func(k int) bool { return us[k].off > off }) - 1
		if j < 0 || !c.Hash.IsValid() {
			top(0, c)
			continue
		}
		u := us[j]
		nextUnit := math.MaxInt
		if j+1 < len(us) {
			nextUnit = us[j+1].off
		} else if f.end > 0 {
			nextUnit = f.end // the next part's
		}
		next := nextUnit // a comment made by a program: between parts
		if c.next.IsValid() {
			next = c.next.Offset
		}
		s := f.Sentinels[u.s]
		last := j+1 == len(us) || us[j+1].s != u.s
		switch {
		case next < nextUnit:
			if o := clauseOperands(u.n); o != nil {
				p.attachOperand(u.n, o, c)
			} else if wordAt(u.n, next) {
				p.gaps[next] = append(p.gaps[next], c)
				p.inside[u.n] = append(p.inside[u.n], c)
			} else {
				p.leading[u.n] = append(p.leading[u.n], c)
			}
		case c.code:
			p.trailing[u.n] = append(p.trailing[u.n], c)
		case !last:
			p.leading[us[j+1].n] = append(p.leading[us[j+1].n], c)
		case c.Hash.Column > 1 && !opened[u.s]:
			p.closing[s] = append(p.closing[s], c)
		default:
			opened[u.s] = true
			top(u.s+1, c)
		}
	}
}

// comment prints c on a line of its own after indent, after a blank line
// when one came before it in the source.
func (p *printer) comment(c *Comment, indent string) {
	if c.blank && p.buf.Len() > 0 && !bytes.HasSuffix(p.buf.Bytes(), []byte("\n\n")) {
		p.str("\n")
	}
	p.str(indent)
	p.str(strings.TrimRight(c.Text, " \t"))
	p.str("\n")
}

// trail ends the current line with the comments that ended the line of
// the part printed on it (one from a parsed file).
func (p *printer) trail(cs []*Comment) {
	for _, c := range cs {
		p.str(" ")
		p.str(strings.TrimRight(c.Text, " \t"))
	}
}

func (p *printer) file(f *File) {
	p.attach(f)
	prevSentinel := false
	top := func(c *Comment) {
		if prevSentinel {
			p.str("\n")
		}
		p.comment(c, "")
		prevSentinel = false
	}
	for _, s := range f.Sentinels {
		// The blank line before the sentinel goes before the comments
		// from inside its first line (after Create), which are printed
		// above it: they belong to the sentinel, not to the comments
		// before it.
		separated := false
		separate := func() {
			if p.buf.Len() > 0 && (prevSentinel || s.blank) && !bytes.HasSuffix(p.buf.Bytes(), []byte("\n\n")) {
				p.str("\n")
			}
			separated, prevSentinel = true, false
		}
		for _, c := range p.before[s] {
			if !separated && c.Hash.IsValid() && s.Create.IsValid() && c.Hash.Offset > s.Create.Offset {
				separate()
			}
			top(c)
		}
		if !separated {
			separate()
		}
		p.sentinel(s)
		prevSentinel = true
	}
	for _, c := range p.after {
		top(c)
	}
}

func (p *printer) sentinel(s *Sentinel) {
	p.str("Create Sentinel ")
	if s.Name != nil {
		p.str(s.Name.Name)
	}
	p.str(" Using ")
	p.target(s.Target, 0)
	p.end(s)
	p.str("\n")
	clause := func(lead []*Comment, f func(), end func()) {
		for _, c := range lead {
			p.comment(c, "\t")
		}
		p.str("\t")
		f()
		end()
		p.str("\n")
	}
	node := func(n Node, f func()) { clause(p.leading[n], f, func() { p.end(n) }) }
	if s.Monitor != nil {
		node(s.Monitor, func() { p.node(s.Monitor) })
	}
	if s.Fetch != nil {
		node(s.Fetch, func() { p.fetch(s.Fetch) })
	}
	if s.Confirm != nil {
		node(s.Confirm, func() { p.node(s.Confirm) })
	}
	switch {
	case s.From != nil && s.To != nil:
		// One line for both, broken before To where comments end
		// From's line or come before To: they stay there.
		clause(p.leading[s.From], func() {
			p.timeSpec(s.From, "From")
			p.breakLine(slices.Concat(p.trailing[s.From], p.leading[s.To]), true)
			p.timeSpec(s.To, "To")
		}, func() { p.trail(p.trailing[s.To]) })
	case s.From != nil:
		node(s.From, func() { p.timeSpec(s.From, "From") })
	case s.To != nil:
		node(s.To, func() { p.timeSpec(s.To, "To") })
	}
	if s.Notify != nil {
		node(s.Notify, func() { p.notify(s.Notify) })
	}
	if s.Every != nil {
		node(s.Every, func() { p.every(s.Every) })
	}
	if s.Compare != nil {
		node(s.Compare, func() { p.compare(s.Compare) })
	}
	for _, c := range p.closing[s] {
		p.comment(c, "\t")
	}
}

// Operator precedences for parenthesisation.
const (
	precOr = iota + 1
	precAnd
	precNot
)

func opPrec(op Op) int {
	if op == And {
		return precAnd
	}
	return precOr
}

func (p *printer) target(t Target, ctx int) {
	if isNilNode(t) {
		p.str("<missing target>")
		return
	}
	switch t := t.(type) {
	case *URLTarget:
		p.str(quoteAs(t.URL, WORD))
	case *SiteTarget:
		p.str("site " + quoteAs(t.URL, WORD))
		if t.Depth != nil {
			p.space(t.Depth)
			p.str("depth " + strconv.FormatInt(t.Depth.N, 10))
		}
		if t.Pages != nil {
			p.space(t.Pages)
			p.str("pages " + strconv.FormatInt(t.Pages.N, 10))
		}
		for _, s := range t.Scope {
			if s != nil {
				p.space(s)
				p.str("scope " + quoteAs(s.Value, WORD))
			}
		}
		if t.Match != nil {
			p.space(t.Match)
			p.str("match " + strconv.Quote(t.Match.Value))
		}
	case *SentinelTarget:
		if t.Name != nil {
			p.str(t.Name.Name)
		}
	case *BinaryTarget:
		prec := opPrec(t.Op)
		if prec < ctx {
			p.str("(")
		}
		p.target(t.X, prec)
		p.operator(t.Op, t.OpPos, t.Y)
		p.target(t.Y, prec+1)
		if prec < ctx {
			p.str(")")
		}
	}
}

func (p *printer) expr(x Expr, ctx int) {
	if isNilNode(x) {
		p.str("<missing change type>")
		return
	}
	switch x := x.(type) {
	case *BinaryExpr:
		prec := opPrec(x.Op)
		if prec < ctx {
			p.str("(")
		}
		p.expr(x.X, prec)
		p.operator(x.Op, x.OpPos, x.Y)
		p.expr(x.Y, prec+1)
		if prec < ctx {
			p.str(")")
		}
	case *NotExpr:
		p.str("NOT ")
		p.expr(x.X, precNot)
	case *ChangeType:
		p.changeType(x)
	}
}

func (p *printer) changeType(c *ChangeType) {
	p.str(c.Kind.String())
	switch c.Kind {
	case Words:
		if len(c.Args) > 0 {
			p.str(" except")
			p.list(c.Args, false)
		}
	case Keywords, Table, List:
		if len(c.Args) > 0 || c.Kind == Keywords {
			p.list(c.Args, false)
		}
	case Phrase, Regex:
		p.list(c.Args, true)
	}
	if c.Scope != nil {
		p.space(c.Scope)
		p.selector(c.Scope, "In")
	}
	if c.Condition != nil {
		p.space(c.Condition)
		p.condition(c.Condition)
	}
	for _, ig := range c.Ignore {
		p.space(ig)
		p.selector(ig, "Ignore")
	}
}

func (p *printer) list(items []*Lit, quoted bool) {
	p.str(" {")
	for i, it := range items {
		if i > 0 {
			p.str(",")
			p.space(it)
		}
		if quoted {
			p.str(strconv.Quote(it.Value))
		} else {
			p.str(quoteItem(it.Value))
		}
	}
	p.str("}")
}

func (p *printer) selector(s *Selector, keyword string) {
	p.str(keyword + " " + s.Lang.String() + " ")
	if s.Expr != nil {
		p.str(strconv.Quote(s.Expr.Value))
	}
}

func (p *printer) condition(c *Condition) {
	p.str(c.Op.String())
	if c.Op.HasThreshold() {
		p.str(" " + strconv.FormatFloat(c.Threshold, 'f', -1, 64))
	}
}

func (p *printer) interval(iv *Interval) {
	if iv != nil {
		p.str(iv.Duration.String())
	}
}

func (p *printer) fetch(c *FetchClause) { p.words(words(c, "")) }

// timeSpec prints t after keyword ("From" or "To"; a TimeSpec printed on its
// own has none).
func (p *printer) timeSpec(t *TimeSpec, keyword string) {
	ws := words(t, keyword)
	if keyword == "" {
		ws = ws[1:]
	}
	p.words(ws)
}

func (p *printer) timeBase(b TimeBase) {
	switch b := b.(type) {
	case *Date:
		p.str(b.String())
	case *Now:
		p.str("Now")
	case *Event:
		p.str(b.Kind.String() + "(")
		if b.Name != nil {
			p.str(b.Name.Name)
		}
		p.str(")")
	}
}

func (p *printer) notify(c *NotifyClause) {
	p.str("Notify By ")
	for i, ct := range c.Contacts {
		if i > 0 {
			p.str(",")
			p.space(ct)
		}
		p.contact(ct)
	}
}

func (p *printer) contact(c *Contact) {
	switch c.Kind {
	case Chat:
		p.str(quoteAs(c.Address, WORD))
	default:
		p.str(c.Kind.String() + " ")
		if t, ok := scanOne(c.Address); ok && (t == WORD || t == IDENT || t == INT) {
			p.str(c.Address)
		} else {
			p.str(strconv.Quote(c.Address))
		}
	}
}

func (p *printer) every(c *EveryClause) { p.words(words(c, "")) }

func (p *printer) compare(c *CompareClause) { p.words(words(c, "")) }

// quoteAs returns s bare if it scans back as exactly one token of class tok
// with the same text, and quoted otherwise.
func quoteAs(s string, tok Token) string {
	if t, ok := scanOne(s); ok && t == tok {
		return s
	}
	return strconv.Quote(s)
}

// quoteItem returns s bare if it scans back as one word, number, date or
// URL-like token with the same text (a keyword is fine inside a list), and
// quoted otherwise.
func quoteItem(s string) string {
	if t, ok := scanOne(s); ok && (t.IsLiteral() && t != STRING || t.IsKeyword()) {
		return s
	}
	return strconv.Quote(s)
}

// scanOne reports the class of s if s is exactly one token spelled s.
func scanOne(s string) (Token, bool) {
	if s == "" {
		return 0, false
	}
	var sc Scanner
	sc.Init([]byte(s), nil)
	pos, tok, lit := sc.Scan()
	if sc.ErrorCount > 0 || pos.Offset != 0 || lit != s {
		return 0, false
	}
	if _, next, _ := sc.Scan(); next != EOF {
		return 0, false
	}
	return tok, true
}

package spec

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Print returns the canonical form of node: a *File, a *Sentinel, or a part
// of one (an Expr, a Target, a *TimeSpec, a clause). Parsing the canonical
// form of a sentinel gives the same syntax tree, positions aside.
//
// The canonical form writes keywords as the seed capitalises them, one clause
// a line indented by a tab in the order Monitor, Fetch, Confirm, From/To,
// Notify, Every, Compare; units in the singular ("2 day"); dates as
// MM/DD/YYYY; "keywords" for "keyword"; lists in braces; the fewest
// parentheses the precedence NOT > AND > OR needs; and quotes only where a
// value would not scan back as one word (phrases, regular expressions and
// selectors are always quoted). Comments of a *File are kept, each on a line
// of its own before the clause or sentinel that followed it; those after a
// sentinel's last clause that end a line or are indented close that
// sentinel, those at the start of a line open the next one.
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
	buf      bytes.Buffer
	comments []*Comment // comments not yet printed
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
		p.str("Confirm after ")
		p.interval(n.After)
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

// flushComments prints the pending comments that come before pos.
func (p *printer) flushComments(pos Pos, indent string) {
	for len(p.comments) > 0 && (!pos.IsValid() || p.comments[0].Hash.Offset < pos.Offset) {
		if !pos.IsValid() {
			return
		}
		p.str(indent)
		p.str(strings.TrimRight(p.comments[0].Text, " \t"))
		p.str("\n")
		p.comments = p.comments[1:]
	}
}

// flushIndented prints, at the end of a sentinel, the pending comments
// before pos (the next sentinel, if valid) that are indented, as its
// clauses are, or end one of its lines: they belong to it, not to the
// sentinel that follows.
func (p *printer) flushIndented(pos Pos) {
	for len(p.comments) > 0 && p.comments[0].Hash.Column > 1 && (!pos.IsValid() || p.comments[0].Hash.Offset < pos.Offset) {
		p.str("\t")
		p.str(strings.TrimRight(p.comments[0].Text, " \t"))
		p.str("\n")
		p.comments = p.comments[1:]
	}
}

func (p *printer) file(f *File) {
	p.comments = f.Comments
	for i, s := range f.Sentinels {
		if i > 0 {
			p.flushIndented(s.Create)
			p.str("\n")
		}
		p.flushComments(s.Create, "")
		p.sentinel(s)
	}
	if len(f.Sentinels) > 0 {
		p.flushIndented(Pos{})
	}
	if len(p.comments) > 0 && len(f.Sentinels) > 0 {
		p.str("\n")
	}
	for _, c := range p.comments {
		p.str(strings.TrimRight(c.Text, " \t"))
		p.str("\n")
	}
	p.comments = nil
}

func (p *printer) sentinel(s *Sentinel) {
	p.str("Create Sentinel ")
	if s.Name != nil {
		p.str(s.Name.Name)
	}
	p.str(" Using ")
	p.target(s.Target, 0)
	p.str("\n")
	clause := func(n Node, f func()) {
		p.flushComments(n.Pos(), "\t")
		p.str("\t")
		f()
		p.str("\n")
	}
	if s.Monitor != nil {
		clause(s.Monitor, func() { p.node(s.Monitor) })
	}
	if s.Fetch != nil {
		clause(s.Fetch, func() { p.fetch(s.Fetch) })
	}
	if s.Confirm != nil {
		clause(s.Confirm, func() { p.node(s.Confirm) })
	}
	switch {
	case s.From != nil && s.To != nil:
		clause(s.From, func() {
			p.timeSpec(s.From, "From")
			p.str(" ")
			p.timeSpec(s.To, "To")
		})
	case s.From != nil:
		clause(s.From, func() { p.timeSpec(s.From, "From") })
	case s.To != nil:
		clause(s.To, func() { p.timeSpec(s.To, "To") })
	}
	if s.Notify != nil {
		clause(s.Notify, func() { p.notify(s.Notify) })
	}
	if s.Every != nil {
		clause(s.Every, func() { p.every(s.Every) })
	}
	if s.Compare != nil {
		clause(s.Compare, func() { p.compare(s.Compare) })
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
			p.str(" depth " + strconv.FormatInt(t.Depth.N, 10))
		}
		if t.Pages != nil {
			p.str(" pages " + strconv.FormatInt(t.Pages.N, 10))
		}
		for _, s := range t.Scope {
			if s != nil {
				p.str(" scope " + quoteAs(s.Value, WORD))
			}
		}
		if t.Match != nil {
			p.str(" match " + strconv.Quote(t.Match.Value))
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
		p.str(" " + t.Op.String() + " ")
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
		p.str(" " + x.Op.String() + " ")
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
		p.str(" ")
		p.selector(c.Scope, "In")
	}
	if c.Condition != nil {
		p.str(" ")
		p.condition(c.Condition)
	}
	for _, ig := range c.Ignore {
		p.str(" ")
		p.selector(ig, "Ignore")
	}
}

func (p *printer) list(items []*Lit, quoted bool) {
	p.str(" {")
	for i, it := range items {
		if i > 0 {
			p.str(", ")
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

func (p *printer) fetch(c *FetchClause) {
	p.str("Fetch ")
	if c.OnChange {
		p.str("on change")
	} else {
		p.interval(c.Interval)
	}
	if c.Render {
		p.str(" render")
	}
}

// timeSpec prints t after keyword ("From" or "To"; a TimeSpec printed on its
// own has none).
func (p *printer) timeSpec(t *TimeSpec, keyword string) {
	if keyword != "" {
		p.str(keyword + " ")
	}
	p.timeBase(t.Base)
	for _, off := range t.Offsets {
		p.str(" + ")
		p.interval(off)
	}
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
			p.str(", ")
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

func (p *printer) every(c *EveryClause) {
	p.str("Every ")
	if c.Mode == Periodic {
		p.interval(c.Interval)
	} else {
		p.str(c.Mode.String())
	}
}

func (p *printer) compare(c *CompareClause) {
	p.str("Compare " + c.Method.String())
	if c.Method != Pairwise {
		p.str(" " + strconv.FormatInt(c.N, 10))
	}
}

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

package spec

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Parse parses the sentinels in src. filename is used in positions only.
//
// Parse always returns a *File: when there are syntax errors it holds every
// sentinel it could read, partially (a clause with an error is left out), and
// the error is an ErrorList sorted by position, at most one error per line.
// Past MaxErrors errors Parse stops reading (the File holds the sentinels
// read so far) and the list ends with "too many errors". A source holding a
// NUL byte is not text: the only error is at its first NUL.
func Parse(filename string, src []byte) (*File, error) {
	return parse(filename, src, MaxErrors)
}

// parse is Parse reporting at most max errors; max < 0 reports them all.
func parse(filename string, src []byte, max int) (*File, error) {
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return &File{Name: filename}, ErrorList{{Pos: offsetPos(src, i).Position(filename), Msg: "not text: byte 0x00 (a sentinel file is UTF-8 text)", Found: "\x00"}}
	}
	p := &parser{filename: filename, max: max}
	p.sc.Init(src, func(pos Pos, msg, found string) {
		p.record(&Error{Pos: pos.Position(filename), Msg: msg, Found: found})
	})
	p.next()
	f := p.parseFile()
	f.Name = filename
	p.errors.RemoveMultiples()
	if max >= 0 {
		p.errors.limit(max)
	}
	return f, p.errors.Err()
}

// offsetPos returns the position of the byte at offset off in src, lines
// counted as the Scanner counts them.
func offsetPos(src []byte, off int) Pos {
	line, bol := 1, 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' || src[i] == '\r' && (i+1 >= len(src) || src[i+1] != '\n') {
			line, bol = line+1, i+1
		}
	}
	return Pos{Offset: off, Line: line, Column: off - bol + 1}
}

// ParseSentinel parses src, which must hold exactly one sentinel.
func ParseSentinel(filename string, src []byte) (*Sentinel, error) {
	f, err := Parse(filename, src)
	var s *Sentinel
	if len(f.Sentinels) > 0 {
		s = f.Sentinels[0]
	}
	if err != nil {
		return s, err
	}
	switch len(f.Sentinels) {
	case 0:
		return nil, ErrorList{{Pos: Position{Filename: filename}, Msg: "no sentinel: expected Create Sentinel", Expected: "Create"}}
	case 1:
		return s, nil
	}
	return s, ErrorList{{Pos: f.Sentinels[1].Create.Position(filename), Msg: "more than one sentinel: expected end of input", Found: "Create", Expected: "end of file"}}
}

type parser struct {
	sc       Scanner
	filename string
	errors   ErrorList
	comments []*Comment

	max      int          // errors reported at most, < 0 for all (see record)
	errLines map[int]bool // the lines with an error
	stopped  bool         // too many errors: the parse reads no more

	pos Pos
	tok Token
	lit string

	prevEnd  Pos // just after the previous token
	prevLine int // line of the token or comment before the current token, 0 for none
	depth    int // nesting of parentheses and NOT
}

// maxDepth bounds the nesting of parentheses and NOT, so that a hostile
// input cannot exhaust the stack.
const maxDepth = 100

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail(p.pos, p.lit, "", "expression nested too deeply (more than 100 levels)")
	}
}

// bailout unwinds the parse of one clause after a syntax error; it never
// leaves the parser (see try).
type bailout struct{}

// record adds e to the errors. Once the errors are on more than max+1
// lines (one more than the list keeps, as an error may still come before
// the last), the parse stops: next returns EOF, and no error is recorded.
func (p *parser) record(e *Error) {
	if p.stopped {
		return
	}
	p.errors = append(p.errors, e)
	if p.max < 0 {
		return
	}
	if p.errLines == nil {
		p.errLines = map[int]bool{}
	}
	p.errLines[e.Pos.Line] = true
	if len(p.errLines) > p.max+1 {
		p.stopped = true
	}
}

func (p *parser) next() {
	if p.stopped {
		p.tok, p.lit = EOF, ""
		return
	}
	if p.pos.IsValid() {
		p.prevEnd = Pos{Offset: p.pos.Offset + len(p.lit), Line: p.pos.Line, Column: p.pos.Column + len(p.lit)}
	}
	// The layout around comments, for the printer: whether code comes
	// before a comment on its line, whether a blank line comes before
	// it, and the code that follows it (none at the end). Tokens never span
	// lines.
	codeLine := p.pos.Line // 0 before the first token
	p.prevLine = codeLine
	first := len(p.comments)
	for {
		p.pos, p.tok, p.lit = p.sc.Scan()
		if p.tok != COMMENT {
			break
		}
		p.comments = append(p.comments, &Comment{Hash: p.pos, Text: p.lit,
			code: codeLine > 0 && p.pos.Line == codeLine, blank: p.prevLine > 0 && p.pos.Line > p.prevLine+1})
		p.prevLine = p.pos.Line
	}
	if p.tok != EOF {
		for _, c := range p.comments[first:] {
			c.next = p.pos
		}
	}
}

// try runs f and reports whether it completed without a syntax error.
func (p *parser) try(f func()) (ok bool) {
	depth := p.depth
	defer func() {
		p.depth = depth
		if r := recover(); r != nil {
			if _, isBailout := r.(bailout); !isBailout {
				panic(r)
			}
			ok = false
		}
	}()
	f()
	return true
}

// describe returns the current token as the "found" text of an error.
func (p *parser) describe() string {
	switch {
	case p.tok == EOF:
		return "end of file"
	case p.tok == STRING:
		return short(p.lit)
	default:
		return quote(p.lit)
	}
}

// errorAt records an error at pos.
func (p *parser) errorAt(pos Pos, found, expected, msg string) {
	if p.tok == ILLEGAL && pos == p.pos {
		return // the scanner has reported the bad character
	}
	p.record(&Error{Pos: pos.Position(p.filename), Msg: msg, Found: found, Expected: expected})
}

// failExpected records "expected X, found Y" at the current token and
// abandons the clause.
//
// When the current token begins a clause, a sentinel or the end of the
// file on a later line than the previous token, what was expected is
// missing: the error is reported just after the previous token, where the
// missing text belongs (as go/parser reports a missing semicolon). Any
// other token is the mistake, and the error is at it.
func (p *parser) failExpected(what string) {
	found := p.describe()
	pos := p.pos
	if p.prevEnd.IsValid() && p.pos.Line > p.prevEnd.Line && (p.tok == EOF || p.tok.clauseStart()) {
		pos = p.prevEnd
	}
	p.errorAt(pos, p.lit, what, "expected "+what+", found "+found)
	panic(bailout{})
}

// fail records msg at pos, with the offending text and what was expected
// there, and abandons the clause.
func (p *parser) fail(pos Pos, found, expected, msg string) {
	p.errorAt(pos, found, expected, msg)
	panic(bailout{})
}

// failHere records msg at the current token and abandons the clause, as
// fail does; at an illegal character, it replaces what the scanner reported
// there, since the clause says more ($1000 as a threshold, .price as a
// selector).
func (p *parser) failHere(found, expected, msg string) {
	if p.tok == ILLEGAL && !p.stopped {
		p.errors = slices.DeleteFunc(p.errors, func(e *Error) bool { return e.Pos.Offset == p.pos.Offset })
	}
	p.record(&Error{Pos: p.pos.Position(p.filename), Found: found, Expected: expected, Msg: msg})
	panic(bailout{})
}

func (p *parser) expect(tok Token) Pos {
	pos := p.pos
	if p.tok != tok {
		p.failExpected(tok.String())
	}
	p.next()
	return pos
}

// isWord reports whether the current token is the contextual keyword w
// (an IDENT, compared without regard to case).
func (p *parser) isWord(words ...string) bool {
	if p.tok != IDENT {
		return false
	}
	for _, w := range words {
		if strings.EqualFold(p.lit, w) {
			return true
		}
	}
	return false
}

func (p *parser) expectWord(what string, words ...string) Pos {
	pos := p.pos
	if !p.isWord(words...) {
		p.failExpected(what)
	}
	p.next()
	return pos
}

// skipTo advances to the next token that starts a clause (or EOF), so the
// parse resumes after an error.
func (p *parser) skipTo(stop func(Token) bool) {
	for p.tok != EOF && !stop(p.tok) {
		p.next()
	}
}

func isCreate(t Token) bool { return t == CREATE }

func (p *parser) parseFile() *File {
	f := &File{}
	for p.tok != EOF {
		if p.tok != CREATE {
			p.errorAt(p.pos, p.lit, "Create", "expected Create Sentinel, found "+p.describe())
			p.next()
			p.skipTo(isCreate)
			continue
		}
		f.Sentinels = append(f.Sentinels, p.parseSentinel())
	}
	f.Comments = p.comments
	return f
}

func (p *parser) parseSentinel() *Sentinel {
	s := &Sentinel{Create: p.pos, blank: p.prevLine > 0 && p.pos.Line > p.prevLine+1}
	p.next()
	if !p.try(func() {
		p.expect(SENTINEL)
		s.Name = p.parseName("sentinel name")
		p.expect(USING)
		s.Target = p.parseTarget()
	}) {
		p.skipTo(Token.clauseStart)
	}
	// Right after a site target, its own words may come too.
	_, afterSite := s.Target.(*SiteTarget)
	for p.tok != EOF && p.tok != CREATE {
		if !p.tok.clauseStart() {
			expected := "Monitor, Fetch, Confirm, From, To, Notify, Every, Compare or Create"
			if afterSite {
				expected = "depth, pages, scope, match, " + expected
			}
			p.errorAt(p.pos, p.lit, "clause", "expected "+expected+", found "+p.describe())
			p.next()
			p.skipTo(Token.clauseStart)
			continue
		}
		afterSite = false
		if !p.try(func() { p.parseClause(s) }) {
			p.skipTo(Token.clauseStart)
		}
	}
	return s
}

func (p *parser) parseClause(s *Sentinel) {
	pos, tok := p.pos, p.tok
	dup := func(present bool) {
		if present {
			p.errorAt(pos, tok.String(), "", "duplicate "+tok.String()+" clause")
		}
	}
	p.next()
	switch tok {
	case MONITOR:
		dup(s.Monitor != nil)
		c := &MonitorClause{Monitor: pos, X: p.parseExpr()}
		if s.Monitor == nil {
			s.Monitor = c
		}
	case FETCH:
		dup(s.Fetch != nil)
		c := p.parseFetch(pos)
		if s.Fetch == nil {
			s.Fetch = c
		}
	case CONFIRM:
		dup(s.Confirm != nil)
		p.expectWord(`"after"`, "after")
		c := &ConfirmClause{Confirm: pos, After: p.parseInterval()}
		if s.Confirm == nil {
			s.Confirm = c
		}
	case FROM:
		dup(s.From != nil)
		t := p.parseTimeSpec(pos, true)
		if s.From == nil {
			s.From = t
		}
	case TO:
		dup(s.To != nil)
		t := p.parseTimeSpec(pos, false)
		if s.To == nil {
			s.To = t
		}
	case NOTIFY:
		dup(s.Notify != nil)
		c := p.parseNotify(pos)
		if s.Notify == nil {
			s.Notify = c
		}
	case EVERY:
		dup(s.Every != nil)
		c := p.parseEvery(pos)
		if s.Every == nil {
			s.Every = c
		}
	case COMPARE:
		dup(s.Compare != nil)
		c := p.parseCompare(pos)
		if s.Compare == nil {
			s.Compare = c
		}
	}
}

func (p *parser) parseName(what string) *Ident {
	if p.tok != IDENT {
		if p.tok.IsKeyword() {
			p.fail(p.pos, p.lit, what, "expected "+what+", found reserved word "+p.describe())
		}
		p.failExpected(what)
	}
	id := &Ident{NamePos: p.pos, Name: p.lit}
	p.next()
	return id
}

// ---- targets

func (p *parser) parseTarget() Target {
	x := p.parseTargetAnd()
	for p.tok == OR {
		pos := p.pos
		p.next()
		x = &BinaryTarget{X: x, OpPos: pos, Op: Or, Y: p.parseTargetAnd()}
	}
	return x
}

func (p *parser) parseTargetAnd() Target {
	x := p.parseTargetTerm()
	for p.tok == AND {
		pos := p.pos
		p.next()
		x = &BinaryTarget{X: x, OpPos: pos, Op: And, Y: p.parseTargetTerm()}
	}
	return x
}

func (p *parser) parseTargetTerm() Target {
	switch p.tok {
	case LPAREN:
		p.enter()
		defer func() { p.depth-- }()
		p.next()
		t := p.parseTarget()
		p.expect(RPAREN)
		return t
	case SENTINEL:
		pos := p.pos
		p.next()
		return &SentinelTarget{Sentinel: pos, Name: p.parseName("sentinel name")}
	case IDENT:
		if p.isWord("site") {
			// "site" followed by a URL watches a site; followed by
			// AND, OR, ")" or a clause, it is a sentinel named site. A
			// name cannot follow a name: "site depth 2" and "site
			// localhost" lack the site's URL (quoted, if a bare word).
			pos, lit := p.pos, p.lit
			p.next()
			switch p.tok {
			case WORD, STRING:
				return p.parseSite(pos)
			case IDENT:
				p.failExpected("the site's URL")
			}
			return &SentinelTarget{Name: &Ident{NamePos: pos, Name: lit}}
		}
		return &SentinelTarget{Name: p.parseName("sentinel name")}
	case WORD, STRING:
		t := &URLTarget{URLPos: p.pos, URL: p.litValue()}
		p.next()
		return t
	}
	p.failExpected("URL or sentinel name")
	return nil
}

// parseSite parses the rest of a site target after the word "site" at
// pos: its URL, then "depth N", "pages N", "scope URL" and "match RE" in
// any order, scope as often as wanted, the others at most once.
func (p *parser) parseSite(pos Pos) *SiteTarget {
	t := &SiteTarget{Site: pos, URLPos: p.pos, URL: p.litValue()}
	p.next()
	for p.isWord("depth", "pages", "scope", "match") {
		word, at := strings.ToLower(p.lit), p.pos
		p.next()
		switch word {
		case "scope":
			t.Scope = append(t.Scope, p.parseSiteLit("URL prefix of the scope"))
			continue
		case "match":
			if t.Match != nil {
				p.fail(at, word, "", "duplicate match in site target")
			}
			p.unquotedMatch(at)
			t.Match = p.parseSiteLit("regular expression the links must match")
			continue
		}
		b := &Bound{ValuePos: p.pos}
		what := "number of " + map[string]string{"depth": "links (the depth of the crawl)", "pages": "pages"}[word]
		b.N = p.parseInt(what)
		bound := &t.Depth
		if word == "pages" {
			bound = &t.Pages
		}
		if *bound != nil {
			p.fail(at, word, "", "duplicate "+word+" in site target")
		}
		*bound = b
		if p.tok == COMMA {
			// Nothing in a site target takes a comma: pages 1,000.
			msg := fmt.Sprintf("write the %s without grouping: %d,... is read as %d then a comma", map[string]string{"depth": "depth", "pages": "number of pages"}[word], b.N, b.N)
			if rest := digitsAt(p.sc.src, p.pos.Offset+1); rest != "" && !strings.ContainsAny(rest, ".,") {
				msg += fmt.Sprintf(" (write %d%s)", b.N, rest)
			}
			p.fail(p.pos, ",", "", msg)
		}
	}
	return t
}

// unquotedMatch reports a regular expression written without quotes after
// the word match at, with the quotes it needs (match "\\.html$"), and
// abandons the clause. The scanner reads such an expression as a name
// (docs), a number, an illegal character (\.html$, .pdf$, [0-9]+), a
// parenthesis or a comment (#top); a word (a.html$) is an expression as
// it is, and a keyword, a word of the site target or the end of the file
// say that the expression is missing (parseSiteLit reports it).
func (p *parser) unquotedMatch(at Pos) {
	p.unquotedComment("quoted regular expression", "match", at)
	if p.pos.Line != at.Line {
		return
	}
	switch p.tok {
	case IDENT:
		if p.isWord("depth", "pages", "scope", "match") {
			return
		}
	case INT, FLOAT, DATE, CLOCK, ILLEGAL, COLON, PLUS, LPAREN, LBRACE:
	default:
		return
	}
	p.unquoted("quoted regular expression", "match")
}

// parseSiteLit parses the URL or expression after "scope" or "match": a
// bare word or a quoted string.
func (p *parser) parseSiteLit(what string) *Lit {
	if p.tok != WORD && p.tok != STRING {
		p.failExpected(what)
	}
	x := &Lit{ValuePos: p.pos, Value: p.litValue(), src: p.lit}
	p.next()
	return x
}

// litValue returns the value of the current literal token.
func (p *parser) litValue() string {
	if p.tok == STRING {
		return unquote(p.lit)
	}
	return p.lit
}

// ---- change-type expressions

func (p *parser) parseExpr() Expr {
	x := p.parseAndExpr()
	for p.tok == OR {
		pos := p.pos
		p.next()
		x = &BinaryExpr{X: x, OpPos: pos, Op: Or, Y: p.parseAndExpr()}
	}
	return x
}

func (p *parser) parseAndExpr() Expr {
	x := p.parseUnary()
	for p.tok == AND {
		pos := p.pos
		p.next()
		x = &BinaryExpr{X: x, OpPos: pos, Op: And, Y: p.parseUnary()}
	}
	return x
}

func (p *parser) parseUnary() Expr {
	switch p.tok {
	case NOT, LPAREN:
		p.enter()
		defer func() { p.depth-- }()
	}
	switch p.tok {
	case NOT:
		pos := p.pos
		p.next()
		return &NotExpr{NotPos: pos, X: p.parseUnary()}
	case LPAREN:
		p.next()
		x := p.parseExpr()
		p.expect(RPAREN)
		return x
	}
	return p.parseChangeType()
}

const changeTypes = "change type (any change, all links, all images, all words, keywords, phrase, table, list, regular expression, value)"

func (p *parser) parseChangeType() *ChangeType {
	c := &ChangeType{KindPos: p.pos}
	if p.tok != IDENT {
		p.failExpected(changeTypes)
	}
	word := strings.ToLower(p.lit)
	p.next()
	switch word {
	case "any":
		p.expectWord(`"change" after "any"`, "change")
		c.Kind = AnyChange
	case "anychange":
		c.Kind = AnyChange
	case "all":
		switch {
		case p.isWord("links", "link"):
			c.Kind = Links
		case p.isWord("images", "image"):
			c.Kind = Images
		case p.isWord("words", "word"):
			c.Kind = Words
		default:
			p.failExpected(`links, images or words after "all"`)
		}
		p.next()
		if c.Kind == Words && p.isWord("except") {
			p.next()
			c.Args = p.parseList("except")
		}
	case "links", "link":
		c.Kind = Links
	case "images", "image":
		c.Kind = Images
	case "words":
		c.Kind = Words
		if p.isWord("except") {
			p.next()
			c.Args = p.parseList("except")
		}
	case "keywords", "keyword":
		c.Kind = Keywords
		c.Args = p.parseList("keywords")
	case "phrase", "phrases":
		c.Kind = Phrase
		c.Args = p.parseList("phrase")
	case "table", "list":
		c.Kind = Table
		if word == "list" {
			c.Kind = List
		}
		if p.tok == COLON || p.tok == LBRACE || p.tok == LPAREN {
			c.Args = p.parseList(word)
		}
	case "regular":
		p.expectWord(`"expression" after "regular"`, "expression")
		c.Kind = Regex
		c.Args = p.parseList("regular expression")
	case "regex", "regexp":
		c.Kind = Regex
		c.Args = p.parseList("regular expression")
	case "value":
		c.Kind = Value
	default:
		p.fail(c.KindPos, word, changeTypes, "unknown change type "+quote(word)+": expected "+changeTypes)
	}
	if p.tok == IN {
		c.Scope = p.parseSelector()
	} else if c.Kind == Value {
		p.failExpected(`In css "..." or In xpath "..." after value`)
	}
	if c.Kind == Value {
		c.Condition = p.parseCondition()
	}
	for p.tok == IGNORE {
		c.Ignore = append(c.Ignore, p.parseSelector())
	}
	return c
}

// parseList parses [":"] "{" item {"," item} "}", or the same in
// parentheses (the seed's scenarios write keyword (5331, 5324)).
func (p *parser) parseList(what string) []*Lit {
	if p.tok == COLON {
		p.next()
	}
	closing := RBRACE
	switch p.tok {
	case LBRACE:
	case LPAREN:
		closing = RPAREN
	default:
		p.failExpected("{ after " + what)
	}
	p.next()
	var list []*Lit
	for {
		if !p.tok.IsLiteral() && !p.tok.IsKeyword() {
			p.failExpected("word or quoted string")
		}
		list = append(list, &Lit{ValuePos: p.pos, Value: p.litValue()})
		p.next()
		if p.tok != COMMA {
			break
		}
		p.next()
	}
	if p.tok != closing {
		if what == "keywords" && (p.tok == IDENT || p.tok == WORD || p.tok == STRING) && len(list) > 0 {
			// keywords {sold out}: two words, which a phrase holds.
			last := list[len(list)-1].Value
			p.fail(p.pos, p.lit, ", or "+closing.String(), fmt.Sprintf("expected , or %s, found %s: a keyword is one word; for words together write phrase {%s}",
				closing, p.describe(), quote(last+" "+p.litValue())))
		}
		p.failExpected(", or " + closing.String())
	}
	p.next()
	return list
}

func (p *parser) parseSelector() *Selector {
	sel := &Selector{KeywordPos: p.pos}
	p.next()
	switch {
	case p.isWord("css"):
		sel.Lang = CSS
	case p.isWord("xpath"):
		sel.Lang = XPath
	default:
		p.failExpected("css or xpath")
	}
	langEnd := p.pos
	p.next()
	if p.tok != STRING {
		p.unquotedSelector(sel.Lang, langEnd)
	}
	sel.Expr = &Lit{ValuePos: p.pos, Value: unquote(p.lit), src: p.lit}
	p.next()
	return sel
}

// unquotedSelector reports a selector written without quotes after the
// css or xpath word at lang, with the quotes it needs, and abandons the
// clause. The scanner reads such a selector as a word (div.price), an
// illegal character (.price, //div, 'main' in single quotes) or a comment
// (#price); any other token is reported as not expected.
func (p *parser) unquotedSelector(lang SelectorLang, at Pos) {
	p.unquotedComment("quoted selector", lang.String(), at)
	switch p.tok {
	case IDENT, WORD, ILLEGAL, COLON, PLUS:
	default:
		p.failExpected("quoted selector")
	}
	p.unquoted("quoted selector", lang.String())
}

// unquotedComment reports, as a literal that needs quotes after keyword
// at, a comment that begins on keyword's line with something other than
// white space (#price, #top), and abandons the clause; it does nothing
// otherwise.
func (p *parser) unquotedComment(what, keyword string, at Pos) {
	n := len(p.comments)
	if n == 0 || p.comments[n-1].Hash.Offset <= at.Offset || p.comments[n-1].Hash.Line != at.Line {
		return
	}
	c := p.comments[n-1]
	text := strings.Fields(c.Text)[0]
	if text == "#" {
		return // a comment after a missing literal
	}
	p.fail(c.Hash, text, what, fmt.Sprintf("expected %s, found %s, which begins a comment: write %s %s", what, short(text), keyword, quote(text)))
}

// unquoted reports the text from the current token to the next white
// space as a literal that needs quotes after keyword, writing it as it
// should be (%q: quotes, and the Go escapes the language's strings have),
// and abandons the clause.
func (p *parser) unquoted(what, keyword string) {
	src := p.sc.src[p.pos.Offset:]
	if i := strings.IndexFunc(string(src), unicode.IsSpace); i >= 0 {
		src = src[:i]
	}
	text := string(src)
	if len(text) > 1 && text[0] == '\'' && text[len(text)-1] == '\'' {
		text = text[1 : len(text)-1] // 'main': quoted, but as strings are not
	}
	p.failHere(text, what, fmt.Sprintf("expected %s, found %s: write %s %s", what, short(text), keyword, quote(text)))
}

func (p *parser) parseCondition() *Condition {
	c := &Condition{CondPos: p.pos}
	switch {
	case p.isWord("changes"):
		c.Op = Changes
	case p.isWord("increases"):
		c.Op = Increases
	case p.isWord("decreases"):
		c.Op = Decreases
	case p.isWord("rises"):
		p.next()
		if !p.isWord("above") {
			p.failExpected(`"above" after "rises"`)
		}
		c.Op = RisesAbove
	case p.isWord("falls"):
		p.next()
		if !p.isWord("below") {
			p.failExpected(`"below" after "falls"`)
		}
		c.Op = FallsBelow
	default:
		p.failExpected("value condition (changes, increases, decreases, rises above N, falls below N)")
	}
	p.next()
	if c.Op.HasThreshold() {
		if num := digitsAt(p.sc.src, p.pos.Offset+len(p.lit)); p.tok == ILLEGAL && num != "" {
			// $1000, €12.50: the scanner has reported the sign; the
			// threshold says more.
			msg := fmt.Sprintf("write the threshold as a number, without a currency sign: %s, not %s", short(num), short(p.lit+num))
			if strings.Contains(num, ",") || strings.Count(num, ".") > 1 {
				// $1,000, €12,50: no number to give back as it is.
				msg = fmt.Sprintf("write the threshold as a number, without a currency sign, grouping or a decimal comma (1000 or 12.5), not %s", short(p.lit+num))
			}
			p.failHere(p.lit, "number", msg)
		}
		if p.tok != INT && p.tok != FLOAT {
			p.failExpected("number")
		}
		v, err := strconv.ParseFloat(p.lit, 64)
		if err != nil {
			p.fail(p.pos, p.lit, "number", "number "+short(p.lit)+" out of range")
		}
		c.Threshold = v
		lit := p.lit
		p.next()
		if p.tok == COMMA {
			// Nothing after a condition takes a comma: 1,000 or 12,50.
			p.fail(p.pos, ",", "",
				"write the threshold without grouping or a decimal comma: "+lit+",... is read as "+lit+" then a comma (write 1000 or 12.5)")
		}
	}
	return c
}

// digitsAt returns the number written in src from offset off, after a
// currency sign: its digits, points and commas, but for a point or comma
// that ends it ($1000. at the end of a sentence).
func digitsAt(src []byte, off int) string {
	end := off
	for end < len(src) && (src[end] >= '0' && src[end] <= '9' || (src[end] == '.' || src[end] == ',') && end > off) {
		end++
	}
	return strings.TrimRight(string(src[off:end]), ".,")
}

// ---- fetch, confirm, intervals

func (p *parser) parseFetch(pos Pos) *FetchClause {
	c := &FetchClause{Fetch: pos}
	switch {
	case p.isWord("on"):
		p.next()
		p.expectWord(`"change" after "on"`, "change")
		c.OnChange = true
	case p.tok == INT:
		c.Interval = p.parseInterval()
	default:
		p.failExpected("interval (1 hour) or on change")
	}
	if p.isWord("render") {
		c.Render = true
		p.next()
	}
	return c
}

func (p *parser) parseInt(what string) int64 {
	if p.tok != INT {
		p.failExpected(what)
	}
	n, err := strconv.ParseInt(p.lit, 10, 64)
	if err != nil {
		p.fail(p.pos, p.lit, "number", "number "+short(p.lit)+" out of range")
	}
	p.next()
	return n
}

func (p *parser) parseInterval() *Interval {
	iv := &Interval{ValuePos: p.pos}
	iv.N = p.parseInt("interval (a count and a unit, as in 1 day)")
	if p.tok != IDENT {
		p.failExpected("time unit (second, minute, hour, day, week or month)")
	}
	u, ok := ParseUnit(p.lit)
	if !ok {
		p.fail(p.pos, p.lit, "time unit", errUnknownUnit(p.lit).Error())
	}
	iv.Unit = u
	p.next()
	return iv
}

// ---- lifespan

func (p *parser) parseTimeSpec(pos Pos, from bool) *TimeSpec {
	t := &TimeSpec{Keyword: pos}
	switch {
	case p.tok == DATE:
		t.Base = p.parseDate()
	case p.isWord("now"):
		t.Base = &Now{NowPos: p.pos}
		p.next()
	case p.isWord("start", "end", "during"):
		ev := &Event{EventPos: p.pos}
		switch strings.ToLower(p.lit) {
		case "start":
			ev.Kind = Start
		case "end":
			ev.Kind = End
		default:
			ev.Kind = During
			if !from {
				p.fail(p.pos, p.lit, "start(name) or end(name)", "during(...) is not allowed in To: the end time of a sentinel cannot be specified as during of another sentinel")
			}
		}
		p.next()
		p.expect(LPAREN)
		ev.Name = p.parseName("sentinel name")
		p.expect(RPAREN)
		t.Base = ev
	default:
		p.failExpected("date (MM/DD/YYYY), Now, start(name), end(name) or during(name)")
	}
	for p.tok == PLUS {
		p.next()
		t.Offsets = append(t.Offsets, p.parseInterval())
	}
	return t
}

func (p *parser) parseDate() *Date {
	d := &Date{DatePos: p.pos}
	parts := strings.Split(p.lit, "/")
	bad := func(why string) {
		p.fail(d.DatePos, p.lit, "date MM/DD/YYYY", fmt.Sprintf("invalid date %s: %s (want MM/DD/YYYY)", short(p.lit), why))
	}
	if len(parts) != 3 {
		bad("not month/day/year")
	}
	var n [3]int
	for i, s := range parts {
		if len(s) > 4 {
			bad("too many digits")
		}
		n[i], _ = strconv.Atoi(s)
	}
	d.Month, d.Day, d.Year = n[0], n[1], n[2]
	switch len(parts[2]) {
	case 2:
		if d.Year < 69 {
			d.Year += 2000
		} else {
			d.Year += 1900
		}
	case 4:
	default:
		bad("the year must have 4 (or 2) digits")
	}
	if d.Month < 1 || d.Month > 12 {
		bad("month out of range")
	}
	if d.Day < 1 || time.Date(d.Year, time.Month(d.Month), d.Day, 0, 0, 0, 0, time.UTC).Day() != d.Day {
		bad("day out of range")
	}
	p.next()
	if p.tok == CLOCK {
		hm := strings.Split(p.lit, ":")
		h, _ := strconv.Atoi(hm[0])
		m, _ := strconv.Atoi(hm[1])
		if len(hm[0]) > 2 || len(hm[1]) != 2 || h > 23 || m > 59 {
			p.fail(p.pos, p.lit, "time of day HH:MM", "invalid time of day "+short(p.lit)+" (want HH:MM, 00:00 to 23:59)")
		}
		d.HasClock, d.Hour, d.Minute = true, h, m
		p.next()
	}
	return d
}

// ---- notification

func (p *parser) parseNotify(pos Pos) *NotifyClause {
	c := &NotifyClause{Notify: pos}
	p.expectWord(`"By"`, "by")
	for {
		c.Contacts = append(c.Contacts, p.parseContact())
		if p.tok != COMMA {
			return c
		}
		p.next()
	}
}

// contactOptions is what is expected after Notify By. The seed's fax and
// PDA are parsed but not among them: the checker refuses both.
const contactOptions = "email <address>, webhook <URL> or a chat URL (slack://, discord://, telegram://, ntfy://, gotify://, mattermost://)"

func (p *parser) parseContact() *Contact {
	c := &Contact{ContactPos: p.pos}
	value := func(what string) string {
		if p.tok != WORD && p.tok != STRING && p.tok != IDENT && p.tok != INT {
			p.failExpected(what)
		}
		v := p.litValue()
		p.next()
		return v
	}
	switch {
	case p.isWord("email", "e-mail", "mail"):
		p.next()
		c.Kind, c.Address = Email, value("email address")
	case p.isWord("webhook"):
		p.next()
		c.Kind, c.Address = Webhook, value("webhook URL")
	case p.isWord("fax"):
		p.next()
		c.Kind, c.Address = Fax, value("fax number")
	case p.isWord("pda"):
		p.next()
		c.Kind, c.Address = PDA, value("PDA details")
	case p.tok == WORD || p.tok == STRING:
		v := p.litValue()
		scheme, _, hasScheme := strings.Cut(v, "://")
		switch {
		case hasScheme && IsChatScheme(strings.ToLower(scheme)):
			c.Kind = Chat
		case !hasScheme && strings.Contains(v, "@"):
			c.Kind = Email
		default:
			p.failExpected(contactOptions)
		}
		c.Address = v
		p.next()
	default:
		p.failExpected(contactOptions)
	}
	return c
}

func (p *parser) parseEvery(pos Pos) *EveryClause {
	c := &EveryClause{Every: pos}
	switch {
	case p.isWord("immediate"):
		c.Mode = Immediate
		p.next()
	case p.isWord("best"):
		p.next()
		p.expectWord(`"effort" after "best"`, "effort")
		c.Mode = BestEffort
	case p.isWord("interactive"):
		c.Mode = Interactive
		p.next()
	case p.tok == INT:
		c.Mode = Periodic
		c.Interval = p.parseInterval()
	default:
		p.failExpected("immediate, best effort, interactive or an interval")
	}
	return c
}

func (p *parser) parseCompare(pos Pos) *CompareClause {
	c := &CompareClause{Compare: pos}
	switch {
	case p.isWord("pairwise"):
		c.Method = Pairwise
		p.next()
	case p.tok == EVERY || p.isWord("moving"):
		c.Method = EveryN
		if p.tok != EVERY {
			c.Method = MovingN
		}
		p.next()
		c.N = p.parseInt("n (an integer) after " + c.Method.String())
	case p.tok == IDENT && glued(p.lit) != 0:
		// the seed's grammar writes moving<n> and every<n>: accept "moving4"
		c.Method = glued(p.lit)
		n, err := strconv.ParseInt(p.lit[len(c.Method.String()):], 10, 64)
		if err != nil {
			p.fail(p.pos, p.lit, "n (an integer)", "number in "+short(p.lit)+" out of range")
		}
		c.N = n
		p.next()
	default:
		p.failExpected("pairwise, every <n> or moving <n>")
	}
	return c
}

// glued returns EveryN or MovingN for "every3" or "moving4", else 0.
func glued(w string) CompareMethod {
	lw := strings.ToLower(w)
	for _, m := range []CompareMethod{EveryN, MovingN} {
		rest, ok := strings.CutPrefix(lw, m.String())
		if ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
			return m
		}
	}
	return 0
}

package spec

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"
)

// Parse parses the sentinels in src. filename is used in positions only.
//
// Parse always returns a *File: when there are syntax errors it holds every
// sentinel it could read, partially (a clause with an error is left out), and
// the error is an ErrorList sorted by position, at most one error per line
// (but for one of something missing before a clause or a sentinel that
// begins the line, told at its keyword: see failExpected).
// Past MaxErrors errors Parse stops reading (the File holds the sentinels
// read so far) and the list ends with "too many errors". A source holding a
// NUL byte is not text: the only error is at its first NUL, or at its
// start where it looks like UTF-16 (see looksUTF16).
func Parse(filename string, src []byte) (*File, error) {
	return parse(filename, src, MaxErrors)
}

// parse is Parse reporting at most max errors; max < 0 reports them all.
func parse(filename string, src []byte, max int) (*File, error) {
	if looksUTF16(src) {
		return &File{Name: filename}, ErrorList{{Pos: Position{Filename: filename, Line: 1, Column: 1},
			Msg: "not text: the file looks like UTF-16; a sentinel file is UTF-8 text: save it as UTF-8"}}
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return &File{Name: filename}, ErrorList{{Pos: offsetPos(src, i).Position(filename), Msg: "not text: byte 0x00 (a sentinel file is UTF-8 text)", Found: "\x00"}}
	}
	p := newParser(filename, src, max)
	f := p.parseFile()
	f.Name = filename
	p.errors.RemoveMultiples()
	p.atFound()
	if max >= 0 {
		p.errors.limit(max)
	}
	return f, p.errors.Err()
}

// newParser returns a parser of src at its first token, which reports at
// most max errors (see parse).
func newParser(filename string, src []byte, max int) *parser {
	p := &parser{filename: filename, max: max}
	p.sc.Init(src, p.scanned)
	p.next()
	return p
}

// looksUTF16 reports whether src looks like UTF-16 text: it begins with a
// UTF-16 byte order mark (FF FE or FE FF, which UTF-8 never holds), or,
// without one, every other byte of its beginning is 0, at least half of
// them, as in Latin letters written in UTF-16.
func looksUTF16(src []byte) bool {
	if len(src) >= 2 && (src[0] == 0xFF && src[1] == 0xFE || src[0] == 0xFE && src[1] == 0xFF) {
		return true
	}
	head := src[:min(len(src), 512)&^1]
	var zeros [2]int
	for i, b := range head {
		if b == 0 {
			zeros[i%2]++
		}
	}
	n := len(head) / 2
	return n >= 2 && (zeros[0] == 0 && 2*zeros[1] >= n || zeros[1] == 0 && 2*zeros[0] >= n)
}

// offsetPos returns the position of the byte at offset off in src, lines
// and columns counted as the Scanner counts them.
func offsetPos(src []byte, off int) Pos {
	line, bol := 1, 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' || src[i] == '\r' && (i+1 >= len(src) || src[i+1] != '\n') {
			line, bol = line+1, i+1
		}
	}
	return Pos{Offset: off, Line: line, Column: utf8.RuneCount(src[bol:off]) + 1}
}

// NoSentinel is the error of a source that holds no sentinel (empty, or
// comments only) where one is wanted, at the start of filename: line 1,
// column 1, so that it is told as file:line:col as every other.
func NoSentinel(filename string) ErrorList {
	return ErrorList{{Pos: Position{Filename: filename, Line: 1, Column: 1}, Msg: "no sentinel: expected Create Sentinel", Expected: "Create"}}
}

// ParseSentinel parses src, which must hold exactly one sentinel.
func ParseSentinel(filename string, src []byte) (*Sentinel, error) {
	f, err := Parse(filename, src)
	return SoleSentinel(f, err)
}

// SoleSentinel returns the first sentinel of f, which Parse returned
// with err, and the error of a source that must hold exactly one: err's
// syntax errors and, when f holds more than one sentinel, "more than one
// sentinel" at the second's Create, in one list sorted by position and
// cut at MaxErrors (MergeErrors); NoSentinel when f holds none and err
// is nil. The sentinels after the first are still f's, to be checked.
func SoleSentinel(f *File, err error) (*Sentinel, error) {
	var s *Sentinel
	if len(f.Sentinels) > 0 {
		s = f.Sentinels[0]
	}
	switch {
	case len(f.Sentinels) > 1:
		more := ErrorList{{Pos: f.Sentinels[1].Create.Position(f.Name), Msg: "more than one sentinel: expected end of input", Found: "Create", Expected: "end of file"}}
		if err == nil {
			return s, more
		}
		var list ErrorList
		if !errors.As(err, &list) {
			return s, err
		}
		return s, MergeErrors(list, more)
	case err != nil:
		return s, err
	case s == nil:
		return nil, NoSentinel(f.Name)
	}
	return s, nil
}

type parser struct {
	sc       Scanner
	filename string
	errors   ErrorList
	comments []*Comment

	max      int          // errors reported at most, < 0 for all (see record)
	errLines map[int]bool // the lines with an error
	stopped  bool         // too many errors: the parse reads no more
	// runs holds, for the scanner's errors at a ";" and for its others,
	// the last one recorded since the last mark, which those after it
	// on its line are told by (see scanned).
	runs [2]errorRun

	pos Pos
	tok Token
	lit string

	prevEnd  Pos // just after the previous token
	prevLine int // line of the token or comment before the current token, 0 for none
	depth    int // nesting of parentheses and NOT

	// found holds the errors of something missing before a clause or
	// a sentinel on a later line, recorded just after the token before
	// (see failExpected), with the position of the token they name.
	found map[*Error]Pos

	// clauseToks holds the positions of the tokens read since
	// parseClause began a clause, its keyword first (see words); nil
	// outside a clause.
	clauseToks []Pos

	// parts collects the pieces of the clause or header being read
	// that read cleanly (see part), while collecting; partsFrom is the
	// number of errors when it began.
	parts      []Node
	partsFrom  int
	collecting bool
	// targetFrom is the number of errors when the target of the header
	// being read began, -1 before; targetStart and targetEnd are the
	// offsets of its text, once read (see secondUsing).
	targetFrom             int
	targetStart, targetEnd int
	// sentinelTold is set when the error of a misspelt Create has
	// told of the misspelt Sentinel after it too (Crate Sentinal b),
	// which sentinelKeyword then does not report again.
	sentinelTold bool
}

// part records n, a piece of the clause or header being read that has
// just been read without an error in its text (see part).
func (p *parser) part(n Node) {
	if p.collecting && !p.erredSince(p.partsFrom) {
		p.parts = append(p.parts, n)
	}
}

// beginParts starts collecting the pieces of a clause or header.
func (p *parser) beginParts() {
	p.parts, p.partsFrom, p.collecting = nil, p.mark(), true
}

// endParts stops collecting and returns the pieces read before the
// first error of the clause, as pieces of clause: one after it (the
// interval of "Fetch every 0 hours") is read past the mistake.
func (p *parser) endParts(clause Token) []part {
	p.collecting = false
	first := -1
	for _, e := range p.errors[min(p.partsFrom, len(p.errors)):] {
		if first < 0 || e.Pos.Offset < first {
			first = e.Pos.Offset
		}
	}
	var out []part
	for _, n := range p.parts {
		if first < 0 || posOf(n).Offset < first {
			if t, ok := n.(*SiteTarget); ok && first >= 0 {
				n = siteReadBefore(t, first)
			}
			out = append(out, part{clause: clause, n: n})
		}
	}
	p.parts = nil
	return out
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

// errorRun is an error of the scanner that p.errors holds at index at,
// unless an error before it was removed since (see scanned).
type errorRun struct {
	e  *Error
	at int
}

// mark returns the number of errors recorded, for erredSince and
// endParts to tell the errors recorded after it. The scanner's errors
// that come after it are recorded, not told by one before it (see
// scanned).
func (p *parser) mark() int {
	p.runs = [2]errorRun{}
	return len(p.errors)
}

// scanned records an error of the scanner, at the token it has just
// scanned, unless the last one of the same kind (";" or another)
// recorded since the last mark is still recorded, on its line and
// before it. Only the first error of a line is told, and the parser
// reads of the others only whether any came after a mark: a line of a
// megabyte of ";" recorded an error a byte, then sorted them, where one
// tells as much. The parser deletes errors in two places, at the
// current token (failHere) and the ";" errors of a list whose items ";"
// separates (semicolonItems); when the error a skip relied on is gone,
// the check of p.errors[run.at] fails and the next error of its kind is
// recorded anew.
func (p *parser) scanned(pos Pos, msg, found string) {
	run := &p.runs[0]
	if found == ";" {
		run = &p.runs[1]
	}
	if e := run.e; e != nil && run.at < len(p.errors) && p.errors[run.at] == e && e.Pos.Line == pos.Line && e.Pos.Offset < pos.Offset {
		return
	}
	e := &Error{Pos: pos.Position(p.filename), Msg: msg, Found: found}
	p.record(e)
	if n := len(p.errors); n > 0 && p.errors[n-1] == e {
		*run = errorRun{e: e, at: n - 1}
	}
}

func (p *parser) next() {
	if p.stopped {
		p.tok, p.lit = EOF, ""
		return
	}
	if p.clauseToks != nil {
		p.clauseToks = append(p.clauseToks, p.pos)
	}
	if p.pos.IsValid() {
		p.prevEnd = Pos{Offset: p.pos.Offset + len(p.lit), Line: p.pos.Line, Column: p.pos.Column + utf8.RuneCountInString(p.lit)}
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

// peek returns the token after the current one, comments passed over,
// without moving on and without reporting the errors of its scan.
func (p *parser) peek() Token {
	sc := p.sc
	sc.err = nil
	for {
		if _, tok, _ := sc.Scan(); tok != COMMENT {
			return tok
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

// describe returns the current token as the "found" text of an error, a
// URL's password hidden as the checker's messages hide it, an email
// address's display name kept (HideAddressPassword, which hides a URL's
// as hidePassword does), a chat URL's secrets hidden (ShownChatURL): the
// message may be logged, or shown on a shared screen.
func (p *parser) describe() string {
	switch {
	case p.tok == EOF:
		return "end of file"
	case isChatURL(p.litValue()):
		return quote(ShownChatURL(p.litValue()))
	case p.tok == STRING:
		return short(HideAddressPassword(p.lit))
	default:
		return quote(HideAddressPassword(p.lit))
	}
}

// errorAt records an error at pos.
func (p *parser) errorAt(pos Pos, found, expected, msg string) {
	if p.tok == ILLEGAL && pos == p.pos {
		return // the scanner has reported the bad character
	}
	p.record(&Error{Pos: pos.Position(p.filename), Msg: msg, Found: found, Expected: expected})
}

// failExpected records "expected X, found Y" and abandons the clause. The
// error is told at Y, the token it names, but at the end of the file:
// "found end of file" is told just after the last token, where the missing
// X belongs, not on the blank line after it.
//
// When Y begins a clause or a sentinel on a later line than the token
// before, X is missing at the end of that line, and Y, read rightly, is
// no mistake: the parse records the error just after the token before,
// where X belongs, so that it counts as that line's (a mistake earlier on
// it, such as a string left open, tells it, and the one error a line keeps
// is that one) and leaves Y's line its own error ("Fetch every 2 hours");
// Parse then moves it to Y (atFound), where its "found" points. It was
// left at the end of the line before, as go/parser tells a missing
// semicolon, but go/parser says "found newline" there: "found "Fetch"" at
// 2:30 sent the reader looking for a Fetch on line 2.
func (p *parser) failExpected(what string) {
	found := p.describe()
	pos := p.pos
	missing := p.prevEnd.IsValid() && p.pos.Line > p.prevEnd.Line && (p.tok == EOF || p.tok.clauseStart())
	if missing {
		pos = p.prevEnd
	}
	n := len(p.errors)
	p.errorAt(pos, p.lit, what, "expected "+what+", found "+found)
	if missing && p.tok != EOF && len(p.errors) > n {
		if p.found == nil {
			p.found = map[*Error]Pos{}
		}
		p.found[p.errors[n]] = p.pos
	}
	panic(bailout{})
}

// atFound moves the errors that failExpected recorded before a clause or
// a sentinel on a later line to the token they name, once the parse has
// kept one error a line, and sorts the errors again.
func (p *parser) atFound() {
	if len(p.found) == 0 {
		return
	}
	for _, e := range p.errors {
		if at, ok := p.found[e]; ok {
			e.Pos = at.Position(p.filename)
		}
	}
	p.errors.Sort()
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

// targetAfterError reads, after a syntax error in a header before its
// target ("Create Sentinal Using", a quoted title), the target after a
// Using on the line of the current token, and returns its pieces read
// cleanly (see part), to be checked alone: the sentinel, its name
// unknown, is checked without a target.
func (p *parser) targetAfterError() []part {
	line := p.pos.Line
	for p.tok != USING && p.tok != EOF && p.tok != CREATE && !p.tok.clauseStart() && p.pos.Line == line {
		p.next()
	}
	if p.tok != USING || p.pos.Line != line || p.stopped {
		return nil
	}
	p.next()
	p.beginParts()
	p.try(func() { p.parseTarget() })
	return p.endParts(USING)
}

func isCreate(t Token) bool { return t == CREATE }

func (p *parser) parseFile() *File {
	f := &File{}
	var next *Sentinel // begun by a misspelt Create that ended the one before
	for p.tok != EOF {
		s := next
		switch {
		case s != nil: // the parser is at its Sentinel
		case p.tok == CREATE:
			s = &Sentinel{Create: p.pos, blank: p.prevLine > 0 && p.pos.Line > p.prevLine+1}
			p.next()
		default:
			if s = p.misspeltCreate("Create", "expected Create Sentinel, found "+p.describe(), false); s == nil {
				p.skipTo(isCreate)
				continue
			}
		}
		next = p.parseSentinel(s)
		f.Sentinels = append(f.Sentinels, s)
	}
	f.Comments = p.comments
	return f
}

// parseSentinel reads s from the token after its Create on. It returns
// the next sentinel when a misspelt Create ends s ("Crate Sentinel b":
// see misspeltCreate), the parser at its Sentinel; nil otherwise.
func (p *parser) parseSentinel(s *Sentinel) (next *Sentinel) {
	n := p.mark()
	p.beginParts()
	p.targetFrom = -1
	ok := p.try(func() { p.parseHeader(s) })
	parts := p.endParts(USING)
	header := parts // the pieces of its target, read cleanly (see secondUsing)
	switch {
	case !ok:
		if p.targetFrom < 0 {
			// Broken before its target: a Using further on the
			// line is its first. One after an error in the target
			// is a second, or text after the mistake: what follows
			// it is not read as the target.
			parts = append(parts, p.targetAfterError()...)
		}
		p.skipTo(Token.clauseStart)
		s.broken |= brokenHeader
	case p.erredSince(n) && p.targetFrom >= 0 && !p.erredSince(p.targetFrom):
		// A mistake in its keywords or name ("Create Sentinal b",
		// "Usin") that the parser read past: the name and the target
		// are read, and checked.
		s.broken |= brokenOther
	case p.erredSince(n):
		s.broken |= brokenHeader
	}
	if s.broken&brokenHeader != 0 {
		s.parts = append(s.parts, parts...)
	}
	defer func() {
		if p.stopped {
			// Too many errors: the rest of its text was not read.
			s.broken |= brokenUnknown
		}
		own := len(p.errors)
		if next != nil {
			own-- // "expected Create Sentinel, found "Crate"": next's
		}
		if own > n && s.broken == 0 {
			// An error that left every clause read (a duplicate).
			s.broken |= brokenOther
		}
	}()
	// Right after a site target, its own words may come too.
	_, afterSite := s.Target.(*SiteTarget)
	for p.tok != EOF && p.tok != CREATE {
		if p.tok == USING {
			p.secondUsing(s, header)
			continue
		}
		if !p.tok.clauseStart() {
			expected := "Monitor, Fetch, Confirm, From, To, Notify, Every, Compare or Create"
			if afterSite {
				expected = "depth, pages, scope, match, " + expected
			}
			msg := "expected " + expected + ", found " + p.describe()
			if hint := clauseMistake(p.lit); hint != "" && p.tok == IDENT {
				msg += ": " + hint
			} else if hint := p.targetWithoutOr(s); hint != "" {
				msg += ": " + hint
			}
			if next := p.misspeltCreate("clause", msg, true); next != nil {
				return next
			}
			// Text that is no clause: perhaps one misspelt, which
			// one unknown.
			s.broken |= brokenUnknown
			p.skipTo(Token.clauseStart)
			continue
		}
		afterSite = false
		tok, stated, n := p.tok, s.clause(p.tok) != nil, p.mark()
		p.beginParts()
		ok := p.try(func() { p.parseClause(s) })
		parts := p.endParts(tok)
		if !ok {
			p.skipTo(Token.clauseStart)
			if !stated {
				s.broken |= brokenClause(tok)
				s.parts = append(s.parts, parts...)
			}
		} else if p.erredSince(n) && !stated {
			// Read, but with an error (a bad escape in a string):
			// its values are not to be checked, but for the pieces
			// before the error.
			s.broken |= brokenClause(tok)
			s.parts = append(s.parts, parts...)
		}
	}
	return nil
}

// erredSince reports whether an error recorded after the first n is in
// the text read, before the current token: that token was scanned by the
// part just read, but an error in it (an illegal character) is the next
// one's.
func (p *parser) erredSince(n int) bool {
	for _, e := range p.errors[min(n, len(p.errors)):] {
		if e.Pos.Offset < p.pos.Offset || p.tok == EOF {
			return true
		}
	}
	return false
}

func (p *parser) parseClause(s *Sentinel) {
	pos, tok := p.pos, p.tok
	dup := func(present bool) {
		if present {
			p.errorAt(pos, tok.String(), "", "duplicate "+tok.String()+" clause")
		}
	}
	p.clauseToks = make([]Pos, 0, 8)
	defer func() { p.clauseToks = nil }()
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
		c.toks = p.clauseToks
		if s.Fetch == nil {
			s.Fetch = c
		}
	case CONFIRM:
		dup(s.Confirm != nil)
		p.afterMissing(pos)
		p.expectWord(`"after"`, "after")
		c := &ConfirmClause{Confirm: pos, After: p.parseInterval("Confirm after")}
		c.toks = p.clauseToks
		if s.Confirm == nil {
			s.Confirm = c
		}
	case FROM:
		dup(s.From != nil)
		t := p.parseTimeSpec(pos, true)
		t.toks = p.clauseToks
		if s.From == nil {
			s.From = t
		}
	case TO:
		dup(s.To != nil)
		t := p.parseTimeSpec(pos, false)
		t.toks = p.clauseToks
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
		c.toks = p.clauseToks
		if s.Every == nil {
			s.Every = c
		}
	case COMPARE:
		dup(s.Compare != nil)
		c := p.parseCompare(pos)
		c.toks = p.clauseToks
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
		if p.tok == STRING && what == "sentinel name" {
			// Create Sentinel "my shop": a title, not a name.
			name := strings.Join(strings.Fields(p.litValue()), "-")
			if tok, ok := scanOne(name); ok && tok == IDENT {
				p.failHere(p.lit, what, quotedNameError(p.describe(), name))
			}
		}
		if name := letterFirst(p.lit); name != "" && (p.tok == WORD || p.tok == INT) {
			p.failHere(p.lit, what, "expected "+what+", found "+p.describe()+": a name begins with a letter, as in "+short(name))
		}
		p.failExpected(what)
	}
	id := &Ident{NamePos: p.pos, Name: CanonicalName(p.lit)}
	p.next()
	return id
}

// ---- targets

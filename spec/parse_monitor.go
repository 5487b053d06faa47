package spec

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The Monitor clause: the change types and their scopes (selectors,
// lists, conditions), combined with AND, OR and NOT.

func (p *parser) parseExpr() Expr {
	x := p.parseAndExpr()
	for p.tok == OR {
		pos := p.pos
		p.next()
		if p.tok == LBRACE {
			p.bareList(x, Or, Pos{}) // keywords {a} OR {b}
		}
		x = &BinaryExpr{X: x, OpPos: pos, Op: Or, Y: p.parseAndExpr()}
	}
	if p.tok == COMMA {
		p.commaJoined(x) // keywords {a}, phrase {"x"}
	}
	return x
}

func (p *parser) parseAndExpr() Expr {
	x := p.parseUnary()
	for p.tok == AND {
		pos := p.pos
		p.next()
		if p.tok == LBRACE {
			p.bareList(x, And, Pos{}) // keywords {a} AND {b}
		}
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
		open := p.pos
		p.next()
		x := p.parseExpr()
		if p.tok != RPAREN {
			p.failExpected(fmt.Sprintf(") to close the ( at %d:%d", open.Line, open.Column))
		}
		p.next()
		return x
	}
	c := p.parseChangeType()
	p.part(c)
	return c
}

// changeTypes is what the parser expects where a change type is missing:
// the change types, from the one table of their names (kindNames).
var changeTypes = "change type (" + kindList() + ")"

func (p *parser) parseChangeType() *ChangeType {
	c := &ChangeType{KindPos: p.pos}
	if p.tok == IN || p.tok == IGNORE {
		// Monitor Ignore css ".ad": a selector without its change type.
		pos, word, ignore := p.pos, p.lit, p.tok == IGNORE
		sel := p.parseSelector()
		c.Kind = AnyChange
		if ignore {
			c.Ignore = []*Selector{sel}
		} else {
			c.Scope = sel
		}
		p.fail(pos, word, changeTypes, "In and Ignore follow a change type: write "+Print(c))
	}
	if p.tok != IDENT {
		p.failExpected(changeTypes)
	}
	word := strings.ToLower(p.lit)
	p.next()
	switch word {
	case "any":
		if p.isWord("links", "link", "images", "image", "words", "word") {
			// any links: "all" is the word for every link.
			all := map[string]string{"link": "links", "image": "images", "word": "words"}[strings.ToLower(p.lit)]
			if all == "" {
				all = strings.ToLower(p.lit)
			}
			p.failHere(p.lit, `"change" after "any"`, `expected "change" after "any", found `+p.describe()+": write all "+all)
		}
		if p.tok == IDENT && !p.isWord("change") && misspelt(p.lit, "change") {
			p.failHere(p.lit, `"change" after "any"`, `expected "change" after "any", found `+p.describe()+": write any change")
		}
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
		c.Args = p.parseList(word)
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
		if kind, ok := misspeltKinds[word]; ok {
			p.fail(c.KindPos, word, changeTypes, "unknown change type "+quote(word)+": did you mean "+kind+"?")
		}
		p.fail(c.KindPos, word, changeTypes, "unknown change type "+quote(word)+": expected "+changeTypes)
	}
	if p.isWord("except") && c.Kind != Words {
		pos, word := p.pos, p.lit
		p.next()
		list := p.parseList("except")
		ex := &ChangeType{Kind: Words, Args: list}
		p.fail(pos, word, "except", `"except" goes with all words only, as in `+Print(ex))
	}
	if p.tok == IN {
		c.Scope = p.parseSelector()
	} else if c.Kind == Value {
		p.failExpected(`In css "..." or In xpath "..." after value`)
	}
	if c.Kind == Value {
		c.Condition = p.parseCondition()
	}
	p.refuseCondition(c.Kind)
	for p.tok == IGNORE {
		c.Ignore = append(c.Ignore, p.parseSelector())
	}
	p.refuseCondition(c.Kind)
	if p.tok == IN {
		p.misplacedScope(c)
	}
	return c
}

// refuseCondition reports a value condition (changes, rises above, ...)
// after a change type of kind other than value, which would otherwise be
// taken for an unknown clause.
func (p *parser) refuseCondition(kind Kind) {
	if kind == Value || p.tok != IDENT {
		return
	}
	cond := strings.ToLower(p.lit)
	switch cond {
	case "changes", "increases", "decreases":
	case "rises":
		cond += " above"
	case "falls":
		cond += " below"
	default:
		return
	}
	p.fail(p.pos, p.lit, "AND, OR or a clause", fmt.Sprintf(
		"a condition (%s) follows value only: %s reports its own changes; for the numbers of a part write value In css \"...\" %s",
		cond, kind, cond))
}

// unquotedItem reports an unquoted item of a list, beginning at byte
// start of the source, that holds a character the scanner ends a word at
// (don't, C++, $5): the item whole, with the quotes it needs.
func (p *parser) unquotedItem(start int, what string, closing Token) {
	found := "expected , or " + closing.String() + ", found " + p.describe()
	if p.tok == ILLEGAL {
		r, _ := utf8.DecodeRuneInString(p.lit)
		found = "illegal character " + strconv.QuoteRune(r)
		if hint := illegalCharacter(r); hint != found {
			// keywords {sale｝: a full-width brace or comma is
			// meant as the ASCII one, not as part of the item.
			p.failHere(p.lit, ", or "+closing.String(), hint)
		}
	}
	item := listItemText(p.sc.src, start, false)
	p.unreadable(start, item)
	if strings.HasPrefix(item, "'") {
		// phrase {'sold out'}: quotes of the wrong kind.
		inner := string(p.sc.src[start+1:])
		if i := strings.IndexAny(inner, "'\n"); i >= 0 {
			inner = inner[:i]
		}
		p.failHere(p.lit, ", or "+closing.String(), fmt.Sprintf("%s: write it in double quotes: %s {%s}", found, listKinds[what].kind, quote(inner)))
	}
	p.failHere(p.lit, ", or "+closing.String(), fmt.Sprintf("%s in %s: write it in quotes: %s {%s}", found, short(item), what, quote(item)))
}

// hashInItem fails at pos, if valid, the start of a list item that a
// "#" follows at once in a list left open: the "#" began a comment, which
// took the rest of the line, the closing bracket with it (keywords {C#}).
// The item is told to be quoted, "#" and all.
func (p *parser) hashInItem(pos Pos, what string) {
	if !pos.IsValid() {
		return
	}
	src := p.sc.src[pos.Offset:]
	end := 0
	for end < len(src) && !strings.ContainsRune(",})\n\r \t", rune(src[end])) {
		end++
	}
	item := string(src[:end])
	kind := what
	if k, ok := listKinds[what]; ok {
		kind = k.kind
	}
	p.fail(pos, item, ", or }", fmt.Sprintf(`"#" begins a comment, which runs to the end of the line and left the list open: write %s in quotes: %s {%s}`, short(item), kind, strconv.Quote(item)))
}

// listItemText returns the text of a list item written unquoted that
// begins at byte start of src: up to the next comma, closing bracket or
// line end, and, unless words is set, the next space (don't); with words,
// the item holds several words (a phrase: sold out).
func listItemText(src []byte, start int, words bool) string {
	end := start
	for end < len(src) && !strings.ContainsRune(",})\n\r", rune(src[end])) && (words || src[end] != ' ' && src[end] != '\t') {
		end++
	}
	return strings.TrimSpace(string(src[start:end]))
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
	case IDENT, WORD, STRING, INT, FLOAT:
		// keywords: sale, discount
		if k, ok := listKinds[what]; ok {
			item := quoteItem(p.litValue())
			if k.quoted {
				item = strconv.Quote(p.litValue())
			}
			p.failHere(p.lit, "{ or ( after "+what, "expected { or ( after "+what+", found "+p.describe()+": the list goes in braces, as in "+k.kind+" {"+item+"}")
		}
		p.failExpected("{ or ( after " + what)
	default:
		p.failExpected("{ or ( after " + what)
	}
	open, opening := p.pos, p.lit
	p.next()
	var list []*Lit
	var hashItem Pos  // the first item a "#" follows at once, if any
	var semicolon Pos // the first ";" between items, read as ","
	for {
		if p.tok == closing {
			p.emptyItem(what, list)
		}
		if p.clauseOnNextLine() {
			// A clause or a sentinel that begins its line, not an item
			// (nothing after it that an item has: "keywords {a," and
			// then "Fetch 1 day"): the list was left open on the line
			// before. Told at the clause, which is then read as one.
			if next := p.peek(); next != COMMA && next != closing {
				p.hashInItem(hashItem, what)
				p.failExpected(fmt.Sprintf("%s to close the %s at %d:%d", closing, opening, open.Line, open.Column))
			}
		}
		if p.tok == ILLEGAL {
			p.unquotedItem(p.pos.Offset, what, closing) // $5
		}
		if !p.tok.IsLiteral() && !p.tok.IsKeyword() {
			p.failExpected("word or quoted string")
		}
		start, quoted := p.pos.Offset, p.tok == STRING
		end := start + len(p.lit)
		list = append(list, &Lit{ValuePos: p.pos, Value: p.litValue()})
		itemPos, comments := p.pos, len(p.comments)
		p.next()
		if !quoted && !hashItem.IsValid() && len(p.comments) > comments && p.comments[comments].Hash.Offset == end {
			hashItem = itemPos // keywords {C#}: the "#" begins a comment
		}
		if p.tok == ILLEGAL && p.lit == ";" {
			// phrase {"a"; "b"}: items separated as in some
			// languages' lists.
			if !semicolon.IsValid() {
				semicolon = p.pos
			}
			p.next()
			continue
		}
		if !quoted && p.pos.Offset == end && p.tok != COMMA && p.tok != closing && p.tok != EOF {
			p.unquotedItem(start, what, closing) // don't, C++
		}
		if p.tok != COMMA {
			break
		}
		p.next()
	}
	if semicolon.IsValid() && p.tok == closing {
		p.semicolonItems(semicolon, what, list)
	}
	if p.tok != closing {
		p.hashInItem(hashItem, what)
		if p.clauseOnNextLine() {
			// "keywords {a" and then "Fetch 1 day".
			p.failExpected(fmt.Sprintf("%s to close the %s at %d:%d", closing, opening, open.Line, open.Column))
		}
		if what == "phrase" && (p.tok == IDENT || p.tok == WORD) && len(list) > 0 {
			// phrase {sold out}: the words of a phrase are quoted.
			p.fail(p.pos, p.lit, ", or "+closing.String(), fmt.Sprintf("expected , or %s, found %s: a phrase is written in quotes: phrase {%s}",
				closing, p.describe(), quote(listItemText(p.sc.src, list[len(list)-1].ValuePos.Offset, true))))
		}
		if (what == "keywords" || what == "keyword") && (p.tok == IDENT || p.tok == WORD || p.tok == STRING) && len(list) > 0 {
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
	keyword := "In"
	if p.tok == IGNORE {
		keyword = "Ignore"
	}
	p.next()
	switch {
	case p.isWord("css"):
		sel.Lang = CSS
	case p.isWord("xpath"):
		sel.Lang = XPath
	case p.tok == STRING: // In "div.p"
		p.failHere(p.lit, "css or xpath", "expected css or xpath, found "+p.describe()+": write "+keyword+" css "+p.lit)
	default:
		p.failExpected("css or xpath")
	}
	langEnd := p.pos
	p.next()
	if p.tok != STRING {
		p.unquotedSelector(sel.Lang, langEnd)
	}
	sel.Expr = &Lit{ValuePos: p.pos, Value: unquote(p.lit), src: p.lit}
	start, end := p.pos.Offset, p.pos.Offset+len(p.lit)
	p.next()
	if p.pos.Offset == end && p.tok != RPAREN && p.tok != COMMA && p.tok != EOF && !p.tok.IsKeyword() && strings.HasPrefix(sel.Expr.src, `"`) {
		p.quoteInSelector(sel, start)
	}
	return sel
}

// quoteInSelector reports a selector that a double quote inside it ended
// early, which begins at byte start of the source (a[href^="http"], the
// token after it, http, at once after its closing quote), with the
// selector meant, as far as the line tells it, in single quotes, and
// abandons the clause. Where the line holds no double quote to end the
// selector meant, it does nothing: what follows is reported as it is.
func (p *parser) quoteInSelector(sel *Selector, start int) {
	line := p.sc.src[start+1:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	// The selector meant ends at the first double quote past the one that
	// ended it that a space, a ")" or the line's end follows.
	meant := ""
	for i := len(sel.Expr.src) - 1; i < len(line); i++ {
		if line[i] == '"' && (i+1 == len(line) || strings.IndexByte(" \t\r)", line[i+1]) >= 0) {
			meant = string(line[:i])
			break
		}
	}
	if meant == "" {
		return
	}
	p.failHere(p.lit, "AND, OR or a clause", fmt.Sprintf(
		"the selector %s ends at the double quote before %s: write a double quote inside it as \\\" or use single quotes: %s %s",
		quote(sel.Expr.Value), p.describe(), sel.Lang, quote(strings.ReplaceAll(meant, `"`, "'"))))
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
	p.unreadable(p.pos.Offset, text)
	if len(text) > 1 && text[0] == '\'' && text[len(text)-1] == '\'' {
		text = text[1 : len(text)-1] // 'main': quoted, but as strings are not
	}
	p.failHere(text, what, fmt.Sprintf("expected %s, found %s: write %s %s", what, short(text), keyword, quote(text)))
}

// unreadable abandons the clause at the first byte of text, the source
// from byte start on, that is not UTF-8, if it holds one, saying so: the
// quotes a mistake is told to write would hold the byte as an escape
// ("caf\xe9"), which a string refuses too. The scanner's error for the
// illegal character at the current token, read as a part of text, is
// replaced (the byte's own, if it is the token, is kept).
func (p *parser) unreadable(start int, text string) {
	for i := 0; i < len(text); {
		r, w := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && w == 1 {
			if p.tok == ILLEGAL && !p.stopped {
				p.errors = slices.DeleteFunc(p.errors, func(e *Error) bool { return e.Pos.Offset == p.pos.Offset })
			}
			p.record(&Error{Pos: p.sc.pos(start + i).Position(p.filename), Found: text[i : i+1], Msg: invalidUTF8})
			panic(bailout{})
		}
		i += w
	}
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
		what := "value condition (changes, increases, decreases, rises above N, falls below N)"
		if write := p.conditionMistake(); write != "" {
			p.failHere(p.lit, what, "expected "+what+", found "+p.describe()+": write "+write)
		}
		p.failExpected(what)
	}
	p.next()
	if c.Op.HasThreshold() {
		if p.tok == ILLEGAL && (p.lit == "." || p.lit == "-") {
			// .5, -.5: a number begins with a digit, and the point is
			// no currency sign to leave out (5 for .5 is another
			// threshold).
			off := p.pos.Offset
			if p.lit == "-" {
				off++
			}
			if num := pointFirstAt(p.sc.src, off); num != "" {
				written := string(p.sc.src[p.pos.Offset:off]) + "." + num[len("0."):]
				p.failHere(p.lit, "number", fmt.Sprintf("write the threshold with a digit before its point: %s, not %s",
					short(string(p.sc.src[p.pos.Offset:off])+num), short(written)))
			}
			p.failExpected("number")
		}
		if num := pointFirstAt(p.sc.src, p.pos.Offset+len(p.lit)); p.tok == ILLEGAL && num != "" {
			// $.99: the number the price is, without its sign.
			p.failHere(p.lit, "number", fmt.Sprintf("write the threshold as a number, without a currency sign: %s, not %s",
				short(num), short(p.lit+num[len("0"):])))
		}
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
		if num := numberBeforeUnit(p.lit); p.tok != INT && p.tok != FLOAT && num != "" {
			// 5USD, 12.5kg: a unit joined to the number.
			p.failHere(p.lit, "number", fmt.Sprintf("write the threshold as a number, without a unit: %s, not %s", short(num), short(p.lit)))
		}
		if p.tok != INT && p.tok != FLOAT {
			p.failExpected("number")
		}
		v, err := strconv.ParseFloat(p.lit, 64)
		if err != nil {
			p.fail(p.pos, p.lit, "number", "number "+short(p.lit)+" out of range")
		}
		c.Threshold = v
		lit, at := p.lit, p.pos
		p.next()
		p.refuseUnit(at, lit)
		if p.tok == COMMA {
			// Nothing after a condition takes a comma: 1,000 or 12,50.
			p.fail(p.pos, ",", "",
				"write the threshold without grouping or a decimal comma: "+lit+",... is read as "+lit+" then a comma (write 1000 or 12.5)")
		}
	}
	return c
}

// refuseUnit reports a unit written after the threshold lit at pos, the
// current token, which nothing after a value condition is: a percent
// sign or a currency sign (5%, 5 €), a word alone before the end of the
// line or the next keyword (5 USD, 5 percent), or a point that ends the
// number (5. at the end of a sentence). They were an illegal character, or
// "expected Monitor, ..." at the word. The error is at the threshold, whose
// text with the unit the message quotes, as the currency sign's before it
// ($1000) is; a word that goes on (5 Fecth 1 hour) is left to the clauses.
func (p *parser) refuseUnit(pos Pos, lit string) {
	end := pos.Offset + len(lit)
	src := p.sc.src
	if p.pos.Line != pos.Line {
		return
	}
	written := func(to int) string { return string(src[pos.Offset:to]) }
	var msg string
	switch {
	case p.tok == ILLEGAL && p.lit == "." && p.pos.Offset == end:
		msg = fmt.Sprintf("write the threshold without a trailing point: %s, not %s", short(lit), short(written(end+1)))
	case p.tok == ILLEGAL && p.lit == "%":
		msg = fmt.Sprintf("write the threshold as a number, without a unit: %s, not %s", short(lit), short(written(p.pos.Offset+len(p.lit))))
	case p.tok == ILLEGAL && isCurrencySign(p.lit):
		msg = fmt.Sprintf("write the threshold as a number, without a currency sign: %s, not %s", short(lit), short(written(p.pos.Offset+len(p.lit))))
	case p.tok == IDENT && isLetters(p.lit) && wordAlone(src, p.pos.Offset+len(p.lit)):
		msg = fmt.Sprintf("write the threshold as a number, without a unit: %s, not %s", short(lit), short(written(p.pos.Offset+len(p.lit))))
	default:
		return
	}
	if p.tok == ILLEGAL && !p.stopped {
		// The scanner's "illegal character" at the unit says less.
		p.errors = slices.DeleteFunc(p.errors, func(e *Error) bool { return e.Pos.Offset == p.pos.Offset })
	}
	p.fail(pos, written(p.pos.Offset+len(p.lit)), "", msg)
}

// numberBeforeUnit returns the number a word written as a number with a
// unit joined to it begins with (5 for 5USD, -12.5 for -12.5kg), or ""
// where the word is not one (5e3, 1.2.3, USD, or 5e, an exponent cut).
func numberBeforeUnit(word string) string {
	i := strings.IndexFunc(word, unicode.IsLetter)
	if i <= 0 || !isLetters(word[i:]) || strings.EqualFold(word[i:], "e") {
		return ""
	}
	num := word[:i]
	if _, err := strconv.ParseFloat(num, 64); err != nil || strings.ContainsAny(num, "eEpPxX_+") || strings.HasSuffix(num, ".") {
		return ""
	}
	return num
}

// isCurrencySign reports whether s is one currency sign ($, €, £, ...).
func isCurrencySign(s string) bool {
	r, w := utf8.DecodeRuneInString(s)
	return w == len(s) && unicode.Is(unicode.Sc, r)
}

// isLetters reports whether s is a word of letters alone (USD, percent),
// as a unit is.
func isLetters(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

// wordAlone reports whether a word that ends at offset off in src is the
// last of its line, but for a comment, or is followed by a ")" or a
// reserved word (AND, OR, Ignore, Fetch, ...): a unit after a threshold,
// not the first word of a clause misspelt.
func wordAlone(src []byte, off int) bool {
	for off < len(src) && (src[off] == ' ' || src[off] == '\t') {
		off++
	}
	if off == len(src) || isLineEnd(src[off]) || src[off] == '#' || src[off] == ')' {
		return true
	}
	end := off
	for end < len(src) && (src[end] >= 'a' && src[end] <= 'z' || src[end] >= 'A' && src[end] <= 'Z') {
		end++
	}
	if end < len(src) && !isLineEnd(src[end]) && src[end] != ' ' && src[end] != '\t' && src[end] != '(' {
		return false
	}
	return end > off && Lookup(string(src[off:end])) != IDENT
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

// pointFirstAt returns the number written in src from offset off with its
// point first (.5), as it is written with a digit before it (0.5), or ""
// where no such number is there (a point alone, .5.5, .5,0).
func pointFirstAt(src []byte, off int) string {
	if off >= len(src) || src[off] != '.' {
		return ""
	}
	num := digitsAt(src, off+1)
	if num == "" || strings.ContainsAny(num, ".,") {
		return ""
	}
	return "0." + num
}

// ---- fetch, confirm, intervals

// clauseOnNextLine reports whether the current token begins a clause or a
// sentinel on a line after the last token read: what a list left open on
// the line before is followed by, not an item of it.
func (p *parser) clauseOnNextLine() bool {
	return p.tok.clauseStart() && p.prevEnd.IsValid() && p.pos.Line > p.prevEnd.Line
}

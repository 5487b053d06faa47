package spec

import (
	"fmt"
	"strings"
)

// The target of a sentinel, after Using: pages, sites (their start page,
// scope and options) and other sentinels, combined with AND and OR.

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
		t := &SentinelTarget{Sentinel: pos, Name: p.parseName("sentinel name")}
		p.part(t)
		return t
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
			t := &SentinelTarget{Name: &Ident{NamePos: pos, Name: CanonicalName(lit)}}
			p.part(t)
			return t
		}
		t := &SentinelTarget{Name: p.parseName("sentinel name")}
		p.part(t)
		return t
	case WORD, STRING:
		t := &URLTarget{URLPos: p.pos, URL: p.litValue()}
		p.next()
		p.part(t)
		return t
	case USING:
		// The target is read after a Using: this one is a second
		// ("Using a OR Using b"), not a page to watch, and what
		// follows it no target (see parseSentinel).
		p.failHere(p.lit, "URL or sentinel name", duplicateUsing)
	}
	p.failExpected("URL or sentinel name")
	return nil
}

// duplicateUsing is the error of a second Using within a header's target
// ("Using a OR Using b"); one after the whole target is told how to join
// both (secondUsing).
const duplicateUsing = "duplicate Using: a sentinel has one Using; join the pages and sentinels of its target with OR or AND"

// parseSite parses the rest of a site target after the word "site" at
// pos: its URL, then "depth N", "pages N", "scope URL" and "match RE" in
// any order, scope as often as wanted, the others at most once.
func (p *parser) parseSite(pos Pos) *SiteTarget {
	t := &SiteTarget{Site: pos, URLPos: p.pos, URL: p.litValue()}
	p.next()
	// A piece of the target from its URL on: what of it was read
	// before a syntax error is checked (see siteReadBefore).
	p.part(t)
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
		if p.tok == COMMA {
			// Nothing in a site target takes a comma: pages 1,000.
			msg := fmt.Sprintf("write the %s without grouping: %d,... is read as %d then a comma", map[string]string{"depth": "depth", "pages": "number of pages"}[word], b.N, b.N)
			if rest := digitsAt(p.sc.src, p.pos.Offset+1); rest != "" && !strings.ContainsAny(rest, ".,") {
				msg += fmt.Sprintf(" (write %d%s)", b.N, rest)
			}
			p.fail(p.pos, ",", "", msg)
		}
		*bound = b // not before its comma: 200,000 is no depth 200
	}
	return t
}

// siteReadBefore returns the site target t as far as it was read before
// the syntax error at offset off, a piece of its header (see part): t
// itself when all of it was, else a copy without the bounds, scopes and
// match written at or after off (a match whose string holds the error,
// a bad escape, is not read).
func siteReadBefore(t *SiteTarget, off int) *SiteTarget {
	before := func(pos Pos, text string) bool { return pos.Offset+len(text) <= off }
	c := *t
	if c.Depth != nil && !before(c.Depth.ValuePos, "") {
		c.Depth = nil
	}
	if c.Pages != nil && !before(c.Pages.ValuePos, "") {
		c.Pages = nil
	}
	c.Scope = nil
	for _, s := range t.Scope {
		if s != nil && before(s.ValuePos, s.src) {
			c.Scope = append(c.Scope, s)
		}
	}
	if c.Match != nil && !before(c.Match.ValuePos, c.Match.src) {
		c.Match = nil
	}
	return &c
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

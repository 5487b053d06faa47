package intent

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ---- tokens

type xtokKind int

const (
	xtEOF xtokKind = iota
	xtName
	xtNumber
	xtString
	xtOp // / // [ ] ( ) @ , . .. :: * = != < <= > >= |
)

type xtok struct {
	kind xtokKind
	text string
	off  int
}

func xpathTokens(s string) ([]xtok, error) {
	var toks []xtok
	i := 0
	errAt := func(off int, format string, args ...any) error {
		return &SyntaxError{Lang: "xpath", Expr: s, Column: utf8.RuneCountInString(s[:off]) + 1, Msg: fmt.Sprintf(format, args...)}
	}
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '/' || c == '.' || c == ':':
			if i+1 < len(s) && s[i+1] == c {
				toks = append(toks, xtok{xtOp, s[i : i+2], i})
				i += 2
			} else if c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
				j := i + 1
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
				toks = append(toks, xtok{xtNumber, s[i:j], i})
				i = j
			} else if c == ':' {
				return nil, errAt(i, "unexpected \":\"")
			} else {
				toks = append(toks, xtok{xtOp, s[i : i+1], i})
				i++
			}
		case c == '!' || c == '<' || c == '>':
			if i+1 < len(s) && s[i+1] == '=' {
				toks = append(toks, xtok{xtOp, s[i : i+2], i})
				i += 2
			} else if c == '!' {
				return nil, errAt(i, "\"!\" must be followed by \"=\"")
			} else {
				toks = append(toks, xtok{xtOp, s[i : i+1], i})
				i++
			}
		case strings.IndexByte("[]()@,*=|", c) >= 0:
			toks = append(toks, xtok{xtOp, s[i : i+1], i})
			i++
		case c == '"' || c == '\'':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, errAt(i, "unterminated string")
			}
			toks = append(toks, xtok{xtString, s[i+1 : i+1+j], i})
			i += j + 2
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
				j++
			}
			toks = append(toks, xtok{xtNumber, s[i:j], i})
			i = j
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !(unicode.IsLetter(r) || r == '_') {
				return nil, errAt(i, "unexpected %q", string(r))
			}
			j := i + size
			for j < len(s) {
				r, size := utf8.DecodeRuneInString(s[j:])
				if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.' {
					j += size
					continue
				}
				// a prefix: "xs:name", but not an axis "child::"
				if r == ':' && j+1 < len(s) && s[j+1] != ':' {
					r2, _ := utf8.DecodeRuneInString(s[j+1:])
					if unicode.IsLetter(r2) || r2 == '_' {
						j++
						continue
					}
				}
				break
			}
			toks = append(toks, xtok{xtName, s[i:j], i})
			i = j
		}
	}
	toks = append(toks, xtok{xtEOF, "", len(s)})
	return toks, nil
}

// ---- parser

type xpathParser struct {
	src  string
	toks []xtok
	i    int
}

func (p *xpathParser) peek() xtok { return p.toks[p.i] }

func (p *xpathParser) peekAt(k int) xtok {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return p.toks[len(p.toks)-1]
}

func (p *xpathParser) next() xtok {
	t := p.toks[p.i]
	if t.kind != xtEOF {
		p.i++
	}
	return t
}

func (p *xpathParser) isOp(s string) bool {
	t := p.peek()
	return t.kind == xtOp && t.text == s
}

func (p *xpathParser) errorf(off int, format string, args ...any) error {
	return &SyntaxError{Lang: "xpath", Expr: p.src, Column: utf8.RuneCountInString(p.src[:min(off, len(p.src))]) + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *xpathParser) describe(t xtok) string {
	if t.kind == xtEOF {
		return "end of expression"
	}
	return strconv.Quote(t.text)
}

func (p *xpathParser) union() (*xpathUnion, error) {
	u := &xpathUnion{}
	for {
		path, err := p.path()
		if err != nil {
			return nil, err
		}
		u.paths = append(u.paths, path)
		if !p.isOp("|") {
			return u, nil
		}
		p.next()
	}
}

// path parses a location path.
func (p *xpathParser) path() (*xpathPath, error) {
	path := &xpathPath{}
	t := p.peek()
	switch {
	case t.kind == xtOp && t.text == "/":
		p.next()
		path.abs = true
		if !p.stepStarts() {
			return path, nil // "/" alone: the document
		}
	case t.kind == xtOp && t.text == "//":
		p.next()
		path.abs = true
		path.steps = append(path.steps, &xstep{axis: axDescendantOrSelf, test: testNode})
	}
	for {
		if !p.stepStarts() {
			t := p.peek()
			return nil, p.errorf(t.off, "location step expected, found %s", p.describe(t))
		}
		s, err := p.step()
		if err != nil {
			return nil, err
		}
		path.steps = append(path.steps, s)
		switch {
		case p.isOp("/"):
			p.next()
		case p.isOp("//"):
			p.next()
			path.steps = append(path.steps, &xstep{axis: axDescendantOrSelf, test: testNode})
		default:
			return path, nil
		}
	}
}

func (p *xpathParser) stepStarts() bool {
	t := p.peek()
	switch t.kind {
	case xtName:
		return true
	case xtOp:
		return t.text == "." || t.text == ".." || t.text == "@" || t.text == "*"
	}
	return false
}

func (p *xpathParser) step() (*xstep, error) {
	t := p.next()
	switch {
	case t.kind == xtOp && t.text == ".":
		return &xstep{axis: axSelf, test: testNode}, nil
	case t.kind == xtOp && t.text == "..":
		return &xstep{axis: axParent, test: testNode}, nil
	}
	s := &xstep{axis: axChild}
	if t.kind == xtOp && t.text == "@" {
		s.axis = axAttribute
		t = p.next()
	} else if t.kind == xtName && p.isOp("::") {
		ax, ok := axisNames[t.text]
		if !ok {
			return nil, p.errorf(t.off, "unsupported axis %q", t.text)
		}
		s.axis = ax
		p.next()
		t = p.next()
	}
	switch {
	case t.kind == xtOp && t.text == "*":
		s.test, s.name = testName, "*"
	case t.kind == xtName && p.isOp("("):
		switch t.text {
		case "text":
			s.test = testText
		case "node":
			s.test = testNode
		case "comment":
			s.test = testComment
		default:
			return nil, p.errorf(t.off, "node test expected, found function %s()", t.text)
		}
		p.next()
		if !p.isOp(")") {
			u := p.peek()
			return nil, p.errorf(u.off, "\")\" expected, found %s", p.describe(u))
		}
		p.next()
	case t.kind == xtName:
		s.test, s.name = testName, t.text
	default:
		return nil, p.errorf(t.off, "name test expected, found %s", p.describe(t))
	}
	for p.isOp("[") {
		open := p.next()
		e, err := p.orExpr()
		if err != nil {
			return nil, err
		}
		if !p.isOp("]") {
			u := p.peek()
			if u.kind == xtEOF {
				return nil, p.errorf(open.off, "unclosed \"[\"")
			}
			return nil, p.errorf(u.off, "\"]\" expected, found %s", p.describe(u))
		}
		p.next()
		s.preds = append(s.preds, e)
	}
	return s, nil
}

func (p *xpathParser) orExpr() (xexpr, error) {
	x, err := p.andExpr()
	if err != nil {
		return nil, err
	}
	for t := p.peek(); t.kind == xtName && t.text == "or"; t = p.peek() {
		p.next()
		y, err := p.andExpr()
		if err != nil {
			return nil, err
		}
		x = xbinary{op: "or", x: x, y: y}
	}
	return x, nil
}

func (p *xpathParser) andExpr() (xexpr, error) {
	x, err := p.cmpExpr()
	if err != nil {
		return nil, err
	}
	for t := p.peek(); t.kind == xtName && t.text == "and"; t = p.peek() {
		p.next()
		y, err := p.cmpExpr()
		if err != nil {
			return nil, err
		}
		x = xbinary{op: "and", x: x, y: y}
	}
	return x, nil
}

func (p *xpathParser) cmpExpr() (xexpr, error) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	t := p.peek()
	if t.kind == xtOp {
		switch t.text {
		case "=", "!=", "<", "<=", ">", ">=":
			p.next()
			y, err := p.primary()
			if err != nil {
				return nil, err
			}
			return xbinary{op: t.text, x: x, y: y}, nil
		}
	}
	return x, nil
}

func (p *xpathParser) primary() (xexpr, error) {
	t := p.peek()
	switch {
	case t.kind == xtNumber:
		p.next()
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return nil, p.errorf(t.off, "invalid number %q", t.text)
		}
		return xlit{xval{kind: xvNum, num: f}}, nil
	case t.kind == xtString:
		p.next()
		return xlit{xval{kind: xvStr, str: t.text}}, nil
	case t.kind == xtOp && t.text == "(":
		p.next()
		e, err := p.orExpr()
		if err != nil {
			return nil, err
		}
		if !p.isOp(")") {
			u := p.peek()
			return nil, p.errorf(u.off, "\")\" expected, found %s", p.describe(u))
		}
		p.next()
		return e, nil
	case t.kind == xtName && p.peekAt(1).kind == xtOp && p.peekAt(1).text == "(" &&
		t.text != "text" && t.text != "node" && t.text != "comment":
		ar, ok := xpathFuncs[t.text]
		if !ok {
			return nil, p.errorf(t.off, "unsupported function %s()", t.text)
		}
		p.next()
		p.next()
		var args []xexpr
		for !p.isOp(")") {
			if len(args) > 0 {
				if !p.isOp(",") {
					u := p.peek()
					return nil, p.errorf(u.off, "\",\" or \")\" expected, found %s", p.describe(u))
				}
				p.next()
			}
			a, err := p.orExpr()
			if err != nil {
				return nil, err
			}
			args = append(args, a)
		}
		p.next()
		if len(args) < ar[0] || len(args) > ar[1] {
			return nil, p.errorf(t.off, "%s() takes %d argument(s), got %d", t.text, ar[1], len(args))
		}
		return xcall{name: t.text, args: args}, nil
	case t.kind == xtOp && (t.text == "/" || t.text == "//"), p.stepStarts():
		path, err := p.path()
		if err != nil {
			return nil, err
		}
		return xpathExpr{path}, nil
	}
	return nil, p.errorf(t.off, "expression expected, found %s", p.describe(t))
}

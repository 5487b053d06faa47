package xmlpatch

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The selector language is the XPath subset of RFC 5261, section 8
// (the xpath and xpath-add types of its schema):
//
//	sel   = ["/"] ( id ["/" steps] | steps )
//	id    = "id(" [quoted NCName] ")"
//	steps = step *("/" step) ["/" last]    (last only at the end)
//	step  = (QName | "*") *cond
//	cond  = "[" digits "]" | "[@" QName "=" quoted "]" | "[" (QName | ".") "=" quoted "]"
//	last  = "text()" [pos] | "comment()" [pos] | "processing-instruction(" [quoted NCName] ")" [pos]
//	      | "@" QName | "namespace::" NCName
//
// The path starts at the document node: "doc/foo" and "/doc/foo" are the
// same. A quoted string is in single or double quotes and holds no quote
// of its kind.

// MaxSelector is the longest selector, in bytes, that Apply reads.
const MaxSelector = 1 << 24

type stepKind uint8

const (
	stepElement stepKind = iota + 1
	stepText
	stepComment
	stepPI
	stepAttr
	stepNamespace
)

type predKind uint8

const (
	predPos   predKind = iota + 1 // [n]
	predAttr                      // [@name='v']
	predChild                     // [name='v']
	predSelf                      // [.='v']
)

type pred struct {
	kind  predKind
	n     int    // predPos: 1-based, 0 for a position that selects nothing
	name  string // predAttr, predChild: the QName
	value string
}

type step struct {
	kind   stepKind
	name   string // stepElement: the QName or "*"; stepAttr: the QName; stepNamespace: the prefix; stepPI: the target
	target bool   // stepPI: a target is given
	preds  []pred
}

type selector struct {
	id     string // the argument of id(), when hasID
	hasID  bool
	steps  []step
	source string
}

// last returns the selector's last step, or nil for id() alone.
func (s *selector) last() *step {
	if len(s.steps) == 0 {
		return nil
	}
	return &s.steps[len(s.steps)-1]
}

// parseSelector parses a selector; errors say what is wrong and where.
func parseSelector(src string) (*selector, error) {
	if len(src) > MaxSelector {
		return nil, fmt.Errorf("selector longer than %d bytes", MaxSelector)
	}
	p := &selParser{s: src}
	sel := &selector{source: src}
	p.eat("/")
	if strings.HasPrefix(p.rest(), "id(") {
		p.i += len("id(")
		if !p.eat(")") {
			v, err := p.quoted()
			if err != nil {
				return nil, err
			}
			if !isNCName(v) {
				return nil, p.errorf("id(%q): not an XML name", v)
			}
			sel.id = v
			if !p.eat(")") {
				return nil, p.errorf("want ) after the argument of id()")
			}
		}
		sel.hasID = true
		if p.done() {
			return sel, nil
		}
		if !p.eat("/") {
			return nil, p.errorf("want / after id()")
		}
	}
	for {
		st, err := p.step()
		if err != nil {
			return nil, err
		}
		sel.steps = append(sel.steps, st)
		if p.done() {
			return sel, nil
		}
		if st.kind != stepElement {
			return nil, p.errorf("%s must be the last step", stepName(st))
		}
		if !p.eat("/") {
			return nil, p.errorf("want / or [ after a step")
		}
	}
}

func stepName(st step) string {
	switch st.kind {
	case stepText:
		return "text()"
	case stepComment:
		return "comment()"
	case stepPI:
		return "processing-instruction()"
	case stepAttr:
		return "@" + st.name
	case stepNamespace:
		return "namespace::" + st.name
	}
	return st.name
}

type selParser struct {
	s string
	i int
}

func (p *selParser) rest() string { return p.s[p.i:] }
func (p *selParser) done() bool   { return p.i == len(p.s) }

func (p *selParser) eat(tok string) bool {
	if strings.HasPrefix(p.rest(), tok) {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *selParser) errorf(format string, args ...any) error {
	return fmt.Errorf("column %d: %s", utf8.RuneCountInString(p.s[:p.i])+1, fmt.Sprintf(format, args...))
}

// name reads a QName (or an NCName when qualified is false).
func (p *selParser) name(qualified bool) (string, error) {
	start := p.i
	colon := false
	for p.i < len(p.s) {
		r, size := rune(p.s[p.i]), 1
		if r >= 0x80 {
			r, size = utf8.DecodeRuneInString(p.s[p.i:])
		}
		switch {
		case r == ':' && qualified && !colon && p.i > start && p.i+1 < len(p.s) && p.s[p.i+1] != ':':
			colon = true
		case isNameChar(r):
		default:
			goto end
		}
		p.i += size
	}
end:
	n := p.s[start:p.i]
	if qualified && !isQName(n) || !qualified && !isNCName(n) {
		if n == "" {
			return "", p.errorf("want a name")
		}
		return "", p.errorf("%q is not an XML name", n)
	}
	return n, nil
}

func (p *selParser) quoted() (string, error) {
	if p.done() || p.s[p.i] != '\'' && p.s[p.i] != '"' {
		return "", p.errorf("want a quoted string")
	}
	q := p.s[p.i]
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", p.errorf("unterminated string")
	}
	v := p.s[p.i+1 : p.i+1+end]
	p.i += end + 2
	return v, nil
}

// position reads an optional [n].
func (p *selParser) position(st *step) error {
	if !p.eat("[") {
		return nil
	}
	pr, err := p.number()
	if err != nil {
		return err
	}
	st.preds = append(st.preds, pr)
	return nil
}

// number reads digits and the closing bracket of a positional predicate.
func (p *selParser) number() (pred, error) {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	if start == p.i {
		return pred{}, p.errorf("want a position")
	}
	// [0], or a position past any count, is well formed and selects
	// nothing: n = 0.
	n, err := strconv.Atoi(p.s[start:p.i])
	if err != nil || n < 0 {
		n = 0
	}
	if !p.eat("]") {
		return pred{}, p.errorf("want ] after a position")
	}
	return pred{kind: predPos, n: n}, nil
}

func (p *selParser) step() (step, error) {
	switch {
	case p.eat("text()"):
		st := step{kind: stepText}
		return st, p.position(&st)
	case p.eat("comment()"):
		st := step{kind: stepComment}
		return st, p.position(&st)
	case p.eat("processing-instruction("):
		st := step{kind: stepPI}
		if !p.eat(")") {
			t, err := p.quoted()
			if err != nil {
				return st, err
			}
			if !isNCName(t) {
				return st, p.errorf("processing-instruction(%q): not an XML name", t)
			}
			st.name, st.target = t, true
			if !p.eat(")") {
				return st, p.errorf("want ) after the target")
			}
		}
		return st, p.position(&st)
	case p.eat("@"):
		n, err := p.name(true)
		return step{kind: stepAttr, name: n}, err
	case p.eat("namespace::"):
		n, err := p.name(false)
		return step{kind: stepNamespace, name: n}, err
	}
	st := step{kind: stepElement}
	if p.eat("*") {
		st.name = "*"
	} else {
		n, err := p.name(true)
		if err != nil {
			return st, err
		}
		st.name = n
	}
	for p.eat("[") {
		var pr pred
		var err error
		switch {
		case !p.done() && p.s[p.i] >= '0' && p.s[p.i] <= '9':
			pr, err = p.number()
			if err != nil {
				return st, err
			}
			st.preds = append(st.preds, pr)
			continue
		case p.eat("@"):
			pr.kind = predAttr
			pr.name, err = p.name(true)
		case p.eat("."):
			pr.kind = predSelf
		default:
			pr.kind = predChild
			pr.name, err = p.name(true)
		}
		if err != nil {
			return st, err
		}
		if !p.eat("=") {
			return st, p.errorf("want = in a predicate")
		}
		if pr.value, err = p.quoted(); err != nil {
			return st, err
		}
		if !p.eat("]") {
			return st, p.errorf("want ] after a predicate")
		}
		st.preds = append(st.preds, pr)
	}
	return st, nil
}

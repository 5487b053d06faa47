package intent

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vigil-web/vigil/tree"
)

// CompileCSS compiles a CSS selector group: type, universal, #id, .class,
// [attr], [attr=v], [attr~=v], [attr^=v], [attr$=v], [attr*=v], [attr|=v],
// the combinators descendant, >, + and ~, the pseudo-classes :first-child,
// :last-child, :only-child, :nth-child(an+b|odd|even), :nth-last-child,
// their -of-type forms (:first-of-type, :nth-of-type(2), ...) and
// :not(simple selector), and groups separated by ",". Element names match
// without regard to case; attribute values with it.
func CompileCSS(s string) (Selector, error) {
	p := &cssParser{src: s}
	g, err := p.group()
	if err != nil {
		return nil, err
	}
	return g, nil
}

// cssGroup is a list of complex selectors; a node matches if any matches.
type cssGroup struct {
	src  string
	sels []*cssComplex
}

// cssComplex is compound selectors joined by combinators: parts[i] is
// joined to parts[i-1] by combs[i] (combs[0] is unused).
type cssComplex struct {
	parts []*cssCompound
	combs []byte // ' ', '>', '+', '~'
}

type cssCompound struct {
	tag     string // "" or "*": any
	ids     []string
	classes []string
	attrs   []cssAttr
	pseudos []cssPseudo
}

type cssAttr struct {
	name, op, value string // op "" tests presence
}

type cssPseudo struct {
	name string       // first-child, last-child, only-child, nth-child, nth-last-child, their -of-type forms, not
	a, b int          // nth: an+b
	not  *cssCompound // not
}

func (g *cssGroup) String() string { return g.src }

func (g *cssGroup) Select(root *tree.Node) []*tree.Node {
	var out []*tree.Node
	m := newCSSMatch()
	tree.Walk(root, func(n *tree.Node) bool {
		if n.Kind == tree.Element && g.match(n, m) {
			out = append(out, n)
		}
		return true
	})
	return out
}

// cssMatch is the state of one Select. It remembers partial matches, so
// that descendant and sibling combinators do not backtrack exponentially
// on deep trees ("a a a a" on nested a elements), and it numbers the
// element children of each parent it meets once, so that a sibling
// combinator or a structural pseudo-class costs O(1) rather than a scan
// of the siblings (which made "li:first-child" quadratic and "x ~ li"
// cubic on long lists).
type cssMatch struct {
	memo  map[cssMemoKey]bool
	kids  map[*tree.Node][]*tree.Node // a parent's element children
	index map[*tree.Node]int          // an element's index among them
	// ofType holds an element's index among its siblings of its name,
	// and their number (see typeSiblings).
	ofType map[*tree.Node][2]int
	first  map[cssFirstKey]int // see firstMatch
}

// newCSSMatch returns the state of a Select; the sibling tables are made
// when first needed.
func newCSSMatch() *cssMatch {
	return &cssMatch{memo: map[cssMemoKey]bool{}}
}

// cssMemoKey remembers whether a node matches the first i+1 compounds of a
// complex selector.
type cssMemoKey struct {
	c *cssComplex
	n *tree.Node
	i int
}

// cssFirstKey names the element children of parent and the first i+1
// compounds of a complex selector.
type cssFirstKey struct {
	c      *cssComplex
	parent *tree.Node
	i      int
}

// siblings returns the element n's element siblings (n included) and n's
// index among them, numbering the children of n's parent the first time.
func (m *cssMatch) siblings(n *tree.Node) ([]*tree.Node, int) {
	p := n.Parent
	if p == nil {
		return []*tree.Node{n}, 0
	}
	if m.kids == nil {
		m.kids, m.index = map[*tree.Node][]*tree.Node{}, map[*tree.Node]int{}
	}
	kids, ok := m.kids[p]
	if !ok {
		for _, s := range p.Children {
			if s.Kind == tree.Element {
				m.index[s] = len(kids)
				kids = append(kids, s)
			}
		}
		m.kids[p] = kids
	}
	return kids, m.index[n]
}

// typeSiblings returns the element n's index among its element siblings
// of its name (n included; names compared without regard to case), and
// their number, numbering the children of n's parent the first time.
func (m *cssMatch) typeSiblings(n *tree.Node) (int, int) {
	if pos, ok := m.ofType[n]; ok {
		return pos[0], pos[1]
	}
	if m.ofType == nil {
		m.ofType = map[*tree.Node][2]int{}
	}
	kids, _ := m.siblings(n)
	count := map[string]int{}
	for _, s := range kids {
		name := strings.ToLower(s.Name)
		m.ofType[s] = [2]int{count[name], 0}
		count[name]++
	}
	for _, s := range kids {
		pos := m.ofType[s]
		pos[1] = count[strings.ToLower(s.Name)]
		m.ofType[s] = pos
	}
	pos := m.ofType[n]
	return pos[0], pos[1]
}

// prevElement returns the element sibling right before the element n, or
// nil.
func (m *cssMatch) prevElement(n *tree.Node) *tree.Node {
	sibs, i := m.siblings(n)
	if i == 0 {
		return nil
	}
	return sibs[i-1]
}

// firstMatch returns the index, among the element n's element siblings
// (n included), of the first that matches parts[:i+1] of c, or their
// number if none does: an element is joined by "~" to a sibling matching
// parts[:i+1] if and only if this index is below its own. The siblings
// of each parent are tested once for each i, where a walk back from each
// element would test them once for each element after them.
func (m *cssMatch) firstMatch(c *cssComplex, i int, n *tree.Node) int {
	k := cssFirstKey{c, n.Parent, i}
	if j, ok := m.first[k]; ok {
		return j
	}
	sibs, _ := m.siblings(n)
	j := 0
	for j < len(sibs) && !c.matchAt(sibs[j], i, m) {
		j++
	}
	if m.first == nil {
		m.first = map[cssFirstKey]int{}
	}
	m.first[k] = j
	return j
}

func (g *cssGroup) Values(root *tree.Node) []string {
	var out []string
	for _, n := range g.Select(root) {
		out = append(out, textValue(n))
	}
	return out
}

func (g *cssGroup) match(n *tree.Node, m *cssMatch) bool {
	for _, c := range g.sels {
		if c.matchAt(n, len(c.parts)-1, m) {
			return true
		}
	}
	return false
}

// matchAt reports whether n matches parts[:i+1], parts[i] matching n itself.
func (c *cssComplex) matchAt(n *tree.Node, i int, m *cssMatch) bool {
	if !c.parts[i].match(n, m) {
		return false
	}
	if i == 0 {
		return true
	}
	k := cssMemoKey{c, n, i}
	if v, ok := m.memo[k]; ok {
		return v
	}
	v := c.matchCombinator(n, i, m)
	m.memo[k] = v
	return v
}

// matchCombinator reports whether the node n, which matches parts[i], is
// joined by combs[i] to a node matching parts[:i].
func (c *cssComplex) matchCombinator(n *tree.Node, i int, m *cssMatch) bool {
	switch c.combs[i] {
	case '>':
		p := n.Parent
		return p != nil && p.Kind == tree.Element && c.matchAt(p, i-1, m)
	case ' ':
		for p := n.Parent; p != nil; p = p.Parent {
			if p.Kind == tree.Element && c.matchAt(p, i-1, m) {
				return true
			}
		}
		return false
	case '+':
		s := m.prevElement(n)
		return s != nil && c.matchAt(s, i-1, m)
	case '~':
		if n.Parent == nil {
			return false
		}
		_, idx := m.siblings(n)
		return m.firstMatch(c, i-1, n) < idx
	}
	return false
}

func (c *cssCompound) match(n *tree.Node, m *cssMatch) bool {
	if n.Kind != tree.Element {
		return false
	}
	if c.tag != "" && c.tag != "*" && !strings.EqualFold(c.tag, n.Name) {
		return false
	}
	for _, id := range c.ids {
		if v, ok := n.Attr("id"); !ok || v != id {
			return false
		}
	}
	for _, cl := range c.classes {
		v, _ := n.Attr("class")
		if !containsField(v, cl) {
			return false
		}
	}
	for _, a := range c.attrs {
		if !a.match(n) {
			return false
		}
	}
	for _, p := range c.pseudos {
		if !p.match(n, m) {
			return false
		}
	}
	return true
}

func containsField(list, w string) bool {
	for _, f := range strings.Fields(list) {
		if f == w {
			return true
		}
	}
	return false
}

func (a cssAttr) match(n *tree.Node) bool {
	v, ok := n.Attr(a.name)
	if !ok {
		// HTML attribute names are lower case; accept any case.
		for _, at := range n.Attrs {
			if strings.EqualFold(at.Name, a.name) {
				v, ok = at.Value, true
				break
			}
		}
	}
	if !ok {
		return false
	}
	switch a.op {
	case "":
		return true
	case "=":
		return v == a.value
	case "~=":
		return containsField(v, a.value)
	case "^=":
		return a.value != "" && strings.HasPrefix(v, a.value)
	case "$=":
		return a.value != "" && strings.HasSuffix(v, a.value)
	case "*=":
		return a.value != "" && strings.Contains(v, a.value)
	case "|=":
		return v == a.value || strings.HasPrefix(v, a.value+"-")
	}
	return false
}

func (p cssPseudo) match(n *tree.Node, m *cssMatch) bool {
	switch p.name {
	case "not":
		return !p.not.match(n, m)
	case "first-of-type", "last-of-type", "only-of-type", "nth-of-type", "nth-last-of-type":
		i, count := m.typeSiblings(n)
		switch p.name {
		case "first-of-type":
			return i == 0
		case "last-of-type":
			return i == count-1
		case "only-of-type":
			return count == 1
		case "nth-of-type":
			return nthMatch(p.a, p.b, i+1)
		}
		return nthMatch(p.a, p.b, count-i)
	}
	sibs, i := m.siblings(n)
	switch p.name {
	case "first-child":
		return i == 0
	case "last-child":
		return i == len(sibs)-1
	case "only-child":
		return len(sibs) == 1
	case "nth-child":
		return nthMatch(p.a, p.b, i+1)
	case "nth-last-child":
		return nthMatch(p.a, p.b, len(sibs)-i)
	}
	return false
}

// nthMatch reports whether pos = a*k + b for some k >= 0.
func nthMatch(a, b, pos int) bool {
	if a == 0 {
		return pos == b
	}
	k := pos - b
	return k%a == 0 && k/a >= 0
}

// ---- parser

type cssParser struct {
	src string
	i   int // byte offset
}

func (p *cssParser) errorf(off int, format string, args ...any) error {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &SyntaxError{Lang: "css", Expr: p.src, Column: utf8.RuneCountInString(p.src[:min(off, len(p.src))]) + 1, Msg: msg}
}

func (p *cssParser) peek() byte {
	if p.i < len(p.src) {
		return p.src[p.i]
	}
	return 0
}

func (p *cssParser) skipSpace() bool {
	start := p.i
	for p.i < len(p.src) && isCSSSpace(p.src[p.i]) {
		p.i++
	}
	return p.i > start
}

func isCSSSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

func (p *cssParser) group() (*cssGroup, error) {
	g := &cssGroup{src: p.src}
	for {
		p.skipSpace()
		c, err := p.complex()
		if err != nil {
			return nil, err
		}
		g.sels = append(g.sels, c)
		p.skipSpace()
		if p.i >= len(p.src) {
			return g, nil
		}
		if p.peek() != ',' {
			return nil, p.errorf(p.i, "unexpected %q", p.src[p.i:p.i+1])
		}
		p.i++
	}
}

func (p *cssParser) complex() (*cssComplex, error) {
	c := &cssComplex{}
	comb := byte(0)
	for {
		start := p.i
		cp, err := p.compound()
		if err != nil {
			return nil, err
		}
		if cp == nil {
			if p.i >= len(p.src) {
				return nil, p.errorf(start, "selector expected")
			}
			return nil, p.errorf(start, "selector expected, found %q", p.src[p.i:p.i+1])
		}
		c.parts = append(c.parts, cp)
		c.combs = append(c.combs, comb)
		space := p.skipSpace()
		switch ch := p.peek(); ch {
		case '>', '+', '~':
			p.i++
			p.skipSpace()
			comb = ch
		case ',', 0:
			return c, nil
		default:
			if !space {
				return nil, p.errorf(p.i, "unexpected %q", p.src[p.i:p.i+1])
			}
			comb = ' '
		}
	}
}

// compound parses a compound selector; nil without error if none starts here.
func (p *cssParser) compound() (*cssCompound, error) {
	c := &cssCompound{}
	any := false
	if p.peek() == '*' {
		p.i++
		c.tag, any = "*", true
	} else if name := p.ident(); name != "" {
		c.tag, any = name, true
	}
	for {
		switch p.peek() {
		case '#':
			p.i++
			start := p.i
			name := p.ident()
			if name == "" {
				return nil, p.errorf(start, "name expected after #")
			}
			c.ids = append(c.ids, name)
		case '.':
			p.i++
			start := p.i
			name := p.ident()
			if name == "" {
				return nil, p.errorf(start, "class name expected after .")
			}
			c.classes = append(c.classes, name)
		case '[':
			a, err := p.attr()
			if err != nil {
				return nil, err
			}
			c.attrs = append(c.attrs, a)
		case ':':
			ps, err := p.pseudo()
			if err != nil {
				return nil, err
			}
			c.pseudos = append(c.pseudos, ps)
		default:
			if !any {
				return nil, nil
			}
			return c, nil
		}
		any = true
	}
}

func isIdentByte(c byte, first bool) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c >= 0x80:
		return true
	case c >= '0' && c <= '9', c == '-':
		return !first || c == '-'
	}
	return false
}

// ident reads an identifier (with backslash escapes of single characters).
func (p *cssParser) ident() string {
	var b strings.Builder
	first := true
	for p.i < len(p.src) {
		c := p.src[p.i]
		if c == '\\' && p.i+1 < len(p.src) {
			r, size := utf8.DecodeRuneInString(p.src[p.i+1:])
			b.WriteRune(r)
			p.i += 1 + size
			first = false
			continue
		}
		if !isIdentByte(c, first) {
			break
		}
		if c >= 0x80 {
			r, size := utf8.DecodeRuneInString(p.src[p.i:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				break
			}
			b.WriteRune(r)
			p.i += size
		} else {
			b.WriteByte(c)
			p.i++
		}
		first = false
	}
	return b.String()
}

func (p *cssParser) attr() (cssAttr, error) {
	open := p.i
	p.i++ // [
	p.skipSpace()
	start := p.i
	name := p.ident()
	if name == "" {
		return cssAttr{}, p.errorf(start, "attribute name expected")
	}
	a := cssAttr{name: name}
	p.skipSpace()
	if p.peek() == ']' {
		p.i++
		return a, nil
	}
	opStart := p.i
	switch p.peek() {
	case '=':
		a.op = "="
		p.i++
	case '~', '^', '$', '*', '|':
		if p.i+1 < len(p.src) && p.src[p.i+1] == '=' {
			a.op = p.src[p.i : p.i+2]
			p.i += 2
		}
	}
	if a.op == "" {
		if p.i >= len(p.src) {
			return a, p.errorf(open, "unclosed [")
		}
		return a, p.errorf(opStart, "attribute operator or ] expected")
	}
	p.skipSpace()
	switch q := p.peek(); q {
	case '"', '\'':
		v, err := p.str(q)
		if err != nil {
			return a, err
		}
		a.value = v
	default:
		vs := p.i
		a.value = p.ident()
		if a.value == "" {
			// allow numbers and other unquoted values up to ]
			for p.i < len(p.src) && p.src[p.i] != ']' && !isCSSSpace(p.src[p.i]) {
				p.i++
			}
			a.value = p.src[vs:p.i]
			if a.value == "" {
				return a, p.errorf(vs, "attribute value expected")
			}
		}
	}
	p.skipSpace()
	if p.peek() == 'i' || p.peek() == 's' { // case flags are accepted and ignored
		if p.i+1 < len(p.src) && (p.src[p.i+1] == ']' || isCSSSpace(p.src[p.i+1])) {
			p.i++
			p.skipSpace()
		}
	}
	if p.peek() != ']' {
		if p.i >= len(p.src) {
			return a, p.errorf(open, "unclosed [")
		}
		return a, p.errorf(p.i, "] expected")
	}
	p.i++
	return a, nil
}

// str reads a quoted string starting at the quote q.
func (p *cssParser) str(q byte) (string, error) {
	open := p.i
	p.i++
	var b strings.Builder
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\\' && p.i+1 < len(p.src):
			r, size := utf8.DecodeRuneInString(p.src[p.i+1:])
			b.WriteRune(r)
			p.i += 1 + size
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", p.errorf(open, "unterminated string")
}

func (p *cssParser) pseudo() (cssPseudo, error) {
	colon := p.i
	p.i++
	start := p.i
	name := strings.ToLower(p.ident())
	switch name {
	case "first-child", "last-child", "only-child", "first-of-type", "last-of-type", "only-of-type":
		return cssPseudo{name: name}, nil
	case "nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type":
		if p.peek() != '(' {
			return cssPseudo{}, p.errorf(p.i, "( expected after :%s", name)
		}
		p.i++
		argStart := p.i
		end := strings.IndexByte(p.src[p.i:], ')')
		if end < 0 {
			return cssPseudo{}, p.errorf(argStart-1, "unclosed (")
		}
		a, b, ok := parseNth(p.src[p.i : p.i+end])
		if !ok {
			return cssPseudo{}, p.errorf(argStart, "invalid an+b expression %q", p.src[p.i:p.i+end])
		}
		p.i += end + 1
		return cssPseudo{name: name, a: a, b: b}, nil
	case "not":
		if p.peek() != '(' {
			return cssPseudo{}, p.errorf(p.i, "( expected after :not")
		}
		p.i++
		p.skipSpace()
		argStart := p.i
		c, err := p.compound()
		if err != nil {
			return cssPseudo{}, err
		}
		if c == nil {
			return cssPseudo{}, p.errorf(argStart, "simple selector expected in :not()")
		}
		p.skipSpace()
		if p.peek() != ')' {
			return cssPseudo{}, p.errorf(p.i, ") expected")
		}
		p.i++
		return cssPseudo{name: "not", not: c}, nil
	case "":
		return cssPseudo{}, p.errorf(start, "pseudo-class name expected after :")
	}
	return cssPseudo{}, p.errorf(colon, "unsupported pseudo-class :%s", name)
}

// parseNth parses an+b, odd, even or an integer.
func parseNth(s string) (a, b int, ok bool) {
	s = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
	switch s {
	case "odd":
		return 2, 1, true
	case "even":
		return 2, 0, true
	case "":
		return 0, 0, false
	}
	i := strings.IndexByte(s, 'n')
	if i < 0 {
		v, err := strconv.Atoi(s)
		return 0, v, err == nil
	}
	switch as := s[:i]; as {
	case "", "+":
		a = 1
	case "-":
		a = -1
	default:
		v, err := strconv.Atoi(as)
		if err != nil {
			return 0, 0, false
		}
		a = v
	}
	if rest := s[i+1:]; rest != "" {
		if rest[0] != '+' && rest[0] != '-' {
			return 0, 0, false
		}
		v, err := strconv.Atoi(rest)
		if err != nil {
			return 0, 0, false
		}
		b = v
	}
	return a, b, true
}

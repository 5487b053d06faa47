package markup

import (
	"strings"

	"golang.org/x/net/html"
)

// maxEntityDepth bounds how deeply entity references may nest.
const maxEntityDepth = 64

// entity is a general entity declared in the DOCTYPE's internal subset.
type entity struct {
	name      string
	value     string // replacement text: the literal with character references expanded
	external  bool   // declared with SYSTEM or PUBLIC: never fetched
	expanding bool   // being expanded now (to refuse recursion)
}

// doctype parses <!DOCTYPE ...> at p.i: it keeps its text in
// Document.Doctype, and reads the internal subset's entity and ATTLIST
// declarations.
func (p *xmlParser) doctype() error {
	s := p.s
	off := p.i
	switch {
	case len(p.inputs) > 0:
		return p.errAt(off, "a DOCTYPE is not allowed in an entity's replacement text")
	case p.sawRoot:
		return p.errAt(off, "the DOCTYPE must come before the root element")
	case p.sawDoctype:
		return p.errAt(off, "second DOCTYPE: a document has at most one")
	}
	if err := p.flushText(false); err != nil {
		return err
	}
	i := off + len("<!DOCTYPE")
	if i >= len(s) || class[s[i]]&cSpace == 0 {
		return p.errAt(i, "expected white space after '<!DOCTYPE'")
	}
	i = p.skipSpace(i)
	j := p.scanName(i)
	if j == i {
		return p.errAt(i, "expected the root element's name in the DOCTYPE, found %s", p.describe(i))
	}
	i = p.skipSpace(j)
	var pub, sys string
	var err error
	switch {
	case strings.HasPrefix(s[i:], "SYSTEM"):
		if sys, i, err = p.literal(p.skipSpace(i+len("SYSTEM")), "system identifier"); err != nil {
			return err
		}
	case strings.HasPrefix(s[i:], "PUBLIC"):
		if pub, i, err = p.literal(p.skipSpace(i+len("PUBLIC")), "public identifier"); err != nil {
			return err
		}
		if sys, i, err = p.literal(p.skipSpace(i), "system identifier"); err != nil {
			return err
		}
	}
	if strings.Contains(strings.ToUpper(pub), "XHTML") || strings.Contains(strings.ToLower(sys), "xhtml") {
		p.xhtml = true
	}
	i = p.skipSpace(i)
	if i < len(s) && s[i] == '[' {
		if i, err = p.internalSubset(i + 1); err != nil {
			return err
		}
		i = p.skipSpace(i)
	}
	if i >= len(s) || s[i] != '>' {
		return p.errAt(i, "expected '>' at the end of the DOCTYPE, found %s", p.describe(i))
	}
	p.doc.Doctype = strings.TrimSpace(s[off+len("<!DOCTYPE") : i])
	_, _, sofar := p.doc.SplitProlog() // DoctypeAfter is 0: all of the prolog so far
	p.doc.DoctypeAfter = len(sofar)
	p.sawDoctype = true
	p.i = i + 1
	return nil
}

// literal parses a quoted literal at i and returns its content and the
// offset after the closing quote.
func (p *xmlParser) literal(i int, what string) (string, int, error) {
	s := p.s
	if i >= len(s) || (s[i] != '"' && s[i] != '\'') {
		return "", 0, p.errAt(i, "expected a quoted %s, found %s", what, p.describe(i))
	}
	k := strings.IndexByte(s[i+1:], s[i])
	if k < 0 {
		return "", 0, p.errAt(len(s), "unexpected end of input in a quoted %s: expected the closing quote", what)
	}
	return s[i+1 : i+1+k], i + 2 + k, nil
}

// internalSubset parses the internal subset from i (after '[') and returns
// the offset after the closing ']'.
func (p *xmlParser) internalSubset(i int) (int, error) {
	s := p.s
	for {
		i = p.skipSpace(i)
		if i >= len(s) {
			return 0, p.errAt(i, "unexpected end of input in the DOCTYPE's internal subset: expected ']'")
		}
		rest := s[i:]
		var err error
		switch {
		case rest[0] == ']':
			return i + 1, nil
		case strings.HasPrefix(rest, "<!ENTITY"):
			i, err = p.entityDecl(i)
		case strings.HasPrefix(rest, "<!ATTLIST"):
			i, err = p.attlistDecl(i)
		case strings.HasPrefix(rest, "<!ELEMENT"), strings.HasPrefix(rest, "<!NOTATION"):
			i, err = p.skipDecl(i)
		case strings.HasPrefix(rest, "<!--"):
			k := strings.Index(rest[4:], "-->")
			if k < 0 {
				return 0, p.errAt(len(s), "unexpected end of input in a comment: expected '-->'")
			}
			i += 4 + k + 3
		case strings.HasPrefix(rest, "<?"):
			k := strings.Index(rest, "?>")
			if k < 0 {
				return 0, p.errAt(len(s), "unexpected end of input in a processing instruction: expected '?>'")
			}
			i += k + 2
		case rest[0] == '%':
			// A parameter-entity reference: external declarations are
			// never read, so it is skipped.
			j := p.scanName(i + 1)
			if j == i+1 || j >= len(s) || s[j] != ';' {
				return 0, p.errAt(i, "expected a parameter-entity reference %%name;")
			}
			i = j + 1
		default:
			return 0, p.errAt(i, "expected a markup declaration (<!ENTITY, <!ATTLIST, <!ELEMENT, <!NOTATION), a comment, a processing instruction or ']' in the DOCTYPE, found %s", p.describe(i))
		}
		if err != nil {
			return 0, err
		}
	}
}

// skipDecl skips a declaration from i to its closing '>', over quoted
// strings.
func (p *xmlParser) skipDecl(i int) (int, error) {
	s := p.s
	for j := i + 2; j < len(s); j++ {
		switch s[j] {
		case '"', '\'':
			k := strings.IndexByte(s[j+1:], s[j])
			if k < 0 {
				return 0, p.errAt(len(s), "unexpected end of input in a quoted string of a declaration")
			}
			j += 1 + k
		case '>':
			return j + 1, nil
		case '<':
			return 0, p.errAt(j, "expected '>' to end the declaration, found '<'")
		}
	}
	return 0, p.errAt(len(s), "unexpected end of input in a declaration: expected '>'")
}

// requireSpace checks for white space at i and returns the offset after it.
func (p *xmlParser) requireSpace(i int, where string) (int, error) {
	if i >= len(p.s) || class[p.s[i]]&cSpace == 0 {
		return 0, p.errAt(i, "expected white space %s, found %s", where, p.describe(i))
	}
	return p.skipSpace(i), nil
}

// entityDecl parses <!ENTITY ...> at i.
func (p *xmlParser) entityDecl(i int) (int, error) {
	s := p.s
	k, err := p.requireSpace(i+len("<!ENTITY"), "after '<!ENTITY'")
	if err != nil {
		return 0, err
	}
	param := false
	if k < len(s) && s[k] == '%' {
		param = true
		if k, err = p.requireSpace(k+1, "after '%' in a parameter-entity declaration"); err != nil {
			return 0, err
		}
	}
	j := p.scanName(k)
	if j == k {
		return 0, p.errAt(k, "expected an entity name in <!ENTITY, found %s", p.describe(k))
	}
	name := s[k:j]
	if k, err = p.requireSpace(j, "after the entity name "+name); err != nil {
		return 0, err
	}
	e := &entity{name: name}
	switch {
	case k < len(s) && (s[k] == '"' || s[k] == '\''):
		lit, end, err := p.literal(k, "entity value")
		if err != nil {
			return 0, err
		}
		if !param {
			if e.value, err = p.entityValue(lit, k+1); err != nil {
				return 0, err
			}
		}
		k = end
	case strings.HasPrefix(s[k:], "SYSTEM"), strings.HasPrefix(s[k:], "PUBLIC"):
		e.external = true
		end, err := p.skipDecl(k - 2)
		if err != nil {
			return 0, err
		}
		k = end - 1
	default:
		return 0, p.errAt(k, "expected a quoted entity value, SYSTEM or PUBLIC for the entity %s, found %s", name, p.describe(k))
	}
	k = p.skipSpace(k)
	if k >= len(s) || s[k] != '>' {
		return 0, p.errAt(k, "expected '>' at the end of <!ENTITY %s, found %s", name, p.describe(k))
	}
	if !param && predefined(name) == "" {
		if p.entities == nil {
			p.entities = make(map[string]*entity)
		}
		if _, ok := p.entities[name]; !ok { // the first declaration binds
			p.entities[name] = e
		}
	}
	return k + 1, nil
}

// entityValue returns the replacement text of an entity literal at offset
// litOff of the current input: character references are expanded, entity
// references are kept for expansion where the entity is used.
func (p *xmlParser) entityValue(lit string, litOff int) (string, error) {
	if strings.IndexByte(lit, '&') < 0 && strings.IndexByte(lit, '%') < 0 {
		return lit, nil
	}
	var b strings.Builder
	for i := 0; i < len(lit); {
		c := lit[i]
		switch {
		case c == '%':
			return "", p.errAt(litOff+i, "a parameter-entity reference is not allowed inside a declaration in the internal subset")
		case c == '&' && i+1 < len(lit) && lit[i+1] == '#':
			r, end, errOff, msg := parseCharRef(lit, i)
			if msg != "" {
				return "", p.errAt(litOff+errOff, "%s", msg)
			}
			b.WriteRune(r)
			i = end
		case c == '&':
			j := p.scanName(litOff + i + 1)
			if j == litOff+i+1 || j >= len(p.s) || p.s[j] != ';' || j-litOff >= len(lit) {
				return "", p.errAt(litOff+i, "expected an entity reference &name; in the entity value")
			}
			b.WriteString(lit[i : j-litOff+1])
			i = j - litOff + 1
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

// attlistDecl parses <!ATTLIST ...> at i and records ID attributes in
// Document.IDAttrs.
func (p *xmlParser) attlistDecl(i int) (int, error) {
	s := p.s
	k, err := p.requireSpace(i+len("<!ATTLIST"), "after '<!ATTLIST'")
	if err != nil {
		return 0, err
	}
	j := p.scanName(k)
	if j == k {
		return 0, p.errAt(k, "expected an element name in <!ATTLIST, found %s", p.describe(k))
	}
	elem := s[k:j]
	k = j
	for {
		k = p.skipSpace(k)
		if k >= len(s) {
			return 0, p.errAt(k, "unexpected end of input in <!ATTLIST %s: expected '>'", elem)
		}
		if s[k] == '>' {
			return k + 1, nil
		}
		j = p.scanName(k)
		if j == k {
			return 0, p.errAt(k, "expected an attribute name or '>' in <!ATTLIST %s, found %s", elem, p.describe(k))
		}
		attr := s[k:j]
		if k, err = p.requireSpace(j, "after the attribute name "+attr+" in <!ATTLIST"); err != nil {
			return 0, err
		}
		// The type: a keyword, or an enumeration in parentheses.
		typ := ""
		if k < len(s) && s[k] == '(' {
			if k, err = p.skipGroup(k); err != nil {
				return 0, err
			}
		} else {
			j = p.scanName(k)
			if j == k {
				return 0, p.errAt(k, "expected an attribute type in <!ATTLIST %s, found %s", elem, p.describe(k))
			}
			typ = s[k:j]
			k = j
			if typ == "NOTATION" {
				if k, err = p.requireSpace(k, "after NOTATION"); err != nil {
					return 0, err
				}
				if k, err = p.skipGroup(k); err != nil {
					return 0, err
				}
			}
		}
		if k, err = p.requireSpace(k, "after the type of the attribute "+attr); err != nil {
			return 0, err
		}
		// The default.
		if k < len(s) && s[k] == '#' {
			j = p.scanName(k + 1)
			kw := s[k+1 : j]
			switch kw {
			case "REQUIRED", "IMPLIED":
				k = j
			case "FIXED":
				if k, err = p.requireSpace(j, "after #FIXED"); err != nil {
					return 0, err
				}
				if _, k, err = p.literal(k, "default value"); err != nil {
					return 0, err
				}
			default:
				return 0, p.errAt(k, "expected #REQUIRED, #IMPLIED, #FIXED or a quoted default value for the attribute %s", attr)
			}
		} else if _, k, err = p.literal(k, "default value"); err != nil {
			return 0, err
		}
		if typ == "ID" {
			if p.doc.IDAttrs == nil {
				p.doc.IDAttrs = make(map[string]string)
			}
			if _, ok := p.doc.IDAttrs[elem]; !ok {
				p.doc.IDAttrs[elem] = attr
			}
		}
	}
}

// skipGroup skips a parenthesised group at i.
func (p *xmlParser) skipGroup(i int) (int, error) {
	if i >= len(p.s) || p.s[i] != '(' {
		return 0, p.errAt(i, "expected '(', found %s", p.describe(i))
	}
	k := strings.IndexByte(p.s[i:], ')')
	if k < 0 {
		return 0, p.errAt(len(p.s), "unexpected end of input in a declaration: expected ')'")
	}
	return i + k + 1, nil
}

// refCost is what each entity reference costs against
// Options.MaxEntityExpansion on top of its length, since a reference to a
// short text costs the parser far more than copying its bytes.
const refCost = 32

// charge counts an entity reference producing n bytes against the limit.
func (p *xmlParser) charge(n int, name string) error {
	p.expanded += int64(n) + refCost
	if p.expanded > p.opt.MaxEntityExpansion {
		return &LimitError{Option: "MaxEntityExpansion", Max: p.opt.MaxEntityExpansion,
			Err: p.errAt(p.i, "entity references expand to more than %d bytes at &%s;: refused as a possible entity bomb", p.opt.MaxEntityExpansion, name)}
	}
	return nil
}

// pushEntity starts parsing the replacement text of e, referenced at ref,
// as content.
func (p *xmlParser) pushEntity(e *entity, ref int) error {
	if e.expanding {
		return p.errAt(ref, "entity &%s; refers to itself", e.name)
	}
	if len(p.inputs) >= maxEntityDepth {
		return p.errAt(ref, "entity references nested deeper than %d", maxEntityDepth)
	}
	if err := p.charge(len(e.value), e.name); err != nil {
		return err
	}
	if e.value == "" {
		return nil
	}
	if p.text.has {
		p.textToBuf()
	}
	p.inputs = append(p.inputs, input{s: p.s, i: p.i, refOff: ref, entity: e.name, depth: len(p.stack)})
	e.expanding = true
	p.s, p.i = e.value, 0
	return nil
}

// popInput returns from an entity's replacement text to the text that
// referenced it.
func (p *xmlParser) popInput() error {
	in := p.inputs[len(p.inputs)-1]
	if len(p.stack) > in.depth {
		top := p.stack[len(p.stack)-1]
		return p.errAt(len(p.s), "element <%s> is not closed within the entity's replacement text", top.name)
	}
	if p.text.has {
		p.textToBuf()
	}
	p.entities[in.entity].expanding = false
	p.inputs = p.inputs[:len(p.inputs)-1]
	p.s, p.i = in.s, in.i
	return nil
}

// expandForAttr returns the replacement text of the entity name for use in
// an attribute value, references in it expanded.
func (p *xmlParser) expandForAttr(name string, ref, depth int) (string, error) {
	e := p.entities[name]
	switch {
	case e == nil:
		if v := predefined(name); v != "" {
			return v, nil
		}
		if v, ok := p.htmlEntity(name); ok {
			return v, nil
		}
		return "", p.errAt(ref, "undefined entity &%s;", name)
	case e.external:
		return "", p.errAt(ref, "external entity &%s; is not allowed in an attribute value", name)
	case e.expanding:
		return "", p.errAt(ref, "entity &%s; refers to itself", name)
	case depth >= maxEntityDepth:
		return "", p.errAt(ref, "entity references nested deeper than %d", maxEntityDepth)
	}
	if err := p.charge(len(e.value), name); err != nil {
		return "", err
	}
	e.expanding = true
	defer func() { e.expanding = false }()
	v := e.value
	var b strings.Builder
	for i := 0; i < len(v); {
		c := v[i]
		switch c {
		case '<':
			return "", p.errAt(ref, "'<' in the replacement text of entity &%s; is not allowed in an attribute value", name)
		case '\t', '\n', '\r':
			b.WriteByte(' ')
			i++
		case '&':
			if i+1 < len(v) && v[i+1] == '#' {
				r, end, _, msg := parseCharRef(v, i)
				if msg != "" {
					return "", p.errAt(ref, "in the replacement text of entity &%s;: %s", name, msg)
				}
				b.WriteRune(r)
				i = end
				continue
			}
			semi := strings.IndexByte(v[i:], ';')
			if semi < 0 {
				return "", p.errAt(ref, "in the replacement text of entity &%s;: expected ';' after '&'", name)
			}
			inner, err := p.expandForAttr(v[i+1:i+semi], ref, depth+1)
			if err != nil {
				return "", err
			}
			b.WriteString(inner)
			i += semi + 1
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

// htmlEntity resolves the HTML named character references (&nbsp;, &eacute;)
// in an XHTML document, whose DTD declares them; the DTD itself is never
// fetched.
func (p *xmlParser) htmlEntity(name string) (string, bool) {
	if !p.xhtml {
		return "", false
	}
	ref := "&" + name + ";"
	v := html.UnescapeString(ref)
	return v, v != ref
}

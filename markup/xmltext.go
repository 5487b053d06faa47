package markup

import (
	"strings"
	"unsafe"

	"github.com/vigil-web/vigil/tree"
)

// Character data: scanning it, gathering adjacent pieces (text, CDATA
// sections, references) into one pending text, and turning that into a text
// node under the white-space policy.

// charData scans character data up to the next '<'.
func (p *xmlParser) charData() error {
	s := p.s
	i := p.i
	for i < len(s) {
		start := i
		for i < len(s) && class[s[i]]&cTextStop == 0 {
			i++
		}
		if i > start {
			p.addSpan(start, i)
		}
		if i >= len(s) {
			break
		}
		switch s[i] {
		case '<':
			p.i = i
			return nil
		case ']':
			if strings.HasPrefix(s[i:], "]]>") {
				return p.errAt(i, "']]>' is not allowed in text (end of a CDATA section that was not opened)")
			}
			p.addSpan(i, i+1)
			i++
		case '&':
			if len(p.stack) == 0 {
				return p.outsideRoot(i)
			}
			p.i = i
			depth := len(p.inputs)
			if err := p.reference(false); err != nil {
				return err
			}
			if len(p.inputs) != depth {
				return nil // now parsing the entity's replacement text
			}
			i = p.i
		}
	}
	p.i = i
	return nil
}

// addSpan adds s[a:b] of the current input to the pending text: as a span
// while the text is one contiguous run, else by copying into the buffer.
func (p *xmlParser) addSpan(a, b int) {
	t := &p.text
	switch {
	case !t.has:
		t.has, t.inBuf, t.start, t.end = true, false, a, b
		t.off = p.outerOffAt(a)
	case !t.inBuf && t.end == a:
		t.end = b
	default:
		p.textToBuf()
		t.buf = append(t.buf, p.s[a:b]...)
	}
}

// addString adds v, the expansion of a reference, to the pending text.
func (p *xmlParser) addString(v string) {
	t := &p.text
	if !t.has {
		t.off = p.outerOff()
	}
	p.textToBuf()
	t.buf = append(t.buf, v...)
}

// textToBuf moves pending text from a span into the buffer.
func (p *xmlParser) textToBuf() {
	t := &p.text
	if t.inBuf {
		return
	}
	t.buf = t.buf[:0]
	if t.has {
		t.buf = append(t.buf, p.s[t.start:t.end]...)
	}
	t.has, t.inBuf = true, true
}

// flushText turns pending character data into a text node; elemAfter
// tells whether a start tag comes right after it.
func (p *xmlParser) flushText(elemAfter bool) error {
	t := &p.text
	if !t.has {
		return nil
	}
	var v string
	inBuf := t.inBuf
	if inBuf {
		// A view of the buffer, which is reused: the text is copied out
		// below, after normalisation (which may copy it anyway).
		v = unsafe.String(unsafe.SliceData(t.buf), len(t.buf))
	} else {
		v = p.s[t.start:t.end]
	}
	t.has, t.inBuf = false, false
	if len(p.stack) == 0 {
		if !isXMLSpace(v) {
			off := t.off
			if !inBuf && len(p.inputs) == 0 {
				// Point at the first character that is not white space.
				off += len(v) - len(strings.TrimLeft(v, " \t\n\r"))
			}
			return p.outsideRoot(off)
		}
		return nil
	}
	top := &p.stack[len(p.stack)-1]
	if !p.keep {
		var ok bool
		if v, ok = normalizeXMLText(v, top.preserve, p.afterElem, elemAfter, top.mixed); !ok {
			return nil
		}
		top.mixed = top.mixed || !isXMLSpace(v)
	}
	p.afterElem = false
	if p.flat != nil {
		p.flat.Leaf(tree.Text, "", v) // copies v
		return nil
	}
	if inBuf && len(v) > 0 && inside(v, t.buf) {
		v = strings.Clone(v)
	}
	n := p.doc.NewText(v)
	n.Parent = top.node
	p.kids = append(p.kids, n)
	return nil
}

// outsideRoot returns the error for text at off outside the root element.
func (p *xmlParser) outsideRoot(off int) error {
	where := "before"
	if p.sawRoot {
		where = "after"
	}
	return syntaxErrorAt(p.src, off, "text is not allowed %s the root element", where)
}

// inside reports whether the string v shares memory with b.
func inside(v string, b []byte) bool {
	if len(v) == 0 || cap(b) == 0 {
		return false
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	p := uintptr(unsafe.Pointer(unsafe.StringData(v)))
	return p >= start && p < start+uintptr(cap(b))
}

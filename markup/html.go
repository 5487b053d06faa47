package markup

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"

	"github.com/vigil-web/vigil/tree"
)

// ParseHTML reads an HTML document from r and returns its tree, parsed as
// an HTML5 browser would (golang.org/x/net/html), so any input gives a
// document: the root is always an html element with head and body. The
// DOCTYPE goes to Document.Doctype ("html", or with its public and system
// identifiers), comments before and after the html element to Prolog and
// Epilog. Attributes of foreign (SVG, MathML) elements keep their prefix as
// written (xlink:href). The text of script and style elements stays as the
// text child of its element. The nodes have no XIDs yet.
func ParseHTML(r io.Reader, opt *Options) (*tree.Document, error) {
	o := opt.resolved()
	data, err := readInput(r, o.MaxBytes)
	if err != nil {
		return nil, err
	}
	return parseHTML(data, o)
}

// ParseHTMLBytes is ParseHTML on a byte slice. It does not modify or retain
// b.
func ParseHTMLBytes(b []byte, opt *Options) (*tree.Document, error) {
	o := opt.resolved()
	if err := checkSize(b, o.MaxBytes); err != nil {
		return nil, err
	}
	return parseHTML(b, o)
}

// parseHTML decodes data to UTF-8, parses it with x/net/html and converts
// the result.
func parseHTML(data []byte, o Options) (*tree.Document, error) {
	data, err := decodeHTML(data, o.Charset)
	if err != nil {
		return nil, err
	}
	top, err := html.Parse(bytes.NewReader(data))
	if err != nil && strings.Contains(err.Error(), "open stack of elements exceeds") {
		// Most such pages never close their <font> or <b>: read again
		// with fewer of those open.
		top, err = html.Parse(bytes.NewReader(capFormatting(data)))
	}
	if err != nil {
		if strings.Contains(err.Error(), "open stack of elements exceeds") {
			return nil, fmt.Errorf("markup: parse HTML: elements nested more than 512 deep, the most the HTML parser (golang.org/x/net/html) takes: %w", ErrHTMLTooDeep)
		}
		return nil, fmt.Errorf("markup: parse HTML: %w", err)
	}
	doc := &tree.Document{HTML: true}
	for c := top.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.DoctypeNode:
			doc.Doctype = xmlSafe(doctypeText(c))
			doc.DoctypeAfter = len(doc.Prolog)
		case html.CommentNode:
			n := doc.NewNode(tree.Comment, "", xmlSafe(c.Data))
			if doc.Root == nil {
				doc.Prolog = append(doc.Prolog, n)
			} else {
				doc.Epilog = append(doc.Epilog, n)
			}
		case html.ElementNode:
			if doc.Root == nil {
				if doc.Root, err = convertHTML(doc, c, o); err != nil {
					return nil, err
				}
			}
		}
	}
	if doc.Root == nil { // cannot happen with x/net/html; keep the invariant
		doc.Root = doc.NewElement("html")
	}
	return doc, nil
}

// xmlSafe returns s (UTF-8) with the characters XML cannot hold, and so
// no XyDelta could carry, replaced: a form feed (HTML white space) by a
// space, the other C0 control characters but tab, newline and carriage
// return, and the non-characters U+FFFE and U+FFFF, by U+FFFD, as the HTML
// parser replaces NUL. HTML pages hold them by accident, as bytes or as
// character references (&#8;); a page keeps its meaning without them. s is
// returned as it is when it has none.
func xmlSafe(s string) string {
	clean := func(k int) bool {
		c := s[k]
		switch {
		case c < 0x20:
			return c == '\t' || c == '\n' || c == '\r'
		case c == 0xef && k+2 < len(s) && s[k+1] == 0xbf:
			return s[k+2] != 0xbe && s[k+2] != 0xbf
		}
		return true
	}
	k := 0
	for k < len(s) && clean(k) {
		k++
	}
	if k == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:k])
	for ; k < len(s); k++ {
		switch {
		case clean(k):
			b.WriteByte(s[k])
		case s[k] == '\f':
			b.WriteByte(' ')
		case s[k] == 0xef:
			b.WriteString("\uFFFD")
			k += 2
		default:
			b.WriteString("\uFFFD")
		}
	}
	return b.String()
}

// doctypeText returns the DOCTYPE's text as Document.Doctype holds it,
// each identifier in double quotes, or in single quotes when it holds a
// double one (an identifier ends at its quote, so it holds one kind at
// most), so that WriteHTML's DOCTYPE reads back as the same.
func doctypeText(n *html.Node) string {
	var pub, sys string
	var hasPub, hasSys bool
	for _, a := range n.Attr {
		switch a.Key {
		case "public":
			pub, hasPub = a.Val, true
		case "system":
			sys, hasSys = a.Val, true
		}
	}
	s := n.Data
	switch {
	case hasPub:
		s += " PUBLIC " + quoteID(pub)
		if hasSys {
			s += " " + quoteID(sys)
		}
	case hasSys:
		s += " SYSTEM " + quoteID(sys)
	}
	return s
}

// quoteID quotes a DOCTYPE identifier in double quotes, or in single ones
// when it holds a double quote.
func quoteID(id string) string {
	if strings.Contains(id, `"`) {
		return "'" + id + "'"
	}
	return `"` + id + `"`
}

// preserveHTML lists the HTML elements whose text keeps its white space
// under the Normalize policy.
var preserveHTML = map[string]bool{
	"pre": true, "textarea": true, "listing": true, "plaintext": true,
	"xmp": true, "script": true, "style": true,
}

// convertHTML converts the x/net/html subtree at src into a tree, without
// recursion.
func convertHTML(doc *tree.Document, src *html.Node, o Options) (*tree.Node, error) {
	type frame struct {
		next     *html.Node
		dst      *tree.Node
		preserve bool
		line     lineContext // of dst
	}
	keep := o.Whitespace == Keep
	root := convertElement(doc, src)
	stack := []frame{{next: src.FirstChild, dst: root, preserve: src.Namespace == "" && preserveHTML[src.Data]}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		c := top.next
		if c == nil {
			finishHTMLText(top.dst, keep, top.preserve, top.line)
			stack = stack[:len(stack)-1]
			continue
		}
		top.next = c.NextSibling
		release(c)
		var n *tree.Node
		switch c.Type {
		case html.TextNode:
			n = doc.NewText(xmlSafe(c.Data))
		case html.CommentNode:
			n = doc.NewNode(tree.Comment, "", xmlSafe(c.Data))
		case html.ElementNode:
			n = convertElement(doc, c)
		default:
			continue
		}
		top.dst.AppendChild(n)
		if c.Type == html.ElementNode && c.FirstChild != nil {
			if len(stack) >= o.MaxDepth {
				return nil, &LimitError{Option: "MaxDepth", Max: int64(o.MaxDepth), Err: fmt.Errorf("markup: HTML elements nested deeper than the limit of %d", o.MaxDepth)}
			}
			preserve := top.preserve || (c.Namespace == "" && preserveHTML[c.Data])
			line := childLine(top.dst, n, top.next, top.line)
			stack = append(stack, frame{next: c.FirstChild, dst: n, preserve: preserve, line: line})
		}
	}
	return root, nil
}

// release unlinks c, the first child left of its parent, from the
// x/net/html tree once its conversion starts: nothing reachable points to
// it any more but its own children, so that each subtree converted can be
// collected while the rest is, and the parser's tree (twice the size of
// ours) and ours are not both held whole.
func release(c *html.Node) {
	if p := c.Parent; p != nil {
		p.FirstChild = c.NextSibling
		if p.LastChild == c {
			p.LastChild = nil
		}
	}
	if c.NextSibling != nil {
		c.NextSibling.PrevSibling = nil
	}
	c.NextSibling = nil
}

// convertElement makes a tree element from an x/net/html element, with its
// attributes (prefixed as written for foreign content).
func convertElement(doc *tree.Document, c *html.Node) *tree.Node {
	n := doc.NewElement(xmlSafe(c.Data))
	if len(c.Attr) > 0 {
		n.Attrs = make([]tree.Attr, 0, len(c.Attr))
		var names attrNames
		for _, a := range c.Attr {
			name := a.Key
			if a.Namespace != "" {
				name = a.Namespace + ":" + a.Key
			}
			// The HTML tokenizer keeps the first of duplicate attributes;
			// names that differ only by characters xmlSafe replaces are
			// duplicates too.
			name = xmlSafe(name)
			if !names.has(n.Attrs, name) {
				n.Attrs = append(n.Attrs, tree.Attr{Name: name, Value: xmlSafe(a.Val)})
			}
		}
		if c.Namespace == "" && n.Name == "meta" {
			// The text is UTF-8 now: the tree says so, as WriteHTML
			// writes it, so that a page written and read again is the
			// same tree (a delta of the next version applies to it).
			for i, a := range n.Attrs {
				n.Attrs[i].Value = metaCharset(n, a, false)
			}
		}
	}
	return n
}

// finishHTMLText merges adjacent text children of n (the HTML tree builder
// can leave them) and applies the white-space policy; line tells what
// stands before and after n within its line (see lineContext).
func finishHTMLText(n *tree.Node, keep, preserve bool, line lineContext) {
	kids := n.Children
	out := kids[:0]
	for i := 0; i < len(kids); i++ {
		c := kids[i]
		if c.Kind == tree.Text {
			if i+1 < len(kids) && kids[i+1].Kind == tree.Text {
				var b strings.Builder
				for ; i < len(kids) && kids[i].Kind == tree.Text; i++ {
					b.WriteString(kids[i].Value)
				}
				i--
				c.Value = b.String()
			}
			if !keep {
				before, space := line.before(n, out)
				v, ok := normalizeHTMLText(c.Value, preserve, before, space, line.after(n, kids[i+1:]))
				if !ok {
					continue
				}
				c.Value = v
			}
		}
		out = append(out, c)
	}
	clear(kids[len(out):])
	n.Children = out
	if len(out) == 0 {
		n.Children = nil
	}
}

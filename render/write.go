package render

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// Attr is the attribute that carries a mark in the views.
const Attr = "data-vigil"

// rawText are the elements whose content a browser reads as text: a
// wrapper element inside them would show as text.
var rawText = map[string]bool{
	"title": true, "textarea": true, "script": true, "style": true, "xmp": true,
	"iframe": true, "noembed": true, "noframes": true, "noscript": true, "plaintext": true,
}

// marked returns a copy of doc's root (or its body, when body is set and
// the document has one) with the marks written in: marked elements get a
// data-vigil attribute, marked text is wrapped in ins, del or mark.
//
// With asXML (a document that is not a page), each element is written as
// its markup instead (xmlElement).
func marked(doc *tree.Document, n *tree.Node, marks map[*tree.Node]Mark, oldText map[*tree.Node]string, oldSide, asXML bool) []*tree.Node {
	var copyNode func(n *tree.Node, inRaw bool, inMark bool) []*tree.Node
	copyNode = func(n *tree.Node, inRaw bool, inMark bool) []*tree.Node {
		m := marks[n]
		switch n.Kind {
		case tree.Element:
			if asXML {
				return []*tree.Node{xmlElement(doc, n, m, func(ch *tree.Node) []*tree.Node {
					return copyNode(ch, false, inMark || (m != Unchanged && m != AttrChanged))
				})}
			}
			c := doc.NewElement(n.Name)
			for _, at := range n.Attrs {
				if !strings.EqualFold(at.Name, Attr) {
					c.Attrs = append(c.Attrs, at)
				}
			}
			if m != Unchanged {
				c.SetAttr(Attr, m.String())
			}
			raw := inRaw || rawText[strings.ToLower(n.Name)]
			for _, ch := range n.Children {
				for _, cc := range copyNode(ch, raw, inMark || (m != Unchanged && m != AttrChanged)) {
					c.AppendChild(cc)
				}
			}
			return []*tree.Node{c}
		case tree.Text:
			t := doc.NewText(n.Value)
			if inRaw || m == Unchanged || inMark && m != Updated {
				return []*tree.Node{t}
			}
			if m == Updated {
				if oldSide {
					return []*tree.Node{wrap(doc, "del", "upd-old", t)}
				}
				out := []*tree.Node{}
				if old, ok := oldText[n]; ok {
					out = append(out, wrap(doc, "del", "upd-old", doc.NewText(old)))
				}
				return append(out, wrap(doc, "ins", "upd", t))
			}
			tag := map[Mark]string{Inserted: "ins", Deleted: "del", Moved: "mark"}[m]
			if tag == "" {
				return []*tree.Node{t}
			}
			return []*tree.Node{wrap(doc, tag, m.String(), t)}
		default:
			if asXML {
				return []*tree.Node{xmlLeaf(doc, n, m)}
			}
			return []*tree.Node{doc.NewNode(n.Kind, n.Name, n.Value)}
		}
	}
	return copyNode(n, false, false)
}

// isPage reports whether doc is a page (its root is html), which the
// views write as the page's own HTML; another XML document (a feed) is
// shown as its markup, since its elements are not HTML's: a feed's
// <title> would be read as raw text, its <link> as a void element.
func isPage(doc *tree.Document) bool {
	return doc.Root != nil && strings.EqualFold(doc.Root.Name, "html")
}

// xmlElement shows the element n as its markup: a block (<div>, marked as
// n is) holding its start tag as text in <code>, its content (each child
// copied by content) and its end tag; an element without content shows
// as one empty-element tag.
func xmlElement(doc *tree.Document, n *tree.Node, m Mark, content func(*tree.Node) []*tree.Node) *tree.Node {
	div := doc.NewElement("div")
	if m != Unchanged {
		div.SetAttr(Attr, m.String())
	}
	var tag strings.Builder
	tag.WriteString("<" + n.Name)
	for _, at := range n.Attrs {
		tag.WriteString(" " + at.Name + `="` + xmlAttrEscaper.Replace(at.Value) + `"`)
	}
	code := func(text string) {
		c := doc.NewElement("code")
		c.AppendChild(doc.NewText(text))
		div.AppendChild(c)
	}
	if len(n.Children) == 0 {
		code(tag.String() + "/>")
		return div
	}
	code(tag.String() + ">")
	for _, ch := range n.Children {
		for _, cc := range content(ch) {
			div.AppendChild(cc)
		}
	}
	code("</" + n.Name + ">")
	return div
}

// xmlAttrEscaper writes an attribute value shown in a tag as XML writes
// it, so that its quotes do not end it early.
var xmlAttrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", `"`, "&quot;")

// xmlLeaf shows the comment or processing instruction n as its markup,
// text in <code> (marked as n is), as xmlElement shows tags: written as
// an HTML comment, its text could end the comment (a processing
// instruction's data may hold "-->") and what follows would be read as
// the view's own markup.
func xmlLeaf(doc *tree.Document, n *tree.Node, m Mark) *tree.Node {
	text := "<!--" + n.Value + "-->"
	if n.Kind == tree.ProcInst {
		text = "<?" + n.Name
		if n.Value != "" {
			text += " " + n.Value
		}
		text += "?>"
	}
	c := doc.NewElement("code")
	if m != Unchanged {
		c.SetAttr(Attr, m.String())
	}
	c.AppendChild(doc.NewText(text))
	return c
}

// xmlBlock wraps the markup of a document that is not a page, so that the
// views' styles lay it out as a tree.
func xmlBlock(doc *tree.Document, nodes []*tree.Node) *tree.Node {
	div := doc.NewElement("div")
	div.SetAttr(Attr, "xml")
	for _, n := range nodes {
		div.AppendChild(n)
	}
	return div
}

func wrap(doc *tree.Document, tag, mark string, n *tree.Node) *tree.Node {
	e := doc.NewElement(tag)
	e.SetAttr(Attr, mark)
	e.AppendChild(n)
	return e
}

// body returns the body element of an HTML document, or its root.
func body(doc *tree.Document) *tree.Node {
	if strings.EqualFold(doc.Root.Name, "html") {
		for _, c := range doc.Root.Children {
			if c.Kind == tree.Element && strings.EqualFold(c.Name, "body") {
				return c
			}
		}
	}
	return doc.Root
}

// Inline writes the new version of the document as HTML, with the inserted,
// moved, updated and changed parts marked where they are and the deleted
// parts put back, marked, where they were.
func Inline(w io.Writer, old *tree.Document, d *delta.Delta) error {
	a, err := Annotate(old, d)
	if err != nil {
		return err
	}
	return a.WriteInline(w)
}

// WriteInline writes the inline view of a (see Inline).
func (a *Annotated) WriteInline(w io.Writer) error {
	doc, marks, texts := a.merged()
	return writeInline(w, doc, marks, texts)
}

// writeInline writes doc, a merged copy of the new version, with its
// marks and the old values of its updated texts: a page as its own HTML,
// another document as its markup (xmlBlock) in a page's body.
func writeInline(w io.Writer, doc *tree.Document, marks map[*tree.Node]Mark, texts map[*tree.Node]string) error {
	out := &tree.Document{Doctype: "html"}
	if isPage(doc) {
		out.Root = marked(out, doc.Root, marks, texts, false, false)[0]
	} else {
		html := out.NewElement("html")
		b := out.NewElement("body")
		html.AppendChild(b)
		b.AppendChild(xmlBlock(out, marked(out, doc.Root, marks, texts, false, true)))
		out.Root = html
	}
	return markup.WriteHTML(w, out, &markup.WriteOptions{})
}

// SideBySide writes one HTML document with two columns: the body of the
// old version with its deleted, moved and updated parts marked
// (<div data-vigil="old">), and the body of the new version with its
// inserted, moved and updated parts marked (<div data-vigil="new">).
func SideBySide(w io.Writer, old *tree.Document, d *delta.Delta) error {
	a, err := Annotate(old, d)
	if err != nil {
		return err
	}
	return a.WriteSideBySide(w)
}

// WriteSideBySide writes the side-by-side view of a (see SideBySide).
func (a *Annotated) WriteSideBySide(w io.Writer) error {
	out := &tree.Document{Doctype: "html"}
	html := out.NewElement("html")
	b := out.NewElement("body")
	html.AppendChild(b)
	grid := out.NewElement("div")
	grid.SetAttr(Attr, "sbs")
	b.AppendChild(grid)
	for _, side := range []struct {
		name  string
		doc   *tree.Document
		marks map[*tree.Node]Mark
	}{{"old", a.Old, a.OldMarks}, {"new", a.New, a.NewMarks}} {
		col := out.NewElement("div")
		col.SetAttr(Attr, side.name)
		var texts map[*tree.Node]string // the new column shows only new text
		if !isPage(side.doc) {
			col.AppendChild(xmlBlock(out, marked(out, side.doc.Root, side.marks, texts, side.name == "old", true)))
			grid.AppendChild(col)
			continue
		}
		src := marked(out, body(side.doc), side.marks, texts, side.name == "old", false)[0]
		// The marked copy's children become the column's, all at once:
		// removing them one at a time from the front would take time
		// quadratic in their number.
		col.Children, src.Children = src.Children, nil
		for _, c := range col.Children {
			c.Parent = col
		}
		grid.AppendChild(col)
	}
	out.Root = html
	return markup.WriteHTML(w, out, nil)
}

// Change is one operation of a delta as the Changes and Text views show it.
type Change struct {
	Mark     Mark
	Path     string     // where, in the new version (the old one for a delete)
	OldPath  string     // for a move, and an update whose node is elsewhere in the old version: where it was
	Node     *tree.Node // the subtree (in New, or the deleted content)
	OldText  string     // for an update: the old text
	Attr     string     // for an attribute change: its name ("" for a rename)
	OldValue string
	NewValue string
}

// Changes lists the changes of a in document order of the delta: deletes,
// then inserts, moves and updates, then attribute changes.
func (a *Annotated) Changes() []Change {
	var out []Change
	// Each version's nodes named through one NodePaths: a page whose long
	// list changed throughout would otherwise take time quadratic in the
	// list's length.
	var oldPaths, newPaths tree.NodePaths
	for i := range a.Delta.Ops {
		op := &a.Delta.Ops[i]
		switch op.Kind {
		case delta.Delete:
			if op.Move || op.Update {
				continue
			}
			n := a.oldByXID[op.Root()]
			if n == nil {
				continue
			}
			c := op.Content
			if c == nil {
				c = n
			}
			out = append(out, Change{Mark: Deleted, Path: oldPaths.Path(n), Node: c})
		case delta.Insert:
			n := a.newByXID[op.Root()]
			if n == nil {
				continue
			}
			ch := Change{Mark: Inserted, Path: newPaths.Path(n), Node: n}
			switch {
			case op.Move:
				ch.Mark = Moved
				if o := a.oldByXID[op.Root()]; o != nil {
					ch.OldPath = oldPaths.Path(o)
				}
			case op.Update:
				ch.Mark = Updated
				ch.OldText = a.OldText[n]
				// Named where it was too when the nodes around it
				// moved it: the old version has another node at
				// its new path.
				if o := a.oldByXID[op.Root()]; o != nil {
					if p := oldPaths.Path(o); p != ch.Path {
						ch.OldPath = p
					}
				}
			}
			out = append(out, ch)
		default:
			n := a.newByXID[op.Node]
			if n == nil {
				continue
			}
			ch := Change{Mark: AttrChanged, Path: newPaths.Path(n), Node: n, Attr: op.Name, OldValue: op.OldValue, NewValue: op.NewValue}
			if op.Kind == delta.Rename {
				ch.Attr = ""
			}
			out = append(out, ch)
		}
	}
	return out
}

// OnlyChanges writes an HTML document with one section per change: what
// happened, where (the node's path), and the changed part, marked.
func OnlyChanges(w io.Writer, old *tree.Document, d *delta.Delta) error {
	a, err := Annotate(old, d)
	if err != nil {
		return err
	}
	return a.WriteChanges(w)
}

var verbs = map[Mark]string{Inserted: "Inserted", Deleted: "Deleted", Moved: "Moved", Updated: "Updated", AttrChanged: "Changed"}

// WriteChanges writes the only-changes view of a (see OnlyChanges).
func (a *Annotated) WriteChanges(w io.Writer) error {
	out := &tree.Document{Doctype: "html"}
	html := out.NewElement("html")
	b := out.NewElement("body")
	html.AppendChild(b)
	changes := a.Changes()
	asXML := !isPage(a.New)
	if len(changes) == 0 {
		p := out.NewElement("p")
		p.AppendChild(out.NewText("No changes."))
		b.AppendChild(p)
	}
	for _, c := range changes {
		sec := out.NewElement("section")
		sec.SetAttr(Attr, "change")
		h := out.NewElement("h3")
		title := verbs[c.Mark] + " " + c.Path
		switch {
		case c.Mark == Moved && c.OldPath != "":
			title = "Moved from " + c.OldPath + " to " + c.Path
		case c.Mark == Updated && c.OldPath != "":
			title = "Updated " + c.Path + " (" + c.OldPath + " in the old version)"
		case c.Mark == AttrChanged && c.Attr == "":
			title = fmt.Sprintf("Renamed %s (was <%s>)", c.Path, c.OldValue)
		case c.Mark == AttrChanged:
			title = fmt.Sprintf("Changed attribute %s of %s: %s", c.Attr, c.Path, a.attrChange(c))
		}
		h.AppendChild(out.NewText(title))
		sec.AppendChild(h)
		if c.Mark != AttrChanged {
			div := out.NewElement("div")
			marks := map[*tree.Node]Mark{c.Node: c.Mark}
			texts := map[*tree.Node]string{}
			if c.Mark == Updated {
				texts[c.Node] = c.OldText
			}
			nodes := marked(out, c.Node, marks, texts, false, asXML)
			if asXML {
				nodes = []*tree.Node{xmlBlock(out, nodes)}
			}
			for _, n := range nodes {
				div.AppendChild(n)
			}
			sec.AppendChild(div)
		}
		b.AppendChild(sec)
	}
	out.Root = html
	return markup.WriteHTML(w, out, nil)
}

// Text writes the changes as plain text, one a line: "+ " inserted, "- "
// deleted, "~ " updated (old → new), "> " moved, "@ " attribute changes,
// each followed by the path and the text of the part: the path in the new
// version (in the old one for a delete), after the path in the old one
// ("old → new") for a move and for an update whose node the changes
// around it moved. A changed
// attribute's values are shown as Annotated.AttrValue gives them, each
// cut to a line's 200 characters around where they differ when longer (an
// inline image's data: URL), as only the changes heads them; two it
// shows alike (a URL rewritten to itself) as written, with what both
// resolve to.
func Text(w io.Writer, old *tree.Document, d *delta.Delta) error {
	a, err := Annotate(old, d)
	if err != nil {
		return err
	}
	return a.WriteText(w)
}

// WriteText writes the plain-text view of a (see Text).
func (a *Annotated) WriteText(w io.Writer) error {
	var buf bytes.Buffer
	html := isPage(a.New)
	for _, c := range a.Changes() {
		switch c.Mark {
		case Inserted:
			fmt.Fprintf(&buf, "+ %s: %s\n", c.Path, spaceText(c.Node, html))
		case Deleted:
			fmt.Fprintf(&buf, "- %s: %s\n", c.Path, spaceText(c.Node, html))
		case Updated:
			old, new := oneLine(c.OldText), lineText(c.Node, html)
			if old == new && c.Node.Kind == tree.Text && strings.Join(strings.Fields(c.OldText), " ") == strings.Join(strings.Fields(c.Node.Value), " ") {
				// Only white space changed: show it, around where.
				old, new = spaceChange(c.OldText, c.Node.Value)
			}
			if c.OldPath != "" {
				fmt.Fprintf(&buf, "~ %s → %s: %s → %s\n", c.OldPath, c.Path, old, new)
			} else {
				fmt.Fprintf(&buf, "~ %s: %s → %s\n", c.Path, old, new)
			}
		case Moved:
			fmt.Fprintf(&buf, "> %s → %s: %s\n", c.OldPath, c.Path, lineText(c.Node, html))
		case AttrChanged:
			if c.Attr == "" {
				fmt.Fprintf(&buf, "@ %s: renamed %s → %s\n", c.Path, c.OldValue, c.NewValue)
			} else {
				fmt.Fprintf(&buf, "@ %s/@%s: %s\n", c.Path, c.Attr, a.attrChange(c))
			}
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// lineRunes is how many characters of a text the Text view shows.
const lineRunes = 200

// attrChange says c, a changed attribute, as the views say it
// (AttrChange): its values as AttrValue (OldAttrValue for the old one,
// if set) shows them, a page's URL absolute.
func (a *Annotated) attrChange(c Change) string {
	oldShown, newShown := c.OldValue, c.NewValue
	oldValue := a.AttrValue
	if a.OldAttrValue != nil {
		oldValue = a.OldAttrValue
	}
	if oldValue != nil {
		oldShown = oldValue(c.Node.Name, c.Attr, oldShown)
	}
	if a.AttrValue != nil {
		newShown = a.AttrValue(c.Node.Name, c.Attr, newShown)
	}
	return AttrChange(c.OldValue, c.NewValue, oldShown, newShown)
}

// AttrChange says how a changed attribute's value changed, in the words
// every view of a diff uses (only the changes, the text format, and the
// dashboard's full and side-by-side views for an image): given its old
// and new values as written and as the view shows them (a page's URL
// absolute), `"old" → "new"` shown, each cut to a line's 200 characters
// from a little before where the two differ when either is longer (an
// inline image's data: URL is kilobytes), with ellipses where they are
// cut. Two values written otherwise that are shown alike (a src rewritten
// to the URL it resolved to) are said as written, with what both are
// shown as, `"img/a.png" → "https://a.example/img/a.png" (both resolve to
// https://a.example/img/a.png)`: never as a change whose two sides read
// the same.
func AttrChange(oldWritten, newWritten, oldShown, newShown string) string {
	both := ""
	if oldShown == newShown && oldWritten != newWritten {
		both = " (both resolve to " + ellipsize(oldShown, lineRunes) + ")"
		oldShown, newShown = oldWritten, newWritten
	}
	oldShown, newShown = clipAround(oldShown, newShown, lineRunes)
	return fmt.Sprintf("%q → %q%s", oldShown, newShown, both)
}

// clipAround returns a and b whole if neither is longer than n
// characters; else each from about 40 bytes before their first difference
// (at the start of a character as a reader sees it, commonCut), cut to
// about n characters (ellipsize), with an ellipsis where it is cut.
func clipAround(a, b string, n int) (string, string) {
	if utf8.RuneCountInString(a) <= n && utf8.RuneCountInString(b) <= n {
		return a, b
	}
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-40)
	for from > 0 && (from >= len(a) || !utf8.RuneStart(a[from])) {
		from--
	}
	k := commonCut([]rune(a), []rune(b), utf8.RuneCountInString(a[:from]))
	cut := func(s string) string {
		from := runeOffset(s, k)
		out := ellipsize(s[from:], n)
		if from > 0 {
			out = "…" + out
		}
		return out
	}
	return cut(a), cut(b)
}

// oneLine collapses white space and cuts long texts (ellipsize).
func oneLine(s string) string {
	return ellipsize(strings.Join(strings.Fields(s), " "), lineRunes)
}

// ellipsize returns s whole if it holds no more than n characters, else
// its first n, or a few fewer or more so as to end at the edge of a
// character as a reader sees it (ClusterCut), and "…".
func ellipsize(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:ClusterCut(r, n)]) + "…"
}

// commonCut returns where two texts alike in their first k characters
// can both be cut near k at the edge of a character as a reader sees it
// (ClusterCut): the same place in both, or k if ClusterCut, looking past
// where they differ, finds different places.
func commonCut(a, b []rune, k int) int {
	if ka := ClusterCut(a, k); ka == ClusterCut(b, k) {
		return ka
	}
	return k
}

// runeOffset returns the byte offset in s of its k-th character, an
// invalid byte counted as one, as []rune counts it.
func runeOffset(s string, k int) int {
	at := 0
	for ; k > 0 && at < len(s); k-- {
		_, size := utf8.DecodeRuneInString(s[at:])
		at += size
	}
	return at
}

// spaceChange returns two texts that differ only in white space, quoted,
// cut to a few words around their first difference, at the edges of
// characters as a reader sees them (ClusterCut).
func spaceChange(a, b string) (string, string) {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-30)
	if from > 0 {
		if k := strings.IndexByte(a[from:i], ' '); k >= 0 {
			from += k + 1 // at a word
		}
	}
	for from > 0 && !utf8.RuneStart(a[from]) {
		from--
	}
	k := commonCut([]rune(a), []rune(b), utf8.RuneCountInString(a[:from]))
	clip := func(s string) string {
		from := runeOffset(s, k)
		end := min(len(s), i+30)
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		end = max(from, runeOffset(s, ClusterCut([]rune(s), utf8.RuneCountInString(s[:end]))))
		out := strconv.Quote(s[from:end])
		if from > 0 {
			out = "…" + out
		}
		if end < len(s) {
			out += "…"
		}
		return out
	}
	return clip(a), clip(b)
}

// spaceText is lineText, but for a text of white space only, shown quoted
// (the space between two inline elements of an HTML page).
func spaceText(n *tree.Node, html bool) string {
	if t := lineText(n, html); t != "" || n.Kind != tree.Text {
		return t
	}
	return strconv.Quote(n.Value)
}

// lineText returns oneLine of the text of n's subtree, its texts joined
// as a reader reads them (markup.JoinTexts: texts of different elements
// apart, a word split by inline HTML markup whole), reading only as much
// of it as the line shows: the text of a moved section holds that of
// every change nested in it, and building it whole for each would take
// time quadratic in their number. html tells whether n is in a page.
func lineText(n *tree.Node, html bool) string {
	var p textPrefix
	markup.JoinTexts(n, html, func(sep, text string) bool {
		return p.add(sep) && p.add(text)
	})
	return oneLine(string(p.buf))
}

// textPrefix gathers the start of a text until it holds more than
// prefixLetters characters that are not white space. Its white space
// collapsed, it then starts with the first prefixLetters characters of
// the whole text collapsed and is longer than that, as far as ClusterCut
// reads where oneLine cuts, so that oneLine gives the same line for both.
type textPrefix struct {
	buf     []byte
	decoded int // the bytes of buf read as whole characters
	letters int // the characters among them that are not white space
}

// prefixLetters is how many characters that are not white space
// textPrefix gathers: ClusterCut at lineRunes, no more than
// MaxClusterRunes, always finds a boundary at or before it (the start at
// worst), so it reads no further than the character at lineRunes.
const prefixLetters = lineRunes + 1

// ClusterCut at lineRunes looks no further than lineRunes only while
// lineRunes is at most MaxClusterRunes (else this does not compile).
const _ uint = MaxClusterRunes - lineRunes

// add appends s and reports whether more text is needed.
func (p *textPrefix) add(s string) bool {
	const chunk = 256 // appended at a time, so that a long text is not copied whole
	for len(s) > 0 {
		k := min(len(s), chunk)
		p.buf = append(p.buf, s[:k]...)
		s = s[k:]
		// A character split between two appends is read once whole;
		// an invalid byte counts as one character, as []rune has it.
		for p.decoded < len(p.buf) && utf8.FullRune(p.buf[p.decoded:]) {
			r, size := utf8.DecodeRune(p.buf[p.decoded:])
			p.decoded += size
			if unicode.IsSpace(r) {
				continue
			}
			if p.letters++; p.letters > prefixLetters {
				p.buf = p.buf[:p.decoded]
				return false
			}
		}
	}
	return true
}

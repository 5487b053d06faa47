package intent

import (
	"fmt"
	"strings"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

// comparedIn returns the documents a change type compares, as compared
// does, and whether each is read as its source text, for a change type
// with selectors (a scope, or an ignore list: selectors is set) of which
// scope is the scope, nil for none. A pair whose versions are read
// differently compares its two source texts, which a selector of a page
// selects nothing in: unless the scope selects in the texts as read (In
// css "pre", the whole text), the two texts are read leniently as HTML
// (readLeniently), whatever their type, and compared as two pages, so that
// the selectors apply to the elements the texts write. When a text cannot
// be read so (nested past the HTML parser's limit), the two texts are
// compared whole, and notApplied says why; it is "" otherwise.
func (p *Pair) comparedIn(scope Selector, selectors bool) (old, new *tree.Document, oldText, newText bool, notApplied string) {
	old, new, oldText, newText = p.compared()
	if !selectors || !oldText || !newText || p.OldReadAsText == p.NewReadAsText {
		return old, new, oldText, newText, ""
	}
	if scope != nil && (len(scope.Select(old.Root)) > 0 || len(scope.Select(new.Root)) > 0) {
		return old, new, oldText, newText, ""
	}
	if !p.lenientDone {
		p.lenientDone = true
		p.lenient[0], p.lenientErr = readLeniently(old, "old")
		if p.lenientErr == nil {
			p.lenient[1], p.lenientErr = readLeniently(new, "new")
		}
	}
	if p.lenientErr != nil {
		return old, new, oldText, newText, p.lenientErr.Error()
	}
	return p.lenient[0], p.lenient[1], false, false, ""
}

// scopeNotApplied returns why ct's selectors could not be applied to the
// pair (comparedIn), "" if they were or it has none, and which they are:
// its scope, its ignore list, or both (0 with "").
func (p *Pair) scopeNotApplied(ct *spec.ChangeType) (string, Selectors, error) {
	var scope Selector
	var has Selectors
	if ct.Scope != nil && ct.Scope.Expr != nil {
		s, err := p.selector(ct.Scope)
		if err != nil {
			return "", 0, err
		}
		scope, has = s, SelectorScope
	}
	for _, ig := range ct.Ignore {
		if ig != nil && ig.Expr != nil {
			has |= SelectorIgnore
		}
	}
	_, _, _, _, why := p.comparedIn(scope, has != 0)
	if why == "" {
		return "", 0, nil
	}
	return why, has, nil
}

// readLeniently reads a page read as its source text (one <pre> of text
// nodes, as the warehouse writes it) as HTML, as a browser reads a page:
// the parse of any text succeeds, but for one nested past the HTML
// parser's limit or larger than it takes. which names the version in the
// error.
func readLeniently(d *tree.Document, which string) (*tree.Document, error) {
	text, ok := sourceText(d)
	if !ok {
		return nil, fmt.Errorf("the %s version is not a source text", which)
	}
	opt := &markup.Options{Charset: "utf-8", MaxBytes: max(int64(len(text)), markup.DefaultMaxBytes)}
	doc, err := markup.ParseHTMLBytes([]byte(text), opt)
	if err != nil {
		return nil, fmt.Errorf("the %s version's text cannot be read as HTML: %s", which, strings.TrimPrefix(err.Error(), "markup: "))
	}
	return doc, nil
}

// sourceText returns the text of a page read as its source text: its
// body's <pre>'s text nodes, joined.
func sourceText(d *tree.Document) (string, bool) {
	if d == nil || d.Root == nil {
		return "", false
	}
	var pre *tree.Node
	for _, ch := range d.Root.Children {
		if elementIs(ch, "body") {
			for _, g := range ch.Children {
				if elementIs(g, "pre") {
					pre = g
					break
				}
			}
		}
	}
	if pre == nil {
		return "", false
	}
	var b strings.Builder
	for _, n := range pre.Children {
		if n.Kind == tree.Text {
			b.WriteString(n.Value)
		}
	}
	return b.String(), true
}

package intent

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

// Selector selects parts of a document tree: the scope of a change type
// (In css "table#prices") or a region left out (Ignore xpath "//footer").
// Selectors are safe for concurrent use.
type Selector interface {
	// Select returns the element and text nodes of root's subtree (root
	// included) that the selector matches, in document order and without
	// duplicates. An XPath step that selects attributes yields the
	// elements that carry them.
	Select(root *tree.Node) []*tree.Node
	// Values returns the string value of each match: the text of a node,
	// or the value of an attribute an XPath @name step selects.
	Values(root *tree.Node) []string
	// String returns the selector as it was compiled.
	String() string
}

// SyntaxError is an error in a CSS selector or XPath expression. Column is
// the 1-based column (in runes) of the offending character.
type SyntaxError struct {
	Lang   string // "css" or "xpath"
	Expr   string // the expression
	Column int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s %q: column %d: %s", e.Lang, e.Expr, e.Column, e.Msg)
}

// Compile compiles a selector of the sentinel language.
func Compile(s *spec.Selector) (Selector, error) {
	if s == nil || s.Expr == nil {
		return nil, fmt.Errorf("intent: empty selector")
	}
	switch s.Lang {
	case spec.CSS:
		return CompileCSS(s.Expr.Value)
	case spec.XPath:
		return CompileXPath(s.Expr.Value)
	}
	return nil, fmt.Errorf("intent: unknown selector language %v", s.Lang)
}

// CheckSelector compiles a selector expression and returns the error with
// the 1-based column, in runes, where the expression goes wrong (0 if not
// known): what
// spec.Checker.CompileSelector wants, so that a sentinel with a selector
// the monitor could not use is refused when it is written, at the place of
// the mistake.
func CheckSelector(lang spec.SelectorLang, expr string) (int, error) {
	_, err := Compile(&spec.Selector{Lang: lang, Expr: &spec.Lit{Value: expr}})
	var se *SyntaxError
	if errors.As(err, &se) {
		return se.Column, errors.New(se.Msg)
	}
	return 0, err
}

// textValue returns the white-space-normalised text of n, its text nodes
// joined by spaces (the Normalize white-space policy trims XML text nodes,
// so "First <a>A</a>" holds "First" and "A"), but for numbers that inline
// elements split (textJoiner), and a feed's escaped HTML read as the text
// it shows (feedReading).
func textValue(n *tree.Node) string {
	if n.Kind == tree.Text {
		return normalizeValueSpace(feedReadingOf(n).text(n))
	}
	if n.Kind != tree.Element {
		return normalizeValueSpace(n.Value)
	}
	j := textJoiner{html: inHTML(n)}
	var feed feedReading
	if !j.html {
		feed = feedReadingOf(n)
	}
	tree.Walk(n, func(m *tree.Node) bool {
		switch {
		case m.Kind == tree.Text:
			j.add(m, feed.text(m))
		case m.Kind != tree.Element:
		case j.html && m != n && isNonContent(m.Name):
			return false // a script's or a style's text is not the page's
		default:
			j.element(m)
		}
		return true
	})
	return normalizeValueSpace(j.String())
}

// inHTML reports whether node n is in an HTML document (its root is html).
func inHTML(n *tree.Node) bool {
	for n.Parent != nil {
		n = n.Parent
	}
	return strings.EqualFold(localName(n.Name), "html")
}

// normalizeValueSpace is normalizeSpace for a selected value (the
// invisible characters left out too), but for the no-break spaces (U+00A0, U+202F), which are kept: they group the digits
// of numbers ("1 234,50 €" as French formatting writes it), and ParseNumber
// reads them as such where a plain space would end the number at "1".
func normalizeValueSpace(s string) string {
	if !strings.ContainsAny(s, "\u00a0\u202f") {
		return normalizeSpace(s)
	}
	s = leaveOutInvisible(s)
	fields := strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) && r != '\u00a0' && r != '\u202f' })
	kept := fields[:0]
	for _, f := range fields {
		// Inside a field only: around one they space words out.
		if f = strings.Trim(f, "\u00a0\u202f"); f != "" {
			kept = append(kept, f)
		}
	}
	return strings.Join(kept, " ")
}

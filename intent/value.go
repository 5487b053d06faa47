package intent

import (
	"math"
	"slices"
	"strings"

	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

// maxValueItem is the most bytes of the text of a value's item
// (ValueInfo.Item) a record holds; a longer one is cut, with an ellipsis.
const maxValueItem = 120

// scopeMatch is a match of a value change type's scope: the node and the
// text its number is read from (for an attribute an XPath @name step
// selects, the element that carries it and the attribute's value).
type scopeMatch struct {
	node *tree.Node
	text string
	// attr is set when text is an attribute's value, not node's text.
	attr bool
}

// valueMatch is a match of the scope that holds a number: a value of its
// own.
type valueMatch struct {
	scopeMatch
	num number
	// read is the text num was read from where it is not the match's:
	// its text without the numbers struck out (matchNumber).
	read string
	// item is the element that names the value among the others of its
	// version (valueItem); nil when none does.
	item *tree.Node
	// label is the text of the item without the match's own ("" when it
	// sits in none), read once, by itemLabel, where it is needed: the
	// values whose key the common prefix and suffix of pairValues do not
	// settle, and those reported.
	label    string
	labelled bool
	// namer is the element whose text is the label: the item, or the
	// element of the value's group (groupLabel).
	namer *tree.Node
}

// value evaluates a value change type: each match of the scope that holds
// a number is a value (its number, findValue, read as readValues reads
// it), the values of the two versions are paired by the items they sit in
// (pairValues), and each pair is tested with the condition, a change of
// its own when it meets it. A value in one version only is an insert or a
// delete, which only the condition "changes" reports.
func (p *Pair) value(ct *spec.ChangeType) (*Result, error) {
	if ct.Scope == nil || ct.Scope.Expr == nil {
		return nil, errValueScope
	}
	sel, err := p.selector(ct.Scope)
	if err != nil {
		return nil, err
	}
	oldDoc, newDoc, _, _, _ := p.comparedIn(sel, true)
	var oldMatches, newMatches []scopeMatch
	oldSkip, newSkip := nonContentSkip(oldDoc), nonContentSkip(newDoc)
	if len(ct.Ignore) > 0 {
		cp, err := p.content(ct)
		if err != nil {
			return nil, err
		}
		oldMatches, newMatches = cp.old.valueMatches(sel), cp.new.valueMatches(sel)
		oldSkip, newSkip = cp.old.skip, cp.new.skip
	} else {
		oldMatches, newMatches = selectMatches(sel, oldDoc.Root), selectMatches(sel, newDoc.Root)
	}
	oldReading, newReading := pageReadingOf(oldDoc), pageReadingOf(newDoc)
	if sameTexts(oldMatches, newMatches) && oldReading == newReading && pageDecimal(oldDoc) == pageDecimal(newDoc) {
		// The same texts, read alike: the same numbers (the common case
		// of a check, which reads no number nor item).
		return &Result{}, nil
	}
	old, new := numberedMatches(oldMatches, newMatches, oldReading, newReading, oldSkip, newSkip)
	findItems(old)
	findItems(new)
	cond := spec.Changes
	var threshold float64
	if ct.Condition != nil {
		cond, threshold = ct.Condition.Op, ct.Condition.Threshold
	}
	several := len(old) > 1 || len(new) > 1
	var changes []Change
	oldItems, newItems := &valueItems{vs: old, skip: oldSkip}, &valueItems{vs: new, skip: newSkip}
	for _, e := range pairValues(oldItems, newItems) {
		var o, n *valueMatch
		if e.a >= 0 {
			o = &old[e.a]
		}
		if e.b >= 0 {
			n = &new[e.b]
		}
		c, ok := valueChange(o, n, oldDoc, newDoc, cond, threshold)
		if !ok {
			continue
		}
		c.OldPos, c.NewPos = e.a+1, e.b+1
		if several {
			// Which of the values: the item it sits in, as the new
			// version shows it (the old one for a value removed).
			label := ""
			if n != nil {
				label = n.itemLabel(newItems)
			}
			if label == "" && o != nil {
				label = o.itemLabel(oldItems)
			}
			c.Value.Item = clipTo(label, maxValueItem)
		}
		changes = append(changes, c)
	}
	if len(changes) == 0 {
		return &Result{}, nil
	}
	return &Result{Matched: true, Changes: changes}, nil
}

// valueChange tests the condition cond (with its threshold) on a value in
// the old version, o, and the new, n, either of which may be nil (a value
// added or removed), and returns the change, or false when it does not
// meet the condition.
func valueChange(o, n *valueMatch, oldDoc, newDoc *tree.Document, cond spec.CondOp, threshold float64) (Change, bool) {
	var on, nn number
	c := Change{Kind: KindValue, Op: Update}
	if o != nil {
		on, c.Old = o.num, strings.TrimSpace(o.text)
	}
	if n != nil {
		nn, c.New = n.num, strings.TrimSpace(n.text)
	}
	of, nf, places := readValues(on, nn, oldDoc, newDoc)
	info := &ValueInfo{}
	if o != nil {
		info.Old = &of
	}
	if n != nil {
		info.New = &nf
	}
	matched := false
	switch {
	case o == nil:
		c.Op, matched = Insert, cond == spec.Changes
	case n == nil:
		c.Op, matched = Delete, cond == spec.Changes
	default:
		info.Delta = difference(of, nf, places)
		switch {
		case nf > of:
			info.Direction = "increased"
		case nf < of:
			info.Direction = "decreased"
		default:
			info.Direction = "unchanged"
		}
		switch cond {
		case spec.Changes:
			matched = nf != of
		case spec.Increases:
			matched = nf > of
		case spec.Decreases:
			matched = nf < of
		case spec.RisesAbove:
			matched = of <= threshold && threshold < nf
			if matched {
				info.Crossed = "above"
			}
		case spec.FallsBelow:
			matched = nf < threshold && threshold <= of
			if matched {
				info.Crossed = "below"
			}
		}
		if math.IsNaN(info.Delta) {
			info.Delta = 0
		}
	}
	if !matched {
		return Change{}, false
	}
	if cond.HasThreshold() {
		t := threshold
		info.Threshold = &t
	}
	c.Fields = []string{"value"}
	c.Value = info
	return c, true
}

// selectMatches returns the matches of sel in root's subtree, in document
// order, with the text of each (Selector.Values).
func selectMatches(sel Selector, root *tree.Node) []scopeMatch {
	var out []scopeMatch
	if x, ok := sel.(*xpathSel); ok {
		for _, it := range x.eval(root) {
			if it.n != nil {
				out = append(out, scopeMatch{it.n, normalizeSpace(it.value()), it.attr >= 0})
			}
		}
		return out
	}
	for _, n := range sel.Select(root) {
		out = append(out, scopeMatch{n, textValue(n), false})
	}
	return out
}

// sameTexts reports whether two lists of matches have the same texts, in
// order.
func sameTexts(old, new []scopeMatch) bool {
	return slices.EqualFunc(old, new, func(a, b scopeMatch) bool { return a.text == b.text })
}

// nonContentSkip returns what a value's item leaves out of its text in
// doc, without an ignore list: in HTML, scripts, styles and the like.
func nonContentSkip(doc *tree.Document) func(*tree.Node) bool {
	html := doc != nil && doc.Root != nil && inHTML(doc.Root)
	return func(n *tree.Node) bool {
		return n.Kind != tree.Text && n.Kind != tree.Element || html && n.Kind == tree.Element && isNonContent(n.Name)
	}
}

// numberedMatches returns the matches of each version that hold a
// number, each with its number (matchNumber, which leaves out what the
// version's skip selects), with plain spaces between groups of thousands
// grouping them and its currency's sign read as the version's page's
// language says (pageReading). The matches of the two
// versions' common prefix and suffix, the same texts read alike, are read
// once: a check of a listing with one price changed reads each number
// once, not twice.
func numberedMatches(old, new []scopeMatch, oldReading, newReading pageReading, oldSkip, newSkip func(*tree.Node) bool) (ov, nv []valueMatch) {
	pre, suf := 0, 0
	if oldReading == newReading {
		for pre < len(old) && pre < len(new) && old[pre].text == new[pre].text {
			pre++
		}
		for suf < len(old)-pre && suf < len(new)-pre && old[len(old)-1-suf].text == new[len(new)-1-suf].text {
			suf++
		}
	}
	ov, nv = make([]valueMatch, 0, len(old)), make([]valueMatch, 0, len(new))
	both := func(i, j int) {
		if n, read, ok := matchNumber(old[i], oldReading, oldSkip); ok {
			ov = append(ov, valueMatch{scopeMatch: old[i], num: n, read: read})
			nv = append(nv, valueMatch{scopeMatch: new[j], num: n, read: read})
		}
	}
	for i := range pre {
		both(i, i)
	}
	for _, m := range old[pre : len(old)-suf] {
		if n, read, ok := matchNumber(m, oldReading, oldSkip); ok {
			ov = append(ov, valueMatch{scopeMatch: m, num: n, read: read})
		}
	}
	for _, m := range new[pre : len(new)-suf] {
		if n, read, ok := matchNumber(m, newReading, newSkip); ok {
			nv = append(nv, valueMatch{scopeMatch: m, num: n, read: read})
		}
	}
	for k := suf; k > 0; k-- {
		both(len(old)-k, len(new)-k)
	}
	return ov, nv
}

// matchNumber returns the number of a match that is its value: the one
// of its text (findValue: its first amount with a currency, or the one a
// shop's words say is asked now, else its first number) or, where an HTML element's text holds several, the one
// of its text without the numbers struck out (unstruckText: the sale
// price, not the regular one beside it), when that holds one: read is
// that text, "" for the match's own. Plain spaces between groups of
// thousands group them, and a currency's sign is read, as r says
// (textNumber); skip selects what the text leaves out.
func matchNumber(m scopeMatch, r pageReading, skip func(*tree.Node) bool) (n number, read string, ok bool) {
	n, ok = textNumber(m.text, r)
	if !ok || m.attr || m.node == nil || m.node.Kind != tree.Element {
		return n, "", ok
	}
	if start, end, _ := findValue(m.text); !severalNumbers(m.text, start, end) || !inHTML(m.node) {
		return n, "", ok
	}
	// The text left is read where it holds an amount with a currency, or
	// where the struck one had none either (59.99 struck beside 49.99): a
	// sale's badge beside a struck price ("-20%", "Only 3 left") is no
	// price, and the struck one, the only amount, is read.
	if t, struck := unstruckText(m.node, skip); struck && (currencyValue(t, r) || !currencyValue(m.text, r)) {
		if u, ok := textNumber(t, r); ok {
			return u, t, true
		}
	}
	return n, "", ok
}

// currencyValue reports whether the value of s (findValueIn, as r says)
// is an amount with a currency, or begins a range of them (10 - 20 €).
func currencyValue(s string, r pageReading) bool {
	_, _, amount, _ := findAmountIn(s, r)
	return amount
}

// textNumber returns the number of text that is its value (findValue),
// read as its page's language says (r): plain spaces between groups of
// thousands joined first where it groups by them (joinSpaceGroups),
// never where it groups otherwise, and where it is not known, where the
// digits have the groups' form (spaceGroupsAfter); its currency's sign an
// amount's after any number (localSign).
func textNumber(text string, r pageReading) (number, bool) {
	if r.groups == spacesGroup {
		text = joinSpaceGroups(text)
	}
	return scanNumberIn(text, r)
}

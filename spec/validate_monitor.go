package spec

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Checking the Monitor clause: its change types, their scopes and
// selectors, and the AND, OR and NOT that combine them.

// MaxChangeTypes is the most change types a Monitor clause may combine
// with AND, OR and NOT. Each is evaluated on every new version of every
// page the sentinel watches, so a clause of thousands would make one
// sentinel's check cost what thousands of sentinels' do (the parser's
// bound on nesting, maxDepth, does not bound a chain "a OR b OR c ...");
// no clause a person writes comes near it, and the words of keywords or a
// phrase go in one list, which counts as one.
const MaxChangeTypes = 256

// changeTypeCount reports a Monitor expression x of more than
// MaxChangeTypes change types, at the first past the limit: an error, but
// a warning for a stored sentinel (validator.stored), which may have been
// stored before the limit and must still load and run as it did.
func (v *validator) changeTypeCount(x Expr) {
	cts := ChangeTypes(x)
	if len(cts) <= MaxChangeTypes {
		return
	}
	report := v.report
	if v.stored {
		report = v.warn
	}
	c := cts[MaxChangeTypes]
	report(c, c.Kind.String(), fmt.Sprintf("%d change types in Monitor: want at most %d (a list counts as one: write keywords {a, b} for keywords {a} OR keywords {b})", len(cts), MaxChangeTypes))
}

func (v *validator) expr(x Expr) {
	if isNilNode(x) {
		v.report(nil, "", "missing change type")
		return
	}
	switch x := x.(type) {
	case *ChangeType:
		v.changeType(x)
	case *NotExpr:
		// Reached only for the whole Monitor expression: the NOT
		// operands of AND and OR are checked by negated, that of a NOT
		// by negated, and where they stand by notPlacement.
		v.negated(x)
	case *BinaryExpr:
		if isNilNode(x.X) || isNilNode(x.Y) {
			v.report(x, x.Op.String(), x.Op.String()+" needs two operands")
			return
		}
		var ops []Expr
		flattenExpr(x, x.Op, &ops)
		for _, o := range ops {
			if n, ok := o.(*NotExpr); ok {
				v.negated(n)
				continue
			}
			v.expr(o)
		}
		v.composite(x, ops)
	default:
		v.report(x, "", "missing change type")
	}
}

func flattenExpr(x Expr, op Op, out *[]Expr) {
	if b, ok := x.(*BinaryExpr); ok && b != nil && b.Op == op && !isNilNode(b.X) && !isNilNode(b.Y) {
		flattenExpr(b.X, op, out)
		flattenExpr(b.Y, op, out)
		return
	}
	*out = append(*out, x)
}

// composite applies the seed's rules to the operands of one AND or OR
// chain: operands are distinct, and "X AND NOT Y" is rejected when every X
// change is also a Y change (the seed's "all links and not any change").
func (v *validator) composite(x *BinaryExpr, ops []Expr) {
	// keys are the printed operands, computed only for messages and for
	// long chains (where a map beats pairwise comparison).
	keys := make([]string, len(ops))
	key := func(i int) string {
		if keys[i] == "" {
			keys[i] = Print(ops[i])
		}
		return keys[i]
	}
	notDistinct := func(i, j int) {
		msg := fmt.Sprintf("operands of %s must be distinct: %s appears twice", x.Op, shortCode(key(i)))
		if key(i) != key(j) {
			msg = fmt.Sprintf("operands of %s must be distinct: %s is the same as %s, since %s", x.Op, shortCode(key(i)), shortCode(key(j)), sameWordsBecause(key(j), key(i)))
		}
		if v.stored && !equalExpr(ops[i], ops[j], argAsWritten) {
			// Stored before operands were compared in any case.
			v.warn(ops[i], key(i), msg)
			return
		}
		v.report(ops[i], key(i), msg)
	}
	if len(ops) > 16 {
		seen := make(map[string]int, len(ops))
		for i, o := range ops {
			k := matchKey(o)
			if j, ok := seen[k]; ok {
				notDistinct(i, j)
				continue
			}
			seen[k] = i
		}
	} else {
		for i := 1; i < len(ops); i++ {
			for j := 0; j < i; j++ {
				if equalExpr(ops[i], ops[j], argKey) {
					notDistinct(i, j)
					break
				}
			}
		}
	}
	// Subsumption concerns primitive change types (and their negation), so
	// only those operands are compared, pairwise.
	type prim struct {
		i   int
		c   *ChangeType
		neg bool
	}
	var prims []prim
	for i, o := range ops {
		switch o := o.(type) {
		case *ChangeType:
			prims = append(prims, prim{i, o, false})
		case *NotExpr:
			if c, ok := o.X.(*ChangeType); ok && x.Op == And {
				prims = append(prims, prim{i, c, true})
			}
		}
	}
	const maxPairs = 1 << 16 // bound the quadratic check on huge inputs
	if len(prims)*len(prims) > maxPairs {
		return
	}
	for _, a := range prims {
		for _, b := range prims {
			if a.i == b.i || a.neg {
				continue
			}
			switch {
			case x.Op == And && b.neg:
				if subsumes(b.c, a.c, argKey) {
					report := v.report
					if v.stored && !subsumes(b.c, a.c, argAsWritten) {
						// Stored before keywords were compared in any case.
						report = v.warn
					}
					n := ops[b.i]
					report(n, key(b.i), fmt.Sprintf("change type %s is not valid as a change to %s would trigger the change type %s, so the sentinel could never fire",
						quote(key(a.i)+" AND "+key(b.i)), shortCode(key(a.i)), short(Print(b.c))))
				}
			case x.Op == Or && !b.neg && a.i < b.i && !equalExpr(a.c, b.c, argKey):
				if subsumes(b.c, a.c, argKey) {
					v.warn(ops[a.i], key(a.i), fmt.Sprintf("%s OR %s is the same as %s: every change to %s is also a change to %s", shortCode(key(a.i)), shortCode(key(b.i)), shortCode(key(b.i)), shortCode(key(a.i)), shortCode(key(b.i))))
				} else if subsumes(a.c, b.c, argKey) {
					v.warn(ops[b.i], key(b.i), fmt.Sprintf("%s OR %s is the same as %s: every change to %s is also a change to %s", shortCode(key(a.i)), shortCode(key(b.i)), shortCode(key(a.i)), shortCode(key(b.i)), shortCode(key(a.i))))
				}
			}
		}
	}
}

// subsumes reports whether every change of x is also a change of y, for
// primitive change types: any change ⊇ {all words, all links, all images};
// all words ⊇ {keywords, phrase, table, list, regular expression, value};
// keywords {a, b} ⊇ keywords {a}. A scoped or filtered y covers only the
// same scope and filters, and a value read from an attribute is in
// neither any change nor all words (readsAttribute). Arguments are
// compared by key (argKey: as they match).
func subsumes(cy, cx *ChangeType, key func(Kind, string) string) bool {
	if cy.Scope != nil && (cx.Scope == nil || selectorKey(cy.Scope) != selectorKey(cx.Scope)) {
		return false
	}
	if len(cy.Ignore) > 0 {
		if len(cy.Ignore) != len(cx.Ignore) {
			return false
		}
		for i := range cy.Ignore {
			if selectorKey(cy.Ignore[i]) != selectorKey(cx.Ignore[i]) {
				return false
			}
		}
	}
	switch cy.Kind {
	case AnyChange:
		return !readsAttribute(cx)
	case Words:
		if len(cy.Args) == 0 {
			switch cx.Kind {
			case Words, Keywords, Phrase, Table, List, Regex:
				return true
			case Value:
				return !readsAttribute(cx)
			}
		}
	case Keywords, Phrase, Table, List, Regex:
		if cx.Kind != cy.Kind || cx.Condition != nil {
			return false
		}
		if len(cy.Args) == 0 && (cy.Kind == Table || cy.Kind == List) {
			return true
		}
		have := map[string]bool{}
		for _, a := range cy.Args {
			have[key(cy.Kind, a.Value)] = true
		}
		for _, a := range cx.Args {
			if !have[key(cx.Kind, a.Value)] {
				return false
			}
		}
		return len(cx.Args) > 0
	}
	return equalExpr(cx, cy, key)
}

// readsAttribute reports whether c is a value whose XPath scope may read
// its number from an attribute (//meta/@content, attribute::data-price):
// the page's words are its texts, and in HTML any change compares only the
// content attributes (the intent package's: links, images, titles, labels,
// states, a few form fields and the metas that describe the page), not a
// data-price nor every meta's content, so neither is known to see such a
// value change. (A value read from one of them, a product:price:amount
// meta's content, is seen by any change; it is left out all the same,
// which costs only a contradiction not reported.)
func readsAttribute(c *ChangeType) bool {
	if c.Kind != Value || c.Scope == nil || c.Scope.Lang != XPath || c.Scope.Expr == nil {
		return false
	}
	// An @ or attribute:: outside the predicates ([...]) and strings.
	x := c.Scope.Expr.Value
	depth := 0
	var quote byte
	for i := 0; i < len(x); i++ {
		switch ch := x[i]; {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'':
			quote = ch
		case ch == '[':
			depth++
		case ch == ']':
			depth--
		case depth == 0 && (ch == '@' || strings.HasPrefix(x[i:], "attribute::")):
			return true
		}
	}
	return false
}

// equalExpr reports whether two change-type expressions are the same,
// positions aside, their arguments compared by key (argKey: as they
// match).
func equalExpr(a, b Expr, key func(Kind, string) string) bool {
	switch a := a.(type) {
	case *ChangeType:
		b, ok := b.(*ChangeType)
		if !ok || a == nil || b == nil || a.Kind != b.Kind || len(a.Args) != len(b.Args) || len(a.Ignore) != len(b.Ignore) {
			return false
		}
		for i := range a.Args {
			if a.Args[i] == nil || b.Args[i] == nil || key(a.Kind, a.Args[i].Value) != key(b.Kind, b.Args[i].Value) {
				return false
			}
		}
		if (a.Scope == nil) != (b.Scope == nil) || a.Scope != nil && selectorKey(a.Scope) != selectorKey(b.Scope) {
			return false
		}
		for i := range a.Ignore {
			if selectorKey(a.Ignore[i]) != selectorKey(b.Ignore[i]) {
				return false
			}
		}
		if (a.Condition == nil) != (b.Condition == nil) {
			return false
		}
		return a.Condition == nil || a.Condition.Op == b.Condition.Op && a.Condition.Threshold == b.Condition.Threshold
	case *NotExpr:
		b, ok := b.(*NotExpr)
		return ok && a != nil && b != nil && equalExpr(a.X, b.X, key)
	case *BinaryExpr:
		b, ok := b.(*BinaryExpr)
		return ok && a != nil && b != nil && a.Op == b.Op && equalExpr(a.X, b.X, key) && equalExpr(a.Y, b.Y, key)
	}
	return false
}

// argKey is the value of an argument of a change type of kind as the
// change type matches it: keywords, phrases and the words all words
// excepts are compared word by word in their comparison form (WordKey: in
// any case, across white space, without the punctuation around a word,
// with a typographic apostrophe as ', and an accent however it is
// encoded; package intent's case-sensitive matching is one the language
// cannot ask for), so Sale, sale and "sale," are one keyword; ids and
// regular expressions as written. A value of no word (reported as such)
// is compared in any case and across white space.
func argKey(kind Kind, value string) string {
	switch kind {
	case Keywords, Phrase, Words:
		fields := strings.Fields(value)
		keys := make([]string, 0, len(fields))
		for _, w := range fields {
			if k := WordKey(w, false); k != "" {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			return strings.ToLower(strings.Join(fields, " "))
		}
		return strings.Join(keys, " ")
	}
	return value
}

// argAsWritten is the value of an argument as written: how operands were
// compared before argKey, which the rules for a stored sentinel keep
// (validator.stored).
func argAsWritten(_ Kind, value string) string { return value }

// matchKey is x printed with each argument as argKey has it: two operands
// equalExpr finds equal have the same key.
func matchKey(x Expr) string {
	var norm func(x Expr) Expr
	norm = func(x Expr) Expr {
		switch x := x.(type) {
		case *ChangeType:
			if x == nil {
				return x
			}
			c := *x
			c.Args = make([]*Lit, len(x.Args))
			for i, a := range x.Args {
				if a != nil {
					l := *a
					l.Value, l.src = argKey(x.Kind, a.Value), ""
					a = &l
				}
				c.Args[i] = a
			}
			return &c
		case *NotExpr:
			if x == nil {
				return x
			}
			return &NotExpr{NotPos: x.NotPos, X: norm(x.X)}
		case *BinaryExpr:
			if x == nil {
				return x
			}
			b := *x
			b.X, b.Y = norm(x.X), norm(x.Y)
			return &b
		}
		return x
	}
	return Print(norm(x))
}

func selectorKey(s *Selector) string {
	if s == nil || s.Expr == nil {
		return ""
	}
	if s.Lang == XPath {
		return "x" + s.Expr.Value
	}
	return "c" + s.Expr.Value
}

// sameWordsBecause says why two keywords or phrases of the same key
// (argKey), or two operands printed with them, match the same words: "they
// match in any case", "in any spacing", "in any case and spacing", or,
// where they differ in more than that, how a page's words are compared.
func sameWordsBecause(a, b string) string {
	spaced := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	switch {
	case strings.EqualFold(a, b):
		return "they match in any case"
	case spaced(a) == spaced(b):
		return "they match in any spacing"
	case strings.EqualFold(spaced(a), spaced(b)):
		return "they match in any case and spacing"
	}
	return "a page's words are compared in any case, without the punctuation around them, with ’ as ', and with accents however they are encoded"
}

// argList is the list of a change type's values, the node of a problem
// of the list as a whole ("keywords needs at least one word"): in the
// sentinel language it is at the change type, in the JSON form at its
// args, not at the change type ("monitor.args", not "monitor").
type argList struct{ *ChangeType }

func (v *validator) changeType(c *ChangeType) {
	what := c.Kind.String()
	needArgs := func(noun string) {
		if len(c.Args) == 0 {
			v.report(argList{c}, what, fmt.Sprintf("%s needs at least one %s", what, noun))
		}
	}
	seen := map[string]string{}
	for _, a := range c.Args {
		if a == nil {
			v.report(c, what, "empty value in "+what)
			continue
		}
		if strings.TrimSpace(a.Value) == "" {
			v.report(a, a.Value, "empty value in "+what)
			continue
		}
		switch first, ok := seen[argKey(c.Kind, a.Value)]; {
		case ok && first == a.Value:
			v.report(a, a.Value, fmt.Sprintf("duplicate %s in %s", quote(a.Value), what))
		case ok:
			report := v.report
			if v.stored {
				// A stored sentinel may predate the rule (keywords
				// and phrases were compared with their case before
				// 2026-11-29, excepted words before 2026-11-30): a
				// redundant word is no reason to stop it.
				report = v.warn
			}
			report(a, a.Value, fmt.Sprintf("duplicate %s in %s: the same as %s, since %s", quote(a.Value), what, quote(first), sameWordsBecause(first, a.Value)))
		default:
			seen[argKey(c.Kind, a.Value)] = a.Value
		}
	}
	switch c.Kind {
	case AnyChange, Links, Images, Value:
		if len(c.Args) > 0 {
			v.report(c.Args[0], c.Args[0].Value, what+" takes no list")
		}
	case Words:
	case Keywords:
		needArgs("word")
		for _, a := range c.Args {
			if a != nil && len(strings.Fields(a.Value)) > 1 {
				v.report(a, a.Value, fmt.Sprintf("keyword %s has several words: use phrase {%s}", quote(a.Value), quote(a.Value)))
			}
		}
		v.wordless(c, "keyword")
	case Phrase:
		needArgs("phrase")
		v.wordless(c, "phrase")
	case Table, List:
	case Regex:
		needArgs("expression")
		for _, a := range c.Args {
			if a == nil {
				continue
			}
			if _, err := regexp.Compile(a.Value); err != nil {
				v.report(a, a.Value, "invalid regular expression: "+strings.TrimPrefix(regexpError(err), "error parsing regexp: "))
			}
		}
	default:
		v.report(c, "", "unknown change type")
		return
	}
	if c.Kind == Value {
		if c.Scope == nil {
			v.report(c, what, `value needs In css "..." or In xpath "..." to say where the number is`)
		}
		if c.Condition == nil {
			v.report(c, what, "value needs a condition (changes, increases, decreases, rises above N, falls below N)")
		} else if c.Condition.Op < Changes || c.Condition.Op > FallsBelow {
			v.report(c.Condition, "", "unknown value condition")
		}
	} else if c.Condition != nil {
		v.report(c.Condition, c.Condition.Op.String(), "only value takes a condition")
	}
	if c.Scope != nil {
		v.selector(c.Scope)
	}
	ignored := make(map[string]bool, len(c.Ignore))
	for _, ig := range c.Ignore {
		v.selector(ig)
		if k := selectorKey(ig); k != "" && ig.Expr != nil {
			if ignored[k] {
				v.warn(ig, "", fmt.Sprintf("Ignore %s %s appears twice: the second ignores nothing more", ig.Lang, quote(ig.Expr.Value)))
			}
			ignored[k] = true
		}
	}
}

// wordless reports the values of c that hold nothing but punctuation,
// symbols, white space and invisible characters (Invisible): words are compared without the punctuation and
// symbols around them (intent), so such a keyword or phrase matches no word
// and the change type never fires. A number sign of another script (½, Ⅻ)
// is a word.
func (v *validator) wordless(c *ChangeType, noun string) {
	for _, a := range c.Args {
		if a == nil || strings.TrimSpace(a.Value) == "" {
			continue // reported as empty
		}
		if !strings.ContainsFunc(a.Value, func(r rune) bool {
			return !unicode.IsPunct(r) && !unicode.IsSymbol(r) && !unicode.IsSpace(r) && !IsInvisible(r)
		}) {
			v.report(a, a.Value, fmt.Sprintf("%s %s holds only punctuation and symbols: it matches no word of a page", noun, quote(a.Value)))
		}
	}
}

// selector checks that a selector is present and balanced; the full CSS and
// XPath grammars are checked where the selector is compiled (intent).
func (v *validator) selector(s *Selector) {
	if s.Lang != CSS && s.Lang != XPath {
		v.report(s, "", "selector language must be css or xpath")
		return
	}
	if s.Expr == nil || strings.TrimSpace(s.Expr.Value) == "" {
		v.report(s, "", "empty "+s.Lang.String()+" selector")
		return
	}
	if msg, col := balanced(s.Expr.Value); msg != "" {
		v.report(s.Expr.at(col), s.Expr.Value, fmt.Sprintf("invalid %s selector %s: %s", s.Lang, quote(s.Expr.Value), msg))
	} else if v.compile != nil {
		if col, err := v.compile(s.Lang, s.Expr.Value); err != nil {
			v.report(s.Expr.at(col), s.Expr.Value, fmt.Sprintf("invalid %s selector %s: %v", s.Lang, quote(s.Expr.Value), err))
		}
	}
	if s.Lang == CSS && strings.HasPrefix(strings.TrimSpace(s.Expr.Value), "/") {
		v.report(s.Expr, s.Expr.Value, fmt.Sprintf("%s looks like XPath: write xpath %s", quote(s.Expr.Value), quote(s.Expr.Value)))
	}
}

// balanced reports unbalanced brackets or quotes in a selector, or "",
// with the column (in runes, from 1) of the bracket or quote that does not
// balance: a closing one without its opening, or the opening one left
// unclosed.
func balanced(s string) (string, int) {
	type open struct {
		r   rune
		col int
	}
	var stack []open
	var quote open
	col := 0
	for _, r := range s {
		col++
		if quote.r != 0 {
			if r == quote.r {
				quote = open{}
			}
			continue
		}
		switch r {
		case '"', '\'':
			quote = open{r, col}
		case '(', '[':
			stack = append(stack, open{r, col})
		case ')', ']':
			want := '('
			if r == ']' {
				want = '['
			}
			if len(stack) == 0 || stack[len(stack)-1].r != want {
				return "unbalanced " + string(r), col
			}
			stack = stack[:len(stack)-1]
		}
	}
	if quote.r != 0 {
		return "unterminated quote", quote.col
	}
	if len(stack) > 0 {
		top := stack[len(stack)-1]
		return "unclosed " + string(top.r), top.col
	}
	return "", 0
}

// at returns the literal l positioned at the col-th rune (from 1) of its
// value, for an error about that rune: past the opening quote and the
// escapes that wrote the runes before it, the offset counting their bytes
// and the column their runes (“ is one column, \u00e9 six). Without a column (0), a position or the source
// text, it is the literal itself (a literal of the JSON form is named by its field).
func (l *Lit) at(col int) *Lit {
	if col <= 0 || !l.ValuePos.IsValid() {
		return l
	}
	off, ok := srcOffset(l.src, col-1)
	if !ok {
		return l
	}
	at := *l
	at.ValuePos.Column += utf8.RuneCountInString(l.src[:off])
	at.ValuePos.Offset += off
	return &at
}

package spec

import (
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"
)

// MaxNameLen is the longest sentinel name, in bytes (the limit of the
// domain's vigil.Sentinel).
const MaxNameLen = 200

// reporter receives a problem found in node n: the offending text and the
// message. The checker turns it into an *Error at n's position; the JSON
// decoder into a *FieldError at n's field path.
type reporter func(n Node, found, msg string)

// validator applies the rules that need nothing but the sentinel itself
// (values, intervals, addresses, change-type expressions). The rules that
// need other sentinels or the clock are in check.go.
type validator struct {
	report reporter
	warn   reporter
	urls   map[*URLTarget]string // normalised URLs, when the caller wants them
	// compile, if not nil, is Checker.CompileSelector.
	compile func(lang SelectorLang, expr string) (int, error)
	// unavailable is Checker.Unavailable.
	unavailable map[ContactKind]string
	// checkChat, if not nil, is Checker.CheckChat.
	checkChat func(url string) error
	// stored: the sentinel was checked when it was stored (Checked's
	// JSON form, read back from a store); the URL rules added since
	// (see normalizeURL) are not applied to it, so that it still loads.
	stored bool
}

// normalize is NormalizeURL, without the later rules for a stored
// sentinel.
func (v *validator) normalize(raw string) (string, error) {
	return normalizeURL(raw, !v.stored)
}

// sentinel validates every clause present in s.
func (v *validator) sentinel(s *Sentinel) {
	if s.Name != nil && !IsValidName(s.Name.Name) {
		v.report(s.Name, s.Name.Name, "invalid sentinel name "+quote(s.Name.Name)+": want a letter or _ followed by letters, digits, _ or -, at most 200 bytes, and not a reserved word")
	}
	if s.Target != nil {
		v.target(s.Target)
	}
	if s.Monitor != nil {
		v.expr(s.Monitor.X)
	}
	if s.Fetch != nil {
		v.fetch(s.Fetch)
	}
	if s.Confirm != nil {
		v.fixedInterval(s.Confirm.After, "Confirm after")
	}
	for _, t := range []*TimeSpec{s.From, s.To} {
		if t == nil {
			continue
		}
		if t.Base == nil {
			v.report(t, "", "missing time point")
		}
		if ev, ok := t.Base.(*Event); ok && (ev.Name == nil || !IsValidName(ev.Name.Name)) {
			name := ""
			if ev.Name != nil {
				name = ev.Name.Name
			}
			v.report(ev, name, fmt.Sprintf("invalid sentinel name %s in %s(...)", quote(name), ev.Kind))
		}
		for _, off := range t.Offsets {
			v.interval(off, "offset")
		}
	}
	if s.To != nil {
		if ev, ok := s.To.Base.(*Event); ok && ev.Kind == During {
			v.report(ev, "during", "the end time of a sentinel cannot be specified as during of another sentinel")
		}
	}
	if s.Notify != nil {
		v.notify(s.Notify)
	}
	if s.Every != nil {
		switch s.Every.Mode {
		case Immediate, BestEffort, Interactive:
		case Periodic:
			v.interval(s.Every.Interval, "Every")
		default:
			v.report(s.Every, "", "unknown notification mode")
		}
	}
	if s.Compare != nil {
		c := s.Compare
		switch c.Method {
		case Pairwise:
		case EveryN, MovingN:
			if c.N < 2 {
				v.report(c, strconv.FormatInt(c.N, 10), fmt.Sprintf("Compare %s %d: n must be at least 2 (n = 1 is pairwise)", c.Method, c.N))
			}
		default:
			v.report(c, "", "unknown compare option")
		}
	}
}

// IsValidName reports whether name can name a sentinel: a letter or "_",
// then letters, digits, "_" and "-", at most MaxNameLen bytes, and not a
// reserved word.
func IsValidName(name string) bool {
	if name == "" || len(name) > MaxNameLen || Lookup(name) != IDENT {
		return false
	}
	for i, r := range name {
		if r == '_' || unicode.IsLetter(r) || i > 0 && (unicode.IsDigit(r) || r == '-') {
			continue
		}
		return false
	}
	return true
}

func (v *validator) target(t Target) {
	switch t := t.(type) {
	case *URLTarget:
		u, err := v.normalize(t.URL)
		if err != nil {
			v.report(t, t.URL, err.Error())
		} else if v.urls != nil {
			v.urls[t] = u
		}
	case *SiteTarget:
		if _, err := v.normalize(t.URL); err != nil {
			v.report(t, t.URL, err.Error())
		}
		if b := t.Depth; b != nil && (b.N < 0 || b.N > MaxSiteDepth) {
			v.report(b, strconv.FormatInt(b.N, 10), fmt.Sprintf("site depth %d: want 0 (the start page alone) to %d", b.N, MaxSiteDepth))
		}
		if b := t.Pages; b != nil && (b.N < 1 || b.N > MaxSitePages) {
			v.report(b, strconv.FormatInt(b.N, 10), fmt.Sprintf("site pages %d: want 1 to %d", b.N, MaxSitePages))
		}
		v.siteScope(t)
	case *SentinelTarget:
		if t.Name == nil || !IsValidName(t.Name.Name) {
			v.report(t, "", "invalid sentinel name in Using")
		}
	case *BinaryTarget:
		var leaves []Target
		flattenTarget(t, t.Op, &leaves)
		seen := map[string]bool{}
		for _, l := range leaves {
			if _, ok := l.(*SiteTarget); ok {
				v.report(l, "site", fmt.Sprintf("a site cannot be an operand of %s: watch it with a sentinel of its own", t.Op))
			}
			v.target(l)
			k := targetKey(l)
			if seen[k] {
				v.report(l, Print(l), fmt.Sprintf("operands of %s must be distinct: %s appears twice", t.Op, shortCode(Print(l))))
			}
			seen[k] = true
		}
	default:
		v.report(nil, "", "missing target")
	}
}

// siteScope checks the scope and the match of a site target: each scope a
// URL that could be watched, at most MaxSiteScopes of them, and the match
// a regular expression RE2 compiles, of at most MaxSiteMatch bytes.
func (v *validator) siteScope(t *SiteTarget) {
	for k, s := range t.Scope {
		switch {
		case s == nil:
			v.report(t, "", "site scope: missing URL prefix")
		case k == MaxSiteScopes:
			v.report(s, s.Value, fmt.Sprintf("%d scopes in a site target: want at most %d", len(t.Scope), MaxSiteScopes))
		default:
			if _, err := v.normalize(s.Value); err != nil {
				v.report(s, s.Value, "site scope: "+err.Error())
			}
		}
	}
	if m := t.Match; m != nil {
		if len(m.Value) > MaxSiteMatch {
			v.report(m, "", fmt.Sprintf("site match of %d bytes: want at most %d", len(m.Value), MaxSiteMatch))
		} else if _, err := regexp.Compile(m.Value); err != nil {
			v.report(m, m.Value, "site match: "+regexpError(err))
		}
	}
}

func flattenTarget(t Target, op Op, out *[]Target) {
	if b, ok := t.(*BinaryTarget); ok && b.Op == op {
		flattenTarget(b.X, op, out)
		flattenTarget(b.Y, op, out)
		return
	}
	*out = append(*out, t)
}

func targetKey(t Target) string {
	switch t := t.(type) {
	case *URLTarget:
		if u, err := NormalizeURL(t.URL); err == nil {
			return "url " + u
		}
		return "url " + t.URL
	case *SentinelTarget:
		if t.Name != nil {
			return "sentinel " + strings.ToLower(t.Name.Name)
		}
	case *SiteTarget:
		if u, err := NormalizeURL(t.URL); err == nil {
			return "site " + u
		}
	}
	return Print(t)
}

// NormalizeURL returns the absolute http(s) URL of a target as written:
// "www.uta.edu/x" becomes "http://www.uta.edu/x"; the scheme and host are
// lower-cased, the scheme's default port (80 for http, 443 for https) is
// dropped, and an empty path becomes "/", so that the spellings of one page
// have one normal form ("HTTP://A.example:80" is "http://a.example/"). It
// rejects other schemes, URLs without a host, ports outside 1 to 65535,
// and "http:/a.example" or "https//a.example", whose mistyped scheme
// would otherwise be read as a host named http; a host no fetch can
// reach by its name (CheckHostName: an empty label, as in "a..example", a
// label longer than 63 bytes or a name longer than 253, in punycode for a
// Unicode name; a trailing dot is taken); and credentials ("user:pass@"),
// with an error that shows the password as "xxxxx", as every error of
// NormalizeURL does.
//
// Sentinels checked before the port and the path were normalised keep
// "http://a.example" in Checked.URLs; NormalizeURL of a stored URL gives
// its present normal form, and the monitor matches the two by
// vigil.CanonicalURL.
func NormalizeURL(raw string) (string, error) {
	return normalizeURL(raw, true)
}

// normalizeURL is NormalizeURL; not strict, it leaves out the rules added
// after sentinels were stored with URLs they break (a port outside 1 to
// 65535, a mistyped "http:/a.example", a host DNS refuses): a stored
// sentinel was checked when it was stored, and loads as it ran then, its
// fetches failing as they did.
func normalizeURL(raw string, strict bool) (string, error) {
	s := strings.TrimSpace(raw)
	shown := hidePassword(raw) // in messages
	if s == "" {
		return "", fmt.Errorf("invalid URL: empty")
	}
	if !strings.Contains(s, "://") && strict {
		// "http:/a.example" or "https//a.example" is a scheme
		// mistyped, not a host named http.
		lower := strings.ToLower(s)
		for _, scheme := range []string{"https", "http"} {
			if strings.HasPrefix(lower, scheme+":") || strings.HasPrefix(lower, scheme+"/") {
				return "", fmt.Errorf("invalid URL %s: write the scheme as %s:// before the host", quote(shown), scheme)
			}
		}
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		if shown != raw {
			// url.Parse's detail may quote the password, cut at
			// a "/", "?" or "#" in it (`invalid port ":pa"`).
			return "", fmt.Errorf("invalid URL %s: it does not parse (a password must be percent-encoded)", quote(shown))
		}
		return "", fmt.Errorf("invalid URL %s: %v", quote(shown), unwrapURLError(err))
	}
	if err := checkPort(u); err != nil && strict {
		return "", fmt.Errorf("invalid URL %s: %v", quote(shown), err)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("invalid URL %s: scheme %s: only http and https pages can be watched", quote(shown), short(u.Scheme))
	}
	if u.Host == "" || u.Hostname() == "" {
		return "", fmt.Errorf("invalid URL %s: no host", quote(shown))
	}
	if u.User != nil {
		return "", fmt.Errorf("invalid URL %s: credentials in URLs are not accepted", quote(shown))
	}
	// An internationalised host is written as its ASCII (punycode) form,
	// the one DNS and HTTP know: url.URL.String would percent-escape it,
	// a host no fetch can reach.
	name := u.Hostname()
	if err := ASCIIHost(u); err != nil {
		return "", fmt.Errorf("invalid URL %s: %v", quote(shown), err)
	}
	// A name DNS refuses (CheckHostName): no fetch can reach it.
	if err := checkDNSName(u, name); err != nil && strict {
		return "", fmt.Errorf("invalid URL %s: %v", quote(shown), err)
	}
	u.Host = strings.ToLower(u.Host)
	if port := u.Port(); port == "" || port == defaultPorts[u.Scheme] {
		// also "a.example:", an empty port, which is the default
		u.Host = strings.TrimSuffix(strings.TrimSuffix(u.Host, port), ":")
	}
	if u.Path == "" && u.RawPath == "" {
		u.Path = "/"
	}
	return u.String(), nil
}

// hidePassword returns raw with the password of its user information, if
// it has one, written "xxxxx" (as url.URL.Redacted writes it), for a
// message: the rest is kept as written, so that the user knows the URL.
// The user information is what stands between the "://" (or a leading
// "//", or the start of raw) and the last "@" before the first "/", "?"
// or "#" after it, or, if url.Parse fails (a password holding an
// unescaped "/", "?" or "#"), the last "@" before the first "/", "?" or
// "#" after the first "@"; a mailto: URL is kept whole. It is the rule of
// vigil.RedactURL, which the domain and the adapters call: a library may
// not import the domain, nor the domain a library, so each keeps its
// copy, both tested on the table of testdata/redacturl.json at the root.
func hidePassword(raw string) string {
	start := 0
	if i := strings.Index(raw, "://"); i >= 0 {
		start = i + len("://")
	} else if strings.HasPrefix(raw, "//") {
		start = len("//")
	} else if len(raw) >= len("mailto:") && strings.EqualFold(raw[:len("mailto:")], "mailto:") {
		return raw // an address, no password: "mailto:a@example.com"
	}
	end := len(raw)
	if i := strings.IndexAny(raw[start:], "/?#"); i >= 0 {
		end = start + i
	}
	at := strings.LastIndexByte(raw[start:end], '@')
	if at < 0 {
		// "http://user:pa/ss@host/": a password holding an unescaped
		// "/", "?" or "#" ends the host at it, with a port that is not
		// digits, and url.Parse fails. The user information then runs
		// to the last "@" before the first "/", "?" or "#" after the
		// first "@".
		first := strings.IndexByte(raw[start:], '@')
		if first < 0 {
			return raw
		}
		if _, err := url.Parse(strings.TrimSpace(raw)); err == nil {
			return raw // "http://a.example:8080/@user": an "@" in the path
		}
		end = len(raw)
		if i := strings.IndexAny(raw[start+first:], "/?#"); i >= 0 {
			end = start + first + i
		}
		at = strings.LastIndexByte(raw[start:end], '@')
	}
	colon := strings.IndexByte(raw[start:start+at], ':')
	if colon < 0 {
		return raw
	}
	return raw[:start+colon] + ":xxxxx" + raw[start+at:]
}

// checkPort reports a port outside 1 to 65535, which url.Parse takes (it
// checks only that a port is digits) and no fetch can dial.
func checkPort(u *url.URL) error {
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("port %s out of range (1 to 65535)", port)
		}
	}
	return nil
}

// defaultPorts are the ports NormalizeURL and HostKey drop, by scheme.
var defaultPorts = map[string]string{"http": "80", "https": "443"}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// regexpError returns the message of an error of regexp.Compile with the
// part of the expression it quotes cut as short cuts it.
func regexpError(err error) string {
	var se *syntax.Error
	if errors.As(err, &se) {
		expr := "`" + se.Expr + "`"
		if c := short(se.Expr); c != se.Expr {
			expr = "`" + strings.TrimSuffix(c, "...") + "`..." // the dots outside, as quote writes them
		}
		return "error parsing regexp: " + se.Code.String() + ": " + expr
	}
	return err.Error()
}

func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

// ---- change-type expressions

func (v *validator) expr(x Expr) {
	if isNilNode(x) {
		v.report(nil, "", "missing change type")
		return
	}
	switch x := x.(type) {
	case *ChangeType:
		v.changeType(x)
	case *NotExpr:
		if isNilNode(x.X) {
			v.report(x, "NOT", "NOT needs an operand")
			return
		}
		v.expr(x.X)
	case *BinaryExpr:
		if isNilNode(x.X) || isNilNode(x.Y) {
			v.report(x, x.Op.String(), x.Op.String()+" needs two operands")
			return
		}
		var ops []Expr
		flattenExpr(x, x.Op, &ops)
		for _, o := range ops {
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
	if len(ops) > 16 {
		seen := make(map[string]bool, len(ops))
		for i, o := range ops {
			if seen[key(i)] {
				v.report(o, key(i), fmt.Sprintf("operands of %s must be distinct: %s appears twice", x.Op, shortCode(key(i))))
			}
			seen[key(i)] = true
		}
	} else {
		for i := 1; i < len(ops); i++ {
			for j := 0; j < i; j++ {
				if equalExpr(ops[i], ops[j]) {
					v.report(ops[i], key(i), fmt.Sprintf("operands of %s must be distinct: %s appears twice", x.Op, shortCode(key(i))))
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
				if subsumes(b.c, a.c) {
					n := ops[b.i]
					v.report(n, key(b.i), fmt.Sprintf("change type %s is not valid as a change to %s would trigger the change type %s, so the sentinel could never fire",
						quote(key(a.i)+" AND "+key(b.i)), shortCode(key(a.i)), short(Print(b.c))))
				}
			case x.Op == Or && !b.neg && a.i < b.i && !equalExpr(a.c, b.c):
				if subsumes(b.c, a.c) {
					v.warn(ops[a.i], key(a.i), fmt.Sprintf("%s OR %s is the same as %s: every change to %s is also a change to %s", shortCode(key(a.i)), shortCode(key(b.i)), shortCode(key(b.i)), shortCode(key(a.i)), shortCode(key(b.i))))
				} else if subsumes(a.c, b.c) {
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
// neither any change nor all words (readsAttribute).
func subsumes(cy, cx *ChangeType) bool {
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
			have[a.Value] = true
		}
		for _, a := range cx.Args {
			if !have[a.Value] {
				return false
			}
		}
		return len(cx.Args) > 0
	}
	return equalExpr(cx, cy)
}

// readsAttribute reports whether c is a value whose XPath scope may read
// its number from an attribute (//meta/@content, attribute::data-price):
// the page's words are its texts, and in HTML any change compares only the
// href, src and alt attributes, so neither sees such a value change.
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
// positions aside.
func equalExpr(a, b Expr) bool {
	switch a := a.(type) {
	case *ChangeType:
		b, ok := b.(*ChangeType)
		if !ok || a == nil || b == nil || a.Kind != b.Kind || len(a.Args) != len(b.Args) || len(a.Ignore) != len(b.Ignore) {
			return false
		}
		for i := range a.Args {
			if a.Args[i] == nil || b.Args[i] == nil || a.Args[i].Value != b.Args[i].Value {
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
		return ok && a != nil && b != nil && equalExpr(a.X, b.X)
	case *BinaryExpr:
		b, ok := b.(*BinaryExpr)
		return ok && a != nil && b != nil && a.Op == b.Op && equalExpr(a.X, b.X) && equalExpr(a.Y, b.Y)
	}
	return false
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

// lenience names what two keywords or phrases that match the same words
// differ in: "case", "spacing", or "case and spacing".
func lenience(a, b string) string {
	switch {
	case strings.EqualFold(a, b):
		return "case"
	case strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(b), " "):
		return "spacing"
	}
	return "case and spacing"
}

func (v *validator) changeType(c *ChangeType) {
	what := c.Kind.String()
	needArgs := func(noun string) {
		if len(c.Args) == 0 {
			v.report(c, what, fmt.Sprintf("%s needs at least one %s", what, noun))
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
		key := a.Value
		if c.Kind == Keywords || c.Kind == Phrase {
			// Compared in any case and across white space (intent):
			// Sale and sale are one keyword.
			key = strings.ToLower(strings.Join(strings.Fields(key), " "))
		}
		switch first, ok := seen[key]; {
		case ok && first == a.Value:
			v.report(a, a.Value, fmt.Sprintf("duplicate %s in %s", quote(a.Value), what))
		case ok:
			v.report(a, a.Value, fmt.Sprintf("duplicate %s in %s: the same as %s, since they match in any %s", quote(a.Value), what, quote(first), lenience(first, a.Value)))
		default:
			seen[key] = a.Value
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
	for _, ig := range c.Ignore {
		v.selector(ig)
	}
}

// wordless reports the values of c that hold nothing but punctuation,
// symbols and white space: words are compared without the punctuation and
// symbols around them (intent), so such a keyword or phrase matches no word
// and the change type never fires. A number sign of another script (½, Ⅻ)
// is a word.
func (v *validator) wordless(c *ChangeType, noun string) {
	for _, a := range c.Args {
		if a == nil || strings.TrimSpace(a.Value) == "" {
			continue // reported as empty
		}
		if !strings.ContainsFunc(a.Value, func(r rune) bool {
			return !unicode.IsPunct(r) && !unicode.IsSymbol(r) && !unicode.IsSpace(r) && r != '\u00ad' // soft hyphen
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
	if msg := balanced(s.Expr.Value); msg != "" {
		v.report(s.Expr, s.Expr.Value, fmt.Sprintf("invalid %s selector %s: %s", s.Lang, quote(s.Expr.Value), msg))
	} else if v.compile != nil {
		if col, err := v.compile(s.Lang, s.Expr.Value); err != nil {
			at := *s.Expr
			if col > 0 && at.ValuePos.IsValid() {
				// col counts the expression's runes; the position counts
				// the source's bytes, past the opening quote (“ is three)
				// and the escapes that wrote the runes before the mistake.
				// Without the source text the place is the literal's.
				if off, ok := srcOffset(s.Expr.src, col-1); ok {
					at.ValuePos.Column += off
					at.ValuePos.Offset += off
				}
			}
			v.report(&at, s.Expr.Value, fmt.Sprintf("invalid %s selector %s: %v", s.Lang, quote(s.Expr.Value), err))
		}
	}
	if s.Lang == CSS && strings.HasPrefix(strings.TrimSpace(s.Expr.Value), "/") {
		v.report(s.Expr, s.Expr.Value, fmt.Sprintf("%s looks like XPath: write xpath %s", quote(s.Expr.Value), quote(s.Expr.Value)))
	}
}

// balanced reports unbalanced brackets or quotes in a selector, or "".
func balanced(s string) string {
	var stack []rune
	var quote rune
	for _, r := range s {
		if quote != 0 {
			if r == quote {
				quote = 0
			}
			continue
		}
		switch r {
		case '"', '\'':
			quote = r
		case '(', '[':
			stack = append(stack, r)
		case ')', ']':
			want := '('
			if r == ']' {
				want = '['
			}
			if len(stack) == 0 || stack[len(stack)-1] != want {
				return "unbalanced " + string(r)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if quote != 0 {
		return "unterminated quote"
	}
	if len(stack) > 0 {
		return "unclosed " + string(stack[len(stack)-1])
	}
	return ""
}

// ---- intervals, fetch, notification

func (v *validator) interval(iv *Interval, what string) bool {
	if iv == nil {
		v.report(nil, "", what+": missing interval")
		return false
	}
	if iv.Unit < Second || iv.Unit > Month {
		v.report(iv, "", what+": unknown time unit")
		return false
	}
	if iv.N <= 0 {
		v.report(iv, iv.Duration.String(), fmt.Sprintf("%s %s: interval must be greater than 0", what, iv.Duration))
		return false
	}
	return true
}

// fixedInterval also rejects months: a period that is repeated must have a
// fixed length (the seed allows minutes to weeks; Vigil also seconds).
func (v *validator) fixedInterval(iv *Interval, what string) {
	if v.interval(iv, what) && !iv.Fixed() {
		v.report(iv, iv.Duration.String(), fmt.Sprintf("%s %s: unit not allowed here: use second, minute, hour, day or week", what, iv.Duration))
	}
}

func (v *validator) fetch(f *FetchClause) {
	switch {
	case f.OnChange && f.Interval != nil:
		v.report(f, "", "Fetch takes an interval or on change, not both")
	case f.OnChange:
	default:
		v.fixedInterval(f.Interval, "Fetch")
	}
}

func (v *validator) notify(n *NotifyClause) {
	if len(n.Contacts) == 0 {
		v.report(n, "", "Notify By needs at least one contact")
	}
	seen := map[string]bool{}
	for _, c := range n.Contacts {
		if c == nil {
			continue
		}
		if err := validateContact(c.Kind, c.Address, !v.stored); err != nil {
			v.report(c, c.Address, err.Error())
			continue
		}
		if c.Kind == Chat && v.checkChat != nil {
			if err := v.checkChat(c.Address); err != nil {
				v.report(c, c.Address, fmt.Sprintf("chat URL %s cannot be used: %v", strings.SplitN(c.Address, ":", 2)[0]+"://...", err))
				continue
			}
		}
		k := c.Kind.String() + " " + strings.ToLower(c.Address)
		if seen[k] {
			v.report(c, c.Address, "duplicate contact "+hidePassword(c.Address))
		}
		seen[k] = true
		if why, ok := v.unavailable[c.Kind]; ok && v.warn != nil {
			v.warn(c, c.Address, fmt.Sprintf("notifications by %s will not be sent: %s", c.Kind, why))
		}
	}
}

// ValidateContact reports whether address is a valid destination for a
// contact of the given kind: a plain email address, an http(s) webhook URL,
// or a URL of a supported chat service. Fax and PDA, which the seed names,
// are reported as unsupported.
func ValidateContact(kind ContactKind, address string) error {
	return validateContact(kind, address, true)
}

// validateContact is ValidateContact; not strict, it takes a webhook's
// port outside 1 to 65535, a webhook URL without a host name and a host
// name IDNA or DNS refuses (CheckHostName), the rules added after
// sentinels were stored with them (see normalizeURL).
func validateContact(kind ContactKind, address string, strict bool) error {
	switch kind {
	case Email:
		a, err := mail.ParseAddress(address)
		if err != nil || a.Address != address || a.Name != "" {
			return fmt.Errorf("invalid email address %s", quote(address))
		}
		if _, domain, _ := strings.Cut(address, "@"); !strings.Contains(domain, ".") && domain != "localhost" {
			return fmt.Errorf("invalid email address %s: the domain has no dot", quote(address))
		}
	case Webhook:
		// Messages hide a password the URL carries, as a page's URL's do.
		shown := quote(hidePassword(address))
		u, err := url.Parse(address)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("invalid webhook URL %s: want an absolute http or https URL", shown)
		}
		if !strict {
			break
		}
		if u.Hostname() == "" {
			// "https://:8080/x": a port and no host name, which no
			// delivery can reach.
			return fmt.Errorf("invalid webhook URL %s: no host", shown)
		}
		if err := checkPort(u); err != nil {
			return fmt.Errorf("invalid webhook URL %s: %v", shown, err)
		}
		if err := CheckHostName(u); err != nil {
			return fmt.Errorf("invalid webhook URL %s: %v", shown, err)
		}
	case Chat:
		shown := quote(hidePassword(address))
		scheme, rest, ok := strings.Cut(address, "://")
		if !ok || !IsChatScheme(strings.ToLower(scheme)) {
			return fmt.Errorf("invalid chat URL %s: want slack://, discord://, telegram://, ntfy://, gotify:// or mattermost://", shown)
		}
		if _, err := url.Parse(address); err != nil || strings.Trim(rest, "/") == "" {
			return fmt.Errorf("invalid %s URL %s", strings.ToLower(scheme), shown)
		}
	case Fax, PDA:
		return fmt.Errorf("notification by %s is not supported: use email, webhook or a chat URL", kind)
	default:
		return fmt.Errorf("unknown contact kind")
	}
	return nil
}

package spec

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
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
	// unreachable, if not nil, is Checker.Unreachable.
	unreachable func(url string) string
	// stored: the sentinel was checked when it was stored (Checked's
	// JSON form, read back from a store, or RecheckStored); the rules
	// added since are not applied to it, so that it still loads and runs
	// as it did: the URL rules (see normalizeURL), and, as warnings
	// instead of errors, a NOT that narrows nothing (misplacedNot),
	// operands or excepted words that differ only in case or spacing
	// (argAsWritten), and more than MaxChangeTypes change types
	// (changeTypeCount).
	stored bool
	// countable: report an interval longer than Vigil can count (see
	// Duration.fitsStd), as the checker's intervalsFit does for a
	// sentinel with positions; set by the JSON decoder for a new
	// sentinel, so that the error names its field (fetch.interval), which
	// the checker, knowing no field paths, cannot.
	countable bool
	// interactive: the sentinel states Every interactive, so that its
	// contacts are never sent to, whatever the channels this server has
	// (the checker warns of that once, not of each channel).
	interactive bool
}

// normalize is NormalizeURL, without the later rules for a stored
// sentinel; a sentinel's URL, unlike one NormalizeURL reads elsewhere (a
// WARC record's, which tools write with spaces), also holds no white
// space (checkSpace) and is at most MaxURL bytes long, told without the
// URL, which a message would cut.
func (v *validator) normalize(raw string) (string, error) {
	if n := len(strings.TrimSpace(raw)); n > MaxURL && !v.stored {
		return "", fmt.Errorf("URL of %d bytes: want at most %d", n, MaxURL)
	}
	u, err := normalizeURL(raw, !v.stored)
	if err == nil && !v.stored {
		if err = checkSpace(strings.TrimSpace(raw)); err != nil {
			return "", fmt.Errorf("invalid URL %s: %v", quote(hidePassword(raw)), err)
		}
	}
	return u, err
}

// sentinel validates every clause present in s.
func (v *validator) sentinel(s *Sentinel) {
	if s.Name != nil && !IsValidName(s.Name.Name) {
		v.report(s.Name, s.Name.Name, invalidName(s.Name.Name, s.Name.NamePos))
	}
	if s.Target != nil {
		v.target(s.Target)
	}
	if s.Monitor != nil {
		v.expr(s.Monitor.X)
		v.notPlacement(s.Monitor.X)
		v.changeTypeCount(s.Monitor.X)
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
	v.interactive = s.Every != nil && s.Every.Mode == Interactive
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
		case EveryN:
			if c.N < 2 {
				v.report(c.count(), strconv.FormatInt(c.N, 10), fmt.Sprintf("Compare %s %d: n must be at least 2 (n = 1 is pairwise)", c.Method, c.N))
			}
		case MovingN:
			// moving n compares Vi with Vi+n-1.
			if c.N < 2 {
				v.report(c.count(), strconv.FormatInt(c.N, 10), fmt.Sprintf("Compare %s %d: n must be at least 2 (moving 1 would compare each version with itself; moving 2 is pairwise)", c.Method, c.N))
			}
		default:
			v.report(c, "", "unknown compare option")
		}
	}
}

// IsValidName reports whether name can name a sentinel: a letter or "_",
// then letters, digits, "_" and "-", at most MaxNameLen bytes, and not a
// reserved word; as written or in NFC (see CanonicalName).
func IsValidName(name string) bool {
	return validName(name) || !norm.NFC.IsNormalString(name) && validName(norm.NFC.String(name))
}

// validName is IsValidName of name as written.
func validName(name string) bool {
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
		} else {
			v.noScheme(t, t.URL, u)
			if v.urls != nil {
				v.urls[t] = u
			}
			v.reach(t, t.URL, u)
		}
	case *SiteTarget:
		if u, err := v.normalize(t.URL); err != nil {
			v.report(t, t.URL, err.Error())
		} else {
			v.noScheme(urlAt{t.URLPos}, t.URL, u)
			v.reach(urlAt{t.URLPos}, t.URL, u)
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
		seen := map[string]Target{}
		for _, l := range leaves {
			if _, ok := l.(*SiteTarget); ok {
				v.report(l, "site", fmt.Sprintf("a site cannot be an operand of %s: watch it with a sentinel of its own", t.Op))
			}
			v.target(l)
			k := targetKey(l)
			if first, ok := seen[k]; ok {
				v.notDistinctTargets(t.Op, l, first)
				continue
			}
			seen[k] = l
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
			if u, err := v.normalize(s.Value); err != nil {
				v.report(s, s.Value, "site scope: "+err.Error())
			} else {
				v.noScheme(s, s.Value, u)
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

// notDistinctTargets reports l, an operand of op with the key of first,
// an operand before it. URLs that differ only by their fragments fetch
// one page (a fragment is not sent): stored before they were compared so,
// such a sentinel is warned.
func (v *validator) notDistinctTargets(op Op, l, first Target) {
	msg := fmt.Sprintf("operands of %s must be distinct: %s appears twice", op, shortCode(Print(hideTargetPasswords(l))))
	u, ok1 := l.(*URLTarget)
	f, ok2 := first.(*URLTarget)
	if ok1 && ok2 && !sameURL(u.URL, f.URL) {
		msg = fmt.Sprintf("operands of %s must be distinct: %s is %s: a fragment is not sent", op, shortCode(hidePassword(u.URL)), shortCode(hidePassword(f.URL)))
		if v.stored {
			v.warn(l, Print(l), msg)
			return
		}
	}
	v.report(l, Print(l), msg)
}

// sameURL reports whether a and b have one normal form, fragment and all.
func sameURL(a, b string) bool {
	na, errA := NormalizeURL(a)
	nb, errB := NormalizeURL(b)
	if errA != nil || errB != nil {
		return a == b
	}
	return na == nb
}

// withoutFragment returns the normalised URL u without its fragment, which
// a fetch does not send: "https://x.org/#frag" is the page
// "https://x.org/".
func withoutFragment(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i]
	}
	return u
}

// targetKey returns what two operands of one chain share when they are
// the same target: a URL's normal form without its fragment, a
// sentinel's name in lower case, a site's normal URL.
func targetKey(t Target) string {
	switch t := t.(type) {
	case *URLTarget:
		if u, err := NormalizeURL(t.URL); err == nil {
			return "url " + withoutFragment(u)
		}
		return "url " + t.URL
	case *SentinelTarget:
		if t.Name != nil {
			return "sentinel " + nameKey(t.Name.Name)
		}
	case *SiteTarget:
		if u, err := NormalizeURL(t.URL); err == nil {
			return "site " + u
		}
	}
	return Print(t)
}

// regexpError returns the message of an error of regexp.Compile with the
// part of the expression it quotes cut as short cuts it.
func regexpError(err error) string {
	var se *syntax.Error
	if errors.As(err, &se) {
		expr := "`" + visible(se.Expr) + "`"
		if c := cut(se.Expr); c != se.Expr {
			expr = "`" + visible(strings.TrimSuffix(c, "...")) + "`..." // the dots outside, as quote writes them
		}
		return "error parsing regexp: " + se.Code.String() + ": " + expr
	}
	return err.Error()
}

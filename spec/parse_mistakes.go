package spec

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Mistakes users make, which get a message saying how to write what they
// meant rather than "expected ..., found ..." alone.

// misspeltKinds are words taken for a change type they are not, with the
// change type meant.
var misspeltKinds = map[string]string{"tables": "table", "lists": "list", "values": "value", "word": "words", "regexes": "regex", "regexps": "regex", "anychanges": "any change", "changes": "any change", "change": "any change"}

// clauseWords are words written for a clause keyword, as English says
// them, with what to write instead.
var clauseWords = byWord(map[string][]string{
	"Monitor for the changes to report, as in Monitor any change":       {"watch", "watching", "track", "detect", "monitoring"},
	"Fetch for how often to fetch the page, as in Fetch 1 hour":         {"poll", "refresh", "reload", "check", "fetching", "load"},
	"From for the start of the sentinel's life, as in From Now":         {"since", "start", "starts", "starting", "begin", "begins", "beginning"},
	"To for the end of the sentinel's life, as in To Now + 1 month":     {"until", "till", "end", "ends", "ending", "expire", "expires", "stop"},
	"Notify By for whom to tell, as in Notify By email you@example.org": {"alert", "alerts", "email", "mail", "send", "notification", "notifications", "tell"},
	"Every for how often to send what was found, as in Every 1 day":     {"digest"},
	"Compare for which versions to compare, as in Compare pairwise":     {"diff"},
})

// byWord returns, of each word of m, the key of m that holds it.
func byWord(m map[string][]string) map[string]string {
	out := map[string]string{}
	for key, words := range m {
		for _, w := range words {
			out[w] = key
		}
	}
	return out
}

// clauseMistake returns what to write for word, found where a clause
// keyword was expected: the clause English says so ("Until": To), or
// the keyword it misspells ("Montior": Monitor; one letter off for a
// keyword of five letters or less, two for a longer); "" when word is
// neither.
func clauseMistake(word string) string {
	w := strings.ToLower(word)
	if hint, ok := clauseWords[w]; ok {
		return "write " + hint
	}
	for _, kw := range []Token{MONITOR, FETCH, CONFIRM, FROM, NOTIFY, EVERY, COMPARE} {
		name := kw.String()
		max := 1
		if len(name) > 5 {
			max = 2
		}
		if misspelt(word, strings.ToLower(name)) && editDistance(w, strings.ToLower(name), max) <= max {
			return "write " + name
		}
	}
	return ""
}

// misplacedScope fails at an In after the change type c: a second scope,
// or one written after the Ignore selectors, which the grammar puts
// before them. The message says how to write it.
func (p *parser) misplacedScope(c *ChangeType) {
	pos, word := p.pos, p.lit
	sel := p.parseSelector()
	if c.Scope == nil {
		c.Scope = sel
		p.fail(pos, word, "Monitor, Fetch, ...", "In comes before Ignore: write "+Print(c))
	}
	msg := "a change type takes one scope (In): write the one that selects what to watch"
	if in := nestedScope(c.Scope, sel); in != "" {
		msg = "a change type takes one scope (In): for the second inside the first, write " + in
	}
	p.fail(pos, word, "Monitor, Fetch, ...", msg)
}

// nestedScope returns the scope that selects, inside what first selects,
// what second selects: the CSS descendant form (In css "div p"), or
// XPath's (In xpath "//div//p"); "" when there is no such one scope
// (selectors of two languages, a list of selectors, an absolute path).
func nestedScope(first, second *Selector) string {
	if first.Expr == nil || second.Expr == nil || first.Lang != second.Lang {
		return ""
	}
	a, b := strings.TrimSpace(first.Expr.Value), strings.TrimSpace(second.Expr.Value)
	if a == "" || b == "" {
		return ""
	}
	if second.Lang == CSS {
		if strings.Contains(a, ",") || strings.Contains(b, ",") {
			return "" // "div, ul p" is a div, or a p in a ul
		}
		return fmt.Sprintf("In css %q", a+" "+b)
	}
	switch {
	case strings.Contains(a, "|") || strings.Contains(b, "|"):
		return ""
	case strings.HasPrefix(b, "./") || strings.HasPrefix(b, ".//"):
		b = b[1:] // relative to what first selects
	case strings.HasPrefix(b, "//"):
	case strings.HasPrefix(b, "/"):
		return "" // an absolute path is not inside another
	default:
		b = "//" + b
	}
	return fmt.Sprintf("In xpath %q", strings.TrimRight(a, "/")+b)
}

// abbreviatedUnits are the units that abbreviations name ("min", "h").
// "m" is none of them: minute or month (ambiguousM).
var abbreviatedUnits = map[string]Unit{
	"s": Second, "sec": Second, "secs": Second,
	"min": Minute, "mins": Minute,
	"h": Hour, "hr": Hour, "hrs": Hour,
	"d": Day, "w": Week, "wk": Week, "wks": Week, "mo": Month, "mos": Month,
}

// unitNamed returns the unit a word names in full (ParseUnit) or
// abbreviated.
func unitNamed(word string) (Unit, bool) {
	if u, ok := ParseUnit(word); ok {
		return u, true
	}
	u, ok := abbreviatedUnits[strings.ToLower(word)]
	return u, ok
}

// unknownUnit returns the message for a unit the language does not have,
// naming the one an abbreviation stands for, in the count n's number.
func unknownUnit(word string, n int64) string {
	msg := errUnknownUnit(word).Error()
	if ambiguousM(word) {
		return strings.Replace(msg, " (want", ": write minute or month in full (want", 1)
	}
	if u, ok := unitNamed(word); ok {
		name := Duration{N: n, Unit: u}.String()
		name = name[strings.IndexByte(name, ' ')+1:]
		msg = strings.Replace(msg, " (want", ": write "+name+" (want", 1)
	}
	return msg
}

// ambiguousM reports whether a unit is "m" (or "M"), which is minute to
// some and month to others: it is written in full.
func ambiguousM(unit string) bool { return strings.EqualFold(unit, "m") }

// adverbUnits are the units that words such as "hourly" name.
var adverbUnits = map[string]Unit{"hourly": Hour, "daily": Day, "weekly": Week, "monthly": Month}

// intervalMistake fails, saying how to write it, at a token that begins an
// interval written as English would: a count that is not a whole number
// ("1.5 hours"), a unit without its count ("Every day"), or an adverb
// ("hourly"). prefix is what comes before the interval, for the example
// ("Fetch", "Confirm after", "+"). Other tokens are left to the caller.
func (p *parser) intervalMistake(prefix string) {
	switch p.tok {
	case FLOAT:
		p.failHere(p.lit, "interval", "the count of an interval is a whole number, found "+p.lit+": use a smaller unit (90 minutes, not 1.5 hours)")
	case WORD, IDENT:
		// 1h, 30min: the count and the unit joined.
		digits := len(p.lit) - len(strings.TrimLeft(p.lit, "0123456789"))
		if n, err := strconv.ParseInt(p.lit[:digits], 10, 64); err == nil && digits < len(p.lit) {
			unit := p.lit[digits:]
			u, ok := unitNamed(unit)
			switch {
			case ambiguousM(unit) && n > 0:
				p.failHere(p.lit, "interval", "write the count and the unit apart, the unit in full: "+prefix+" "+Duration{N: n, Unit: Minute}.String()+", or "+Duration{N: n, Unit: Month}.String())
			case ambiguousM(unit):
				u, ok = Minute, true
			}
			if ok && n <= 0 {
				// "Fetch 0 hours" would be refused in turn.
				p.failHere(p.lit, "interval", "write the count and the unit apart, the count greater than 0: "+prefix+" "+Duration{N: 1, Unit: u}.String())
			}
			if ok {
				p.failHere(p.lit, "interval", "write the count and the unit apart: "+prefix+" "+Duration{N: n, Unit: u}.String())
			}
		}
		if p.tok != IDENT {
			return
		}
		if u, ok := ParseUnit(p.lit); ok {
			p.failHere(p.lit, "interval", "an interval needs its count: write "+prefix+" "+Duration{N: 1, Unit: u}.String())
		}
		if u, ok := adverbUnits[strings.ToLower(p.lit)]; ok {
			p.failHere(p.lit, "interval", quote(p.lit)+" is not an interval: write "+prefix+" "+Duration{N: 1, Unit: u}.String())
		}
	}
}

// listKinds are the change types of the lists parseList reads, by the
// word it is given: the canonical words, whether the items are quoted,
// what an item is, and an example.
var listKinds = map[string]struct {
	kind    string
	quoted  bool
	item    string
	example string
}{
	"keywords":           {"keywords", false, "keyword", "keywords {sale}"},
	"keyword":            {"keywords", false, "keyword", "keywords {sale}"},
	"except":             {"all words except", false, "word", "all words except {the}"},
	"phrase":             {"phrase", true, "phrase", `phrase {"sold out"}`},
	"regular expression": {"regular expression", true, "regular expression", `regular expression {"v[0-9]+"}`},
	"table":              {"table", false, "table", ""},
	"list":               {"list", false, "list", ""},
}

// emptyItem fails at the closing brace of a list whose items so far are
// list, as a list of the change type what: one that names nothing
// ("table {}"), or one that ends with a comma ("keywords {sale,}").
func (p *parser) emptyItem(what string, list []*Lit) {
	k, ok := listKinds[what]
	if !ok {
		return
	}
	found := p.lit
	if len(list) > 0 {
		pr := &printer{}
		pr.str(k.kind)
		pr.list(list, k.quoted)
		p.failHere(found, "word or quoted string", `a list does not end with ",": `+pr.buf.String())
	}
	if k.example == "" { // table, list
		name := map[string]string{"table": "prices", "list": "news"}[k.kind]
		p.failHere(found, "word or quoted string", fmt.Sprintf("%s {} names no %s: write %s alone for every %s, or name them, as in %s {%s}", k.kind, k.item, k.kind, k.item, k.kind, name))
	}
	p.failHere(found, "word or quoted string", fmt.Sprintf("%s {} names no %s: name at least one, as in %s", k.kind, k.item, k.example))
}

// semicolonItems fails at the first ";" of a list, semicolon, whose
// items, list, are separated by ";" where the language writes ",", as a
// list of the change type what, with the list to write (phrase {"a",
// "b"}), or, when that is longer than a message quotes, the example of
// its change type, told as an example (as in phrase {"sold out"}), not
// as the list to write. The scanner's errors at each ";" of the list
// (clauses end without one) are replaced by it.
func (p *parser) semicolonItems(semicolon Pos, what string, list []*Lit) {
	first, last := semicolon.Offset, p.pos.Offset
	p.errors = slices.DeleteFunc(p.errors, func(e *Error) bool {
		return e.Pos.Offset >= first && e.Pos.Offset < last && e.Found == ";"
	})
	k := listKinds[what]
	msg := `the items of a list are separated by ",", not ";"`
	if k.kind != "" {
		pr := &printer{}
		pr.str(k.kind)
		pr.list(list, k.quoted)
		if s := pr.buf.String(); len(s) <= 2*maxQuoted {
			msg += ": write " + s
		} else if k.example != "" {
			// An example, not the list to write: its items are
			// the user's.
			msg += ", as in " + k.example
		}
	} else if k.example != "" {
		msg += ", as in " + k.example
	}
	p.fail(semicolon, ";", ", or "+p.tok.String(), msg)
}

// otherDate returns the message of a date in From or To, lit, written
// in another order or with other separators than MM/DD/YYYY: year
// first, as ISO 8601 writes it (2026-03-01, 2026/03/01, with a time of
// day 2026-03-01T09:30), month first with dashes (03-01-2026), or day
// first where the first number is no month (31-12-2026, 31/12/2026). It
// says what to write instead (03/01/2026), and, for a date that does not
// exist, that its month or day is out of range. It returns "" for any
// other text.
func otherDate(lit string) string {
	date, clock, hasClock := strings.Cut(lit, "T")
	var hh, mm int
	if hasClock {
		h, m, ok := strings.Cut(clock, ":")
		var errH, errM error
		hh, errH = strconv.Atoi(h)
		mm, errM = strconv.Atoi(m)
		if !ok || len(h) > 2 || len(m) != 2 || errH != nil || errM != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
			return ""
		}
	}
	sep := "-"
	if strings.Count(date, "/") == 2 {
		sep = "/"
	}
	f := strings.Split(date, sep)
	if len(f) != 3 {
		return ""
	}
	var n [3]int
	for i, s := range f {
		if s == "" || len(s) > 4 || strings.Trim(s, "0123456789") != "" {
			return ""
		}
		n[i], _ = strconv.Atoi(s)
	}
	var y, m, d int
	how := "year first"
	switch {
	case len(f[0]) == 4 && len(f[1]) <= 2 && len(f[2]) <= 2:
		y, m, d = n[0], n[1], n[2]
	case len(f[0]) <= 2 && len(f[1]) <= 2 && len(f[2]) == 4 && n[0] > 12 && n[1] >= 1 && n[1] <= 12:
		// 31-12-2026, 31/12/2026: the day first, as most of the
		// world writes it; no month is greater than 12.
		y, m, d = n[2], n[1], n[0]
		how = "month out of range, the day written first"
		if last := time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day(); d > last {
			return ""
		}
	case sep == "-" && len(f[0]) <= 2 && len(f[1]) <= 2 && len(f[2]) == 4:
		m, d, y = n[0], n[1], n[2]
		how = "dashes"
	default:
		return ""
	}
	fix := "write the month first, MM/DD/YYYY"
	if how == "dashes" {
		fix = "write slashes, MM/DD/YYYY"
	}
	if m < 1 || m > 12 {
		return fmt.Sprintf("invalid date %s: month out of range; and %s: %s", short(lit), how, fix)
	}
	if last := time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day(); d < 1 || d > last {
		return fmt.Sprintf("invalid date %s: day out of range, %s %d has %d days; and %s: %s (its last day is %02d/%02d/%04d)",
			short(lit), time.Month(m), y, last, how, fix, m, last, y)
	}
	want := fmt.Sprintf("%02d/%02d/%04d", m, d, y)
	layout := "MM/DD/YYYY"
	if hasClock {
		want += fmt.Sprintf(" %02d:%02d", hh, mm)
		layout += " HH:MM"
	}
	if how == "dashes" {
		return fmt.Sprintf("invalid date %s: write %s, with slashes (%s)", short(lit), want, layout)
	}
	return fmt.Sprintf("invalid date %s: %s; write %s for %s (%s)", short(lit), how, want, short(lit), layout)
}

// byMissing fails at a contact written right after Notify, By left out
// ("Notify me@example.org"), with the clause to write: the address as
// an email (without the mailto: of a link), an http or https URL as a
// webhook, a chat URL or a contact keyword as it is. The contacts that
// follow it, each after a comma, are written too (Notify By email
// a@example.org, email b@example.org), up to maxBareContacts of them,
// each once, when each is one of these (see bareContact) and they are
// no longer than a message quotes (2*maxQuoted); else the first alone.
// It returns, failing nothing, at any other token, a URL of another
// scheme among them.
func (p *parser) byMissing() {
	if p.tok != WORD && p.tok != STRING && p.tok != IDENT || p.pos.Line != p.prevEnd.Line {
		return
	}
	if p.isWord("email", "e-mail", "mail", "webhook") {
		p.failHere(p.lit, `"By"`, `expected "By", found `+p.describe()+": write Notify By "+strings.ToLower(p.lit)+" ...")
	}
	write := p.bareContact()
	if write == "" {
		return
	}
	pos, found, describe := p.pos, p.lit, p.describe()
	all := []string{write}
	// A contact given twice is written once, as the checker refuses a
	// duplicate (compared as it compares them, without regard to case).
	seen := map[string]bool{strings.ToLower(write): true}
	for range maxBareContacts {
		p.next()
		if p.tok != COMMA {
			break
		}
		p.next()
		c := p.bareContact()
		if c == "" {
			all = all[:1] // Notify a@example.org, b: the first alone
			break
		}
		if !seen[strings.ToLower(c)] {
			seen[strings.ToLower(c)] = true
			all = append(all, c)
		}
	}
	text := strings.Join(all, ", ")
	if len(text) > 2*maxQuoted {
		text = all[0] // more than a message quotes: the first alone
	}
	p.fail(pos, found, `"By"`, `expected "By", found `+describe+": write Notify By "+text)
}

// maxBareContacts is the number of contacts after the first that
// byMissing reads ahead, at most.
const maxBareContacts = 8

// bareContact returns the contact to write after Notify By for the
// current token, a contact written without its keyword: an address as
// email, an http or https URL as a webhook, a chat URL as it is; ""
// for any other token, a URL of another scheme among them.
func (p *parser) bareContact() string {
	if p.tok != WORD && p.tok != STRING && p.tok != IDENT {
		return ""
	}
	v := p.litValue()
	scheme, _, hasScheme := strings.Cut(v, "://")
	scheme = strings.ToLower(scheme)
	switch {
	case hasScheme && IsChatScheme(scheme):
		// Its secrets hidden, as the checker's messages hide them.
		if p.tok == STRING {
			return shortCode(strconv.Quote(ShownChatURL(v)))
		}
		return shortCode(ShownChatURL(v))
	case hasScheme && (scheme == "http" || scheme == "https"):
		return "webhook " + shortCode(hidePassword(p.lit))
	case hasScheme:
		// ftp://...: no webhook, nor any other contact.
	case len(v) > len("mailto:") && strings.EqualFold(v[:len("mailto:")], "mailto:"):
		// mailto:me@example.org, as a link writes an address.
		if t, ok := scanOne(v[len("mailto:"):]); ok && t == WORD {
			return "email " + short(HideAddressPassword(v[len("mailto:"):]))
		}
	case strings.Contains(v, "@") && p.tok != IDENT:
		return "email " + shortCode(HideAddressPassword(p.lit))
	}
	return ""
}

// Times of day as English writes them after a date: in 12 hours (9am,
// 9:30 PM, 12 a.m.), or with seconds (23:59:59).
var (
	clock12 = regexp.MustCompile(`^(?i)(\d{1,2})(?::(\d{2}))?[ \t]*([ap])\.?m\.?(?:$|[ \t#])`)
	// A value condition as English says it: above 10, greater than 10.
	// Its number, given back, ends a word: 10 of 10,000 is no other.
	conditionAbove = regexp.MustCompile(`^(?i)(?:above|over|exceeds|(?:greater|more|higher)[ \t]+than)(?:$|[ \t]+(?:(-?\d+(?:\.\d+)?)(?:$|[ \t#]))?)`)
	conditionBelow = regexp.MustCompile(`^(?i)(?:below|under|(?:less|fewer|lower)[ \t]+than)(?:$|[ \t]+(?:(-?\d+(?:\.\d+)?)(?:$|[ \t#]))?)`)
	clockSecond    = regexp.MustCompile(`^(\d{1,2}):(\d{2}):\d{2}(?:\.\d+)?(?:$|[ \t#])`)
)

// maxAhead is the number of bytes of its line that a message reads
// ahead of the current token, at most: enough for the words of a
// mistake (9:30 p.m., greater than 1000.5), and few enough that a line
// of a megabyte, a mistake a word, is not read again at each.
const maxAhead = 64

// lineAhead returns the text of the current line from the current
// token on, at most maxAhead bytes of it; cut short, without the word
// the cut falls in, which is not all read (99 of 999...).
func (p *parser) lineAhead() string {
	src := p.sc.src[p.pos.Offset:]
	cut := len(src) > maxAhead
	if cut {
		src = src[:maxAhead+1]
	}
	for i, c := range src {
		if isLineEnd(c) {
			return string(src[:i])
		}
	}
	if cut {
		src = src[:bytes.LastIndexAny(src, " \t")+1]
	}
	return string(src)
}

// clockMistake fails at the current token, on the line of the date d
// and after it, when it begins a time of day written in 12 hours or
// with seconds, with the date and time to write (12/01/2027 21:30). It
// returns, failing nothing, at any other text.
func (p *parser) clockMistake(d *Date) {
	rest := p.lineAhead()
	var h, m int
	var how string
	if g := clock12.FindStringSubmatch(rest); g != nil {
		h, _ = strconv.Atoi(g[1])
		m, _ = strconv.Atoi(g[2])
		if h < 1 || h > 12 || m > 59 {
			return
		}
		h %= 12
		if strings.EqualFold(g[3], "p") {
			h += 12
		}
		how = "in 24 hours"
		rest = strings.TrimRight(g[0], " \t#")
	} else if g := clockSecond.FindStringSubmatch(rest); g != nil {
		h, _ = strconv.Atoi(g[1])
		m, _ = strconv.Atoi(g[2])
		if h > 23 || m > 59 {
			return
		}
		how = "without seconds"
		rest = strings.TrimRight(g[0], " \t#")
	} else {
		return
	}
	at := *d
	at.HasClock, at.Hour, at.Minute = true, h, m
	p.fail(p.pos, rest, "time of day HH:MM", "a time of day is written HH:MM, "+how+": write "+at.String())
}

// nearWord fails at the current token, where what was expected, when it
// is word misspelt or with an ending ("changes", "immediately", at most
// two letters off, or an ending of "ly" or "s"), saying to write
// instead.
func (p *parser) nearWord(what, word, instead string) {
	if p.tok != IDENT || p.isWord(word) {
		return
	}
	lit := strings.ToLower(p.lit)
	if !misspelt(lit, word) && strings.TrimSuffix(strings.TrimSuffix(lit, "ly"), "s") != word {
		return
	}
	p.failHere(p.lit, what, "expected "+what+", found "+p.describe()+": write "+instead)
}

// afterMissing fails at an interval right after the Confirm at pos, on
// its line, "after" left out (Confirm 10 minutes), with the clause to
// write. It returns, failing nothing, at any other token.
func (p *parser) afterMissing(pos Pos) {
	if p.tok != INT || p.pos.Line != pos.Line {
		return
	}
	at, word := p.pos, p.lit
	iv := p.parseInterval("Confirm after")
	if iv.N <= 0 {
		// Confirm 0 minutes: Confirm after 0 minutes would be refused in turn.
		p.fail(at, word, `"after"`, fmt.Sprintf(`expected "after", found %s, and %s is not greater than 0: write at least 1, as in Confirm after %s`, quote(word), iv.Duration, fixedExample(Duration{N: 1, Unit: iv.Unit})))
	}
	p.fail(at, word, `"after"`, `expected "after", found `+quote(word)+": write Confirm after "+fixedExample(iv.Duration))
}

// conditionMistake returns the value condition to write for the text
// at the current token, where a condition was expected, when it says
// one as English does ("above 10": rises above 10, "less than 3": falls
// below 3; N for a number it does not give); "" otherwise.
func (p *parser) conditionMistake() string {
	if p.tok != IDENT {
		return ""
	}
	rest := p.lineAhead()
	for op, re := range map[string]*regexp.Regexp{"rises above": conditionAbove, "falls below": conditionBelow} {
		if g := re.FindStringSubmatch(rest); g != nil {
			n := g[1]
			if n == "" {
				n = "N"
			}
			return op + " " + n
		}
	}
	return ""
}

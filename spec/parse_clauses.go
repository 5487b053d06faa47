package spec

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The other clauses: Fetch, its intervals, times and dates, Notify and its
// contacts, Every, and Compare.

// fixedExample returns d as an interval of Fetch or Confirm to write,
// in a unit the checker takes there (see fixedInterval): a month, which
// has no fixed length, as its days (30 days; 2 hours for more than a
// thousand months). The count is kept as written: the checker tells of
// a count of 0.
func fixedExample(d Duration) string {
	switch {
	case d.Unit == Month && d.N > 1000:
		return "2 hours"
	case d.Unit == Month:
		return Duration{N: 30 * d.N, Unit: Day}.String()
	}
	return d.String()
}

func (p *parser) parseFetch(pos Pos) *FetchClause {
	c := &FetchClause{Fetch: pos}
	switch {
	case p.isWord("on"):
		p.next()
		p.nearWord(`"change" after "on"`, "change", "Fetch on change")
		p.expectWord(`"change" after "on"`, "change")
		c.OnChange = true
	case p.tok == INT:
		c.Interval = p.parseInterval("Fetch")
	case p.tok == EVERY && p.pos.Line == pos.Line:
		// Fetch every 2 hours: as English says it. An Every on the
		// next line is the Every clause, after a Fetch that lacks its
		// interval.
		pos, word := p.pos, p.lit
		p.next()
		if p.tok == INT {
			iv := p.parseInterval("Fetch")
			if iv.N <= 0 {
				// Fetch every 0 hours: Fetch 0 hours would be refused in turn.
				p.fail(pos, word, "interval", fmt.Sprintf(`"every" does not go after Fetch, and %s is not greater than 0: write the interval alone, at least 1, as in Fetch %s`, iv.Duration, fixedExample(Duration{N: 1, Unit: iv.Unit})))
			}
			p.fail(pos, word, "interval", `"every" does not go after Fetch: write the interval alone, as in Fetch `+fixedExample(iv.Duration))
		}
		if u, ok := ParseUnit(p.lit); ok && p.tok == IDENT {
			// Fetch every day: the count left out too.
			p.fail(pos, word, "interval", `"every" does not go after Fetch: write the interval, with its count, alone, as in Fetch `+fixedExample(Duration{N: 1, Unit: u}))
		}
		p.fail(pos, word, "interval", `"every" does not go after Fetch: write the interval alone, as in Fetch 2 hours`)
	default:
		p.intervalMistake("Fetch")
		p.failExpected("interval (1 hour) or on change")
	}
	if p.isWord("render") {
		c.Render = true
		p.next()
	}
	return c
}

func (p *parser) parseInt(what string) int64 {
	if p.tok != INT {
		p.failExpected(what)
	}
	n, err := strconv.ParseInt(p.lit, 10, 64)
	if err != nil {
		p.fail(p.pos, p.lit, "number", "number "+short(p.lit)+" out of range")
	}
	p.next()
	return n
}

// countTooLarge fails at a count too large for an int64 followed by a
// time unit ("Every 99999999999999999999999 weeks"), saying it is longer
// than Vigil can count, as the checker says it of a count that fits an
// int64 (intervalsFit), where parseInt says only that the number is out
// of range.
func (p *parser) countTooLarge(prefix string) {
	if p.tok != INT {
		return
	}
	if _, err := strconv.ParseInt(p.lit, 10, 64); !errors.Is(err, strconv.ErrRange) {
		return
	}
	pos, lit := p.pos, p.lit
	p.next()
	u, ok := ParseUnit(p.lit)
	if p.tok != IDENT || !ok {
		p.fail(pos, lit, "number", "number "+short(lit)+" out of range")
	}
	what := prefix
	if prefix == "+" {
		what = "offset"
	}
	p.fail(pos, lit, "interval", (&countTooLargeError{count: lit, unit: u}).tooLong(what))
}

// parseInterval parses an interval after prefix (the clause's keywords,
// "Fetch", or "+" for an offset), which a message about a mistake in it
// writes in its example.
func (p *parser) parseInterval(prefix string) *Interval {
	iv := &Interval{ValuePos: p.pos}
	p.intervalMistake(prefix)
	p.countTooLarge(prefix)
	iv.N = p.parseInt("interval (a count and a unit, as in 1 day)")
	if p.tok != IDENT {
		p.failExpected("time unit (second, minute, hour, day, week or month)")
	}
	u, ok := ParseUnit(p.lit)
	if !ok {
		p.fail(p.pos, p.lit, "time unit", unknownUnit(p.lit, iv.N))
	}
	iv.Unit = u
	if p.pos.Line == iv.ValuePos.Line {
		iv.written = string(p.sc.src[iv.ValuePos.Offset : p.pos.Offset+len(p.lit)])
	}
	p.next()
	p.part(iv)
	return iv
}

// ---- lifespan

func (p *parser) parseTimeSpec(pos Pos, from bool) *TimeSpec {
	t := &TimeSpec{Keyword: pos}
	switch {
	case p.tok == DATE:
		t.Base = p.parseDate()
	case p.isWord("now"):
		t.Base = &Now{NowPos: p.pos}
		p.next()
	case p.isWord("start", "end", "during"):
		ev := &Event{EventPos: p.pos}
		switch strings.ToLower(p.lit) {
		case "start":
			ev.Kind = Start
		case "end":
			ev.Kind = End
		default:
			ev.Kind = During
			if !from {
				p.fail(p.pos, p.lit, "start(name) or end(name)", "during(...) is not allowed in To: the end time of a sentinel cannot be specified as during of another sentinel")
			}
		}
		p.next()
		p.expect(LPAREN)
		ev.Name = p.parseName("sentinel name")
		p.expect(RPAREN)
		p.part(ev)
		t.Base = ev
	default:
		what := "date (MM/DD/YYYY), Now, start(name), end(name) or during(name)"
		keyword := "From"
		if !from {
			what, keyword = "date (MM/DD/YYYY), Now, start(name) or end(name)", "To"
		}
		if p.tok == PLUS {
			p.failHere(p.lit, what, "expected "+what+", found "+p.describe()+": an offset is added to a time point, as in "+keyword+" Now + 1 month")
		}
		if msg := otherDate(p.lit); msg != "" && p.tok == WORD {
			p.failHere(p.lit, "date MM/DD/YYYY", msg)
		}
		if base, ok := map[string]string{"today": "Now", "tomorrow": "Now + 1 day"}[strings.ToLower(p.lit)]; ok && p.tok == IDENT {
			p.failHere(p.lit, what, "expected "+what+", found "+p.describe()+": write "+keyword+" "+base)
		}
		p.failExpected(what)
	}
	for p.tok == PLUS {
		p.next()
		t.Offsets = append(t.Offsets, p.parseInterval("+"))
	}
	if p.pos.Line == p.prevEnd.Line && (p.tok == ILLEGAL && (p.lit == "-" || p.lit == "\u2212") ||
		(p.tok == INT || p.tok == FLOAT) && strings.HasPrefix(p.lit, "-") && p.peek() == IDENT) {
		// To end(s) - 1 hour, From Now -2 days: no offset is taken
		// away, and "-2" is no clause (nor "-2 days" a zone's
		// offset, -0500).
		keyword := "From"
		if !from {
			keyword = "To"
		}
		p.failHere(p.lit, "+", "expected + or the next clause, found "+p.describe()+
			": an offset is only added to a time point, as in "+keyword+" Now + 1 month, never taken away")
	}
	return t
}

func (p *parser) parseDate() *Date {
	d := &Date{DatePos: p.pos}
	parts := strings.Split(p.lit, "/")
	bad := func(why string) {
		p.fail(d.DatePos, p.lit, "date MM/DD/YYYY", fmt.Sprintf("invalid date %s: %s (want MM/DD/YYYY)", short(p.lit), why))
	}
	if len(parts) != 3 {
		bad("not month/day/year")
	}
	if msg := otherDate(p.lit); msg != "" {
		p.fail(d.DatePos, p.lit, "date MM/DD/YYYY", msg) // 2026/03/01
	}
	var n [3]int
	for i, s := range parts {
		if len(s) > 4 {
			bad("too many digits")
		}
		n[i], _ = strconv.Atoi(s)
	}
	d.Month, d.Day, d.Year = n[0], n[1], n[2]
	switch len(parts[2]) {
	case 2:
		if d.Year < 69 {
			d.Year += 2000
		} else {
			d.Year += 1900
		}
	case 4:
	default:
		bad("the year must have 4 (or 2) digits")
	}
	if d.Month < 1 || d.Month > 12 {
		bad("month out of range")
	}
	if d.Day < 1 || time.Date(d.Year, time.Month(d.Month), d.Day, 0, 0, 0, 0, time.UTC).Day() != d.Day {
		bad("day out of range")
	}
	p.next()
	if p.pos.Line == d.DatePos.Line && p.tok != EOF {
		p.clockMistake(d)
	}
	if p.tok == CLOCK {
		hm := strings.Split(p.lit, ":")
		h, _ := strconv.Atoi(hm[0])
		m, _ := strconv.Atoi(hm[1])
		if len(hm[0]) > 2 || len(hm[1]) != 2 || h > 23 || m > 59 {
			p.fail(p.pos, p.lit, "time of day HH:MM", "invalid time of day "+short(p.lit)+" (want HH:MM, 00:00 to 23:59)")
		}
		d.HasClock, d.Hour, d.Minute = true, h, m
		p.next()
	}
	return d
}

// ---- notification

func (p *parser) parseNotify(pos Pos) *NotifyClause {
	c := &NotifyClause{Notify: pos}
	if !p.isWord("by") {
		p.byMissing()
	}
	p.expectWord(`"By"`, "by")
	for {
		c.Contacts = append(c.Contacts, p.parseContact(c.Contacts))
		if p.tok != COMMA {
			if p.isWord("email", "e-mail", "mail", "webhook") {
				// Notify By email a@b.example email c@d.example
				pos, word := p.pos, p.lit
				c.Contacts = append(c.Contacts, p.parseContact(c.Contacts))
				write := "a comma before " + word
				if all, fits := contactsWritten(c.Contacts); fits {
					write = "Notify By " + all
				}
				p.fail(pos, word, ",", "contacts are separated by commas: write "+write)
			}
			return c
		}
		p.next()
	}
}

// contactsWritten returns contacts as a Notify clause writes them, for
// a message that says to write them again: the password of a URL in
// any of them hidden (shownContact; an email, fax or PDA contact may
// hold a URL too: email https://u:pw@h.example), a chat URL's secrets
// hidden, its token and path, an email address's display name kept, ""
// for none. fits is
// false when they are longer than a message quotes (2*maxQuoted), as
// byMissing cuts its list: the message does not write them then.
func contactsWritten(contacts []*Contact) (text string, fits bool) {
	all := make([]string, len(contacts))
	for i, c := range contacts {
		shown := *c
		shown.Address = shownContact(c)
		all[i] = Print(&shown)
	}
	text = strings.Join(all, ", ")
	return text, len(text) <= 2*maxQuoted
}

// contactOptions is what is expected after Notify By. The seed's fax and
// PDA are parsed but not among them: the checker refuses both.
const contactOptions = "email <address>, webhook <URL> or a chat URL (slack://, discord://, telegram://, ntfy://, gotify://, mattermost://)"

// parseContact parses one contact of a Notify clause; before are the
// contacts read before it in the clause, which a message on it writes
// again in the clause it says to write.
func (p *parser) parseContact(before []*Contact) *Contact {
	c := &Contact{ContactPos: p.pos}
	value := func(what string) string {
		if p.tok != WORD && p.tok != STRING && p.tok != IDENT && p.tok != INT {
			p.failExpected(what)
		}
		v := p.litValue()
		c.addr = p.pos
		p.next()
		return v
	}
	switch {
	case p.isWord("email", "e-mail", "mail"):
		p.next()
		c.Kind, c.Address = Email, value("email address")
	case p.isWord("webhook"):
		p.next()
		c.Kind, c.Address = Webhook, value("webhook URL")
	case p.isWord("fax"):
		p.next()
		c.Kind, c.Address = Fax, value("fax number")
	case p.isWord("pda"):
		p.next()
		c.Kind, c.Address = PDA, value("PDA details")
	case p.tok == WORD || p.tok == STRING:
		v := p.litValue()
		scheme, _, hasScheme := strings.Cut(v, "://")
		switch {
		case hasScheme && IsChatScheme(strings.ToLower(scheme)):
			c.Kind = Chat
		case !hasScheme && strings.Contains(v, "@"):
			c.Kind = Email
		default:
			p.failExpected(contactOptions)
		}
		c.Address, c.addr = v, p.pos
		p.next()
	case p.tok == IDENT && IsChatScheme(strings.ToLower(p.lit)):
		// Notify By slack URL: the service named, its URL apart.
		write := strings.ToLower(p.lit) + "://..."
		if kept, fits := contactsWritten(before); !fits {
			write = "..., " + write
		} else if kept != "" {
			write = kept + ", " + write // Notify By email a@b.example, slack
		}
		p.failHere(p.lit, contactOptions, "expected "+contactOptions+", found "+p.describe()+": a chat service is named by the URL it gives, which begins with its scheme: write Notify By "+write)
	default:
		p.failExpected(contactOptions)
	}
	p.part(c)
	return c
}

func (p *parser) parseEvery(pos Pos) *EveryClause {
	c := &EveryClause{Every: pos}
	switch {
	case p.isWord("immediate"):
		c.Mode = Immediate
		p.next()
	case p.isWord("best"):
		p.next()
		p.nearWord(`"effort" after "best"`, "effort", "Every best effort")
		p.expectWord(`"effort" after "best"`, "effort")
		c.Mode = BestEffort
	case p.isWord("interactive"):
		c.Mode = Interactive
		p.next()
	case p.tok == INT:
		c.Mode = Periodic
		c.Interval = p.parseInterval("Every")
	default:
		p.intervalMistake("Every")
		p.nearWord("immediate, best effort, interactive or an interval", "immediate", "Every immediate")
		p.nearWord("immediate, best effort, interactive or an interval", "interactive", "Every interactive")
		p.failExpected("immediate, best effort, interactive or an interval")
	}
	return c
}

func (p *parser) parseCompare(pos Pos) *CompareClause {
	c := &CompareClause{Compare: pos}
	switch {
	case p.isWord("pairwise"):
		c.Method = Pairwise
		p.next()
		if p.tok == INT && p.pos.Line == pos.Line {
			// Compare pairwise 2: a count, which pairwise takes not.
			p.failHere(p.lit, "a clause", "Compare takes pairwise, every <n> or moving <n>, and pairwise takes no number: write Compare pairwise")
		}
	case p.tok == EVERY || p.isWord("moving"):
		c.Method = EveryN
		if p.tok != EVERY {
			c.Method = MovingN
		}
		p.next()
		c.N = p.parseInt("n (an integer) after " + c.Method.String())
	case p.tok == IDENT && glued(p.lit) != 0:
		// the seed's grammar writes moving<n> and every<n>: accept "moving4"
		c.Method = glued(p.lit)
		n, err := strconv.ParseInt(p.lit[len(c.Method.String()):], 10, 64)
		if err != nil {
			p.fail(p.pos, p.lit, "n (an integer)", "number in "+short(p.lit)+" out of range")
		}
		c.N = n
		p.next()
	default:
		p.failExpected("pairwise, every <n> or moving <n>")
	}
	return c
}

// glued returns EveryN or MovingN for "every3" or "moving4", else 0.
func glued(w string) CompareMethod {
	lw := strings.ToLower(w)
	for _, m := range []CompareMethod{EveryN, MovingN} {
		rest, ok := strings.CutPrefix(lw, m.String())
		if ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
			return m
		}
	}
	return 0
}

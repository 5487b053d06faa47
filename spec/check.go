package spec

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
)

// Checked is a sentinel that passed the checker: complete (inheritance and
// defaults applied) and resolved.
type Checked struct {
	// Sentinel has every clause present, stated, inherited or default,
	// except Confirm (nil when not asked for) and Notify (nil when nobody is
	// to be notified: changes are only shown on the dashboard). Inherited
	// clauses share their nodes with the parent's; default clauses have no
	// positions. Print(Sentinel) restates the sentinel in full.
	Sentinel *Sentinel
	// Parent is the name of the sentinel inherited from ("Using s1"), or "".
	Parent string
	// Inherited lists the clauses taken from Parent, in canonical order
	// ("Monitor", "Fetch", "Confirm", "From", "To", "Notify", "Every",
	// "Compare").
	Inherited []string
	// Defaulted lists the clauses neither stated nor inherited, filled with
	// their defaults, in the same order. A sentinel Using this one does not
	// inherit them: it gets defaults of its own, which may differ (Every
	// follows its own Notify clause, To its own From).
	Defaulted []string
	// defaultedUnknown is set on a Checked decoded from JSON written
	// before Defaulted was kept: inherit guesses it (inferDefaulted).
	defaultedUnknown bool
	// URLs are the pages watched, each once, in the form NormalizeURL
	// gives ("http://" added, the default port dropped, "/" for an empty
	// path). One stored before that form may hold an older one.
	URLs []string
	// Requires is the Using clause as alternatives of pages that must all
	// change (its disjunctive normal form), by index in URLs: "A AND B" is
	// [[0 1]], "(A OR B) AND C" is [[0 2] [1 2]]. It is nil when a change
	// on any one page suffices (no AND), the common case.
	Requires [][]int
	// Site is set when the sentinel watches a whole site (a site target,
	// or the sentinel it inherits from watches one): its start URL, in
	// URLs too, and the bounds of its crawl, defaults filled in.
	Site *Site
	// Start and End are the lifespan resolved to absolute times, as the
	// seed's Fig 7.2 and Appendix C compute them. For an event of another
	// sentinel that has not happened yet they are estimates: the scheduler
	// should still wait for the event itself.
	Start, End time.Time
	// Warnings are legal but probably unintended constructs ("all words OR
	// any change" is "any change").
	Warnings ErrorList
}

// Site is a site a checked sentinel watches: the crawl from URL (the
// form NormalizeURL gives) at most Depth links deep, fetching at most
// Pages URLs, following links under the Scope prefixes (in the form
// NormalizeURL gives; none means the directory of URL) whose URL Match
// matches (an RE2 regular expression; empty matches all).
type Site struct {
	URL   string   `json:"url"`
	Depth int      `json:"depth"`
	Pages int      `json:"pages"`
	Scope []string `json:"scope,omitempty"`
	Match string   `json:"match,omitempty"`
}

// Stored is a sentinel the checker already knows: checked earlier and kept by
// the caller, with its run-time status (the seed's wv_sentinelstatus).
type Stored struct {
	*Checked
	Started time.Time // when it actually started; zero if it has not
	Ended   time.Time // when it actually ended; zero if it has not
	// Location is the time zone its dates were read in when it was
	// checked (the Checker's Location then), nil if not known. An edit
	// (CheckReplace) in another zone reads a date it writes the same
	// again, in the new zone, where it keeps it in the same zone (or an
	// unknown one): see checking.point.
	Location *time.Location
	// Unreadable, if not nil, is why the stored sentinel could not be
	// read back (its JSON form does not decode); Checked is then nil.
	// Its name is still the owner's: a sentinel of the same name is not
	// unique, and one that uses it or refers to its events is told it
	// cannot be read, and why.
	Unreadable error
	// At is where its name is in the file it was checked from in this
	// process (CheckFile), so that a later sentinel of the same name is
	// told where the first is; invalid for a sentinel read from a store.
	At Position
}

// Checker applies the semantic rules of the seed (chapter 6) to the
// sentinels of one owner. Sentinel names are per owner, so use one Checker
// per owner.
//
// The checker is incremental: it knows the owner's existing sentinels
// through Add (for sentinels checked in this process) and Lookup (for
// sentinels in a store), and checks a new sentinel against them. A Checker
// is not safe for concurrent use.
type Checker struct {
	// Now is the creation time of the sentinels checked: the value of Now
	// in the language and the reference of the time-lapse rules. Required.
	Now time.Time
	// Location is the time zone of dates written in the language; nil
	// means UTC.
	Location *time.Location
	// Owner is the owner's email address, the contact used when a sentinel
	// has no Notify clause and inherits none (the seed: "the default
	// mechanism is email", the user id being the email address). Empty
	// means such sentinels notify nobody.
	Owner string
	// Unavailable names the notification channels this server cannot use,
	// with the reason ("this server has no SMTP relay"): a contact of one
	// of them is a warning (the sentinel is valid, and its changes are
	// kept, but nobody is told), and a sentinel with no Notify clause does
	// not default to the Owner's email when email is unavailable. The
	// default is decided when a sentinel is checked: one checked while
	// email was off keeps notifying nobody once a relay is configured,
	// until it is edited or added again.
	Unavailable map[ContactKind]string
	// DefaultLifespan is added to the start of a sentinel that has no To
	// clause and inherits none. Zero means 12 months.
	DefaultLifespan Duration
	// Lookup returns a stored sentinel of the owner by name (compared
	// without regard to case), or nil; one whose stored form does not
	// decode is returned Unreadable, not left out, so that its name stays
	// taken. It may be nil.
	Lookup func(name string) *Stored
	// CompileSelector, if not nil, compiles a selector's expression as the
	// monitor will (intent.CheckSelector does) and returns its error with
	// the 1-based column of the error in the expression, counted in runes
	// of the unquoted expression (0 if unknown). The checker reports it at
	// that place in the source, where columns count bytes. Without it the checker only
	// sees that brackets and quotes balance.
	CompileSelector func(lang SelectorLang, expr string) (column int, err error)
	// CheckChat, if not nil, reads a chat URL as the notifier will and
	// returns why it cannot be used (a Slack URL without a channel, a
	// Telegram one without a chat), an error the checker reports at the
	// URL as it is worded: it names the URL, its secrets hidden, and the
	// part at fault (chat.Check: chat URL "discord://***@123": the
	// webhook token is missing). Without it the checker only checks the
	// scheme and the length. A stored sentinel checked again
	// (RecheckStored) is warned of what it returns, not refused.
	CheckChat func(url string) error
	// NoRender, if not empty, says why this server cannot render pages
	// ("no Chromium at /usr/bin/chromium"): a sentinel that says Fetch ...
	// render is valid, with a warning, and its checks fail until it can.
	NoRender string
	// Unreachable, if not nil, returns why this server will not reach a
	// URL (a page, or a webhook), or "" if it will: a server that does
	// not fetch private addresses (vigil serve without
	// --allow-private-networks) is asked for a page at 127.0.0.1. Such a
	// page or webhook is valid, with a warning at its URL: the server's
	// setting may change, and another server of the store may reach it.
	Unreachable func(url string) string

	known map[string]*Stored
	bad   map[string]bool
	// later holds where the sentinels of the file being checked that are
	// not checked yet are defined (see Ahead).
	later map[string]Position
	// replacing is the stored sentinel CheckReplace checks an edit of.
	replacing *Stored
	// stored: RecheckStored is checking a stored sentinel again.
	stored bool
}

// NewChecker returns a checker whose Now is now and whose location is UTC.
func NewChecker(now time.Time) *Checker { return &Checker{Now: now} }

// Add makes a sentinel known to the checker, as if it had been stored.
func (c *Checker) Add(s *Stored) {
	if s == nil || s.Checked == nil || s.Sentinel == nil || s.Sentinel.Name == nil {
		return
	}
	if c.known == nil {
		c.known = map[string]*Stored{}
	}
	c.known[nameKey(s.Sentinel.Name.Name)] = s
}

// Failed tells the checker that the sentinel named name was found in
// error and not added: a later sentinel that uses it, or refers to its
// events, is told "sentinel NAME has errors" rather than "unknown
// sentinel NAME". CheckFile does this for the sentinels of its file; a
// caller that checks them one at a time with Check does it itself.
func (c *Checker) Failed(name string) {
	if c.bad == nil {
		c.bad = map[string]bool{}
	}
	c.bad[nameKey(name)] = true
}

// Ahead tells c where each sentinel of f is defined, before any of them is
// checked, so that one checked before another that it uses, or whose events
// it refers to, is told where that one is and to define it first (a
// sentinel uses only those defined before it), not only that the name is
// unknown. Once a sentinel is checked (Add, or Failed), its name is known,
// and its place no longer counts. CheckFile calls it.
func (c *Checker) Ahead(f *File) {
	for _, s := range f.Sentinels {
		if s.Name == nil {
			continue
		}
		if c.later == nil {
			c.later = map[string]Position{}
		}
		if _, ok := c.later[nameKey(s.Name.Name)]; !ok {
			c.later[nameKey(s.Name.Name)] = s.Name.NamePos.Position(f.Name)
		}
	}
}

func (c *Checker) lookup(name string) *Stored {
	if s, ok := c.known[nameKey(name)]; ok {
		return s
	}
	if c.Lookup != nil {
		return c.Lookup(name)
	}
	return nil
}

func (c *Checker) loc() *time.Location {
	if c.Location != nil {
		return c.Location
	}
	return time.UTC
}

// CheckFile checks the sentinels of f in order. Each valid sentinel is
// added to the checker (created at Now, not started), so later sentinels
// may use it or refer to its events. It returns the checked sentinels (nil
// for those with errors, so the slice is parallel to f.Sentinels) and an
// ErrorList sorted by position, of at most MaxErrors errors and a last
// "too many errors". A sentinel Parse read with syntax errors is checked
// as CheckPartial checks it: its semantic errors are reported (not its
// syntax errors, which are Parse's), and it is nil in the result.
func (c *Checker) CheckFile(f *File) ([]*Checked, error) {
	var errs ErrorList
	out := make([]*Checked, len(f.Sentinels))
	c.Ahead(f)
	for i, s := range f.Sentinels {
		ch, el := c.checkAs(f.Name, s, s.HasSyntaxErrors())
		errs = append(errs, el...)
		if ch != nil && len(el) == 0 {
			out[i] = ch
			c.Add(&Stored{Checked: ch, At: s.Name.NamePos.Position(f.Name)})
		} else if s.Name != nil {
			c.Failed(s.Name.Name)
		}
	}
	errs.limit(MaxErrors)
	return out, errs.Err()
}

// Check checks one sentinel against the known ones and returns it complete
// and resolved. It does not add it; call Add once it is stored. The error,
// if any, is an ErrorList sorted by position (positions without a file
// name), cut at MaxErrors as CheckFile's is.
func (c *Checker) Check(s *Sentinel) (*Checked, error) {
	ch, errs := c.check("", s)
	if len(errs) > 0 {
		errs.limit(MaxErrors)
		return nil, errs
	}
	return ch, nil
}

// RecheckStored is CheckReplace for a stored sentinel checked again, from
// its source, because one it uses (Using, start(), end(), during()) was
// edited: the URL rules added after sentinels were stored with URLs they
// break (a port outside 1 to 65535, a mistyped "http:/a.example", a host
// DNS refuses) are left out, and the Monitor rules added after (a NOT
// that narrows nothing, operands that differ only in case) are warnings,
// as Checked.UnmarshalJSON leaves them out when it is read back, so that
// an edit of the one it uses is not refused for a URL or an expression
// of its own that was valid when it was stored.
func (c *Checker) RecheckStored(name string, s *Sentinel) (*Checked, error) {
	c.stored = true
	defer func() { c.stored = false }()
	return c.CheckReplace(name, s)
}

// CheckReplace checks s as the new version of the stored sentinel named old
// (an edit): old does not count against the uniqueness of the name and is
// not visible to s, so a lifespan of s that depends, through other stored
// sentinels, on old itself is reported as a cycle. Sentinels that depend
// on old are not re-checked; the caller may re-check them.
func (c *Checker) CheckReplace(old string, s *Sentinel) (*Checked, error) {
	var ch *Checked
	var err error
	c.asReplacing(old, func() { ch, err = c.Check(s) })
	return ch, err
}

// CheckPartial returns the semantic errors of s, a sentinel Parse (or
// ParseSentinel) read with syntax errors, its partial result, so that
// one run tells every problem of its text: the rules are applied to the
// clauses that parsed, and to the target when the header did, but not
// those that need a clause that did not parse, which is neither
// inherited nor defaulted (a misspelt word between the clauses may be
// any clause it does not state). Of a clause (or a header) that did not
// parse, the pieces read cleanly before its syntax error are checked
// alone: the change types, contacts, intervals, events and the pages,
// sites and sentinels of the target it holds there ("Notify By email nope,
// ???" is told that nope is no address). old, if not "", is the name of the
// stored sentinel s is an edit of, as for CheckReplace. A sentinel
// without syntax errors is checked as Check does. The list is sorted
// and cut at MaxErrors as Check's is, nil if it finds nothing; nothing
// is added, and s is never valid: its syntax errors are Parse's to
// report.
func (c *Checker) CheckPartial(old string, s *Sentinel) ErrorList {
	var errs ErrorList
	check := func() {
		_, errs = c.checkAs("", s, true)
		errs.limit(MaxErrors)
	}
	if old == "" {
		check()
	} else {
		c.asReplacing(old, check)
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// asReplacing runs check with the stored sentinel named old set aside,
// as CheckReplace describes.
func (c *Checker) asReplacing(old string, check func()) {
	saved, savedLookup := c.known, c.Lookup
	c.replacing = c.lookup(old)
	defer func() { c.known, c.Lookup, c.replacing = saved, savedLookup, nil }()
	if _, ok := c.known[nameKey(old)]; ok {
		c.known = make(map[string]*Stored, len(saved))
		for k, v := range saved {
			if k != nameKey(old) {
				c.known[k] = v
			}
		}
	}
	if savedLookup != nil {
		c.Lookup = func(name string) *Stored {
			// The edited sentinel's name as the known map keys it (its
			// lower case), not strings.EqualFold, which takes a long s
			// for an s: "beſt" is another sentinel than "best".
			if nameKey(name) == nameKey(old) {
				return nil
			}
			return savedLookup(name)
		}
	}
	check()
}

// checking is the state of one Check.
type checking struct {
	c        *Checker
	filename string
	s        *Sentinel
	errs     ErrorList
	warnings ErrorList
	urls     map[*URLTarget]string // normalised by the validator
	// unknown reports whether a clause s does not state may be one that
	// did not parse (CheckPartial): it is neither inherited nor
	// defaulted.
	unknown func(Token) bool
}

func (k *checking) errorf(n Node, found, format string, args ...any) {
	k.errorAt(posOf(n), found, format, args...)
}

// errorAt reports an error at pos, where found stands.
func (k *checking) errorAt(pos Pos, found, format string, args ...any) {
	k.errs = append(k.errs, &Error{Pos: pos.Position(k.filename), Msg: fmt.Sprintf(format, args...), Found: found})
}

func (k *checking) report(n Node, found, msg string) { k.errorf(n, found, "%s", msg) }

func (k *checking) warn(n Node, found, msg string) {
	pos := posOf(n)
	k.warnings = append(k.warnings, &Error{Pos: pos.Position(k.filename), Msg: msg, Found: found})
}

func (c *Checker) check(filename string, s *Sentinel) (*Checked, ErrorList) {
	return c.checkAs(filename, s, false)
}

// checkAs is check, or, partial, the check of a sentinel read with
// syntax errors (CheckPartial): its clauses that did not parse left out
// and not made up, and nothing returned but errors.
func (c *Checker) checkAs(filename string, s *Sentinel, partial bool) (*Checked, ErrorList) {
	ch, errs := c.checkBody(filename, s, partial)
	if s.HasSyntaxErrors() {
		ch = nil // never valid: part of it was not read
	}
	return ch, errs
}

func (c *Checker) checkBody(filename string, s *Sentinel, partial bool) (*Checked, ErrorList) {
	k := &checking{c: c, filename: filename, s: s, unknown: func(Token) bool { return false }}
	if partial && s != nil {
		k.s, k.unknown = s.readable()
		s = k.s
		if s.Target == nil {
			// Its header did not parse: the clauses are checked alone.
			return nil, k.headless()
		}
	} else if s.HasSyntaxErrors() {
		k.errorf(s, "", "incomplete sentinel: it has syntax errors")
		return nil, k.errs
	}
	if s == nil || s.Name == nil || s.Target == nil {
		var n Node
		if s != nil {
			n = s
		}
		k.errorf(n, "", "incomplete sentinel: Create Sentinel <name> Using <target> is required")
		return nil, k.errs
	}
	if c.Now.IsZero() {
		k.errorf(s, "", "checker has no current time (Checker.Now)")
		return nil, k.errs
	}
	v := &validator{report: k.report, warn: k.warn, urls: map[*URLTarget]string{}, compile: c.CompileSelector, unavailable: c.Unavailable, checkChat: c.CheckChat,
		unreachable: c.Unreachable, stored: c.stored}
	v.sentinel(s)
	k.urls = v.urls
	k.parts(v)

	k.nameTaken()

	ch := &Checked{}
	var parent *Stored
	urls, requires, site := k.targets(s.Target, &parent)
	ch.URLs, ch.Requires, ch.Site = urls, requires, site

	out := *s
	// Stored and shown as fetched: "example.org" is "http://example.org/".
	out.Target = canonicalTarget(s.Target, !c.stored)
	if parent != nil {
		ch.Parent = parent.Sentinel.Name.Name
		k.inherit(&out, parent, ch)
	}
	k.defaults(&out, ch)
	ch.Sentinel = &out

	// Rules that need the complete sentinel.
	k.intervalsFit(&out)
	k.confirmFits(&out, s)
	if out.Compare != nil && out.Compare.Method == EveryN && out.Compare.N >= 2 && out.Fetch != nil && out.Fetch.Interval != nil && out.Fetch.Interval.N > 0 {
		d := out.Fetch.Interval.Duration
		k.warn(k.blame(s.Compare), "", fmt.Sprintf("Compare every %d with Fetch %s compares the same versions as Compare pairwise with Fetch %s",
			out.Compare.N, d, Duration{N: d.N * out.Compare.N, Unit: d.Unit}))
	}
	if out.Compare != nil && out.Compare.Method == MovingN && out.Compare.N == 2 && ch.Site == nil {
		k.warn(k.blame(s.Compare), "", "Compare moving 2 compares the same versions as Compare pairwise")
	}
	if ch.Site != nil {
		k.siteClauses(&out)
	}
	if out.Fetch != nil && out.Fetch.Render && c.NoRender != "" && ch.Site == nil {
		k.warn(k.blame(s.Fetch), "render", fmt.Sprintf("this server cannot render pages (%s): the checks of this sentinel fail until it can", c.NoRender))
	}
	interactive := out.Every != nil && out.Every.Mode == Interactive
	if interactive && out.Notify != nil && len(out.Notify.Contacts) > 0 {
		k.warn(k.blame(s.Every), "", "Every interactive sends nothing to the contacts of Notify: the changes are shown on the dashboard only (Every immediate, best effort or an interval sends them)")
	}
	if s.Notify == nil && out.Notify != nil && parent != nil && !interactive {
		// A Notify clause inherited: its contacts were checked with the
		// parent, but the channels may be off here all the same.
		for _, c := range out.Notify.Contacts {
			if why, off := k.c.Unavailable[c.Kind]; off {
				k.warn(s.Target, "", fmt.Sprintf("the Notify clause inherited from %s notifies by %s, which will not be sent: %s", short(ch.Parent), c.Kind, why))
				break
			}
		}
	}
	ch.Start, ch.End = k.lifespan(&out, parent, slices.Contains(ch.Defaulted, "To"))
	ch.Warnings = k.warnings
	ch.Warnings.Sort()
	return ch, k.errs
}

// intervalsFit reports the intervals of out, the complete sentinel, that
// are longer than Vigil can count (about 292 years; see
// Duration.fitsStd): the monitor would wait for a Fetch, Confirm or Every
// interval of a time.Duration cut short, or not at all, and the schedule
// would add a shorter offset than written. A stated clause is blamed at the
// interval, one inherited or defaulted at the target. Stored sentinels are
// not refused for it when they are read back (the decoder's validator
// does not apply this rule).
func (k *checking) intervalsFit(out *Sentinel) {
	s := k.s
	seen := map[*Interval]bool{}
	fit := func(iv *Interval, stated bool, what string) {
		if iv == nil || seen[iv] || iv.Unit < Second || iv.Unit > Month || iv.fitsStd() {
			return
		}
		seen[iv] = true
		at, found := Node(s.Target), ""
		if stated && posOf(iv).IsValid() {
			at, found = iv, iv.found()
		}
		k.errorf(at, found, "%s %s is longer than Vigil can count (about 292 years)", what, iv.Duration)
	}
	if out.Fetch != nil && !out.Fetch.OnChange {
		fit(out.Fetch.Interval, s.Fetch != nil, "Fetch")
	}
	if out.Confirm != nil {
		fit(out.Confirm.After, s.Confirm != nil, "Confirm after")
	}
	if out.Every != nil && out.Every.Mode == Periodic {
		fit(out.Every.Interval, s.Every != nil, "Every")
	}
	for _, ts := range []struct {
		t      *TimeSpec
		stated bool
		what   string
	}{{out.From, s.From != nil, "From offset"}, {out.To, s.To != nil, "To offset"}} {
		if ts.t != nil {
			for _, off := range ts.t.Offsets {
				fit(off, ts.stated, ts.what)
			}
		}
	}
}

// confirmFits reports the Confirm interval of out, the complete
// sentinel (or, headless, the sentinel as stated), that is not shorter
// than its Fetch interval, at s's Confirm clause if it states one.
func (k *checking) confirmFits(out, s *Sentinel) {
	if out.Confirm != nil && out.Fetch != nil && out.Fetch.Interval != nil && out.Confirm.After != nil {
		conf, ok1 := out.Confirm.After.Std()
		fetch, ok2 := out.Fetch.Interval.Std()
		if ok1 && ok2 && conf >= fetch && out.Confirm.After.N > 0 && out.Fetch.Interval.N > 0 {
			k.errorf(k.blame(s.Confirm), out.Confirm.After.Duration.String(), "Confirm after %s must be shorter than Fetch %s", out.Confirm.After.Duration, out.Fetch.Interval.Duration)
		}
	}
}

// blame returns the node an error about a clause is reported at: the clause
// if the sentinel states it, else the Using target (it was inherited).
func (k *checking) blame(stated Node) Node {
	if stated != nil && !isNilNode(stated) {
		return stated
	}
	return k.s.Target
}

// isNilNode reports whether n is nil or a nil pointer in an interface.
func isNilNode(n Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// posOf returns the position of n, or the zero Pos for a nil node.
func posOf(n Node) Pos {
	if isNilNode(n) {
		return Pos{}
	}
	return n.Pos()
}

// siteClauses reports the clauses of out, the complete sentinel of a
// site, that a site's checks cannot honour: each check crawls the site
// anew and compares the crawl with the one before, with plain HTTP.
func (k *checking) siteClauses(out *Sentinel) {
	s := k.s
	if out.Confirm != nil {
		k.errorf(k.blame(s.Confirm), "Confirm", "Confirm is not supported for a site: each check crawls it anew")
	}
	if c := out.Compare; c != nil && c.Method != Pairwise {
		k.errorf(k.blame(s.Compare), c.Method.String(), "a site is compared pairwise, each crawl with the one before: Compare %s is not supported", c.Method)
	}
	if f := out.Fetch; f != nil && f.Render {
		k.errorf(k.blame(s.Fetch), "render", "Fetch render is not supported for a site: its pages are fetched with plain HTTP")
	}
}

// siteOf resolves a site target: its URL in normal form and its bounds,
// defaults filled in; nil if its URL is not valid (the validator said).
// Not strict, it takes the URLs a stored sentinel may hold (normalizeURL).
func siteOf(t *SiteTarget, strict bool) *Site {
	u, err := normalizeURL(t.URL, strict)
	if err != nil {
		return nil
	}
	site := &Site{URL: u, Depth: DefaultSiteDepth, Pages: DefaultSitePages}
	if t.Depth != nil {
		site.Depth = int(t.Depth.N)
	}
	if t.Pages != nil {
		site.Pages = int(t.Pages.N)
	}
	for _, s := range t.Scope {
		if s == nil {
			return nil // the validator said
		}
		u, err := normalizeURL(s.Value, strict)
		if err != nil {
			return nil
		}
		if !slices.Contains(site.Scope, u) {
			site.Scope = append(site.Scope, u)
		}
	}
	if t.Match != nil {
		site.Match = t.Match.Value
	}
	return site
}

// targets resolves the Using clause: the URLs watched, the alternatives of
// pages that must all change (see Checked.Requires), the site watched,
// and the parent when the target is a single sentinel.
func (k *checking) targets(t Target, parent **Stored) ([]string, [][]int, *Site) {
	var site *Site
	var urls []string
	index := map[string]int{}
	add := func(u string) int {
		// A sentinel used as a target may have been stored with an older
		// normal form ("http://a.example"): its pages are written, and
		// told from the others, in the present one.
		if n, err := NormalizeURL(u); err == nil {
			u = n
		}
		i, ok := index[u]
		if !ok {
			i = len(urls)
			index[u] = i
			urls = append(urls, u)
		}
		return i
	}
	w := alternativesWalker{
		url: func(t *URLTarget) ([][]int, bool) {
			if u, ok := k.urls[t]; ok {
				return [][]int{{add(u)}}, true
			}
			return nil, true
		},
		site: func(st *SiteTarget) ([][]int, bool) {
			if st != t { // an operand: the validator said
				return nil, true
			}
			if site = siteOf(st, !k.c.stored); site == nil {
				return nil, true
			}
			return [][]int{{add(site.URL)}}, true
		},
		sentinel: func(st *SentinelTarget) ([][]int, bool) {
			if st.Name == nil {
				return nil, true
			}
			ref := k.ref(st.Name, "Using")
			if ref == nil {
				return nil, true
			}
			if ref.Site != nil {
				if st != t {
					k.errorf(st, st.Name.Name, "sentinel %s watches a site, which cannot be an operand of AND or OR", short(st.Name.Name))
					return nil, true
				}
				s := *ref.Site
				s.Scope = slices.Clone(s.Scope)
				if n, err := NormalizeURL(s.URL); err == nil {
					s.URL = n
				}
				site = &s
				return [][]int{{add(s.URL)}}, true
			}
			local := make([]int, len(ref.URLs))
			for i, u := range ref.URLs {
				local[i] = add(u)
			}
			refAlts := ref.Alternatives()
			if refAlts == nil { // any one of its pages
				for i := range local {
					refAlts = append(refAlts, []int{i})
				}
			}
			var alts [][]int
			for _, r := range refAlts {
				set := make([]int, 0, len(r))
				for _, i := range r {
					if i >= 0 && i < len(local) {
						set = append(set, local[i])
					}
				}
				alts = append(alts, set)
			}
			return alts, true
		},
		tooMany: func(t *BinaryTarget) {
			k.errorAt(t.OpPos, t.Op.String(), "the Using clause has more than %d combinations of pages once its ANDs and ORs are distributed", maxAlternatives)
		},
	}
	alts, _ := w.walk(t)
	if st, ok := t.(*SentinelTarget); ok && st.Name != nil {
		if ref := k.c.lookup(st.Name.Name); ref != nil && ref.Checked != nil && ref.Sentinel != nil && !sameName(st.Name.Name, k.s.Name.Name) {
			*parent = ref
		}
	}
	return urls, normalizeAlternatives(alts, len(urls)), site
}

// ref looks up a sentinel named in the Using clause or an event, reporting
// an unknown name and a reference to the sentinel itself.
func (k *checking) ref(id *Ident, where string) *Stored {
	if k.s.Name != nil && sameName(id.Name, k.s.Name.Name) {
		k.errorf(id, id.Name, "sentinel %s cannot refer to itself in %s", short(id.Name), where)
		return nil
	}
	ref := k.c.lookup(id.Name)
	if ref == nil {
		if k.c.bad[nameKey(id.Name)] {
			k.errorf(id, id.Name, "sentinel %s has errors", short(id.Name))
		} else if at, ok := k.c.later[nameKey(id.Name)]; ok {
			k.errorf(id, id.Name, "sentinel %s is defined after this one, at %s: define it first (a sentinel uses only those defined before it)", short(id.Name), at)
		} else {
			k.errorf(id, id.Name, "unknown sentinel %s", short(id.Name))
		}
		return nil
	}
	if ref.Unreadable != nil {
		k.errorf(id, id.Name, "sentinel %s cannot be read from the store: %v", short(id.Name), ref.Unreadable)
		return nil
	}
	if ref.Checked == nil || ref.Sentinel == nil {
		k.errorf(id, id.Name, "sentinel %s is not checked", short(id.Name))
		return nil
	}
	return ref
}

// inherit copies into out the clauses the child does not state (seed §5.2:
// "s_n inherits its properties from s_i, unless the user overrides those
// properties"). The parent's properties are what it states or inherits,
// not the defaults it was given: a child that adds a Notify clause to a
// parent without one is pushed its changes (Every best effort), not kept
// interactive, and one that writes its own From ends a lifespan after it.
func (k *checking) inherit(out *Sentinel, parent *Stored, ch *Checked) {
	p := parent.Sentinel
	defaulted := parent.Defaulted
	if defaulted == nil && parent.defaultedUnknown {
		defaulted = k.inferDefaulted(p)
	}
	take := func(name string, missing bool, copyFn func()) {
		if missing && !slices.Contains(defaulted, name) && !k.unknown(clauseToken(name)) {
			copyFn()
			ch.Inherited = append(ch.Inherited, name)
		}
	}
	take("Monitor", out.Monitor == nil && p.Monitor != nil, func() { out.Monitor = p.Monitor })
	take("Fetch", out.Fetch == nil && p.Fetch != nil, func() { out.Fetch = p.Fetch })
	take("Confirm", out.Confirm == nil && p.Confirm != nil, func() { out.Confirm = p.Confirm })
	take("From", out.From == nil && p.From != nil, func() { out.From = p.From })
	take("To", out.To == nil && p.To != nil, func() { out.To = p.To })
	take("Notify", out.Notify == nil && p.Notify != nil, func() { out.Notify = p.Notify })
	take("Every", out.Every == nil && p.Every != nil, func() { out.Every = p.Every })
	take("Compare", out.Compare == nil && p.Compare != nil, func() { out.Compare = p.Compare })
}

// inferDefaulted returns the clauses of a sentinel stored before Checked
// kept its Defaulted list that were probably defaults: an Every or a To
// equal to the default the checker gives them. Those are the two whose
// default depends on another clause; the others' defaults are the same
// for parent and child.
func (k *checking) inferDefaulted(p *Sentinel) []string {
	var out []string
	if p.To != nil && p.From != nil && Print(p.To) == Print(defaultTo(p.From, k.c.lifespan())) {
		out = append(out, "To")
	}
	if p.Every != nil && p.Every.Interval == nil && p.Every.Mode == defaultEvery(p.Notify) {
		out = append(out, "Every")
	}
	return out
}

// defaults fills the clauses neither stated nor inherited, and lists them
// in ch.Defaulted.
func (k *checking) defaults(out *Sentinel, ch *Checked) {
	fill := func(name string, missing bool, set func()) {
		if missing && !k.unknown(clauseToken(name)) {
			set()
			ch.Defaulted = append(ch.Defaulted, name)
		}
	}
	fill("Monitor", out.Monitor == nil, func() { out.Monitor = &MonitorClause{X: &ChangeType{Kind: AnyChange}} })
	fill("Fetch", out.Fetch == nil, func() { out.Fetch = &FetchClause{OnChange: true} })
	fill("From", out.From == nil, func() { out.From = &TimeSpec{Base: &Now{}} })
	// The defaults of To and Every follow From and Notify: not known
	// when those are not (CheckPartial).
	fill("To", out.To == nil && out.From != nil, func() { out.To = defaultTo(out.From, k.c.lifespan()) })
	_, off := k.c.Unavailable[Email]
	fill("Notify", out.Notify == nil && k.c.Owner != "" && !off, func() {
		out.Notify = &NotifyClause{Contacts: []*Contact{{Kind: Email, Address: k.c.Owner}}}
	})
	fill("Every", out.Every == nil && (out.Notify != nil || !k.unknown(NOTIFY)), func() { out.Every = &EveryClause{Mode: defaultEvery(out.Notify)} })
	fill("Compare", out.Compare == nil, func() { out.Compare = &CompareClause{Method: Pairwise} })
}

// lifespan returns DefaultLifespan, or its default of 12 months.
func (c *Checker) lifespan() Duration {
	if c.DefaultLifespan.IsZero() {
		return Duration{N: 12, Unit: Month}
	}
	return c.DefaultLifespan
}

// defaultTo returns the To clause of a sentinel that starts at from and
// states none: the lifespan after its start (after now for From during(s),
// whose start is s's).
func defaultTo(from *TimeSpec, life Duration) *TimeSpec {
	to := &TimeSpec{Base: from.Base}
	if ev, ok := to.Base.(*Event); ok && ev.Kind == During {
		to.Base = &Now{}
	}
	to.Offsets = append(append([]*Interval(nil), from.Offsets...), &Interval{Duration: life})
	return to
}

// defaultEvery returns the Every mode of a sentinel that states none: best
// effort when it notifies someone, interactive (shown, never pushed) when
// not.
func defaultEvery(n *NotifyClause) NotifyMode {
	if n != nil {
		return BestEffort
	}
	return Interactive
}

// clauseToken returns the keyword token of the clause named name
// ("Monitor" to "Compare").
func clauseToken(name string) Token {
	return keywords[strings.ToLower(name)]
}

// headless returns the errors of a sentinel whose header did not parse,
// its target unknown (CheckPartial): those of its name, if the parser
// read one, of each clause alone and of the pieces of its target read
// before the error (parts), and the rules that need no clause but those
// it states. Lost with the target are the rules of the target (the
// sentinel it uses, its pages and site), inheritance and the defaults,
// and so every rule that needs a clause it does not state, which may be
// inherited: Confirm is compared with Fetch when it states both, and its
// lifespan resolved as far as it states it: a From or a To that has
// passed, an unknown sentinel in an event, To Now, and To not after From
// when it states both.
func (k *checking) headless() ErrorList {
	s := k.s
	v := &validator{report: k.report, warn: k.warn, urls: map[*URLTarget]string{}, compile: k.c.CompileSelector, unavailable: k.c.Unavailable, checkChat: k.c.CheckChat,
		unreachable: k.c.Unreachable, stored: k.c.stored}
	v.sentinel(s)
	k.parts(v)
	if s.Name != nil {
		k.nameTaken()
	}
	if k.c.Now.IsZero() {
		return k.errs
	}
	k.intervalsFit(s)
	k.confirmFits(s, s)
	switch {
	case s.From != nil && s.To != nil:
		k.lifespan(s, nil, false)
	case s.From != nil:
		k.point(s.From, true, s.From, "")
	case s.To != nil:
		if _, ok := k.point(s.To, false, s.To, ""); ok {
			k.toNow(s.To, s.To, "")
		}
	}
	return k.errs
}

// parts checks the pieces of the clauses (and header) that did not
// parse which read cleanly before the syntax error (see part), each
// alone: a change type, the contacts read (one with another, which
// were both written), an interval as its clause takes it, a page of the
// target, a site of the target as far as it was read (its URL, bounds,
// scopes and match), and the sentinel an event or the target names,
// which must be known. No rule that needs the rest of the clause
// applies: a NOT, an AND or OR of change types or targets (a site as an
// operand), the time an event or a date and its offsets make.
func (k *checking) parts(v *validator) {
	notify := &NotifyClause{}
	for _, pt := range k.s.parts {
		switch n := pt.n.(type) {
		case *ChangeType:
			v.changeType(n)
		case *Contact:
			notify.Contacts = append(notify.Contacts, n)
		case *Interval:
			switch pt.clause {
			case FETCH:
				v.fixedInterval(n, "Fetch")
			case CONFIRM:
				v.fixedInterval(n, "Confirm after")
			case EVERY:
				v.interval(n, "Every")
			case FROM, TO:
				v.interval(n, "offset")
			}
		case *Event:
			if n.Name != nil && IsValidName(n.Name.Name) {
				k.ref(n.Name, n.Kind.String()+"(...)")
			}
		case *URLTarget, *SiteTarget:
			v.target(n.(Target))
		case *SentinelTarget:
			v.target(n)
			if n.Name != nil && IsValidName(n.Name.Name) {
				k.ref(n.Name, "Using")
			}
		}
	}
	if len(notify.Contacts) > 0 {
		v.notify(notify)
	}
}

// nameTaken reports the name of the sentinel checked when another of the
// owner's sentinels has it.
func (k *checking) nameTaken() {
	name := k.s.Name.Name
	if old := k.c.lookup(name); old != nil {
		holder := NameHolder{Unreadable: old.Unreadable, At: old.At}
		if old.Checked != nil && old.Sentinel != nil && old.Sentinel.Name != nil {
			holder.Name = old.Sentinel.Name.Name
		}
		k.report(k.s.Name, name, NameTakenMessage(name, holder))
		k.errs[len(k.errs)-1].NameTaken = true
	}
}

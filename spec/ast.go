package spec

import (
	"fmt"
	"strconv"
	"strings"
)

// Pos is a position in the source: byte offset and 1-based line and column
// (the column counts runes, see Position). The zero Pos means "no
// position" (a node built by a program or decoded from JSON).
type Pos struct {
	Offset int
	Line   int
	Column int
}

// IsValid reports whether the position is known.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Position returns p with a file name, for messages.
func (p Pos) Position(filename string) Position {
	return Position{Filename: filename, Offset: p.Offset, Line: p.Line, Column: p.Column}
}

// Node is any node of the syntax tree. Pos is the position of its first
// token.
type Node interface {
	Pos() Pos
}

// File is a parsed source file: several sentinels and the comments between
// and inside them.
type File struct {
	Name      string      // file name, for messages
	Sentinels []*Sentinel // in source order
	Comments  []*Comment  // every comment, in source order

	// end is, for a part of a larger file (Split), the offset of the code
	// that follows its last sentinel there, 0 if none: a comment before
	// it ends the part's last clause rather than opening a clause that
	// the part does not hold.
	end int
}

// Pos returns the position of the first sentinel, or the zero Pos.
func (f *File) Pos() Pos {
	if len(f.Sentinels) > 0 {
		return f.Sentinels[0].Pos()
	}
	return Pos{}
}

// Comment is a "#" comment; Text includes the "#" and excludes the newline.
type Comment struct {
	Hash Pos
	Text string

	// The layout the parser saw, which the printer keeps (a Comment made
	// otherwise has none): code before the comment on its line, a blank
	// line before it, and the position of the code after it (none at the
	// end of the file).
	code, blank bool
	next        Pos
}

// Pos returns the position of the "#".
func (c *Comment) Pos() Pos { return c.Hash }

// Sentinel is one "Create Sentinel" statement. Name and Target are always
// present in a parsed sentinel; a nil clause was not written (the checker
// fills it in, from the inherited sentinel or a default).
type Sentinel struct {
	Create  Pos            // position of "Create"
	Name    *Ident         // the sentinel's name, unique per owner
	Target  Target         // the Using clause: a URL, a sentinel, or a combination
	Monitor *MonitorClause // what to watch
	Fetch   *FetchClause   // how often to fetch
	Confirm *ConfirmClause // re-fetch before reporting a change
	From    *TimeSpec      // start of the lifespan
	To      *TimeSpec      // end of the lifespan
	Notify  *NotifyClause  // where to send notifications
	Every   *EveryClause   // when to send them
	Compare *CompareClause // which versions to compare

	blank bool // a blank line comes before it in the source (for the printer)
	// broken says which parts of its text the parser could not read
	// (see broken.go); zero for a sentinel without syntax errors.
	broken clauseSet
	// parts holds what read cleanly, before the syntax error, of the
	// parts of its text that did not parse (see part); nil for a
	// sentinel without syntax errors.
	parts []part
}

// Pos returns the position of "Create".
func (s *Sentinel) Pos() Pos { return s.Create }

// Ident is a sentinel name. Names follow the rules of identifiers (a letter
// or "_", then letters, digits, "_" and "-") and cannot be reserved words;
// they are compared without regard to case.
type Ident struct {
	NamePos Pos
	Name    string
}

// Pos returns the position of the name.
func (x *Ident) Pos() Pos { return x.NamePos }

// Lit is a literal value in a list or after a selector keyword: a word, a
// number or a quoted string, holding the unquoted text.
type Lit struct {
	ValuePos Pos
	Value    string
	// src is the literal as the source wrote it, quotes and escapes
	// included, when the parser made it ("" otherwise): the places of
	// Value's characters in the source (see srcOffset).
	src string
}

// Pos returns the position of the literal.
func (x *Lit) Pos() Pos { return x.ValuePos }

// ---- targets

// Target is the Using clause: a *URLTarget, a *SiteTarget, a
// *SentinelTarget or a *BinaryTarget.
type Target interface {
	Node
	targetNode()
}

// URLTarget is a page to watch. URL is as parsed, as written; a URL
// without a scheme gets "http://" from the checker, and a checked
// sentinel's URL is in the form NormalizeURL gives (one stored by an
// earlier release may hold it as written).
type URLTarget struct {
	URLPos Pos
	URL    string
}

// SiteTarget is a whole site to watch (a Vigil extension): "site URL
// [depth N] [pages N] [scope URL]... [match RE]". At each check the monitor
// crawls it from URL, following the links in its scope at most Depth links
// away and fetching at most Pages URLs, and reports the pages added,
// deleted and modified since the previous crawl. URL and Scope are as
// written; a URL without a scheme gets "http://" from the checker, and a
// checked sentinel's are in the form NormalizeURL gives. A nil Depth or Pages
// was not written: the checker gives DefaultSiteDepth and
// DefaultSitePages.
type SiteTarget struct {
	Site   Pos // position of the word "site"
	URLPos Pos
	URL    string
	Depth  *Bound
	Pages  *Bound
	// Scope holds the URL prefixes written after "scope", in order: a
	// link is followed only to a URL under one of them (same scheme and
	// host, at a path segment boundary). None written means the directory
	// of URL, after its redirects.
	Scope []*Lit
	// Match is the regular expression (RE2 syntax) written after "match",
	// or nil: a followed link's URL must match it too, anywhere in it.
	Match *Lit
}

// Bound is a number that bounds a site crawl (its depth or its pages).
type Bound struct {
	ValuePos Pos
	N        int64
}

// Pos returns the position of the number.
func (b *Bound) Pos() Pos { return b.ValuePos }

// The bounds of a site crawl (SiteTarget), when not written, and their
// largest values. A check of a site fetches up to its pages, politely (one
// request at a time to a host, spaced by a delay), so the default is kept
// small.
const (
	DefaultSiteDepth = 3
	DefaultSitePages = 100
	MaxSiteDepth     = 64
	MaxSitePages     = 10000
)

// The most scopes a site target may list, and the longest regular
// expression it may match links with, in bytes.
const (
	MaxSiteScopes = 16
	MaxSiteMatch  = 1000
)

// SentinelTarget is a previously defined sentinel of the same owner. Used
// alone, it makes the new sentinel inherit every clause it does not restate.
type SentinelTarget struct {
	Sentinel Pos // position of the optional word "sentinel", else of Name
	Name     *Ident
}

// BinaryTarget combines two targets with AND (report a change only when it
// is found on both pages) or OR (on either).
type BinaryTarget struct {
	X     Target
	OpPos Pos
	Op    Op // And or Or
	Y     Target
}

// Pos returns the position of the URL.
func (t *URLTarget) Pos() Pos { return t.URLPos }

// Pos returns the position of "site" (of the URL in a target decoded from
// JSON, which has neither).
func (t *SiteTarget) Pos() Pos {
	if t.Site.IsValid() {
		return t.Site
	}
	return t.URLPos
}

// Pos returns the position of "sentinel" or of the name.
func (t *SentinelTarget) Pos() Pos {
	if t.Sentinel.IsValid() {
		return t.Sentinel
	}
	if t.Name != nil {
		return t.Name.NamePos
	}
	return Pos{}
}

// Pos returns the position of the left operand.
func (t *BinaryTarget) Pos() Pos { return t.X.Pos() }

func (*URLTarget) targetNode()      {}
func (*SiteTarget) targetNode()     {}
func (*SentinelTarget) targetNode() {}
func (*BinaryTarget) targetNode()   {}

// Op is a binary operator of change-type expressions and targets.
type Op int

// The binary operators. AND binds tighter than OR.
const (
	And Op = iota + 1
	Or
)

// String returns "AND" or "OR".
func (op Op) String() string {
	switch op {
	case And:
		return "AND"
	case Or:
		return "OR"
	}
	return "op(" + strconv.Itoa(int(op)) + ")"
}

// ---- change-type expressions

// Expr is a change-type expression of the Monitor clause: a *ChangeType, a
// *NotExpr or a *BinaryExpr. Precedence: NOT > AND > OR; AND and OR are left
// associative; parentheses group.
type Expr interface {
	Node
	exprNode()
}

// NotExpr is "NOT X": true when the change X is not detected between the two
// versions compared.
type NotExpr struct {
	NotPos Pos
	X      Expr
}

// BinaryExpr is "X AND Y" (both changes detected) or "X OR Y" (either).
type BinaryExpr struct {
	X     Expr
	OpPos Pos
	Op    Op
	Y     Expr
}

// Kind is the kind of a primitive change type.
type Kind int

// The change types of the seed (AnyChange ... Regex) and Vigil's Value.
const (
	AnyChange Kind = iota + 1 // any change: words, links, images, or what a page's attributes tell a reader (titles, labels, states, form fields, its description)
	Links                     // all links: hyperlinks inserted or deleted
	Images                    // all images: image references inserted or deleted
	Words                     // all words [except {...}]: Args are the exceptions
	Keywords                  // keywords {...}: Args are the words
	Phrase                    // phrase {...}: Args are the phrases
	Table                     // table [{id}]: Args are table ids (none: every table)
	List                      // list [{id}]: Args are list ids (none: every list)
	Regex                     // regular expression {...}: Args are RE2 expressions
	Value                     // value In css|xpath "..." <condition>: a number on the page
)

var kindNames = [...]string{
	AnyChange: "any change", Links: "all links", Images: "all images", Words: "all words",
	Keywords: "keywords", Phrase: "phrase", Table: "table", List: "list",
	Regex: "regular expression", Value: "value",
}

// kindList lists the change types as written in the language, in the
// order of kindNames: "any change, all links, ..., value".
func kindList() string {
	return strings.Join(kindNames[AnyChange:], ", ")
}

// String returns the kind as written in the language ("all links").
func (k Kind) String() string {
	if k >= AnyChange && k <= Value {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// ChangeType is a primitive change type, optionally scoped to a part of the
// page and with parts of the page ignored.
type ChangeType struct {
	KindPos   Pos
	Kind      Kind
	Args      []*Lit      // the words, phrases, ids or expressions in braces
	Scope     *Selector   // In css|xpath "...": only this part of the page; required for Value
	Condition *Condition  // Value only: when the extracted number is reported
	Ignore    []*Selector // Ignore css|xpath "...": parts of the page left out
}

// Pos returns the position of "NOT".
func (x *NotExpr) Pos() Pos { return x.NotPos }

// Pos returns the position of the left operand.
func (x *BinaryExpr) Pos() Pos { return x.X.Pos() }

// Pos returns the position of the kind's first word.
func (x *ChangeType) Pos() Pos { return x.KindPos }

func (*NotExpr) exprNode()    {}
func (*BinaryExpr) exprNode() {}
func (*ChangeType) exprNode() {}

// SelectorLang is the language of a Selector.
type SelectorLang int

// The selector languages.
const (
	CSS SelectorLang = iota + 1
	XPath
)

// String returns "css" or "xpath".
func (l SelectorLang) String() string {
	switch l {
	case CSS:
		return "css"
	case XPath:
		return "xpath"
	}
	return "lang(" + strconv.Itoa(int(l)) + ")"
}

// Selector is a part of the page: In css "table#schedule", Ignore xpath "//footer".
type Selector struct {
	KeywordPos Pos // position of "In" or "Ignore"
	Lang       SelectorLang
	Expr       *Lit
}

// Pos returns the position of "In" or "Ignore".
func (x *Selector) Pos() Pos { return x.KeywordPos }

// CondOp is the test of a value condition.
type CondOp int

// The value conditions.
const (
	Changes    CondOp = iota + 1 // changes: any new value
	Increases                    // increases: the new value is greater
	Decreases                    // decreases: the new value is smaller
	RisesAbove                   // rises above T: old <= T < new
	FallsBelow                   // falls below T: new < T <= old
)

var condNames = [...]string{Changes: "changes", Increases: "increases", Decreases: "decreases", RisesAbove: "rises above", FallsBelow: "falls below"}

// String returns the condition as written ("rises above").
func (op CondOp) String() string {
	if op >= Changes && op <= FallsBelow {
		return condNames[op]
	}
	return "cond(" + strconv.Itoa(int(op)) + ")"
}

// HasThreshold reports whether the condition takes a number.
func (op CondOp) HasThreshold() bool { return op == RisesAbove || op == FallsBelow }

// Condition is the test applied to a Value change type.
type Condition struct {
	CondPos   Pos
	Op        CondOp
	Threshold float64 // RisesAbove and FallsBelow only
}

// Pos returns the position of the condition's first word.
func (x *Condition) Pos() Pos { return x.CondPos }

// ---- clauses

// MonitorClause is "Monitor <expr>".
type MonitorClause struct {
	Monitor Pos
	X       Expr
}

// Pos returns the position of "Monitor".
func (c *MonitorClause) Pos() Pos { return c.Monitor }

// Interval is a Duration as written in the source.
type Interval struct {
	ValuePos Pos
	Duration
	// written is the interval as the source writes it ("0 hour", "2
	// month"), which an error names as its Found; empty for an interval
	// decoded from JSON or built. Like a Pos, it is layout, not meaning.
	written string
}

// found returns the text an error about the interval names as its Found:
// as written, else the canonical form.
func (x *Interval) found() string {
	if x.written != "" {
		return x.written
	}
	return x.Duration.String()
}

// Pos returns the position of the count.
func (x *Interval) Pos() Pos { return x.ValuePos }

// FetchClause is "Fetch <interval> [render]" or "Fetch on change [render]".
type FetchClause struct {
	Fetch    Pos
	OnChange bool      // adaptive, best-effort fetching
	Interval *Interval // fixed period, when not OnChange
	Render   bool      // render the page in headless Chromium before comparing
	// toks holds the positions of the clause's tokens, its keyword
	// first, as the parser read them (for the printer, which keeps a
	// comment written between two of them there; see words); like a
	// Pos, it is layout, not meaning.
	toks []Pos
}

// Pos returns the position of "Fetch".
func (c *FetchClause) Pos() Pos { return c.Fetch }

// ConfirmClause is "Confirm after <interval>": when a change is detected,
// fetch again after the interval and report the change only if it persists.
type ConfirmClause struct {
	Confirm Pos
	After   *Interval
	toks    []Pos // the positions of its tokens, as FetchClause's
}

// Pos returns the position of "Confirm".
func (c *ConfirmClause) Pos() Pos { return c.Confirm }

// TimeSpec is the time point of a From or To clause: a base and optional
// offsets, "start(s1) + 2 days".
type TimeSpec struct {
	Keyword Pos // position of "From" or "To"
	Base    TimeBase
	Offsets []*Interval
	toks    []Pos // the positions of its tokens, as FetchClause's
}

// Pos returns the position of "From" or "To".
func (t *TimeSpec) Pos() Pos { return t.Keyword }

// TimeBase is the base of a TimeSpec: *Date, *Now or *Event.
type TimeBase interface {
	Node
	timeBase()
}

// Date is an absolute time point, MM/DD/YYYY with an optional HH:MM, in the
// checker's location. Two-digit years are 20YY (00-68) or 19YY (69-99).
type Date struct {
	DatePos  Pos
	Year     int
	Month    int
	Day      int
	HasClock bool
	Hour     int
	Minute   int
}

// Now is the creation time of the sentinel.
type Now struct {
	NowPos Pos
}

// EventKind is the event of another sentinel a lifespan is tied to.
type EventKind int

// The events of the seed.
const (
	Start  EventKind = iota + 1 // start(s): when s starts
	End                         // end(s): when s ends
	During                      // during(s): now, while s is active (From only)
)

var eventNames = [...]string{Start: "start", End: "end", During: "during"}

// String returns "start", "end" or "during".
func (k EventKind) String() string {
	if k >= Start && k <= During {
		return eventNames[k]
	}
	return "event(" + strconv.Itoa(int(k)) + ")"
}

// Event is start(s), end(s) or during(s).
type Event struct {
	EventPos Pos
	Kind     EventKind
	Name     *Ident
}

// Pos returns the position of the date.
func (x *Date) Pos() Pos { return x.DatePos }

// Pos returns the position of "Now".
func (x *Now) Pos() Pos { return x.NowPos }

// Pos returns the position of the event word.
func (x *Event) Pos() Pos { return x.EventPos }

func (*Date) timeBase()  {}
func (*Now) timeBase()   {}
func (*Event) timeBase() {}

// String returns the date as the printer writes it, MM/DD/YYYY[ HH:MM].
func (x *Date) String() string {
	s := fmt.Sprintf("%02d/%02d/%04d", x.Month, x.Day, x.Year)
	if x.HasClock {
		s += fmt.Sprintf(" %02d:%02d", x.Hour, x.Minute)
	}
	return s
}

// ContactKind is a notification channel.
type ContactKind int

// The notification channels: the seed's email, fax and PDA, and Vigil's
// webhook and chat services.
const (
	Email   ContactKind = iota + 1 // email jill@aol.com
	Webhook                        // webhook https://example.com/hook
	Chat                           // slack://, discord://, telegram://, ntfy://, gotify://, mattermost://
	Fax                            // fax "+1 555 0100" (parsed; not supported by Vigil)
	PDA                            // PDA "details" (parsed; not supported by Vigil)
)

var contactNames = [...]string{Email: "email", Webhook: "webhook", Chat: "chat", Fax: "fax", PDA: "PDA"}

// String returns the channel's keyword.
func (k ContactKind) String() string {
	if k >= Email && k <= PDA {
		return contactNames[k]
	}
	return "contact(" + strconv.Itoa(int(k)) + ")"
}

// Channel returns the outbox channel that delivers to a contact of kind
// k (vigil.Notification.Channel): "email", "webhook" or "chat"; "" for
// the seed's fax and PDA, which Vigil parses but cannot deliver.
func (k ContactKind) Channel() string {
	switch k {
	case Email, Webhook, Chat:
		return contactNames[k]
	}
	return ""
}

// IsChatScheme reports whether scheme (lower case) names a chat service a
// Chat contact may use: slack, discord, telegram, ntfy, gotify or
// mattermost.
func IsChatScheme(scheme string) bool {
	switch scheme {
	case "slack", "discord", "telegram", "ntfy", "gotify", "mattermost":
		return true
	}
	return false
}

// Contact is one destination of notifications.
type Contact struct {
	ContactPos Pos
	Kind       ContactKind
	Address    string // email address, URL, fax number or PDA details

	// addr is the position of the address as the parser saw it, after
	// the kind's keyword if one was written (for the printer, which
	// keeps a comment written between them before the contact); like a
	// Pos, it is layout, not meaning.
	addr Pos
}

// Pos returns the position of the contact.
func (x *Contact) Pos() Pos { return x.ContactPos }

// NotifyClause is "Notify By <contact> {, <contact>}".
type NotifyClause struct {
	Notify   Pos
	Contacts []*Contact
}

// Pos returns the position of "Notify".
func (c *NotifyClause) Pos() Pos { return c.Notify }

// NotifyMode is when notifications are sent.
type NotifyMode int

// The notification modes of the seed.
const (
	Immediate   NotifyMode = iota + 1 // as soon as a change is detected
	BestEffort                        // as soon as possible, at lower priority than Immediate
	Interactive                       // never pushed: the user reads changes on the dashboard
	Periodic                          // a digest every Interval
)

var modeNames = [...]string{Immediate: "immediate", BestEffort: "best effort", Interactive: "interactive", Periodic: "periodic"}

// String returns the mode as written ("best effort"); Periodic is "periodic".
func (m NotifyMode) String() string {
	if m >= Immediate && m <= Periodic {
		return modeNames[m]
	}
	return "mode(" + strconv.Itoa(int(m)) + ")"
}

// EveryClause is "Every immediate | best effort | interactive | <interval>".
type EveryClause struct {
	Every    Pos
	Mode     NotifyMode
	Interval *Interval // Periodic only
	toks     []Pos     // the positions of its tokens, as FetchClause's
}

// Pos returns the position of "Every".
func (c *EveryClause) Pos() Pos { return c.Every }

// CompareMethod selects the versions compared.
type CompareMethod int

// The compare options of the seed. With versions V1, V2, ... of a page:
// Pairwise compares (Vi, Vi+1); EveryN compares (V1, V1+n), (V1+n, V1+2n),
// ...; MovingN compares (Vi, Vi+n-1) for every i, as the seed's "moving 4:
// V1 is the reference for V4, then V2 and V5".
const (
	Pairwise CompareMethod = iota + 1
	EveryN
	MovingN
)

var compareNames = [...]string{Pairwise: "pairwise", EveryN: "every", MovingN: "moving"}

// String returns "pairwise", "every" or "moving".
func (m CompareMethod) String() string {
	if m >= Pairwise && m <= MovingN {
		return compareNames[m]
	}
	return "compare(" + strconv.Itoa(int(m)) + ")"
}

// CompareClause is "Compare pairwise | every <n> | moving <n>".
type CompareClause struct {
	Compare Pos
	Method  CompareMethod
	N       int64 // EveryN and MovingN only
	toks    []Pos // the positions of its tokens, as FetchClause's
}

// Pos returns the position of "Compare".
func (c *CompareClause) Pos() Pos { return c.Compare }

// count returns the node an error in the count n is told at: the count's
// token, where the parser recorded it (Compare every 1), else the clause
// (decoded from JSON, or the glued form, every1, whose count has no token
// of its own).
func (c *CompareClause) count() Node {
	if len(c.toks) == 3 && c.toks[2].IsValid() {
		return compareCount{c}
	}
	return c
}

// compareCount is the count of a CompareClause, as a node.
type compareCount struct{ c *CompareClause }

func (n compareCount) Pos() Pos { return n.c.toks[2] }

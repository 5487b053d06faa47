// Package spec implements the Sentinel Specification Language with which
// users tell Vigil what to watch: a scanner, a parser that returns a partial
// syntax tree and a sorted error list, a checker for the semantic rules, a
// printer for the canonical form, and a JSON form for the REST API.
//
// # Seed
//
// Jyoti Jacob, "WebVigiL: Sentinel Specification and User-Intent Based
// Change Detection for Extensible Markup Language (XML)", MS thesis,
// University of Texas at Arlington, May 2003 (supervisor Sharma
// Chakravarthy): chapter 5, "Change Specification Language" (Fig 5.1, the
// syntax; §5.1-5.7, the semantics), and chapter 6 and 7 for validation
// (§6.3 syntax rules, §6.4 semantic rules, Fig 7.2 and Appendix C for
// lifespans). The reader's notes are in notes/003-webvigil.md §2.
//
// # Phases, in the seed's order
//
//  1. Parse (the seed's JavaCC parser, §7.1.1): Scanner and Parse, with the
//     syntax checks of §6.3 (units, "during" not in To, dates). The
//     mistakes users make most ("Fetch every 2 hours", "Every day", "1h",
//     "table {}", phrase {'sold out'}, a second In, a second Using
//     ("Using a Using b", told to join them with OR), contacts without
//     commas, dates written year first, 2026-03-01, told to write
//     03/01/2026, or day first, 31-12-2026, told to write 12/31/2026,
//     "keywords {a} and {b}", change types separated by "," where OR
//     or AND goes, list items by ";", a "#" in an item written without
//     quotes, keywords {C#}, which begins a comment) are reported with
//     how to write what was meant (parse_mistakes.go, parse_joins.go).
//  2. Validate (§6.4, §7.1.2): Checker.Check resolves inheritance from a
//     previously defined sentinel (§5.2), fills defaults, checks name
//     uniqueness per owner, change types, addresses, and the lifespan with
//     the time-lapse rules (Fig 7.2, Appendix C).
//  3. Store: the caller keeps the Checked sentinel and tells later checks
//     about it (Checker.Add, Checker.Lookup, Stored); an edit is checked
//     with Checker.CheckReplace.
//
// Both phases report at most MaxErrors (10) errors, then one "too many
// errors", as Go's compiler does; a source holding a NUL byte is not text
// and gets one error, at the byte, or at its start saying to save it as
// UTF-8 where it looks like UTF-16. A string literal left open on its line
// is told of the other kind of quote that was surely meant to close it
// ("sold out” opened with " and closed with ”), and of a Create Sentinel
// it holds, read as its text and not as a sentinel. "expected X, found Y"
// is told at Y, also where X is missing at the end of the line before Y's
// clause or sentinel, "found end of file" just after the last token, where
// X belongs. Columns count characters.
//
// # Grammar
//
// The grammar as implemented, in EBNF (the seed's Fig 5.1 with its lost "|"
// bars restored as in the note §2.2, and Vigil's extensions marked †).
// Keywords are case-insensitive; only the words in capitals after
// "Reserved" below are reserved, the others are recognised in context.
//
//	File         = { Sentinel } .
//	Sentinel     = "Create" "Sentinel" Name "Using" Target { Clause } .
//	Clause       = Monitor | Fetch | Confirm | From | To | Notify | Every | Compare .
//	               (each at most once, in any order)
//	Name         = identifier .
//	Target       = TargetAnd { "OR" TargetAnd } .
//	TargetAnd    = TargetTerm { "AND" TargetTerm } .
//	TargetTerm   = [ "sentinel" ] Name | URL | Site | "(" Target ")" .
//	URL          = word | string .                  (a bare identifier is a Name)
//	Site         = "site" URL { "depth" integer | "pages" integer | "scope" URL | "match" ( word | string ) } .
//	               depth, pages and match at most once, scope up to 16 times;
//	               "site" followed by "AND", "OR", ")" or a clause is a Name,
//	               by another identifier an error; a Site is the whole Target
//
//	Monitor      = "Monitor" Expr .
//	Expr         = AndExpr { "OR" AndExpr } .
//	AndExpr      = UnaryExpr { "AND" UnaryExpr } .
//	UnaryExpr    = "NOT" UnaryExpr | "(" Expr ")" | ChangeType .
//	ChangeType   = Kind [ Scope ] [ Condition ] { Ignore } .
//	Kind         = "any" "change" | "anychange" | [ "all" ] "links" | [ "all" ] "images"
//	             | [ "all" ] "words" [ "except" List ]
//	             | ( "keywords" | "keyword" ) List | ( "phrase" | "phrases" ) List
//	             | "table" [ List ] | "list" [ List ]
//	             | ( "regular" "expression" | "regex" | "regexp" ) List
//	             | "value" .                         † needs Scope and Condition
//	List         = [ ":" ] ( "{" Item { "," Item } "}" | "(" Item { "," Item } ")" ) .
//	Item         = word | number | string .
//	Scope        = "In" ( "css" | "xpath" ) string .               †
//	Ignore       = "Ignore" ( "css" | "xpath" ) string .           †
//	Condition    = "changes" | "increases" | "decreases"
//	             | "rises" "above" number | "falls" "below" number . †
//
//	Fetch        = "Fetch" ( Interval | "on" "change" ) [ "render" ] .  † render
//	Confirm      = "Confirm" "after" Interval .                   †
//	Interval     = integer Unit .
//	Unit         = "second" | "minute" | "hour" | "day" | "week" | "month" .  (or plural; † month)
//	               (printed in plural English: "1 hour", "2 hours")
//
//	From         = "From" ( TimePoint | FromEvent ) { "+" Interval } .
//	To           = "To" ( TimePoint | ToEvent ) { "+" Interval } .
//	TimePoint    = date [ clock ] | "Now" .         date = MM/DD/YYYY or MM/DD/YY; † clock = HH:MM
//	FromEvent    = ( "start" | "end" | "during" ) "(" Name ")" .
//	ToEvent      = ( "start" | "end" ) "(" Name ")" .
//
//	Notify       = "Notify" "By" Contact { "," Contact } .        † several
//	Contact      = "email" address | "webhook" URL               † webhook
//	             | ChatURL                                       † slack:// discord:// telegram:// ntfy:// gotify:// mattermost://
//	             | "fax" Item | "PDA" Item .
//	Every        = "Every" ( "immediate" | "best" "effort" | "interactive" | Interval ) .
//	Compare      = "Compare" ( "pairwise" | "every" integer | "moving" integer ) .
//
// Reserved: CREATE SENTINEL USING MONITOR FETCH CONFIRM FROM TO NOTIFY EVERY
// COMPARE AND OR NOT IN IGNORE. They cannot name a sentinel.
//
// Lexical elements are described on Scanner: comments run from "#" to the
// end of the line, strings are "double quoted" with Go escapes (or in the
// seed's typographic quotes), and words containing ".", "/", ":" or "@"
// (URLs, host names, email addresses) are single tokens.
//
// # Precedence
//
// NOT binds tighter than AND, which binds tighter than OR; AND and OR are
// left associative, and parentheses group. So
//
//	all words AND NOT phrase {"Lord of the Rings"} OR all links
//
// is ((all words) AND (NOT phrase ...)) OR (all links). The printer writes
// the fewest parentheses this needs. The same precedence applies to AND and
// OR between targets.
//
// # Semantics
//
// A change type C is true for a pair of versions (V1, V2) when a change of
// that type is detected (§5.3); NOT C is ¬C, C1 AND C2 is C1 ∧ C2, C1 OR C2
// is C1 ∨ C2. A Scope restricts a change type to the part of the page the
// selector matches; Ignore removes parts before comparing; value extracts a
// number from the scoped part and tests it. Fetch on change is the seed's
// best-effort fetching; render asks for headless Chromium. Confirm re-fetches
// after the interval and reports only changes that persist. A target "A AND
// B" reports when the change is found on both pages, "A OR B" on either: a
// change found on A waits, and grows with A's later changes, until B has
// one too; then both are reported, each from the version A had when its
// change was first found.
//
// A target "site URL depth D pages P" watches a whole site: each check
// crawls it from URL, the most important pages first (OPIC), following the
// links under URL's directory at most D links away (default 3, at most 64;
// 0 is URL alone) and fetching at most P URLs (default 100, at most
// 10000), and compares
// the crawl with the previous one as WHOWEDA web tables: the pages added
// (newly reached), deleted (no longer reached, or failing) and modified.
// Added and deleted pages are always reported; a modified page is reported
// when the Monitor clause finds its change between the page's two
// versions, as it would for a sentinel on that page alone ("Monitor
// keywords {x}" reports the pages where x changed). The first crawl is the
// reference and reports nothing. A site is watched alone: it cannot be an
// operand of AND or OR (nor can a sentinel that watches one), and "Using
// s" of a site sentinel s watches the same site. Confirm, Compare other
// than pairwise and Fetch render are errors for a site.
//
// "scope S" (as often as needed, up to 16) replaces URL's directory as the
// scope: a link is followed only to a URL under one of the prefixes S, on
// the same scheme and host and at a path segment boundary ("scope
// docs.example/api" takes /api, /api/ and /api/v2, not /api-old). "match
// R" follows only the links whose URL the regular expression R (RE2
// syntax, Go's string escapes: "\\.html$") matches, anywhere in it. The
// start page is fetched whatever the scope and the match. Editing the
// scope (other than the order of its prefixes) or the match makes the
// next crawl a new reference.
//
// Compare pairwise compares (Vi, Vi+1); every n compares (V1, V1+n), then
// (V1+n, V1+2n), ... (the seed's formula, reading A of the note §7.7, which
// makes "every 3 at 10 minutes" equal to "pairwise at 30 minutes");
// moving n compares (Vi, Vi+n-1) for every i (the seed's "V1 is the
// reference for V4" with n = 4).
//
// A date in From or To (with its clock, or at midnight) is a local time in
// Checker.Location (UTC unless set), and a day, week or month added to a
// time point keeps its clock in that zone, whatever the base: a date, Now,
// or an event of another sentinel, whose instant is read on the owner's
// clock wherever it was kept (the store gives it in UTC). The zone is
// the owner's: the one a user sets (vigil.User.TimeZone; vigil user tz,
// the dashboard or PATCH /api/v1/me), else the deployment's, vigil serve
// --tz (or $VIGIL_TZ; UTC by default). The dashboard and the API check
// a user's sentinels in it; vigil sentinel add, and sentinel check given
// the store, read an owner's dates in it unless --tz is given. With
// Europe/Paris, From 12/24/2026 09:00 starts at 08:00 UTC. A sentinel
// keeps the zone it was checked in when saved (vigil.Sentinel.TimeZone;
// none for one saved before zones were kept, which is the deployment's),
// and the monitor runs its lifespan in that zone, whatever its owner's
// zone is later; an edit checked in another zone reads again a date
// still to come (Stored.Location). start(s) at 09:00 in Europe/Paris on
// Saturday 28 March 2026 + 1 day is 09:00 on Sunday, 23 hours later, as
// summer time begins (it was 10:00, the day counted in UTC); seconds, minutes and
// hours added are exact. The scheduler adds them so when the event
// happens (schedule.Lifespan.Location; Duration.AddIn is the one rule).
// On a daylight-saving day, as cron does: a local time the clocks skip
// (02:30 in Europe/Paris on the last Sunday of March, when 02:00 becomes
// 03:00) is the first instant after the gap, 03:00, neither skipped nor
// an hour late; one they show twice (02:30 on the last Sunday of October,
// when 03:00 becomes 02:00) is the first of the two, and the sentinel
// starts (or ends) there, once.
//
// # Checking
//
// A Checker holds the sentinels of one owner. For a new sentinel it
//   - applies inheritance: with "Using s1" every clause not restated is
//     taken from s1 (as specified, not as s1's status: From Now means the
//     new sentinel's creation time), but for the clauses s1 itself took
//     by default;
//   - fills defaults: Monitor any change, Fetch on change, From Now,
//     To the start plus Checker.DefaultLifespan (12 months), Notify By email
//     Checker.Owner, Every best effort (interactive without a contact),
//     Compare pairwise;
//   - reports: a name already used by the owner; an unknown sentinel in
//     Using or an event, or a reference of a sentinel to itself; targets or
//     operands that are not distinct (URLs are compared in NormalizeURL's
//     normal form, which Checked.URLs holds: http://a.example,
//     HTTP://A.example:80/ and a.example are one page, and so are URLs
//     that differ only by a fragment, which a fetch does not send
//     (https://x.example/#frag is https://x.example/; Checked.URLs keeps
//     the fragment as written, and the monitor drops it, by
//     vigil.CanonicalURL, as it always did); keywords, phrases
//     and the words of all words except are compared in any case and
//     across white space, as they match: keywords {Price} and keywords
//     {price} are one change type, there being no option to match case);
//     "X AND NOT Y" when every X change is
//     a Y change (the seed's "all links and not any change"); a NOT that narrows
//     nothing, which is one that no AND around it combines with a change
//     type, so that the expression holds for a new version that changes
//     none of its change types ("NOT X", "X OR NOT Y", "NOT X AND NOT Y",
//     and "NOT NOT X", which is X; but "X AND (Y OR NOT Z)" and
//     "NOT (NOT X OR NOT Y)", which is X AND Y, are valid): NOT Y holds
//     for every new version without a Y change, so these fire on almost
//     every change or, for NOT any change, on none; a
//     sentinel stored before this rule and the case-insensitive comparing
//     of operands, read back by Checked.UnmarshalJSON or checked again by
//     Checker.RecheckStored, is warned of them instead, and runs as it did);
//     a Monitor clause of more than MaxChangeTypes (256) change types, at
//     the first past the limit (a list counts as one; a sentinel stored
//     before the limit is warned instead); keywords with
//     several words, keywords and phrases of punctuation and symbols alone
//     (which match no word), duplicate or empty values (keywords, phrases
//     and excepted words compared as a page's words are, by WordKey),
//     invalid regular expressions
//     (RE2) and unbalanced selectors (and, through
//     Checker.CompileSelector, any selector the monitor could not compile,
//     at the column of the mistake); value without a scope or condition;
//     intervals and offsets that are not > 0, or that are longer than a
//     time.Duration, which is what the monitor waits for and adds (about
//     292 years; a month counts as 31 days); months in Fetch and Confirm;
//     Confirm not shorter than the Fetch interval; invalid email addresses,
//     webhook and chat URLs, and unsupported fax and PDA; a contact twice
//     in one Notify clause (an email address in any case, a webhook URL in
//     NormalizeURL's normal form without its fragment, its path and query
//     in their case, which a receiver tells apart; a sentinel stored before
//     this comparing is warned of it instead); Compare n < 2;
//     lapsed start and end times and events ("From 01/01/2003 has passed",
//     at the date, with what to write instead), during(s) when s is not
//     active ("start event is invalid"), To Now, cycles between lifespans,
//     a start not before the end ("To 11/01/2003 is not after From
//     12/01/2003"), and a From or To, or the default To after a From,
//     after the year 9999, the last an RFC 3339 time (the stored and JSON
//     form) can hold.
//
// Warnings (Checked.Warnings) report what is legal but redundant: "X OR Y"
// when every X change is a Y change (the seed's own scenario 2 writes
// "all words OR anychange"), Compare every n with a fixed Fetch
// interval, which the seed says equals pairwise at n times the interval,
// Compare moving 2, which compares (Vi, Vi+1) as pairwise does, and the
// same region ignored twice by one change type; and a URL written
// without a scheme, read as http (see "Differences from the seed").
//
// # JSON form
//
// The JSON form of a sentinel is the structure the REST API accepts and
// returns; schema/sentinel.schema.json describes it as a JSON Schema. One
// member per clause, absent when the clause is absent:
//
//	{
//	  "name":    "s1",
//	  "using":   {"url": "http://www.uta.edu/class/schedule"}
//	             | {"sentinel": "s0"} | {"and": [T, T, ...]} | {"or": [T, T, ...]},
//	  "monitor": {"kind": "keywords", "args": ["5331", "5324"],
//	              "in": {"css": "table#schedule"}, "ignore": [{"xpath": "//footer"}],
//	              "condition": {"op": "rises above", "threshold": 100}}
//	             | {"not": E} | {"and": [E, E, ...]} | {"or": [E, E, ...]},
//	  "fetch":   {"interval": "1 day", "render": true} | {"onChange": true},
//	  "confirm": "30 seconds",
//	  "from":    {"date": "2002-12-02"} | {"date": "2002-12-02T09:30"} | {"now": true}
//	             | {"start": "s1"} | {"end": "s1"} | {"during": "s1"}, each with optional "offsets": ["2 days"],
//	  "to":      the same, without "during",
//	  "notify":  [{"email": "jill@aol.com"}, {"webhook": "https://..."}, {"chat": "slack://..."}],
//	  "every":   "immediate" | "best effort" | "interactive" | "1 day",
//	  "compare": "pairwise" | "every 3" | "moving 4"
//	}
//
// A site target is {"site": {"url": "https://docs.example/", "depth": 2,
// "pages": 50, "scope": ["https://docs.example/api/"], "match": "\\.html$"}},
// all but url optional.
//
// "kind" is one of "any change", "all links", "all images", "all words"
// (args: the exceptions), "keywords", "phrase", "table", "list", "regular
// expression", "value". Durations are "<n> <unit>" with the units of the
// language, written "1 day", "2 days" (either form is read). A checked
// sentinel (Checked) adds the read-only members "parent", "inherited",
// "defaulted" (see Checked.Defaulted), "urls", "requires" (see
// Checked.Requires), "site" (see Checked.Site), "start", "end" (RFC 3339)
// and "warnings"; the decoder ignores them. AND and OR chains are written as one array:
// {"or": [a, b, c]} is (a OR b) OR c. A member written twice in one
// object is an error at its path ("name: given twice"), where a JSON
// decoder would keep the last silently; a stored sentinel read back is
// not refused for it.
//
// # Differences from the seed
//
//   - The seed's sentinels are not edited. Here an edit (CheckReplace) keeps
//     the From and To it writes the same, resolved as before and not
//     refused for having passed: the time-lapse rules are for the time
//     points an edit writes anew. A start(s) or end(s) still to come is
//     resolved again from s, so that a sentinel checked again after an
//     edit of s (RecheckStored) follows s's new lifespan.
//   - The "|" bars lost from Fig 5.1 are restored as in the note §2.2.
//   - NOT may precede any operand, not only the first: the seed's own
//     example "All words AND NOT phrase {...}" needs it.
//   - More than two operands, parentheses and a precedence (NOT > AND > OR)
//     are added; the seed allows one binary operator and gives none.
//   - Lenient forms from the seed's scenarios are accepted and printed in the
//     canonical form: "keyword" for "keywords", lists in parentheses, the
//     optional ":" of Fig 5.1, "anychange", "links", "images" and "words"
//     without "all" (and "link", "image"), "phrases", "regex" and "regexp"
//     for "regular expression", "Using s1" without "sentinel",
//     URLs without a scheme (http:// is assumed), "moving4" and "every3",
//     typographic quotes. Scenario 2's URL, broken over two lines by the
//     text extraction, must be written on one line. A URL without a scheme
//     is kept as written by the parser and the printer (vigil sentinel
//     fmt), but the checked sentinel, the form stored and shown, holds
//     the URL fetched ("example.org" is "http://example.org/"), and the
//     checker warns at it ("no scheme: read as http://example.org/ (write
//     https://example.org/ if the site has HTTPS)"), for a page, a site
//     and a site's scopes; not for a sentinel stored before, which loads
//     as it was stored.
//   - Two-digit years (scenario 1's 12/02/02) are accepted as 20YY for 00-68
//     and 19YY for 69-99, although §6.3 asks for four digits; the printer
//     writes four. A time of day (HH:MM) may follow a date, because the seed
//     cannot express "9 am" (§5.4's user Don).
//   - Units: "second" is accepted as in Fig 5.1 (§6.3 lists minutes to
//     weeks); "month" (calendar months) is added for lifespans, offsets and
//     digests, but rejected in Fetch and Confirm, which need a fixed period
//     (the note's V14 case stays an error). Plural units are accepted,
//     and the canonical form writes them as English does ("2 hours", "1
//     hour") where the seed writes "2 hour", which still reads.
//   - A month added to a day the month reached does not have is that
//     month's last day, as calendars and cron-like tools count (Jan 31 +
//     1 month is Feb 28, Feb 29 in a leap year), where Vigil normalised it
//     as time.AddDate does, into the next month (Mar 3). A digest of Every
//     n months counts its periods from the first one's start (Jan 31, Feb
//     28, Mar 31), not from the last period's end. A time already resolved
//     and stored keeps its instant and is not migrated: the Checked.Start
//     or End of From or To Now + 1 month, or a date plus months, saved
//     before the rule (an edit that writes the clause the same keeps it
//     too), and a digest period already open, whose end stays where it
//     was and whose next periods count months from that end. A start(s) or
//     end(s) with month offsets is resolved when it is read, and follows
//     the rule from then on.
//   - "during(s)" may take offsets; it then means Now + offset while s is
//     active.
//   - "during(s)" asks whether s is active from its status when s has one;
//     a sentinel without (one of the same file or batch, which the seed
//     cannot write, or one the monitor has not taken up yet) is active
//     from its start, resolved as the time-lapse rules do (From Now: the
//     check's time), to its end. One that starts later is refused with
//     the time it starts.
//   - The rules the thesis leaves vague are decided as the note recommends:
//     From defaults to Now; a missing To is the start plus a default
//     lifespan (open-ended sentinels are unsupported); "To Now" is an error;
//     composite operands must be distinct (the seed's "t1 ◇ t2"); the
//     subsumption lattice any ⊇ {words, links, images}, words ⊇ {keywords,
//     phrase, table, list, regular expression}; names are compared without
//     regard to case, compared in Unicode NFC and kept in it where that is
//     a valid name (CanonicalName): "cafe" with a combining acute accent,
//     as macOS keyboards and some copies write café, is the name café. The seed's lifespan messages ("startTimept,Given
//     timepoint is less than current time", "startType,End time is less
//     than start time") are written in plain words that name the clause
//     (From, To), point at its time point and say what to write instead.
//   - "target AND/OR target" is given a meaning (both pages / either page);
//     the seed gives none. Inheritance applies only when the target is one
//     sentinel; a sentinel inside a combination contributes its pages.
//     Once its ANDs are distributed over its ORs, a Using clause holds
//     1024 sets of pages at most (1024 pages joined by OR, or combinations
//     joined by AND): more is an error at the OR or AND that passes it (a
//     site is watched with Using site, not page by page).
//   - Fax and PDA are parsed but reported as unsupported (and not named
//     among the contacts expected after Notify By); webhooks and chat
//     URLs are added, several contacts are allowed. Messages name a
//     contact with its secrets hidden, as they may be logged or shown on a
//     shared screen: a webhook's password as xxxxx (vigil.RedactURL's
//     rule), an email address's too where it is a URL's
//     (HideAddressPassword, which hides more where the "@" or the colon
//     is in doubt), a chat URL's user information, path, secret query
//     values and fragment as *** (ShownChatURL, the chat notifier's rule);
//     a page's URL, which may not hold credentials, has its password
//     hidden as a webhook's is wherever a message names it or writes its
//     target again ("join them with OR: Using a OR b").
//   - Scopes (In css/xpath), Ignore, value conditions, Fetch render,
//     Confirm after and site targets are Vigil's extensions (the site
//     comparison is WHOWEDA's web deltas, seeds/000).
//   - Regular expressions use Go's RE2 syntax.
//   - Table and list take optional ids; without one they mean every table
//     (list: ul, ol or dl) of the page or of the scope, a list nested in
//     another being part of the item it sits in.
package spec

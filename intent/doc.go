// Package intent detects the changes a user asked for between two versions
// of a page: the change types of a sentinel (any change, all words,
// keywords, phrases, links, images, tables, lists, regular expressions and
// values), each optionally scoped by a CSS selector or an XPath expression
// and with regions ignored, combined with NOT, AND and OR.
//
// # Seed
//
// Jyoti Jacob, "WebVigiL: Sentinel Specification and User-Intent Based
// Change Detection for Extensible Markup Language (XML)", MS thesis,
// University of Texas at Arlington, May 2003, supervised by Sharma
// Chakravarthy (the WebVigiL project of Chakravarthy et al.): chapter 4,
// §4.6 "CX-Diff: Customized Change Detection for ordered XML documents"
// (Figs 4.6 and 4.8, Appendices A and B), and chapter 5, §5.3 (change types
// and the semantics of NOT, AND and OR) and §5.7 (compare options). The
// algorithm was published as J. Jacob, A. Sachde and S. Chakravarthy,
// "CX-DIFF: a change detection algorithm for XML content and change
// visualization for WebVigiL", Data & Knowledge Engineering 52(2), 2005.
// The reader's notes are notes/003-webvigil.md §4 and §7; the tests carry
// the note's cases T1-T8, K1-K7, P1-P3, the operator truth table and the
// compare vectors.
//
// # Use
//
// A monitor builds one Pair per pair of versions it compares (Compare
// tells which pairs a sentinel's compare option selects), then evaluates
// the Monitor expression of every sentinel on the page:
//
//	p := intent.NewPair(oldDoc, newDoc, delta, nil)
//	r, err := p.Evaluate(sentinel.Monitor.X) // *spec.ChangeType, NOT, AND, OR
//	if r.Matched { notify(r.AllChanges()) }
//
// Each extraction (per scope and ignore list) and each primitive change
// type is computed once per Pair and shared by every expression that uses
// it, as the seed's change detection graph shares a page's diff between
// sentinels (§2.5, note §7.11). Results are Result values holding typed
// Change records, whose JSON form is described by schema/change.schema.json.
//
// # Algorithm, in the seed's order
//
// Phase 0, object extraction (§4.6.1). The document is parsed (markup) and
// walked inside the scope's matches, leaving out ignored regions and, in
// HTML, script, style, noscript and template elements (comments and
// processing instructions are never content). The leaves are the texts
// (white space normalised, invisible characters left out, empty ones
// dropped) and the attributes (in XML
// all of them but namespace declarations; in HTML the content attributes,
// those a reader sees, hears or acts on and a page does not rewrite at
// every fetch: href, src and alt; title and aria-label; the states
// disabled, checked, selected, hidden and open, whose leaf is the
// attribute's name, so that it appears and disappears with the state (and
// a state that leaves one element for another of its kind is one move,
// headed "selected moved to another option"); the value and placeholder
// of an input that is not hidden (type="hidden", or the hidden attribute
// on it or on an element it sits in: texts under hidden stay content), a
// textarea's placeholder, a meter's and a progress's value, an option's,
// optgroup's and track's label; the content of a meta whose name or
// property, in any case, is description, keywords or author, or starts
// with og:, twitter: or product: (og:title, og:site_name, twitter:site,
// product:price:amount) but for those for machines (an image's or the
// page's address, a type, a size, a locale: og:image, og:image:width,
// og:url, og:type, og:locale, twitter:card, twitter:image) and any whose
// content is an absolute URL; not style, class, id, data-*, srcset,
// nonces, a hidden input's value nor any other meta, which change at
// every fetch, only style the page or are for machines: contentattrs.go
// gives each rule's reason; an src or href is compared without the
// parameters that sign a CDN's or a cloud store's URL, new at every
// fetch, as the images' sources and the links' targets are, a record
// naming the URL as the page wrote it: signedurl.go), attributes
// before the element's children. Any change is the superset of all
// changes (the seed) over these leaves: an element that holds none (an
// <hr> added) is no change. The attribute leaves are any change's only:
// all words, keywords, phrases, regular expressions and values (but one
// an XPath @name reads) read the texts, the page's words as a reader
// reads them in its flow, so that a tooltip, a label or a description
// found nowhere in the text matches no keyword and splits no phrase, as
// an alt never did (the attribute leaves still count in the positions,
// oldPos and newPos, of the leaves that keywords and phrases report). A
// text is a
// text node with the sibling text nodes that follow it with only nodes that
// take no place in the text between (comments, processing instructions, and
// in HTML scripts, styles, templates and ignored inline elements):
// pri<!-- x -->ce is the text "price", as React's server rendering writes
// Price: <!-- -->$10 for "Price: $10", and the text is placed at its first
// text node that is not white space. Each leaf has a signature, path(x):
// the element labels from the root to its parent joined by "-", plus the
// attribute's name. Words are the white-space separated tokens of the text
// leaves, compared without surrounding punctuation and case; in HTML a word
// that inline elements split is one word, as a browser shows it
// (inlineword.go: <span class="dropcap">R</span>efunds is "Refunds",
// <b>price</b>list "pricelist"), placed at the leaf where it starts. For
// phrases, the occurrences found by Knuth-Morris-Pratt over the word sequence,
// within a block of text (see below), are cut out and realigned as phrase leaves (Fig 7.4) whose signature is the
// spanned leaves' common path followed by the rest of their paths
// (Books-Section-Book-Name-Author in the seed's example). Links, images,
// table rows (keyed by their cells, with column headers), list items and
// regular-expression matches are extracted as objects; each match of a
// value's scope that holds a number is a value, its first amount with a
// currency (or the one a shop's words say is asked now: pricewords.go)
// or, where it holds none, its first number (number.go), read across the
// inline elements that split it (numbertext.go), a feed's escaped HTML
// as the text it shows (see Feeds), with the decimal
// separator its writing shows or, where it shows none, that the other
// version's writing or the page's language shows (number.go).
//
// Phase III, the optional optimisation (§4.6.4), runs first when
// Options.Optimize is set: second-level subtrees equal in both versions are
// set aside (see the differences below).
//
// Phase I, filtering unique inserts and deletes (§4.6.2, Appendix A):
// totalMatch marks a leaf matched when the other version has a leaf with
// the same value and signature (by existence, as Fig 4.8 shows: both D's of
// T1 are matched); signatureMatch marks an unmatched leaf signature-matched
// when the other version has an unmatched leaf with the same signature.
// Unmatched leaves are unique deletes (old) and inserts (new). Root labels
// that differ match nothing (Assumption 1). For keywords and phrases the
// computation stops here when no keyword or phrase survived.
//
// Phase II, the common order subsequence (§4.6.3, Appendix B): a longest
// common subsequence over the surviving leaves, a matched leaf as the token
// (value, signature) and a signature-matched one as (signature) (with its
// keywords in keyword mode). Off the LCS, a matched leaf whose value and
// signature are also off the LCS in the other version has moved
// (detectMoves); the rest are deleted or inserted. Keywords are reported
// for unmatched leaves and leaves off the LCS; phrases for phrase leaves
// off the LCS. A phrase gone from its place is an update when at least f
// (Options.PhraseThreshold) of its words survive, in order, between the
// aligned words around it, within one block of text (§4.6.5), and at
// least two of them (see the differences below).
//
// The object change types (links, images, tables, lists, regular
// expressions) follow the same plan over their object sequences: an LCS
// over identities (a row's first cell, a link's target, an image's
// alternative text, else the whole object), updates for aligned objects
// that differ, moves for equal objects off the LCS, updates for objects
// that share a partial identity or stand one for one between the same two
// anchors, and inserts and deletes for the rest. Table rows that are
// updated are reported cell by cell, the columns paired by their headers
// (a column added is one cell inserted a row, not a shift of the cells
// after it). The header rows are every row of a thead (a group row
// whose cells span the columns under them, then the row that names each
// column), or without a thead a first row all of th. A cell, of a
// header row or the body, is identified by the columns it spans: its
// slots in HTML's table model ("forming a table"), each cell at the first
// column of its row not taken, by a cell of the row or by one above
// whose rowspan reaches it, over colspan columns (1 to 1000) of rowspan
// rows (0 to 65534, 0 to the end of its row group, none past it); a cell
// the monitor ignores takes its slots too, so that the cells after it
// stay under their own columns, but is no cell of its row (its text no
// change, shown nowhere, no column's header), and a row it ignores takes
// its row of the grid (a rowspan above counts it). A column's header is the lowest header cell over it (one of the last
// header row, or one above that reaches down past it, a "Name" of
// rowspan 2 beside a "Price" split into "Old" and "New"), and the
// columns of two versions pair by every header cell over them, top to
// bottom; two versions' cells pair by the columns they share, so that a
// column added beside a group is that column added, not a group's header
// changed, and a cell below one of rowspan 2 is named by its own column.
// A row is named (TableInfo.Row) by its first cell shown, after the body
// cells above whose rowspans cover the columns before it, the row
// headers a reader sees beside it ("Berlin / Tea" for the tea of a
// "Berlin" spanning the rows of its prices; four at most); its identity,
// which pairs it, stays its own first cell shown.
// The grid keeps each column's first free row, not its slots, so that
// the largest spans cost a table no more than its columns. A cell of a
// header row is a header, not a row's
// cell: its change is told as the column's, "column added", "column
// removed", "column header changed" (TableInfo.HeaderRow, its Header the
// cell's own text), not as a cell of a row named by the first header
// ("cell added in row Item"), and a header row added or removed is
// "header row added" or "removed". The tables (lists) of the two versions are paired by id,
// else by what they hold: equal ones in order, then those that share rows
// (items), so that a table added before the others is an insert, not a
// change of every table after it. All words is
// an LCS over the word sequences, reported as runs of inserted, deleted
// and replaced words.
//
// Values are paired as objects too (valuepair.go), so that a scope
// matching the prices of a listing watches each of them: a value's
// identity is its item, the outermost element holding it and no other
// value (a table's row, a list's item, a grid's card), by its text without
// the value's (with one value, its nearest tr, li, dt, dd or article), or,
// where that text holds no word (a sale price and the regular one side by
// side in a card, each its own item: "$"), the text of the outermost
// element holding its group of values and no other, without them (the
// card). An LCS over the items and their values keeps the values unchanged
// in place (and items alike but for their values, cards whose only other
// text is "Add to cart", with their own), the values left pair by their
// items (a price changed in its row, whatever rows were added, removed or
// reordered around it; the values of items alike, whose label names
// several, only between the same two pairs, so that a card removed first
// and one added last are not taken for one whose price changed), then
// those whose item changed its text too by position between two pairs,
// where as many are left on both sides, and a value alone in its version
// with a value left in the other with the same text, else the first left
// there. The condition (changes, increases,
// decreases, rises above, falls below) is tested on each pair, each pair
// that meets it a change of its own, named by its item's text
// (ValueInfo.Item: "value decreased by 200 in Nikon Z5"); a value in one
// version only is an insert or a delete, which only "changes" reports. The
// diff's node identities (XIDs) do not pair them: the monitor reads each
// version apart and numbers its XIDs afresh.
//
// Links are then read as sets of targets (linkEdits): a link is added
// when its target is in no link of the old version, removed when in none
// of the new, and each target is added, removed or moved once, however
// many links of a version lead to it (a page's logo and its text link, a
// text whose link's text is its URL, an Atom entry's link and id read as
// text), so that a notification names a URL once a direction. A target on
// both sides is neither added nor removed whatever its count: a copy of a
// link added or removed is no change. A link whose target changed in place
// is that change when its old target is gone and its new one is new, else
// the half that is (an add or a remove), else nothing; a change of a
// link's text is told once for each target and pair of texts, and not
// when it is a copy with another text removed or added (the old version
// had the target with the new text, or the new one keeps it with the old).
//
// Lists are ul, ol and dl elements, their items the li elements, an
// item's text without the lists nested in it; a definition list's items are
// its groups of terms (dt) and descriptions (dd), directly in it or in its
// div elements, each "term: description" (several joined by "; "), paired
// with the item of the same terms and named by them.
// A nested list belongs to the item it sits in (a list written straight
// in another list, as browsers show it, to the item before it), and its
// changes are that item's: the nested items of two aligned items
// (unchanged, changed or moved) are compared as one list in turn, level by
// level from a queue (no recursion, however deep the nesting), and each
// change carries the labels of the items it sits in, outermost first
// (ListInfo; Heading says "list item added in Food > Mains"). An item
// added or removed is one change, its nested items with it; an outer
// item whose own text changed is changed, whatever its nested items did;
// an item removed from one place and added at another of the same list's
// tree with the same text (another item's nested list, or the outer list)
// has moved. "list" without ids watches the outermost lists, with what is
// nested in them; a nested list named by its id is watched on its own,
// unless a list it sits in is named too.
//
// Composite changes follow the seed's formulas (§5.3): (NOT C)(V1, V2) =
// ¬C(V1, V2), (C1 AND C2)(V1, V2) = C1(V1, V2) ∧ C2(V1, V2), (C1 OR
// C2)(V1, V2) = C1(V1, V2) ∨ C2(V1, V2), where C_t(V1, V2) is true when a
// change of type t is detected (an insert, delete, update or, as the seed
// extends it for XML, a move). Expressions nest, with the spec package's
// precedence.
//
// # Pages read as text
//
// A page served as text that is not markup (text/plain, JSON, CSS, CSV,
// JavaScript...), or one that does not parse, is read by Vigil's
// warehouse as its source text: an HTML document whose body is one <pre>
// holding the text, one text node a line. Such a document has no a or
// area elements, so its caller says it is one: Pair.OldReadAsText and
// Pair.NewReadAsText, set from what the reader found (the warehouse's
// ReadBody tells why a body was read as text). The document itself
// carries no mark: a mark in the tree (an attribute on the <pre>) would
// be a change of every stored tree, would show in every view, and could
// be written by a real page; a field of tree.Document would be lost by
// every function that builds a document anew. Each side is said apart, as
// a page may be served as text/plain in one version and text/html in the
// next.
//
// The links of a page read as text are the absolute http and https URLs
// written in its text (TextLinks: a URL runs up to white space or a
// character that cannot be in one, the punctuation after it trimmed as
// autolinkers trim it, balanced parentheses kept; a URL in angle brackets
// whole; never across a line break; a URL in a JSON string with its
// slashes escaped, https:\/\/example.com\/a, read unescaped up to the
// string's end or any other escape, never holding a backslash; the \u
// escapes of letters outside ASCII and of & read in any http(s) URL,
// and a \n, \t or \u003e before one separating it as white space; and, as
// GitHub's extended www autolinks, www. followed by a valid domain at a
// line's start or after white space, * _ ~ or (, as http://www..., its
// escapes read as an http(s) URL's, and in a JSON string with its slashes
// escaped, "www.example.org\/a", as an escaped URL's), each placed at the
// text node of its line, its position its ordinal among the page's
// links. A text that holds markup (HTML read as text, a feed served
// malformed) writes links relative too: the href and src values of its
// tags written without a scheme (markupRefs: a tag is "<" and a letter up
// to its ">", over lines; href= in prose or between tags, in a comment or
// a script, or escaped in a JSON string, is none, nor is one in a
// template, as a parsed page's, and a base in svg or math is no base,
// but in their HTML integration points, as PageBase reads one: an
// annotation-xml of HTML holds HTML, and an svg an annotation-xml holds
// is SVG, whose foreignObject holds HTML, as the HTML parser has them) are links, resolved against the page's address or
// the text's first base element and named by their target, placed at the
// text node where they start, so that a relative link added as a page
// comes to be read differently is reported, as it is between two pages. A
// Markdown link on one line, [label](URL) or [label](www.example.org/a),
// is its URL named by its label (the link
// text), so that an llms.txt's links have their names and a renamed link
// is a link changed; a bare URL's text is its target, so that a URL
// respelled (a host in upper case or in punycode) is the same link. The
// links are compared as a page's are: resolved against the page's
// address, the host by its key, an LCS over their targets, so that a URL
// added in the middle of a list is one link added. Every other change
// type reads such a page as any other: its lines are texts. A real page's
// <pre> holding URLs has no links: its links are its a and area elements.
// SourceLinks gives the links of a document read as text, absolute and
// relative, in the order they are written, so that Vigil's warehouse
// stores, and its crawl follows, the links a links sentinel reads; it
// tells the addresses of resources, relative or absolute (an img's or a
// script's src, a stylesheet's href: SourceLink.Resource), which the
// warehouse and the crawl leave out, from the links of the page parsed
// (the hrefs of a and area elements) and the URLs of its prose. A base element's href is no link, though it is
// an absolute URL in the text.
//
// # Feeds
//
// A feed has no a elements, so the links of a feed are its feed links
// (FeedLinks): an entry added is its link added. A document is a feed
// (IsFeed) when its root is rss (RSS 0.9x, 2.0) in no namespace or in one
// RSS was published under (Userland's http://backend.userland.com/rss2,
// Harvard's, RSS 1.0's: those feed readers read as RSS), feed in the Atom
// namespace (Atom 1.0, 0.3), or rdf:RDF with a channel in the RSS 1.0 (or
// 0.90) namespace; another XML document keeps the rule of markup (its a
// and area elements). Its links are, for Atom, the href of every link
// element to content a reader follows (rel absent, alternate, enclosure,
// related or via; not self, edit, edit-media, replies, license, hub, the
// pages' next and previous, nor extension relations: Blogger gives every
// entry an edit and two replies links) and every content element's src;
// for RSS 2.0, the text of the channel's and each item's link, each item's
// enclosure url, its guid when isPermaLink is "true" or is absent and the
// guid is an absolute http(s) URL (RSS 2.0's default), and an Atom link
// within to such content; for RSS 1.0, the channel's and each item's link
// and each item's rdf:about. A target resolves against the xml:base
// attributes in scope, then the feed's address, and then as every link
// does (its host by its key); one written twice in an item (its link and
// its guid) is one link. The channel, items and entries are those where
// the format puts them (an item in the title of another is none), and a
// feed is read in time linear in its depth (an xml:base that would make a
// base longer than 4 KB, as nested relative ones can, is ignored). A link
// is labelled (its text) by the title of its item, entry, channel or feed
// (an Atom title of type html as the text it shows, its tags left out),
// else by its target, so that an entry retitled is a link changed. The a
// elements of an Atom entry's XHTML content are not links of the feed: an
// RSS item's HTML is escaped text, and both formats are read alike. The
// warehouse stores, the crawl follows and page importance counts the same
// links (its ExtractLinks reads FeedLinks). A crawl follows too a feed's
// links to its own other pages (FeedLinksWithPages: RFC 5005's next,
// previous or prev, first, last, prev-archive, next-archive and current),
// to reach the entries of its older pages; they are no links of the feed.
//
// A feed's HTML written as text, an RSS item's or channel's description
// and content:encoded, an Atom text construct (content, summary, title,
// subtitle, rights) of type html, is read as the text it shows
// (feedhtml.go: its tags left out, a space at a block element's, its
// character references read), so that all words, keywords, phrases,
// regular expressions and any change read the entry's words, not
// "bar.</p>". The text node is one leaf, as in any XML document, so that
// an entry's new description is an update of that leaf, as the tree
// delta says; but the blocks of its HTML (the start or end of an element
// that is not inline: a paragraph, a list item, a line break) part its
// phrases and regular expressions as an HTML page's blocks do
// (content.feedBlocks): "sale today" is not found in
// <p>Big sale</p><p>Today only</p>, and ^ matches at "Today". A value
// whose scope selects such a text reads its number from the text it
// shows too, and names its item by it (feedReading), not from its tags:
// the width="600" of an escaped <img> is no value.
//
// A pair whose versions are read differently, one as markup and the other
// as its source text (a feed served malformed for one check, a page served
// as text/plain one day and text/html the next), is compared like with like
// when its caller gives the markup side's source text (Pair.OldSource,
// Pair.NewSource): the two source texts, for every change type. Compared as
// read, a feed's markup (its feed links) and its broken text (its namespace
// URI and ids among its URLs besides its links) would report those URLs
// added, then removed when the feed is fixed, and a page's images, tables
// and lists removed, then added, and its keywords, which the source writes
// among its tags. As two texts, only the URLs (lines, words) the document
// changed are reported; a text has no images, tables or lists, so none are.
// A scope or an ignore list selects in the texts read leniently as HTML
// (Pair.comparedIn), whatever their type, and the pair is compared there as
// two pages, so that a sentinel watching In css ".price" sees the changes
// of its price and none elsewhere; a scope that selects in the texts as
// read (In css "pre": the whole text) selects there, as on any page read as
// text. A text that cannot be read as HTML (nested past the parser's limit)
// leaves the selectors unapplied, the whole texts compared, and says so
// (Result.ScopeNotApplied), and which they are, the scope, the ignore list
// or both (Result.NotApplied). A link the source writes twice (an a element's
// target and its text, an Atom entry's link and id) is two links there,
// told once (links are read as sets of targets). Without the source, each
// side is compared as it is read.
//
// # Selectors
//
// CSS selectors (css.go) and the XPath subset (xpath.go) are hand-written
// here: libraries may import only the standard library and golang.org/x/net
// and x/text (deps_test.go), and neither has a selector engine; cascadia
// and antchfx/xpath exist but would make the library depend on
// third-party modules. Both compile once, return a *SyntaxError with the
// column of the offending character, and are fuzzed. CompileCSS and
// CompileXPath let the spec checker validate selectors.
//
// # Differences from the seed
//
//   - Links and image sources are compared as they resolve against the
//     page's address (Pair.OldURL, Pair.NewURL) and its <base href>: a
//     link written relative in one version and absolute in the next is the
//     same link, and so is one whose host is spelt in Unicode in one and
//     in punycode in the next (the host is given in its ASCII form,
//     spec.ASCIIHost), or in upper case, or with a trailing dot, or with
//     its scheme's default port written out (the host is given by its key,
//     spec.HostKey: lower case, without them), or with an unreserved
//     character of its path or query percent-encoded (/%7Euser is
//     /~user; hex digits are upper-cased, a reserved character stays
//     encoded: normalizeURLPercent, vigil.CanonicalURL's rule). The seed
//     compares them as written.
//     A record of any change names a changed href, src or cite of a
//     page (URLAttr) by the URL it resolves to (PageBase, ResolveURL, the
//     one resolution every view of Vigil shows a user), not as written;
//     any change still compares them as written, but passes over an
//     update of one whose old value resolves in the old version to the
//     URL its new value resolves to in the new one (a page that came to
//     write its images absolute shows what it showed).
//   - A page read as its source text (see above) has links: the URLs
//     written in its text, JSON's escaped https:\/\/ and GitHub's www.
//     ones among them, and the relative ones its tags write. The seed's
//     documents are XML, whose links it reads from elements alone. Two
//     versions read differently (one as markup, one as text) are
//     compared as two texts, given the markup one's source (see above);
//     the seed compares two parsed documents.
//   - The links inside a noscript are none of the page's (HoldsNoLinks),
//     for all links as for a site crawl and the warehouse's links, which
//     share the rule, and a noscript's text is no content. Vigil fetches
//     without running scripts, but reads a page as its users see it, in
//     a browser that runs them, which does not show a noscript's
//     content; the HTML parser (x/net/html, scripting on, as markup
//     parses every page) reads it as one text, so that a link there is
//     no element, and markup.HTMLLinks and markupRefs read it as raw
//     text likewise. An XHTML page's noscript, which the XML parser reads
//     as elements, is read alike (a crawl followed its links before, and
//     a site diff against such a crawl shows the pages reached only
//     through them as removed). A crawler that does not run scripts
//     would find them; a page whose only way to a listing's next page is
//     a noscript's link is crawled without it.
//   - A feed's links are its feed links (see Feeds): the seed's links
//     are the hyperlinks of HTML. Links are read as sets of targets (a
//     copy added or removed is no change); the seed diffs their sequence.
//   - An image is the one a reader sees: the address a lazy-loading
//     attribute holds (data-src, data-lazy-src, data-original) before src,
//     which holds a placeholder on such pages, the first candidate of
//     srcset where src is missing or an inline data: URL, and in a
//     picture the first candidate of its first source's srcset (or
//     data-srcset), which a browser that supports picture shows, the
//     img's own source being the fallback of those that do not
//     (pictureSources). A picture's image is also every image it shows
//     on another screen or browser: the first candidate of each of its
//     other sources and its img's own source, so that a change of any
//     of them (a phone's crop replaced) is a change of the image's
//     source, reported as the first of them that changed, while the
//     other candidates of a srcset (a 2x's) are not watched. The seed
//     reads src alone.
//   - Insert and delete as the algorithm uses them (an old leaf with no
//     match is deleted, a new one inserted), not as Definition 6, Fig 4.6
//     step h and Definitions 2-3 write them (note §4.11 items 1-3); the
//     range test of Appendix A step 6 is not needed, as matching compares
//     the values and signatures themselves (numbered in a symbol table),
//     not Java hash codes, so there are no collisions. A signature is
//     numbered by its labels, not by the joined string (built only for a
//     change reported): two paths whose labels differ are two signatures
//     even when their strings are equal (a-b-c as "a-b"+"c" and
//     "a"+"b-c", with custom element names), and a page nested n deep
//     costs n signatures, not n² bytes of strings.
//   - A move needs the same value and signature, not only the same value
//     (note §4.11 item 6).
//   - Update is reported for any change: a signature-matched deleted leaf
//     and inserted leaf that the LCS aligns are one update of a leaf's
//     value (Options.SeedOnly reports a delete and an insert, as the seed
//     does). So are short values (at most 32 bytes) off the LCS between
//     the same two LCS pairs, as many on both sides (at most 8), with the
//     same signatures place by place, even when a value and its signature
//     stand elsewhere in the other version (the seed's totalMatch then
//     takes it for a move): in a table of prices, a new price that
//     another row held before is a coincidence. It stays a move when what
//     is found elsewhere is not itself so changed in place (a heading that
//     moved with its section). Phrase update, designed but not implemented
//     in the seed, is implemented with f = 0.5 by default, and asks for
//     at least two of the phrase's words left in order besides: one word
//     left is no update but a delete (an insert), as a phrase is several
//     words together and any text standing where it stood may share one
//     word with it ("great shop." becoming "shop.", or "closed shop." or
//     "Our new shop opens soon", is the phrase "great shop" removed, where
//     the seed's f alone, half its words, would report "great shop. ->
//     shop." as the phrase changed). A phrase of two words is therefore
//     updated by words put between its own ("great little shop"), or by
//     one of its words swapped for one other word in its place, within a
//     block of text that keeps at least two of its other words around it
//     in both versions ("Free shipping on orders over $50" -> "Fast
//     shipping on orders over $50" is the phrase changed: the sentence
//     is the same, edited; "Reviews: great shop." -> "Reviews: closed
//     shop.", whose block keeps one word, is the phrase removed, as is
//     a word taken out or replaced by several: see wordSwapped), and f
//     below 2/n for a phrase of n words acts as 2/n. The share f
//     is asked of the text the phrase became too, from its first word
//     kept to its last: "Big sale today" whose words are scattered in
//     "Big news: our garage sale starts today" (3 of 7) is removed; and
//     a phrase whose words are all kept, with others put between them
//     ("Big sale starts today"), is an update, as the seed's f says (but
//     the phrase itself standing there, which is no update of it).
//     The words left are counted within one block of text of the other
//     version, the one that keeps most (in HTML, see the phrases' blocks
//     below), as a phrase stands within one: "Big sale today" whose place
//     now holds the list items "Big news" and "Garage sale" is removed,
//     not changed into "Big news Garage sale". The seed compares the
//     values of the leaves of the phrase's signature, one leaf's or
//     several.
//   - Keywords: an occurrence that CX-Diff deletes and another it inserts
//     are both left out when the alignment of the page's words pairs them:
//     the keyword stayed where it was in the text, and only the markup
//     around it (an <em>, a paragraph moved into another element) or the
//     words near it changed. CX-Diff compares leaves by their element
//     path, and reported such a keyword as deleted and inserted. A phrase
//     deleted (or inserted) that stands whole where the words align is
//     left out too. The words next to it hold it in place, or, where it is
//     the first or last text of the scope (<div class="stock">Sold
//     out</div> set in <strong>), the start or end of the text in both
//     versions does.
//   - The optimisation (Phase III) is off by default (the seed has it on)
//     and repaired (note §4.11 item 9): instead of removing common
//     second-level subtrees, which hides their reordering (T4), each pair of
//     equal subtrees is collapsed into one leaf on each side, so a reordered
//     subtree falls off the LCS and is reported as the moves of its leaves.
//     In HTML the second level is the children of body.
//   - White space is normalised and white-space-only text dropped (T8).
//     Words are split at white space, as the seed splits them, and compared
//     without surrounding punctuation and case (Options.CaseSensitive keeps
//     case), in Unicode's canonical composition (NFC), with the
//     typographic apostrophe (’) read as ' and without soft hyphens and the
//     other invisible format characters (spec.Invisible): "J."
//     matches "J", "café" with a combining accent matches "café",
//     "Sorcerer’s" "Sorcerer's", "Donau&shy;dampf" "Donaudampf" and
//     "Re&#8203;funds" "Refunds", but
//     "J.K.Rowling" stays one word and does not match "J. K Rowling" (note
//     §4.11 item 7). In HTML a word is read across the inline elements that
//     split it, as a browser shows it: the last word of a text and the first
//     of the next are one where no white space ends the one nor starts the
//     other and only inline elements that show text start or end between them
//     (markup.IsInline, but not an image, a control or media): a drop cap's
//     <span class="dropcap">R</span>efunds is the word "Refunds",
//     <a href="/r">Ref</a>unds too, and <b>price</b>list is "pricelist", which
//     matches neither the keyword price nor the phrase "price list"
//     (<b>price</b> list does). White space (a no-break space too), a line
//     break, an image and any element that parts a phrase part words; in XML
//     elements part them, as they part the seed's leaves. The seed's words are
//     a leaf's; a page's markup splits words to style a letter or a syllable.
//     Such a word is placed at the leaf where it starts, with that leaf's
//     index of its first part (Change.WordPos), and a keyword that is such a
//     word belongs to each leaf it spans, so that it is added or removed by a
//     change of any of its parts (the drop cap's letter, or the rest of the
//     word), once, and kept where one of them is paired by its keywords with a
//     leaf that holds it too (a drop cap set on a word that was there is no
//     change). Texts in two elements side by side, each inside an element of
//     its own below the one they share (the links of a minified menu,
//     <a>Home</a><a>About</a>, or tag pills), are two words, as a style sheet
//     shows such elements apart, unless one of them is a single letter (a
//     drop cap in an element of its own, a word set a letter a span):
//     inSiblingElements.
//   - Invisible characters are left out of the texts as their white space
//     is normalised (normalizeSpace, leaveOutInvisible): the soft hyphen
//     (U+00AD), the zero width space (U+200B), the word joiner (U+2060),
//     the invisible operators (U+2061-U+2064), the zero width no-break
//     space or byte order mark (U+FEFF) and the bidirectional formatting
//     characters (the marks U+200E, U+200F and U+061C, the embeddings and
//     overrides U+202A-U+202E, the isolates U+2066-U+2069, which order a
//     line's letters but are none of them), which a browser draws as
//     nothing within a line. So keywords, phrases, regular expressions and all
//     words read "Re&#8203;funds" (a page hiding its keyword so) and
//     "Donau&shy;dampf" as "Refunds" and "Donaudampf", a change that only
//     adds or removes them is no change for any change and all words, as
//     one of white space only is, and a change, its record and the texts
//     it shows a reader (Change.Texts, and the labels Heading names) are
//     without them. A zero width space is a break opportunity, but joins
//     the letters around it as a browser shows them, without a space: a
//     word, not two (in Thai, Khmer or Japanese, where pages sometimes
//     write it between words, the words run together, as every text of
//     those scripts written without spaces does). ZWJ and ZWNJ (U+200D,
//     U+200C) are left out likewise next to ASCII, white space,
//     punctuation, digits and Latin, Greek or Cyrillic letters, where they
//     change nothing a reader sees (Re&zwj;funds is "Refunds"), but kept
//     next to other letters, marks and symbols (shapedByJoiner), where
//     they change what a browser draws: an emoji family joined into one
//     picture, a Persian word's letters joined or not, a conjunct of an
//     Indian script in its half form; a change of them there is a change
//     of the text for any change. Words are compared without them
//     everywhere (spec.WordKey), as Unicode's collation compares them: a
//     Persian word written with or without its ZWNJ is one word, and
//     the same words for all words. A URL (href, src, cite) keeps them: it
//     is another address with one. The seed's texts are XML's as written.
//   - Positions are 1-based leaf ordinals in each version (phrases: in the
//     realigned sequence); after the optimisation they remain the original
//     ones. Records also carry the leaf's tree.Path and signature.
//   - Phrases that overlap are taken left to right, the longest first at a
//     position; overlapping later occurrences are dropped.
//   - In HTML, a phrase is found within a block of text: across the inline
//     elements that split it (<b>sold</b> out, as markup.IsInline tells
//     them), but not across the start or end of any other element (a
//     heading, a paragraph, a cell, a list item, a line break, an ignored
//     block), nor from one match of the scope to the next. Regular
//     expressions match block by block too, ^ and $ at each block's ends,
//     in the texts joined by a space but for the parts of a word that
//     inline elements split (R<b>efunds</b> is "Refunds").
//     The seed's phrases span XML elements (its example spans Name and
//     Author), and in XML they still do, within a match of the scope, but
//     for the blocks of a feed's escaped HTML, which part them as a
//     page's do (see Feeds).
//   - A run of sibling texts is one leaf, but in an HTML <pre> each text
//     that ends a line ends its leaf: a page read as its source text (one
//     text node a line) changes by the lines that changed, and a phrase
//     still spans the lines, which are one block.
//   - The LCS is exact (dynamic programming filled from the end, skipping
//     the old element first on ties, the note's tie-break) on small
//     problems. Sequences of more than a few thousand items are first cut at
//     patience anchors in O(n log n) (elements unique in both sides, or for
//     repeated content the k-th occurrences of elements as frequent in both)
//     and the pieces solved with Myers' O(ND) algorithm under a work budget,
//     past which a piece is split in the middle; so no step is quadratic on
//     long pages (the seed's LCS table is O(m1·m2)), at the price of a
//     common subsequence that may be shorter than the longest on long,
//     heavily edited sequences.
//   - HTML is handled by the same algorithm (the thesis rejects HTML
//     approaches for XML, and its HTML detector is not described); scripts,
//     styles and comments are not content, of the attributes only the
//     content attributes of Phase 0 are leaves (the seed's XML has every
//     attribute; a page's markup has many that change at every fetch), and
//     a text leaf is a text that
//     comments, scripts, styles and ignored inline elements may split into
//     several text nodes, not one text node (the seed's XML has no such
//     splits; a page's markup has many).
//   - Tables, lists, regular expressions and values, unsupported in the
//     seed, are implemented as described above; keywords must be single
//     words (the spec checker enforces it). A value's number is read whole
//     where HTML inline elements split it ($<b>1</b>,299; 12<span>.</span>
//     <span>99</span>; 12,<sup>99</sup>), and apart where anything else
//     stands around or between its parts (cells, paragraphs, line breaks,
//     images, an ignored block); each match of the scope is its own value.
//     One separator followed by three digits may write decimals or
//     thousands (a US fuel price of $3.499, an exchange rate of 1.085; a
//     German 1.085 is one thousand and eighty-five): it is a decimal
//     separator when a zero or more than three digits stand before it
//     (0,125; 1234.567), which never begin a group of thousands; else it
//     is read as the other version of the value shows the decimal
//     separator (3.499 -> 3.50 is a rise, not a fall from 3499; 2,50 ->
//     1,085 reads 1.085), else as the language of the page (the root's
//     lang or xml:lang, with the Unicode CLDR's separators: a decimal
//     point in en and de-CH, a comma in de and fr), else as thousands, as
//     ParseNumber reads it. A separator before the first digit is a
//     decimal one ($.99 is 0.99), unless the digits hold one of their own
//     (S/.49.90, the Peruvian sol, is 49.9), and a sign or separator joined to a
//     word is the word's (SKU+7 is 7, Rs.500 is 500). Digits joined to a
//     letter before them, directly or by a hyphen, are a word's, not a
//     value (UTF-8, COVID-19, MP3, H2O, A4, IPv6, Item-42): a match reads
//     the first number that stands apart ("COVID-19 cases: 120" is 120),
//     and one holding none is no value; so is one whose digits are
//     grouped otherwise than by thousands, or India's lakhs and crores
//     with commas (Version 2.1.3, Kernel 5.15.123, 30.11.2026,
//     192.168.1.1: wellGrouped). After a currency code they are an
//     amount (USD5, EUR-5 is -5), as after the currencies pages write
//     joined to their amounts (Rp50.000, RM49.90, Rs500), and after a
//     currency written with one letter, or the krona's Kr, where the
//     digits have an amount's form, two decimals or groups of thousands
//     (Q49.90, L1,250.00, R299.99, Kr1.299; but Q3, L2, Canon R5 and Kr85
//     are words, as A4 is); letters after
//     the digits are a unit (5kg is 5); in scripts written without spaces
//     (Chinese, Japanese, Thai) and in Hangul, whose words take digits
//     before the counters and particles joined to them, digits join no
//     word (価格1,000円 is 1000, 가격12,000원 is 12000). No-break and thin
//     spaces group thousands everywhere, where the digits around them have
//     the groups' form (below: "2 499,99" and "1 234 567" with no-break
//     spaces are whole, "2024 150", "1 2345" and "2 3 4" end at the first
//     space: noBreakGroupsEnd); a plain space groups them on a page
//     whose language the CLDR writes with space groups (fr, pl, cs, sv:
//     "1 299,00 €" is 1299), where the digits before the first space are
//     one to three, each group after it three ("2024 150" is 2024) and
//     the first not a name's number (as on a page without a language,
//     below: "iPhone 15 999 €" is 999, "Samsung 2 499 €" 2499, "iPad 12
//     990 Kč" 12990).
//   - Of the numbers of a match that are values, the value is the first
//     amount with a currency, else the first number (currency.go): a price
//     watcher means the amount where a codec's, a model's, a count's or a
//     percentage's number stands before it ("H.264 $20", "MPEG-4 Part 10,
//     $20", "No.5 costs €20", "2 for $5", "Save 20% – $79.99" are 20, 20,
//     20, 5 and 79.99), and a match without an amount reads as it always
//     did ("COVID-19 cases: 120", "-15 %", "down 3.2%"). An amount has a
//     currency symbol ($, €, US$), a code (EUR, USD) or an abbreviation
//     (Rs., Rp, S/., SFr.) written before it, or a symbol, code or sign written
//     after it (€, EUR, kr, Kč, zł, руб, 円). The Swiss franc's Fr. is one
//     before or after an amount's form ("Fr. 12.50", "12.50 Fr.", "Art. 3
//     Fr. 1'299.–" is 1299), and after any number on a Swiss page (de-CH,
//     fr-CH: "12 Fr."), but not before a day and a month, Friday's ("Fr.
//     12.05.: Eintritt 19 €" is 19), nor before a time of opening hours
//     ("Mo.–Fr. 8.00–18.00 Uhr 5 €" is 5, "Fr. 20.15 Uhr" no amount),
//     nor before a bare number elsewhere ("Fr 3 Kurse" is no amount). A symbol or code joined to the
//     digits after it is theirs ("H.264 $20" is 20); one spaced from the
//     numbers on both sides is the one's before it ("1.299 € 20 % sparen"
//     is 1299, "5 EUR 2 Stück" 5), but where only the one after has an
//     amount's form ("Qty 2 USD 15.00" is 15), and goes to the number after
//     it where no number stands before it ("EUR 5"). PHP and CAD before
//     digits without an amount's form are no currency ("Learn PHP 8 for
//     $49" is 49: a language's version, as CAD 3 is a craft's), nor TL and
//     Ft spaced after a number without one ("2 TL Salz" is a teaspoon, "6
//     Ft" feet; "50TL", "1.299,00 TL" lira), but on a page whose
//     language's currency they are (lang="hu": "2 db 990 Ft" is 990, the
//     forint; lang="tr": "2 adet 49 TL" is 49, the lira). Of several
//     amounts the first is the value ("USD 1,234.50 (EUR 1.100,00)" is
//     1234.5), as the first number was of every match, but where a shop's words before them say
//     which is asked now (a small list in English, German, French, Spanish,
//     Italian and Dutch: pricewords.go): the first after a now-word (now,
//     sale, jetzt, maintenant, ahora, ora, nu, "new price"), else the
//     first, passing over one after a was-word (was, regular, "list price",
//     statt, UVP, avant, antes, prima: at the text's start or after
//     punctuation, not in a sentence) that another amount follows closely,
//     not a saving nor a surcharge ("Was $59.99, now $49.99", "statt 59,99
//     € 49,99 €" and "List Price: $59.99 Price: $49.99" are 49.99; "Was
//     $59.99", "Was $59.99 Save $10", "UVP: 59,99 € zzgl. 4,95 € Versand"
//     and "Price was $30 per person, but $25 for groups" 59.99, 59.99,
//     59.99 and 30; "Revenue was $1.2 billion" no label). Bare numbers that run up to the amount, joined by
//     at most one dash or tilde, or by a word of a range (to, bis, à),
//     between spaces or none, begin it: a range written with its currency
//     once ("20–30 €", "20 - 30 €", "1,000〜2,000円" and "20 to 30 €" read
//     their first number, as "€20–€30" does), or on both ends, the
//     second's before it, where a dash joined to both or a range's word
//     joins them ("10-€20", "10 to €20"; but "Size 10 - $49.99" is 49.99,
//     a spaced dash standing between a name's number and a price as
//     often). A range's value is its low end: a value is one number, the
//     change types compare one (increases, falls below), and a range on a
//     shop's page is a "from" price, its lowest variant's, which the
//     watcher of it waits to see fall. Spaces alone join no numbers
//     into a run ("Größe 42 59,99 €" is 59.99), but plain spaces before
//     groups of exactly three digits group an amount's thousands on a page
//     that declares no language, as on one whose language groups by spaces
//     ("12 490 Kč" is 12490, "1 299 € 12 mois" 1299). The rule, whatever
//     the space (plain, no-break U+00A0, narrow no-break U+202F): digits,
//     then groups of a space and exactly three digits, the last with a
//     decimal part of one or two digits or none, are one number where the
//     digits before the first space are one to three, not beginning with
//     0 nor following another number ("Samsung 2 499 €", "2 499,99 €",
//     "1 234 567" and "-2 499 €" are 2499, 2499.99, 1234567 and -2499);
//     anything else stands apart: a group of other than three digits
//     ("Pack of 3 24 cans" is 3, "rooms 2 3 4" 2, "1 2345" 1), a lead of
//     four digits ("2024 150 pages" is 2024). Of plain spaces, besides,
//     not after a name's number (spacegroup.go), where a word says the
//     number is one: a name's word (written with a capital: not a
//     label's word, a short list of price, total, from and tax words,
//     nor a shop's, pricewords.go, nor one holding digits or following a
//     name's number) before groups that are a price in the euro, the
//     dollar, the pound or the franc, whose shops' prices are seldom tens
//     of thousands where a model's number is often two digits, where the
//     number is of two digits or more, or of one after a product's name
//     written with a capital inside it (iPhone, iPad, PlayStation,
//     AirPods), and not 1, which begins a price's thousands far more
//     often than it numbers a model ("Nike Air Max 90 129 €", "Windows 11
//     199 €", "Top 10 199 €", "iPhone 15 999 €" and "PlayStation 5 499
//     €" are 129, 199, 199, 999 and 499, where "iPad 1 099 €", "Prix 1
//     299 €", "Prix : 15 999 €", "Galaxy S24 1 299 €", "iPhone 15 Pro 1
//     199 €" and "iPad 12 990 Kč", a currency whose prices are tens of
//     thousands, are 1099, 1299, 15999, 1299, 1199 and 12990). One digit
//     after a word written with a capital at its start alone is a
//     price's thousands, as such a word names a brand ("Samsung 2 499
//     €", "Dyson 1 299 €") as often as a model: "Samsung 2 499 €" is
//     2499. The costs of the rule, which a colon before the price undoes
//     ("Clio : 15 990 €", "Model 3 : 999 €" are 15990 and 999):
//     "Clio 15 990 €" is 990, a price of tens of thousands read as a
//     model's number and the rest, and "Model 3 999 €" and "Pixel 8 699
//     €" are 3999 and 8699, a model's one digit read as a price's
//     thousands. After a size's word the number is the size's whatever
//     the currency ("Größe 42 590 Kč" is 590), and after a count's word
//     (lot, pack, set, x, par, pcs, Stück; de and of after one of them)
//     a count's where a unit of measure follows the groups (g, kg, ml, l,
//     cl, cm, mm, m): "Lot de 2 250 g" and "Pack of 2 100 ml" are 2, a
//     count and a quantity, where "1 250 g" and "Weight of 1 250 g" are
//     1250. On a
//     page whose language groups otherwise (en, de, tr) a plain space ends a
//     number, but where a currency stands right before the number or
//     right after its groups, or a price's label before it, as shops there
//     type one for the no-break space ("Preis 1 299 €", "1 299,00 €", "€
//     1 299" on a German page and "12 990 TL" on a Turkish one are 1299
//     and 12990; "2 299 Stück" and "1 299.00" on an English one are 2 and
//     1), or where two groups or more follow the first digits, as the SI
//     and DIN 5008 write large numbers ("1 234 567" on an English or a
//     German page is 1234567).
//   - Signs besides a leading minus: an amount with a currency in
//     parentheses is negative, as accounts write losses ("($1,200)",
//     "(€1.200,00)" and "(1,200.00 USD)" are -1200), as is one with its
//     currency outside them, as a statement's column writes it
//     ("$(5.00)", "€ (2.50)", "(2.50) €"), where the amount and its
//     parentheses are the whole text of the match, a statement's cell, or
//     follow a label's colon ("Net income: ($1,200)"), but that of a
//     cart's, an order's or a receipt's line, whose words say the sign
//     and whose parentheses only set the amount off ("Order total:
//     ($45.00)" is 45, "You save: ($20.00)" 20: pricewords.go); after
//     other words they hold a surcharge, as shops write one far more
//     often than pages write a loss ("Extra cheese ($1.50)" is 1.5,
//     "Option A (2.50) €" 2.5). A number without a currency is a count, as the web writes it
//     beside a link or a tab ("Reviews (1,200)" is 1200, "Comments (12)"
//     12). An en dash that begins a
//     number, standing as a word's start, is its minus sign, as European
//     typesetting writes one ("–15 %", "–1,23", "–$5.00"); a range's is
//     not ("2019–2020", "10 – 20"). A minus sign joined after an amount
//     and before its currency is its sign, as German statements write it
//     ("2.50- €", "1.234,56- EUR"), but not one before a number or a
//     word ("5-10 days", "5-pack"), nor one without a currency after it,
//     which ends a shop's price as the dash of "49,–" does ("Preis:
//     49,99-" is 49.99, "Ages 3-" 3, and "Rs. 1,299-", India's "1,299/-"
//     typed short, 1299).
//   - A magnitude after an amount multiplies it (magnitude.go: "$1.2M",
//     "$2.1bn", "$1.5 billion", "€3,5 Mrd.", "1,2 Mio. €", "₹1.5 Cr"), so
//     that $900K rising to $1.2M is a rise of 300000, and makes its one
//     separator a decimal one ($1.299M); a count's K, M or B joined to it
//     is one too, as the web writes followers, views and sales, where a
//     count's noun names it or the number has a decimal part and no word
//     before it ("950" rising to "1.2K followers" is a rise of 250, not a
//     fall to 1.2; "12K followers", "Sold 3k" and "(1.2K)" are 12000,
//     3000 and 1200), but not elsewhere, where the letter is a size's, a
//     seat's or a grade's as often ("4K", "Shoe size 10M", "Seat 12B",
//     "Apt 4B" and "2B pencil" are 4, 10, 12, 4 and 2), nor one after a
//     space ("3 M views") nor a unit's letter ("5KB", "5m", "100 Mbps").
//     A magnitude written as a word multiplies a bare number too, where
//     the word is English or of the page's language, or the page declares
//     none ("1.2 million" and "3 million views" are 1200000 and 3000000,
//     "3,4 Mrd" on a German page 3400000000, "2 millions de visiteurs"
//     on a French one 2000000; "3,4 Mrd" on an English page is 3.4), and
//     any magnitude joined to a figure does after a word naming an amount
//     of money ("Revenue 1.2M", "Revenue: 2.1bn", "Umsatz 3,4 Mrd."):
//     there the letter is the figure's, not a size's. A unit written
//     with letters of a magnitude is none ("5 mn", French minutes). A
//     French page counts by the long scale, its billion a million
//     millions and its trillion a million billions ("2 billions d'euros"
//     is 2000000000000, "2 milliards" 2000000000).
//   - In HTML, a match whose text holds several numbers, some struck out
//     (del, s, strike: the regular price a shop shows beside a sale's),
//     reads its number from its text without them where that holds one
//     (struck.go): <del>$59.99</del> $49.99 is 49.99, so that a sale
//     price's change is seen, and the regular price's alone is none. A
//     match that is the struck element, or holds no other number, reads
//     it; so does an attribute, and an XML document's del.
//   - NOT is the seed's formal "non-detection", not the "presence" its
//     motivation describes (note §2.4).
//   - Compare options: pairwise compares (Vi, Vi+1); every n compares (V1,
//     V1+n), (V1+n, V1+2n), ... (the note's reading A, §7.7, so that every 3
//     at 10 minutes equals pairwise at 30 minutes); moving n compares (Vi,
//     Vi+n-1) ("V1 is the reference for V4" with n = 4). These are the
//     readings the spec package documents.
//   - A Pair given an empty delta (treediff found nothing) answers "no
//     change" for every change type without extracting anything.
package intent

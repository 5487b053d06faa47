// Package markup parses XML and HTML5 documents into Vigil's document
// trees (package tree) and writes trees back as XML or HTML.
//
// ParseXML uses a hand-written scanner over the whole input, which is read
// into memory first (up to Options.MaxBytes); ParseHTML uses
// golang.org/x/net/html, so any page a browser reads parses. Parse tells the
// two apart by content (see Detect), or as Options.Format says. A document
// Detect finds XML is read as HTML when it is not well-formed and it is
// XHTML (an html DOCTYPE or root) or an HTML fragment: no XML declaration
// and no DOCTYPE, and a first element of HTML's (<blockquote>, <pre>, <td>,
// <svg>, ... with no foreign namespace, and none of the names XML roots
// often have: <data>, <menu>, <title>, <label>...); malformed XML of any
// other kind (<catalog><item></catalog>), or served as XML
// (Options.MediaType application/xml, text/xml, +xml), is a *SyntaxError.
// A document of the first kind served
// as text/html (Options.MediaType) is HTML, as in a browser, even when it
// is well-formed XML. WriteXML, WriteNodeXML,
// WriteHTML and WriteNodeHTML serialise. JoinTexts reads a subtree's texts
// as a reader does, for the views that show a change on one line.
//
// ParseXMLFlat and ParseFlatBytesOwned build the same tree as a tree.Flat,
// the post-order arrays the diff works on: the scanner is the same, only
// where each node goes differs, so both read every input alike (the fuzz
// test FuzzParseFlat checks it). For a document parsed only to be diffed,
// as by vigil diff, the flat parse is two to three times faster than
// building *tree.Node values and takes a fraction of their memory.
//
// # White space
//
// The white-space policy decides which text nodes exist, and so the child
// positions that deltas address: two parses of one document under different
// policies give different deltas. Options.Whitespace selects it.
//
//   - Normalize (the default) drops every text node that holds only white
//     space, and in every other text node replaces each run of white space
//     with one space and trims both ends. XML white space is space, tab,
//     newline and carriage return; HTML white space adds form feed. Text
//     inside an element with xml:space="preserve" (until an xml:space="default"
//     below it), and in HTML inside pre, textarea, listing, plaintext, xmp,
//     script and style (in XML too when the element is in XHTML's namespace,
//     so that an XHTML page read as XML keeps what a browser shows; there an
//     xml:space="default" below the element, not on it, normalises), is kept
//     as it is, white-space-only text included (the
//     spaces and line breaks between the highlighted tokens of a code
//     listing are its content). In HTML, white space that separates words on a line
//     is kept as one space (htmlspace.go): at the end of a text next to
//     inline content ("Alpha <b>x</b> beta" keeps "Alpha " and " beta"), and
//     between two inline elements (<b>x</b> <i>y</i> keeps a text " "), so
//     that a page written back or shown keeps its words apart; next to a
//     block, a line break or a comment it is dropped. In XML, where no
//     element is known to be inline, white space next to a sibling element
//     is kept as one space ("a <b>b</b> c" keeps "a " and " c"), and white
//     space alone between two elements is kept as a text " " where the
//     parent holds other text before it or where it has no line break
//     (<b>x</b> <i>y</i>); at the start or end of an element, next to a
//     comment or processing instruction, and between elements on lines of
//     their own (indentation) it is dropped.
//   - Keep keeps every character of every text node, including
//     white-space-only ones between elements.
//
// Under both policies, white space outside the root element is dropped (it
// is not part of any node), XML line ends are normalised to "\n" as XML
// requires (CR LF and lone CR; a character reference &#13; stays a carriage
// return), and XML attribute values are normalised as XML requires: a
// literal tab, newline or carriage return in a value becomes a space (the
// writers write those characters as character references, so they survive).
// Adjacent pieces of text (character data, CDATA sections, references) are
// merged into one text node; a comment or processing instruction between
// them keeps them apart.
//
// # Characters
//
// Every tree holds only characters XML 1.0 allows (its Char production):
// no NUL or other C0 control character but tab, newline and carriage
// return, no surrogate, no U+FFFE or U+FFFF. XML cannot hold the others,
// not even as character references (&#1; is not well-formed), so no
// XyDelta could carry a change to them, and a JSON delta must read as the
// delta its XML form holds (package delta refuses them in both). ParseXML
// refuses a document holding one. HTML may hold them, as bytes or as
// references (&#1;): ParseHTML replaces them, deliberately, in text,
// attribute names and values, comments, element names and the DOCTYPE
// alike, a form feed (HTML white space) by a space and every other by
// U+FFFD, as the HTML parser itself replaces NUL. So a page with a
// U+0001 in it, diffed and patched, comes back with U+FFFD in its place;
// pages hold these characters by accident and keep their meaning without
// them. C1 controls (U+0080 to U+009F) and the other non-characters
// (U+FDD0, U+1FFFE, ...) are XML characters and are kept.
//
// # XML
//
// The XML parser checks well-formedness and returns a *SyntaxError with a
// 1-based line and column (in characters) and what it expected, for the
// first error found; no partial document is returned. It supports elements,
// attributes in either quote, namespaces (qualified names are kept as
// written and xmlns declarations kept as attributes; an undeclared prefix is
// an error), the five predefined entities, character references, CDATA
// sections (which become text), comments (each the author's, whatever its
// text: <!--?xml version="1.0"?--> is a comment, not a declaration),
// processing instructions (the XML declaration goes to Document.Prolog as
// a ProcInst named "xml"), and the DOCTYPE, whose text is kept in
// Document.Doctype. Two departures from XML
// 1.0: white space before the XML declaration is tolerated, because
// generated feeds often begin with a stray newline; and xmlns:p="", which
// the namespaces recommendation 1.0 forbids, undeclares p as in 1.1 (a use
// of p below it is an undeclared prefix), rather than refusing documents
// that tools of XML 1.1 write.
//
// From the DOCTYPE's internal subset, general entity declarations are read
// and their references expanded, in text and in attribute values; their
// replacement text may contain markup (elements, comments), which is parsed
// in place. ATTLIST declarations of type ID are recorded in
// Document.IDAttrs (element name to attribute name; the first wins).
// Attribute defaults declared in the DTD are not applied. External
// entities and the external DTD subset are never fetched: a reference to an
// external entity is an error, and so is a reference to an undeclared
// entity, except that a document whose DOCTYPE names an XHTML DTD may use
// the HTML named character references (&nbsp;). Parameter-entity references
// in the internal subset are skipped.
//
// # HTML
//
// HTML is parsed as a browser does: the tree always has an html root with
// head and body, tables get their tbody, misnested tags are repaired, and
// the names of elements and attributes are lower-cased (SVG and MathML
// names keep their case, and prefixed foreign attributes such as
// xlink:href keep their prefix). The DOCTYPE goes to Document.Doctype as
// "html" or with its public and system identifiers; comments before and
// after the html element go to Prolog and Epilog. HTML has no processing
// instructions: <?xml version="1.0"?> is read, as a browser reads it, as
// the comment <!--?xml version="1.0"?--> (tree.IsXMLDeclarationComment),
// and the document says an HTML parser read it (tree.Document.HTML), so
// that package delta leaves such a comment before the root out of what
// it compares, as it does an XML declaration. The text of script and
// style is a text child of its element. WriteHTML writes what ParseHTML
// reads back as the same tree.
//
// # Security limits
//
// Options.MaxBytes (256 MiB by default) bounds the input: an *os.File or a
// reader with a Len method is refused before reading, and any other reader is
// read through an io.LimitReader of MaxBytes+1, so a 2 GB stream is refused
// after MaxBytes+1 bytes. Options.MaxDepth (1 000 000) bounds nesting; the
// parsers, the writers and package tree are iterative, so a document nested
// 100 000 deep costs heap, not goroutine stack. Options.MaxEntityExpansion
// (16 MiB) bounds the total text produced by entity references, counted at
// every reference with 32 bytes more for the reference itself, which refuses
// "billion laughs" documents after a few milliseconds; entity references nest
// at most 64 deep and an entity referring to itself is an error. An input
// past one of these three limits gives a *LimitError, which names the
// Options field, so that a program offering the limit under another name
// (a command-line flag) can say that name instead. ParseXML
// fails on the first byte that is not an XML character (NUL, most control
// characters, invalid UTF-8); ParseHTML reads anything, as a browser does,
// and CheckBinary tells a file that is not text at all (ErrBinary: a NUL
// byte in the first 8 000 bytes, or a control character in every twenty
// there), for a caller handed files of unknown kind, as CheckEmpty tells one
// with no element and no text (ErrEmpty: only white space, comments,
// processing instructions and a DOCTYPE), which ParseHTML reads as an empty
// page. The HTML parser (x/net/html) refuses
// documents with more than 512 open elements. Most such pages never close
// their <font> or <b> tags: ParseHTML reads them again with the formatting
// tags beyond 200 open left out, text kept (a departure from the browser's
// tree, which nests them all); a page that deep in other elements is
// refused, and a well-formed one parses as XML (Options.Format).
//
// # Charsets
//
// Documents are decoded to UTF-8 before parsing. XML: a byte-order mark
// (UTF-8, UTF-16 or UTF-32 LE or BE, or UTF-16 without one recognised by
// its first character '<'), else
// Options.Charset (a label or an HTTP Content-Type value), else the XML
// declaration's encoding (IANA names: ISO-8859-1 is Latin-1), else UTF-8.
// Invalid UTF-8 after decoding is a *SyntaxError. HTML: a byte-order mark,
// else Options.Charset, else a meta charset or http-equiv Content-Type in
// the first 1024 bytes (golang.org/x/net/html/charset, WHATWG labels;
// x-user-defined there means windows-1252, as in browsers), else
// UTF-8 if the document is valid UTF-8, else the charset of a meta element
// further on (a browser that meets one changes the encoding), else
// windows-1252. One departure from browsers: a page that a meta element or
// an XML declaration says is windows-1252 (or its labels iso-8859-1 and
// us-ascii) but whose bytes are valid UTF-8 is read as UTF-8, which such a
// label on such bytes almost always means (a server's template declares
// Latin-1, its content is UTF-8); a browser shows "cafÃ©". Invalid UTF-8
// in HTML becomes U+FFFD. The writers always write UTF-8, and WriteXML
// changes the declared encoding to UTF-8. DecodeNotASCIICompatible decodes
// a text in a charset that is not ASCII-compatible (UTF-16, ISO-2022-JP)
// for a caller that quotes it in ASCII markup.
//
// # Relation to the seed
//
// XyDiff (G. Cobéna, "Change management of semi-structured data on the
// Web", 2003, §3.8) leaves white space, comments, entities and CDATA aside,
// and the notes on it (§9, item 1) ask for a documented policy. The
// differences from the seed's reference implementation:
//
//   - It removes white-space-only text nodes only when they have siblings;
//     Normalize removes them all and also collapses runs inside text, so
//     that re-indenting a document changes nothing. Keep is the policy for
//     byte-faithful round trips.
//   - It drops comments and processing instructions; they are kept here as
//     explicit node kinds so that a document can be written back.
//   - It throws on unexpanded entity references; entities of the internal
//     subset are expanded here (external ones are refused, never fetched).
//   - CDATA sections become text, merged with the text around them, as the
//     seed's model has no CDATA node.
//
// # Why a hand-written XML scanner
//
// Vigil diffs every version of every monitored document, and the diff of a
// 10 MB pair must take less than twice the time of parsing both, so parsing
// is on the critical path twice. encoding/xml allocates a token, a name and
// a copy of every piece of text, and checks each rune through an interface:
// building a tree from its fastest token loop (RawToken) ran at 40 MB per
// CPU-second on 10 MB of data-oriented XML, against 212 MB per CPU-second for
// this package's scanner, with 6 190 allocations instead of 2.3 million
// (BENCHMARKS.md, "Parsing and serialisation (markup)"; about 3x on a
// text-heavy RSS feed). The scanner works on the whole document as one
// string: names and most text are substrings of it, white-space
// normalisation returns substrings when it can, nodes come from the
// document's slab and child and attribute slices from the parser's, and a
// first pass checks characters eight bytes at a time.
//
// # Why HTMLLinks scans by hand
//
// HTMLLinks gives a page's out-links to the monitor's page importance,
// which reads them from the body of every new version of every watched
// page. golang.org/x/net/html's Tokenizer reads them correctly, and is
// what HTMLLinks follows (FuzzHTMLLinks compares the two), but it reads
// every token of the page, text, comments and every attribute of every
// tag, through a buffered reader. Scanning for "<" and reading only start
// tags, with their href and xlink:href values the only strings made, took
// 27 µs against the Tokenizer's 99 µs on an 8 KB page of text and links
// (58 allocations against 711), and 42 ms against 96 ms on a 10 MB page of
// links, in constant memory beyond the links; no input makes it more than
// linear (a comment, a quote or a raw text element left open reads to the
// end once). What the Tokenizer does that HTMLLinks does not: the escape
// states of script data (a "<script" inside "<!--" in a script, after
// which "</script>" does not end it), whose text HTMLLinks reads for tags
// after the first "</script"; neither knows SVG and MathML, where a parser
// reads title and style as elements and CDATA sections as text. Its rules
// for the text no start tag is in (CommentEnd, RawTextElement,
// RawTextEnd) and for an attribute's character references (UnescapeAttr)
// are exported, so that a scanner of another package (intent's, for the
// href and src of HTML read as text) reads tags as it does.
package markup

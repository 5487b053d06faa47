package markup

// Whitespace is a white-space policy: what the parsers do with white space in
// text. It decides which text nodes exist and so the positions that deltas
// address; see the package documentation.
type Whitespace uint8

// The white-space policies.
const (
	// Normalize drops text nodes that hold only white space and, in the
	// remaining text, collapses each run of white space to one space and
	// trims both ends, but for the white space that separates words next
	// to inline content, kept as one space, alone or at a text's end (see
	// the package documentation). Text inside
	// xml:space="preserve" (XML) or inside pre, textarea, listing,
	// plaintext, xmp, script and style (HTML, and XHTML read as XML) is
	// kept as it is, white space alone included. Normalize is the default.
	Normalize Whitespace = iota
	// Keep keeps every character of every text node.
	Keep
)

// String returns the name of the policy.
func (w Whitespace) String() string {
	switch w {
	case Normalize:
		return "normalize"
	case Keep:
		return "keep"
	}
	return "invalid"
}

// Defaults for Options fields left zero.
const (
	DefaultMaxBytes           = 256 << 20 // 256 MiB
	DefaultMaxDepth           = 1_000_000
	DefaultMaxEntityExpansion = 16 << 20 // 16 MiB of text produced by entity references
)

// Options control parsing. A nil *Options, and any zero field, means the
// default.
type Options struct {
	// Whitespace is the white-space policy; the default is Normalize.
	Whitespace Whitespace
	// MaxBytes is the largest input accepted, in bytes, before any charset
	// decoding. A larger input is refused with an error wrapping
	// ErrTooLarge without being read into memory. The default is
	// DefaultMaxBytes.
	MaxBytes int64
	// MaxDepth is the deepest element nesting accepted. The default is
	// DefaultMaxDepth.
	MaxDepth int
	// MaxEntityExpansion bounds the total number of bytes that references
	// to entities declared in an XML DOCTYPE may produce, against
	// "billion laughs" inputs; each reference also counts 32 bytes. The
	// default is DefaultMaxEntityExpansion.
	MaxEntityExpansion int64
	// Format, when set, parses as XML or as HTML, instead of telling them
	// apart by content (see Detect). It serves Parse and its variants;
	// ParseXML and ParseHTML parse as they say.
	Format Format
	// MediaType is the media type the document was served with, if known
	// ("text/html", or a whole Content-Type value). A document served as
	// text/html whose DOCTYPE or first element is html is parsed as HTML,
	// as a browser does, even if it starts with an XML declaration and is
	// well-formed: told by content, such an XHTML page would be read as
	// XML while well-formed and as HTML once not, and the successive
	// versions of one page would change format, and every node with it.
	// Other media types leave the format to Detect. Format, when set,
	// wins.
	MediaType string
	// Charset overrides the document's own charset declarations (but not a
	// byte-order mark). It is either a charset label ("windows-1252") or a
	// whole HTTP Content-Type value ("text/html; charset=windows-1252"); a
	// Content-Type without a charset parameter overrides nothing.
	Charset string
}

// resolved returns a copy of o with defaults filled in.
func (o *Options) resolved() Options {
	var r Options
	if o != nil {
		r = *o
	}
	if r.MaxBytes <= 0 {
		r.MaxBytes = DefaultMaxBytes
	}
	if r.MaxDepth <= 0 {
		r.MaxDepth = DefaultMaxDepth
	}
	if r.MaxEntityExpansion <= 0 {
		r.MaxEntityExpansion = DefaultMaxEntityExpansion
	}
	return r
}

// Format is a document format.
type Format uint8

// The formats Parse tells apart.
const (
	XML Format = iota + 1
	HTML
)

// String returns "xml" or "html".
func (f Format) String() string {
	switch f {
	case XML:
		return "xml"
	case HTML:
		return "html"
	}
	return "invalid"
}

// WriteOptions control serialisation. A nil *WriteOptions means the defaults:
// compact output with no white space added, so that parsing the output with
// the Keep policy gives back the same tree.
type WriteOptions struct {
	// Indent, when not empty, puts each element whose children are all
	// elements, comments or processing instructions on its own lines,
	// indented by this string per level (up to 100 levels; deeper ones
	// are indented as level 100). Elements with text children, and
	// everything inside xml:space="preserve" or an HTML (or XHTML) pre,
	// textarea, listing, plaintext, xmp, script or style, are written compactly, so
	// no text node changes; but new white-space-only text appears between
	// other elements, which a parse with the Keep policy keeps and one
	// with Normalize drops.
	Indent string
	// OmitProlog writes only the root element: no XML declaration, DOCTYPE,
	// prolog or epilog nodes.
	OmitProlog bool
}

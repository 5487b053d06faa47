package monitor

import (
	"bytes"
	"context"
	"encoding/xml"
	"hash/maphash"
	"io"
	"mime"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// keySeed seeds the keys of pages (pageKey): they live in this process
// only, never stored.
var keySeed = maphash.MakeSeed()

// pageKey is the key of a page in the importance state: a 64-bit hash of
// its canonical URL (vigil.CanonicalURL), 8 bytes a link target rather
// than its URL. Two URLs share a key with a chance of about n²/2⁶⁵ among
// n: a link to one would count as a link to the other.
func pageKey(canonical string) uint64 { return maphash.String(keySeed, canonical) }

// linkKeys returns the keys of the pages that version v of the page at
// pageURL (whose key is self) links to, each once, sorted, the page
// itself left out. An HTML body is scanned for its links
// (markup.HTMLLinks), not parsed into a tree, unless its links are to be
// decoded from another charset than UTF-8, it has a base element, or it
// is a feed served as text/html, whose links are its feed links
// (htmlLinkKeys); another markup
// body is read from the tree a comparison of this check parsed (pairs),
// else parsed now; a body read as its source text links to the URLs
// written in it. The links resolve against the URL v's body was read
// from (vigil.Version.PageURL: the final URL of a redirect, else
// pageURL). It returns an error if the body cannot be read now (store,
// memory budget).
func (m *Monitor) linkKeys(ctx context.Context, pageURL string, self uint64, v *vigil.Version, pairs map[[2]int64]*pairEval, grant *memoryGrant) ([]uint64, error) {
	pageURL = v.PageURL(pageURL)
	media, _, _ := mime.ParseMediaType(v.ContentType)
	if v.ContentType != "" && media != "text/html" {
		doc, asText, err := m.versionTree(ctx, v.ID, pairs, grant)
		if err != nil || doc == nil {
			return nil, err
		}
		return treeLinkKeys(doc, pageURL, self, asText), nil
	}
	b, err := m.grantedBody(ctx, v.ID, grant)
	if err != nil {
		return nil, err
	}
	if keys, ok := htmlLinkKeys(b.data, b.charset, pageURL, self); ok {
		return keys, nil
	}
	doc, why, err := m.document(b, v.ID)
	if err != nil {
		return nil, nil // not read, ever: a page without links
	}
	return treeLinkKeys(doc, pageURL, self, why != ""), nil
}

// treeLinkKeys returns the keys of the pages the tree of a page served at
// pageURL links to, each once, sorted, self left out: its links
// (warehouse.ExtractLinks), or, for a page read as its source text
// (asText), the URLs written in it (warehouse.ExtractTextLinks), as its
// links sentinels and the site crawl read it.
func treeLinkKeys(doc *tree.Document, pageURL string, self uint64, asText bool) []uint64 {
	extract := warehouse.ExtractLinks
	if asText {
		extract = warehouse.ExtractTextLinks
	}
	var keys []uint64
	for _, l := range extract(doc, pageURL) {
		if t, err := vigil.CanonicalURL(l.Target); err == nil { // without its fragment
			keys = append(keys, pageKey(t))
		}
	}
	return sortedKeys(keys, self)
}

// htmlLinkKeys returns the keys of the pages an HTML body served at
// pageURL in charset (as the version has it) links to, as
// warehouse.ExtractLinks finds them in its tree, each once, sorted, self
// left out; false if the body's hrefs are to be decoded from another
// charset than UTF-8 first (HTMLLinks gives their bytes as written), or
// resolved against a base element, which the caller reads from the tree.
// Those are a body in UTF-16 (a byte order mark, or so labelled), and a
// non-ASCII byte in an href or base that is not UTF-8, or of a page
// labelled in another charset: its "caf\xe9.html" in ISO-8859-1 is
// caf%C3%A9.html in the tree, and its key would be that of caf%E9.html,
// a page nobody watches. So is a page with a base element with an href:
// its links resolve against the base its views take (intent.PageBase:
// the first with an href, in its head, passed over when it is not http
// or https), which the tree tells; it took every base in turn, an ftp:
// one leaving no link. So is a feed
// (feedBody) served as text/html or with no type, which the warehouse
// reads as XML and links to its feed links (intent.FeedLinks, through
// ExtractLinks), which a scan of a and area tags does not see. An XHTML
// page, though its XML declaration makes it XML, is scanned as before:
// its links are its a and area elements, and parsing a large page for
// them on every check would cost its tree.
func htmlLinkKeys(body []byte, charset, pageURL string, self uint64) ([]uint64, bool) {
	if bytes.HasPrefix(body, []byte("\xfe\xff")) || bytes.HasPrefix(body, []byte("\xff\xfe")) || strings.HasPrefix(strings.ToLower(charset), "utf-16") {
		return nil, false
	}
	if feedBody(body) {
		return nil, false
	}
	hrefs, bases := markup.HTMLLinks(body)
	if len(bases) > 0 {
		// The page's base is the one its views and stored links take
		// (intent.PageBase, through ExtractLinks): its first base
		// element with an href, if that is http or https, which the
		// tree tells and a scan of tags does not.
		return nil, false
	}
	utf8Label := charset == "" || strings.EqualFold(charset, "utf-8") || strings.EqualFold(charset, "utf8") || strings.EqualFold(charset, "us-ascii")
	for _, h := range hrefs {
		if !isASCII(h) && (!utf8Label || !utf8.ValidString(h)) {
			return nil, false
		}
	}
	if len(hrefs) == 0 {
		return nil, true
	}
	r, err := newLinkResolver(pageURL)
	if err != nil {
		return nil, true
	}
	keys := make([]uint64, 0, len(hrefs))
	for _, h := range hrefs {
		if t, ok := r.target(h); ok {
			keys = append(keys, pageKey(t))
		}
	}
	return sortedKeys(keys, self), true
}

// feedBody reports whether body may be a feed: markup.Detect finds it
// XML and its first element's local name is one of a feed's roots (rss,
// feed, RDF; intent.IsFeed tells on the tree). Only the prolog is read.
func feedBody(body []byte) bool {
	if markup.Detect(body) != markup.XML {
		return false
	}
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = false
	// The prolog is ASCII in any charset but UTF-16, left out above.
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	for {
		tok, err := d.RawToken()
		if err != nil {
			return false
		}
		if se, ok := tok.(xml.StartElement); ok {
			switch se.Name.Local {
			case "rss", "feed", "RDF":
				return true
			}
			return false
		}
	}
}

// isASCII reports whether s is all ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// sortedKeys sorts keys, drops duplicates and self: a page votes once for
// another (as opic.NewGraph has it), and not for itself.
func sortedKeys(keys []uint64, self uint64) []uint64 {
	slices.Sort(keys)
	keys = slices.Compact(keys)
	if i, ok := slices.BinarySearch(keys, self); ok {
		keys = slices.Delete(keys, i, i+1)
	}
	if len(keys) == 0 {
		return nil
	}
	return slices.Clip(keys)
}

// linkResolver resolves the hrefs of one page without a base element to
// canonical URLs, as warehouse.ExtractLinks does (its fragment left out):
// the plain hrefs (those of plainHref) by joining strings, which give the
// canonical form as they are; the others are parsed and canonicalised.
type linkResolver struct {
	base   *url.URL // the canonical page URL
	origin string   // its scheme://host
	dir    string   // its escaped path up to its last slash
}

func newLinkResolver(pageURL string) (*linkResolver, error) {
	canon, err := vigil.CanonicalURL(pageURL)
	if err != nil {
		return nil, err
	}
	base, err := url.Parse(canon)
	if err != nil {
		return nil, err
	}
	p := base.EscapedPath()
	return &linkResolver{base: base, origin: base.Scheme + "://" + base.Host, dir: p[:strings.LastIndexByte(p, '/')+1]}, nil
}

// target returns the canonical URL href leads to, without its fragment;
// false for an href that is not http(s), or invalid.
func (r *linkResolver) target(href string) (string, bool) {
	href = intent.CleanRef(href)
	rest, _, _ := strings.Cut(href, "#")
	if path, ok := plainHref(rest); ok {
		if strings.HasPrefix(rest, "/") {
			return r.origin + path, true
		}
		return r.origin + r.dir + path, true
	}
	u, err := r.base.Parse(href)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return "", false
	}
	t, err := warehouse.CanonicalLink(u)
	return t, err == nil
}

// plainHref reports whether href (without its fragment) is a path,
// absolute ("/a/b.html") or relative ("b.html", "a/b"), of letters,
// digits and "-._~/" without dot segments, with a query or none of
// printable ASCII: one whose join with a canonical page's origin (an
// absolute path) or directory (a relative one) is canonical as it is
// (vigil.CanonicalURL would keep it). It returns href without an empty
// query ("b.html?" is "b.html"). An href "" (the page itself), "//host/"
// or with a scheme is not plain.
func plainHref(href string) (string, bool) {
	path, query, hasQuery := strings.Cut(href, "?")
	if path == "" || strings.HasPrefix(path, "//") {
		return "", false
	}
	for i := 0; i < len(path); i++ {
		c := path[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
			return "", false
		}
	}
	for seg := range strings.SplitSeq(path, "/") {
		if seg == "." || seg == ".." {
			return "", false
		}
	}
	for i := 0; i < len(query); i++ {
		if c := query[i]; c <= ' ' || c >= 0x7f {
			return "", false
		}
	}
	if hasQuery && query == "" {
		return path, true
	}
	return href, true
}

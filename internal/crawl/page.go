package crawl

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

// VersionKind says where a page's version comes from.
type VersionKind string

const (
	// VersionLastModified: the server's Last-Modified date, in RFC 3339 in
	// UTC. WHOWEDA's identity (note 000 §2.2): two pages are the same
	// version when they have the same URL and the same date.
	VersionLastModified VersionKind = "last-modified"
	// VersionContentHash: the page came without a Last-Modified date, so
	// its version is its Hash (note 000 §8.1, item 11): the SHA-256 of
	// its body, of a PDF's without what a generator changes at every run
	// (package pdfdigest).
	VersionContentHash VersionKind = "content-hash"
)

// Page is one node of a snapshot: a page of the site as fetched.
type Page struct {
	// URL is the page's canonical URL after redirects: the node id.
	URL string `json:"url"`
	// Depth is the shortest link distance from the start page.
	Depth int `json:"depth"`
	// Status is the HTTP status of the answer, 0 when none came (refused,
	// timed out, disallowed by robots.txt).
	Status int `json:"status,omitempty"`
	// Error says why the page could not be read; empty for a page read.
	Error string `json:"error,omitempty"`
	// Blocked says that robots.txt disallows the URL: it was never
	// requested (Error is the fetcher's refusal), so it took none of
	// Query.MaxPages's fetches. Absent from snapshots made before, whose
	// blocked pages took one each.
	Blocked bool `json:"blocked,omitempty"`
	// ContentType is the media type, without parameters.
	ContentType string `json:"contentType,omitempty"`
	// Title is the text of an HTML page's <title> (of XML, a feed among
	// it, its first <title>: a feed's own, as feeds are written), white
	// space collapsed.
	Title string `json:"title,omitempty"`
	// Note says that a page read was not read as a page but as its
	// source text, as the warehouse reads it (warehouse.ReadBody): it is
	// NoteReadAsText and why, the parse error of an HTML page that does
	// not parse (nested past the HTML parser's limit, XHTML that is not
	// well-formed), or "served as" and the type of a page served as text
	// that is not markup (text/plain, JSON, CSV). Such a page has no
	// title, and for links the http(s) URLs written in its text and the
	// href and src its tags write relative (textLinks). Empty
	// for a page read as a page, and in snapshots made before notes were
	// kept; a text page of a snapshot before format 3 (FormatV2) was not
	// read, so has none.
	Note string `json:"note,omitempty"`
	// Version identifies the page's content (see VersionKind); empty when
	// neither a date nor a body came: a failure, or a binary leaf without
	// Last-Modified whose fetcher gave no digest (a crawl before binary
	// leaves were hashed, a Fetcher that does not implement
	// vigil.FetchRequest.DigestBinary).
	Version     string      `json:"version,omitempty"`
	VersionKind VersionKind `json:"versionKind,omitempty"`
	// Hash is "sha256:" and the hex SHA-256 of the body, and Size its
	// length in bytes, as UTF-8 (the fetcher converts every text to it).
	// Of a binary leaf (an image, a PDF: a type that is not text), whose
	// body is not kept, Hash is its digest (BinaryDigest): the SHA-256 of
	// its bytes, of a PDF's without what a generator changes at every run
	// (its dates, its /ID, its XMP packets, its font subsets' tags, and
	// the offsets they move:
	// package pdfdigest), of a PNG, JPEG, GIF or WebP image's without its
	// metadata (package imagedigest), each of the latter two prefixed
	// with its kind and revision (pdfDigest, imageDigest), and Size its
	// length in bytes. Snapshots made before have neither for a binary
	// leaf, and a table compares its version only where both snapshots
	// have its hash, of the same kind or of a document that changed
	// (Snapshot.TableAgainst, digestsComparable).
	Hash string `json:"hash,omitempty"`
	Size int64  `json:"size,omitempty"`
	// DigestNote says why a binary leaf's Hash may change at every crawl
	// though its document does not (BinaryDigest): a PDF or an image
	// hashed as its bytes ("hashed as bytes: " and pdfdigest's or
	// imagedigest's error: a syntax error, an encryption that needs a
	// password), or a PDF some of whose streams were ("hashed in part as
	// bytes: " and which, and why: a filter pdfdigest does not decode). It is told where the page's change is
	// (vigil site diff, a site sentinel's change), and is no change
	// itself: a table compares versions. Empty for a leaf hashed as it
	// should be, for any other page, and in snapshots made before.
	DigestNote string `json:"digestNote,omitempty"`
	// Links are the page's links in scope, in document order, each
	// (target, label) once (of a page read as text, the URLs written in
	// it, each labelled by its Markdown label or else by the URL as
	// written); links to the page itself (to a place in it)
	// are left out. A target that redirected to a page of the snapshot is
	// that page's URL. At most MaxLinks are kept; LinksTruncated says
	// the page had more.
	Links          []Link `json:"links,omitempty"`
	LinksTruncated bool   `json:"linksTruncated,omitempty"`
	// Body is the page's text, kept only with Query.Bodies.
	Body string `json:"body,omitempty"`
	// Importance is the page's OPIC importance over the link graph of the
	// snapshot's pages read, from 0 to 1, summing to 1 over them
	// (importance.go); 0 for a page that failed or that robots.txt
	// blocked, which was not read (a page carried over is its last good
	// read, and has one), and in snapshots made before it was computed.
	// Snapshots made before failed pages were left out gave them one too.
	Importance float64 `json:"importance,omitempty"`
	// Momentary says that the page's failure is one that passes (an HTTP
	// 5xx or 429 answer, a timeout, a connection refused or reset:
	// momentary.go), so that Carry may keep the page's last good read in
	// its place. Absent from snapshots before format 4 (FormatV3).
	Momentary bool `json:"momentary,omitempty"`
	// Carried, set by Carry only, says that this crawl did not read the
	// page, which failed for a moment (or was not fetched, reached only
	// through such a page), and that the page is its last good read, kept
	// from the previous crawl: its status, version, title and links are
	// that read's. Absent from snapshots before format 4.
	Carried *Carried `json:"carried,omitempty"`
}

// NoteReadAsText begins the Note of a page read as its source text; the
// parse error follows.
const NoteReadAsText = "read as text: "

// ReadAsText returns what the crawl found reading page p's body, as the
// warehouse reads it (warehouse.ReadBody): why it is read as its source
// text (the parse error, in words, as warehouse.ReadAsTextReason words it,
// or "served as text/plain"; "" for a page read as a page), and whether
// the crawl read the body at all (an HTML page, or one served as text,
// read; not a failure, nor a leaf of another type). A text page of a
// snapshot before format 3 was a leaf, without a note: it says it was
// read as a page.
func ReadAsText(p *Page) (reason string, read bool) {
	if p.Failed() || !readsBody(p.ContentType) {
		return "", false
	}
	if !strings.HasPrefix(p.Note, NoteReadAsText) {
		return "", true
	}
	return strings.TrimPrefix(strings.TrimPrefix(p.Note, NoteReadAsText), "markup: "), true
}

// ReadingChanged reports whether page p of cur is read otherwise than
// page before of prev, the same URL: as its source text in one and as a
// page in the other, or as text for another reason (their Notes differ).
// A text page of a snapshot before format 3 (served as text that is not
// markup: a leaf, without a note, that the crawl did not read) is read as
// it is now if it is such a text page now, since the warehouse read it
// so: its note in cur tells nothing new. A leaf of another type (XML,
// which the warehouse reads as a page) now a text page is read otherwise.
func ReadingChanged(prev, cur *Snapshot, before, p *Page) bool {
	if !readsTextLinks(prev.Format) && readsTextLinks(cur.Format) && before.Note == "" && warehouse.ServedAsText(before.ContentType) && warehouse.ServedAsText(p.ContentType) {
		return false
	}
	return before.Note != p.Note
}

// Failed reports whether the page could not be read.
func (p *Page) Failed() bool { return p.Error != "" }

// BinaryLeaf reports whether the page is a binary document read (an
// image, a PDF: a type that is not text), whose body the crawl does not
// keep.
func (p *Page) BinaryLeaf() bool {
	return !p.Failed() && p.ContentType != "" && !vigil.IsTextMediaType(p.ContentType)
}

// Failure names why the page failed, as vigil site diff and a site
// sentinel's change say it ("failed before", "now failing"): its HTTP
// status ("HTTP 503") when it is not 2xx, else its error (a 2xx answer
// that failed: a charset, a size cap).
func (p *Page) Failure() string {
	if p.Status != 0 && p.Status/100 != 2 {
		return fmt.Sprintf("HTTP %d", p.Status)
	}
	return p.Error
}

// Link is a link object of WHOWEDA's model (note 000 §2.1) within a site:
// its target (canonical, without fragment) and its label (anchor text,
// white space collapsed).
type Link struct {
	Target string `json:"target"`
	Label  string `json:"label,omitempty"`
}

// Redirect records that the crawl asked for From and was led to To.
type Redirect struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// visit is what a worker found at one URL.
type visit struct {
	asked string
	page  *Page
	links []Link // every http(s) link of a page read, fragments dropped, not yet scoped
	err   error  // the context's error: the crawl is over
}

// hashBody returns the Hash of a body.
func hashBody(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// fetchPage fetches asked and reads the answer into a page. A fetch that
// failed for the page (status, refusal, timeout, robots.txt) gives a page
// with an error; only the end of ctx gives v.err. checkRedirect, when not
// nil, is asked before each redirect is followed (vigil.FetchRequest).
func fetchPage(ctx context.Context, f vigil.Fetcher, asked string, bodies bool, checkRedirect func(string) error) visit {
	var res *vigil.FetchResult
	var err error
	// A fetch that wraps ErrHostBusy was never sent: the host was busy
	// with the other workers' requests for longer than the fetcher waits.
	// It says nothing about the page, so it is asked again, until it is
	// sent or ctx ends: recorded as the page's failure, it made the
	// snapshot depend on timing (a slow host's pages "deleted" at random).
	// The note of a binary body's digest, given to the fetcher (which
	// calls it within Fetch) and kept in the page, not in the result.
	var digestNote string
	digestBinary := func(mediaType string, body []byte) string {
		digest, note := BinaryDigest(mediaType, body)
		digestNote = note
		return digest
	}
	for {
		res, err = f.Fetch(ctx, &vigil.FetchRequest{URL: asked, CheckRedirect: checkRedirect, DigestBinary: digestBinary})
		if !errors.Is(err, vigil.ErrHostBusy) || ctx.Err() != nil {
			break
		}
	}
	if ctx.Err() != nil {
		return visit{asked: asked, err: ctx.Err()}
	}
	if err == nil && res != nil && res.NotModified {
		// The crawl sends no validators: a 304 says nothing of the
		// page's content, and the page was not read.
		err = fmt.Errorf("fetch %s: 304 Not Modified to a request without validators", vigil.RedactURL(asked))
	}
	p := &Page{URL: asked}
	// Refused by robots.txt before any request was sent: a redirect
	// refused leaves a result naming where it led, a request sent. A
	// robots.txt that answered a server error refuses every page for a
	// moment (vigil.ErrRobotsUnavailable): a failure that passes, not a
	// page robots.txt disallows.
	p.Blocked = errors.Is(err, vigil.ErrDisallowed) && !errors.Is(err, vigil.ErrRobotsUnavailable) && res == nil
	if res != nil {
		if final, cerr := vigil.CanonicalURL(res.URL); cerr == nil {
			p.URL = final
		}
		p.Status = res.Status
		p.ContentType = res.ContentType
		if !res.LastModified.IsZero() {
			p.Version = res.LastModified.UTC().Format(time.RFC3339)
			p.VersionKind = VersionLastModified
		}
	}
	if err != nil {
		if res != nil && res.Status/100 == 2 && res.ContentType != "" && !vigil.IsTextMediaType(res.ContentType) {
			// A binary document (an image, a PDF): a leaf of the site,
			// whose body the fetcher does not return (it keeps text by
			// the same rule), but its digest (BinaryDigest) and size.
			if res.BinaryDigest != "" {
				p.Hash, p.Size, p.DigestNote = res.BinaryDigest, res.BinarySize, digestNote
				if p.VersionKind == "" {
					p.Version, p.VersionKind = p.Hash, VersionContentHash
				}
			}
			return visit{asked: asked, page: p}
		}
		p.Error = err.Error()
		p.Momentary = momentary(res, err) && !p.Blocked
		p.Version, p.VersionKind = "", ""
		return visit{asked: asked, page: p}
	}
	p.Hash = hashBody(res.Body)
	p.Size = int64(len(res.Body))
	if p.VersionKind == "" {
		p.Version, p.VersionKind = p.Hash, VersionContentHash
	}
	if bodies {
		p.Body = string(res.Body)
	}
	v := visit{asked: asked, page: p}
	if readsBody(p.ContentType) {
		doc, readAsText, perr := warehouse.ReadBody(res.Body, "utf-8", p.ContentType)
		if perr != nil {
			p.Error = "parse: " + perr.Error()
			return v
		}
		if readAsText != nil {
			// Its source text: no title, and the URLs written in it.
			p.Note = NoteReadAsText + readAsText.Error()
			v.links = textLinks(doc, p.URL)
			return v
		}
		if readsLinks(doc, p.ContentType) {
			p.Title = title(doc)
			v.links = pageLinks(doc, p.URL)
		}
	}
	return v
}

// textLinks returns the links of a document read as its source text from
// pageURL: the http(s) URLs written in its text, each labelled by its
// Markdown label or else by the URL as written, and the href and src its
// tags write relative, each labelled by its target, in order
// (warehouse.ExtractTextLinks: canonical, a host in its ASCII form, a
// host IDNA or DNS refuses left out), fragments dropped.
func textLinks(doc *tree.Document, pageURL string) []Link {
	return crawlLinks(warehouse.ExtractTextLinks(doc, pageURL))
}

// crawlLinks returns the crawl's links of the warehouse's links ls, in
// order, each labelled by its anchor, fragments dropped.
func crawlLinks(ls []*vigil.Link) []Link {
	var out []Link
	for _, l := range ls {
		target, _, _ := strings.Cut(l.Target, "#")
		out = append(out, Link{Target: target, Label: l.Anchor})
	}
	return out
}

// pageLinks returns the links of a document read from pageURL, in document
// order: those of warehouse.ExtractSiteLinks (<a href>, <area href>,
// xlink:href; a feed's feed links and its paging links), then the frames
// (<frame src>, <iframe src>, labelled with their title) and, of an HTML
// page, the <link> elements whose rel is a paging relation
// (intent.IsPagingLink: next, prev, previous; labelled with their title), which lead to the
// other pages of a listing split in pages as a feed's paging links do,
// none inside a <template>, whose content is inert (a browser neither
// shows nor follows it), or a <noscript> (intent.HoldsNoLinks), all resolved against the page's base as its
// views show them
// (intent.PageBase: its first base element with an href, passed over for
// pageURL when it is not http or https), fragments dropped, a host spelt
// in Unicode in its ASCII (punycode) form (spec.ASCIIHost), so that a
// site's links to its own pages are in its scope however they spell its
// name. A link to a host IDNA or DNS refuses (spec.CheckHostName) is left
// out, as other invalid links are: the crawl neither queues nor fetches
// it ("127.0.0.1.." was keyed, and fetched, as "127.0.0.1"). Before, a
// <link rel="next"> was not followed: a page linked only so was no page
// of the site, and a site diff against such a crawl shows it added.
func pageLinks(doc *tree.Document, pageURL string) []Link {
	out := crawlLinks(warehouse.ExtractSiteLinks(doc, pageURL))
	if doc == nil || doc.Root == nil {
		return out
	}
	// The frames resolve against the base the links do.
	base := intent.PageBase(pageURL, doc)
	if base == nil {
		return out
	}
	html := hasHTMLRoot(doc)
	tree.Walk(doc.Root, func(n *tree.Node) bool {
		if n.Kind != tree.Element {
			return true
		}
		if intent.HoldsNoLinks(n) {
			// A template's content is inert, a noscript's not shown
			// where scripts run: no frame nor paging link of the
			// page, as it holds none of its links.
			return false
		}
		var ref string
		switch strings.ToLower(localName(n.Name)) {
		case "frame", "iframe":
			src, ok := attr(n, "src")
			if !ok {
				return true
			}
			ref = src
		case "link":
			href, ok := attr(n, "href")
			if !html || !ok || !intent.IsPagingLink(n) {
				return true
			}
			ref = href
		default:
			return true
		}
		u, err := base.Parse(intent.CleanRef(ref))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || spec.CheckASCIIHost(u) != nil {
			return true
		}
		if target, err := vigil.CanonicalURL(u.String()); err == nil {
			label, _ := attr(n, "title")
			out = append(out, Link{Target: target, Label: strings.Join(strings.Fields(label), " ")})
		}
		return true
	})
	return out
}

// title returns the text of the first <title> outside <svg>, white space
// collapsed.
func title(doc *tree.Document) string {
	if doc == nil || doc.Root == nil {
		return ""
	}
	var t string
	found := false
	tree.Walk(doc.Root, func(n *tree.Node) bool {
		if found || n.Kind != tree.Element {
			return !found
		}
		switch strings.ToLower(localName(n.Name)) {
		case "svg", "math":
			return false
		case "title":
			var parts []string
			tree.Walk(n, func(m *tree.Node) bool {
				if m.Kind == tree.Text {
					parts = append(parts, m.Value)
				}
				return true
			})
			t = strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
			found = true
			return false
		}
		return true
	})
	return t
}

// localName strips a namespace prefix ("html:title").
func localName(name string) string {
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		return name[i+1:]
	}
	return name
}

func attr(n *tree.Node, name string) (string, bool) {
	for _, a := range n.Attrs {
		if strings.EqualFold(a.Name, name) {
			return a.Value, true
		}
	}
	return "", false
}

package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/microcosm-cc/bluemonday"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/render"
	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

// Diff formats of the API.
var diffFormats = []string{"xydelta", "json", "html-inline", "html-side-by-side", "html-changes", "text", "records"}

// diffPair is two versions of one resource, compared.
type diffPair struct {
	Resource *vigil.Resource
	From, To *vigil.Version
	Old      *tree.Document
	Delta    *delta.Delta
}

// diffVersionIDs reads the ids of the versions from and to of a diff of
// res, the query parameters of the same names; a missing one is named as
// missing, not as an empty value that is not a number, with where the
// versions are listed (lists: the history page, or the API's list).
func diffVersionIDs(res *vigil.Resource, fromText, toText, lists string) (from, to int64, err error) {
	ids := [2]int64{}
	for i, p := range []struct{ name, text string }{{"from", fromText}, {"to", toText}} {
		if p.text == "" {
			return 0, 0, vigil.Errorf(vigil.EINVALID, "%s is missing: want a version id of resource %d (%s lists them)", p.name, res.ID, lists)
		}
		if ids[i], err = idParam(p.name, p.text); err != nil {
			return 0, 0, err
		}
	}
	return ids[0], ids[1], nil
}

// diffVersions finds the versions from and to (ids, as query parameters)
// of a diff of res. Each error names the parameter at fault: a version
// that does not exist, is another resource's, or is a failed fetch,
// which has no body to compare. lists is where the versions are listed,
// for a missing parameter (diffVersionIDs).
func (s *Server) diffVersions(ctx context.Context, res *vigil.Resource, fromText, toText, lists string) (from, to *vigil.Version, err error) {
	fromID, toID, err := diffVersionIDs(res, fromText, toText, lists)
	if err != nil {
		return nil, nil, err
	}
	var vs [2]*vigil.Version
	for i, p := range []struct {
		name string
		id   int64
	}{{"from", fromID}, {"to", toID}} {
		v, err := s.Store.FindVersionByID(ctx, p.id)
		switch {
		case vigil.ErrorCode(err) == vigil.ENOTFOUND:
			return nil, nil, vigil.Errorf(vigil.ENOTFOUND, "%s: %s", p.name, vigil.ErrorMessage(err))
		case err != nil:
			return nil, nil, err
		case v.ResourceID != res.ID:
			return nil, nil, vigil.Errorf(vigil.EINVALID, "%s: version %d is not a version of resource %d", p.name, p.id, res.ID)
		case v.Error != "":
			return nil, nil, vigil.Errorf(vigil.EINVALID, "%s: version %d is %s, which has no body to compare", p.name, p.id, noBody(v))
		}
		vs[i] = v
	}
	return vs[0], vs[1], nil
}

// apiVersionList is where the API lists a resource's versions, for
// diffVersions.
func apiVersionList(res *vigil.Resource) string {
	return fmt.Sprintf("GET /api/v1/resources/%d/versions", res.ID)
}

// historyVersionList is where the dashboard lists a resource's versions,
// its history page, for diffVersions.
func historyVersionList(res *vigil.Resource) string {
	return fmt.Sprintf("its history, /resources/%d,", res.ID)
}

// loadDiff reads the versions from and to (ids) of the resource and the
// delta between them, which names them (vigil.Version.DeltaName); lists is as for
// diffVersions.
func (s *Server) loadDiff(ctx context.Context, res *vigil.Resource, fromText, toText, lists string) (*diffPair, error) {
	p := &diffPair{Resource: res}
	wh, err := s.warehouse()
	if err != nil {
		return nil, err
	}
	if p.From, p.To, err = s.diffVersions(ctx, res, fromText, toText, lists); err != nil {
		return nil, err
	}
	from, to := p.From.ID, p.To.ID
	start := time.Now()
	// One read and one parse of each version: the document the changes
	// are laid over is the tree differ's old one.
	if p.Old, p.Delta, err = wh.DocumentDiff(ctx, from, to); err != nil {
		return nil, err
	}
	s.Metrics.observeDiff(time.Since(start))
	// The delta names its two versions, as vigil diff names its files.
	p.Delta.From, p.Delta.To = p.From.DeltaName(), p.To.DeltaName()
	return p, nil
}

// records returns the typed change records of "any change" between the two
// versions (the intent layer's records).
func (s *Server) records(ctx context.Context, p *diffPair) ([]intent.Change, error) {
	wh, err := s.warehouse()
	if err != nil {
		return nil, err
	}
	newDoc, err := wh.Document(ctx, p.To.ID)
	if err != nil {
		return nil, err
	}
	d := p.Delta
	if p.fromURL() != p.toURL() {
		// The same markup read from two URLs (a redirect that came to
		// lead elsewhere) may name other links: an empty delta does
		// not say that nothing changed.
		d = nil
	}
	pair := intent.NewPair(p.Old, newDoc, d, nil)
	// A changed link or image is named by its absolute URL, as the
	// monitor's records and the dashboard's views name it: resolved
	// against the URL each version was read from (the final URL of a
	// redirect, else the resource's).
	pair.OldURL, pair.NewURL = p.fromURL(), p.toURL()
	res, err := pair.Primitive(&spec.ChangeType{Kind: spec.AnyChange})
	if err != nil {
		return nil, err
	}
	return nonNil(res.AllChanges()), nil
}

// renderView writes a view of the pair: xydelta, json, text, records, or
// one of the HTML views (sanitised, its links and images naming the
// watched site (rebaseFrame), with the highlight styles).
func (s *Server) renderView(ctx context.Context, w http.ResponseWriter, p *diffPair, format string) error {
	var buf bytes.Buffer
	var ctype string
	switch format {
	case "xydelta":
		ctype = "application/xml; charset=utf-8"
		if err := delta.EncodeXML(&buf, p.Delta); err != nil {
			return err
		}
	case "json":
		ctype = "application/json; charset=utf-8"
		if err := delta.EncodeJSON(&buf, p.Delta); err != nil {
			return err
		}
	case "text":
		ctype = "text/plain; charset=utf-8"
		a, _, err := annotated(p)
		if err != nil {
			return err
		}
		if err := a.WriteText(&buf); err != nil {
			return err
		}
	case "records":
		recs, err := s.records(ctx, p)
		if err != nil {
			return err
		}
		ctype = "application/json; charset=utf-8"
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		enc.Encode(recs)
	case "html-inline", "html-side-by-side", "html-changes":
		a, f, err := annotated(p)
		if err != nil {
			return err
		}
		// The page's links and images name the watched site, not Vigil
		// (rebaseFrame); the inline view needs what a changed image was,
		// the side-by-side view only whether its src was rewritten to
		// the same URL (changedImageLabel), only the changes shows it in the
		// change, which names a changed src or href by the same absolute
		// URL (attrValue, set by annotated).
		var raw bytes.Buffer
		switch format {
		case "html-inline":
			f.was = changedImages(a)
			err = a.WriteInline(&raw)
		case "html-side-by-side":
			f.was, f.side = changedImages(a), true
			err = a.WriteSideBySide(&raw)
		default:
			err = a.WriteChanges(&raw)
		}
		if err != nil {
			return err
		}
		body, err := f.rebaseFrame(sanitizer.SanitizeBytes(raw.Bytes()))
		if err != nil {
			return err
		}
		ctype = "text/html; charset=utf-8"
		buf.WriteString(frameHead)
		buf.Write(body)
		buf.WriteString("</body></html>\n")
		h := w.Header()
		h.Set("Content-Security-Policy", frameCSP)
		h.Set("X-Frame-Options", "SAMEORIGIN")
	default:
		return vigil.Errorf(vigil.EINVALID, "format must be one of %s", strings.Join(diffFormats, ", "))
	}
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Cache-Control", "private, no-store")
	if !strings.HasPrefix(format, "html") {
		// A delta carries the page's own markup: an XML view of it would
		// run the XHTML scripts inside on the dashboard's origin. It is
		// a download, never a document.
		h.Set("Content-Security-Policy", downloadCSP)
		h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=\"diff-%d-%d.%s\"", p.From.ID, p.To.ID, diffExtension[format]))
	}
	w.Write(buf.Bytes())
	return nil
}

// fromURL is the URL the pair's old version was read from, against which
// its relative links and images resolve (vigil.Version.PageURL: the
// final URL of a redirect, else the resource's).
func (p *diffPair) fromURL() string { return p.From.PageURL(p.Resource.URL) }

// toURL is fromURL for the new version.
func (p *diffPair) toURL() string { return p.To.PageURL(p.Resource.URL) }

// annotated lays p's delta over its old version for the text and HTML
// views, with the rewriting of the page's URLs that they share: a
// changed src or href is named by its absolute URL, resolved against the
// page's base in its version (AttrValue, OldAttrValue), as the views of
// the page name it: the base element of that version, resolved against
// the URL it was read from (diffPair.fromURL, toURL). A page without a
// base element is walked whole to find none, once a version: a delta
// without operations (a version compared with itself, a change outside
// the root alone) leaves the new version's root the old one's, and so
// its base, unless the two were read from different URLs. The error is
// EINVALID for a delta that does not fit.
func annotated(p *diffPair) (*render.Annotated, *frameRebase, error) {
	a, err := render.Annotate(p.Old, p.Delta)
	if err != nil {
		return nil, nil, vigil.Errorf(vigil.EINVALID, "the delta does not fit version %d", p.From.ID)
	}
	f := &frameRebase{oldBase: intent.PageBase(p.fromURL(), a.Old)}
	f.base = f.oldBase
	if len(a.Delta.Ops) > 0 || p.toURL() != p.fromURL() {
		f.base = intent.PageBase(p.toURL(), a.New)
	}
	a.AttrValue, a.OldAttrValue = f.attrValue, f.oldAttrValue
	return a, f, nil
}

// diffExtension is the file name extension of each downloaded diff format.
var diffExtension = map[string]string{"xydelta": "xml", "json": "json", "text": "txt", "records": "json"}

// handleDiff answers the diff between two versions of a resource:
// ?from=VERSION&to=VERSION&format=FORMAT.
func (s *Server) handleDiff(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	res, err := s.readableResource(r, u)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	format := q.Get("format")
	if format == "" {
		format = "json"
	}
	if !contains(diffFormats, format) {
		return vigil.Errorf(vigil.EINVALID, "format must be one of %s", strings.Join(diffFormats, ", "))
	}
	p, err := s.loadDiff(r.Context(), res, q.Get("from"), q.Get("to"), apiVersionList(res))
	if err != nil {
		return err
	}
	return s.renderView(r.Context(), w, p, format)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// sanitizer keeps the structure and text of foreign pages and Vigil's
// highlight marks, and drops scripts, event handlers, styles, forms,
// frames, objects and every URL scheme but http, https and mailto.
var sanitizer = func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.AllowAttrs(render.Attr).Matching(bluemonday.SpaceSeparatedTokens).Globally()
	p.AllowElements("ins", "del", "mark", "section", "main", "article", "header", "footer", "nav", "aside", "figure", "figcaption", "time")
	p.SkipElementsContent("head", "title")
	p.RequireNoReferrerOnLinks(true)
	return p
}()

// frameHead opens a sanitised view: Vigil's own styles for the marks, no
// script. The sanitised page follows.
const frameHead = `<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><style>
body{font:15px/1.5 system-ui,sans-serif;margin:.75rem;color:#111;background:#fff;overflow-wrap:anywhere}
[data-vigil-image]{display:inline-block;border:1px dashed #888;padding:0 .3rem;font-size:.9em;color:#444}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .4rem}
[data-vigil=ins]{background:#d4f8d4;outline:2px solid #2a8a2a;text-decoration:none}
[data-vigil=del]{background:#fbd5d5;outline:2px solid #b52a2a;text-decoration:line-through}
[data-vigil=move]{background:#d9e8ff;outline:2px dashed #2a5ab5}
[data-vigil=upd]{background:#fff1b3;outline:2px solid #a07800;text-decoration:none}
[data-vigil=upd-old]{background:#fbd5d5;text-decoration:line-through}
[data-vigil=attr]{outline:2px dotted #a07800}
[data-vigil=sbs]{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
@media (max-width:40rem){[data-vigil=sbs]{grid-template-columns:1fr}}
[data-vigil=old],[data-vigil=new]{min-width:0;border:1px solid #ccc;padding:.5rem}
[data-vigil=old]::before{content:"Old version";font-weight:bold;display:block}
[data-vigil=new]::before{content:"New version";font-weight:bold;display:block}
[data-vigil=change]{border-bottom:1px solid #ccc;padding:.5rem 0}
[data-vigil=change] h3{font-size:1rem;font-family:monospace;margin:0 0 .3rem}
[data-vigil=xml]{font:13px/1.6 ui-monospace,monospace}
[data-vigil=xml] div{margin-left:1.25rem}
[data-vigil=xml]>div{margin-left:0}
[data-vigil=xml] code{color:#666}
</style></head><body>`

// documentText returns the text of a document, a line per block.
func documentText(doc *tree.Document) string {
	var b strings.Builder
	// An HTML page's texts keep the spaces between the words of a line
	// (markup's white-space policy): texts with only inline elements
	// between them are joined as they are, "co<b>rr</b>ect" as "correct".
	// Other texts are joined by a space, or a line at a block's end.
	html := doc.Root != nil && strings.EqualFold(doc.Root.Name, "html")
	apart := false   // a non-inline element began or ended since the last text
	space := false   // a space is due before the next text
	newline := false // a line end is due before the next text
	var walk func(n *tree.Node)
	walk = func(n *tree.Node) {
		switch n.Kind {
		case tree.Text:
			t := strings.Join(strings.Fields(n.Value), " ")
			if t == "" {
				space = space || html && n.Value != ""
				return
			}
			if b.Len() > 0 {
				switch {
				case newline:
					b.WriteByte('\n')
				case space || !html || apart || startsWithSpace(n.Value):
					b.WriteByte(' ')
				}
			}
			b.WriteString(t)
			space = html && endsWithSpace(n.Value)
			newline, apart = false, false
		case tree.Element:
			name := strings.ToLower(n.Name)
			if name == "script" || name == "style" || name == "head" {
				return
			}
			inline := markup.IsInline(name)
			apart = apart || !inline
			for _, c := range n.Children {
				walk(c)
			}
			apart = apart || !inline
			if blockElements[name] {
				newline = true
			}
		}
	}
	if doc.Root != nil {
		walk(doc.Root)
	}
	return b.String()
}

// startsWithSpace and endsWithSpace report whether s starts or ends with
// white space, no-break spaces included (strings.Fields drops them too).
func startsWithSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

func endsWithSpace(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return unicode.IsSpace(r)
}

var blockElements = map[string]bool{
	"p": true, "div": true, "li": true, "tr": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"br": true, "section": true, "article": true, "header": true, "footer": true, "pre": true, "blockquote": true,
	"table": true, "ul": true, "ol": true, "dt": true, "dd": true, "body": true, "title": true,
}

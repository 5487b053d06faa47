package warehouse

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// parseable reports whether a version's content type is one of markup,
// parsed into a tree (ParseBody), for which a tree delta is stored: no
// type, or markup by vigil.IsMarkupMediaType, the rule ReadBody parses a
// body by (HTML, XML, text/xsl, every +xml type).
func parseable(v *vigil.Version) bool {
	return v.Error == "" && (v.ContentType == "" || vigil.IsMarkupMediaType(v.ContentType))
}

// readable reports whether the warehouse reads a version's body into a
// tree to tell how it is read (ReadAsText): a body it parses as markup
// (parseable), or one served as text (ServedAsText), which it reads as
// its source unless it begins as markup.
func readable(v *vigil.Version) bool {
	return parseable(v) || v.Error == "" && ServedAsText(v.ContentType)
}

// backwardTreeDelta returns the compressed XyDelta XML of the delta from
// next back to prev: Invert(treediff.Diff(prev, next)) with prev numbered
// afresh (post-order XIDs from 1), so that the delta stands alone: parse
// prev, assign XIDs, and the inverse applies.
func (w *Warehouse) backwardTreeDelta(prevBody []byte, prev *vigil.Version, nextBody []byte, next *vigil.Version) ([]byte, error) {
	if !parseable(prev) || !parseable(next) {
		return nil, nil
	}
	d, err := diffBodies(prevBody, prev, nextBody, next)
	if err != nil {
		return nil, err
	}
	return w.encodeTreeDelta(delta.Invert(d), prevBody, nextBody)
}

// encodeTreeDelta returns d as XyDelta XML compressed with the bodies of
// the two versions it joins as dictionary (treeDict), stamped with the
// current reading (stampTreeDelta): the subtrees a delta deletes and
// inserts are text of one version or the other, so they cost
// back-references only. Reading the delta needs both bodies, which Diff
// reads (a caller applying the delta reads the older one anyway).
func (w *Warehouse) encodeTreeDelta(d *delta.Delta, prevBody, nextBody []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := delta.EncodeXML(&buf, d); err != nil {
		return nil, err
	}
	compressed, err := w.opt.Codec.Diff(treeDict(prevBody, nextBody), buf.Bytes())
	if err != nil {
		return nil, err
	}
	return stampTreeDelta(compressed), nil
}

// treeDict is the dictionary of a stored tree delta: the older body, then
// the newer one.
func treeDict(older, newer []byte) []byte {
	return append(append(make([]byte, 0, len(older)+len(newer)), older...), newer...)
}

func diffBodies(oldBody []byte, oldV *vigil.Version, newBody []byte, newV *vigil.Version) (*delta.Delta, error) {
	a, err := parse(oldBody, oldV)
	if err != nil {
		return nil, fmt.Errorf("parse version %d: %w", oldV.ID, err)
	}
	b, err := parse(newBody, newV)
	if err != nil {
		return nil, fmt.Errorf("parse version %d: %w", newV.ID, err)
	}
	a.AssignXIDs()
	return treediff.Diff(a, b, nil)
}

// Document returns the tree of a version, read from its exact bytes by
// ParseBody (a body that does not parse as HTML or XML is its source
// text), with XIDs numbered afresh (post-order from 1). It returns
// EINVALID for a body larger than the parsers take.
func (w *Warehouse) Document(ctx context.Context, versionID int64) (*tree.Document, error) {
	v, err := w.store.FindVersionByID(ctx, versionID)
	if err != nil {
		return nil, err
	}
	body, err := w.Body(ctx, versionID)
	if err != nil {
		return nil, err
	}
	return w.document(body, v)
}

// document is Document of v, whose body is read.
func (w *Warehouse) document(body []byte, v *vigil.Version) (*tree.Document, error) {
	doc, err := w.parse(body, v)
	if err != nil {
		// The page's fault (larger than the parsers take), not the
		// server's: the reason is the user's to read.
		return nil, vigil.Errorf(vigil.EINVALID, "version %d cannot be read as a tree: %s", v.ID, strings.TrimPrefix(err.Error(), "markup: "))
	}
	doc.AssignXIDs()
	return doc, nil
}

// parse is the package's parse, counted in ParsedBytes.
func (w *Warehouse) parse(body []byte, v *vigil.Version) (*tree.Document, error) {
	w.parsedBytes.Add(int64(len(body)))
	return parse(body, v)
}

// ParsedBytes returns how many bytes of bodies Document, Diff and
// DocumentDiff have parsed into trees since the warehouse was made: the
// work that dominates a view of a diff, which for one diff is at most
// the two versions' bodies, each parsed once.
func (w *Warehouse) ParsedBytes() int64 {
	return w.parsedBytes.Load()
}

// storedTreeDelta returns the forward delta from version a to version b
// held by a's stored tree delta. One built under an earlier reading of the
// bodies is checked against both versions as read now.
func (w *Warehouse) storedTreeDelta(stored, older []byte, a *vigil.Version, newer []byte, b *vigil.Version) (*delta.Delta, error) {
	compressed, reading := unstampTreeDelta(stored)
	raw, err := w.opt.Codec.Patch(treeDict(older, newer), compressed)
	if err != nil {
		return nil, err
	}
	ds, err := delta.DecodeXML(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	if len(ds) != 1 {
		return nil, fmt.Errorf("%d deltas stored, want 1", len(ds))
	}
	d := delta.Invert(ds[0])
	if reading != treeReading {
		if err := checkStoredDelta(older, a, newer, b, d); err != nil {
			return nil, fmt.Errorf("built under reading %d, now %d: %w", reading, treeReading, err)
		}
	}
	return d, nil
}

// Diff returns the delta from version from to version to (of the same
// resource), in terms of from's document numbered afresh (Document(from)):
// delta.Apply(Document(from), d) gives to's tree. For consecutive versions
// it inverts the stored backward delta; otherwise it runs the tree differ.
// It returns ENOTFOUND for an unknown version and EINVALID for versions of
// different resources or larger than the parsers take.
func (w *Warehouse) Diff(ctx context.Context, from, to int64) (*delta.Delta, error) {
	_, d, err := w.diff(ctx, from, to, false)
	return d, err
}

// DocumentDiff returns Document(from) and Diff(from, to) at once, as a
// view of the diff needs both, reading each version's body once (from's
// by the walk down the chain that read to's, where it passes it) and
// parsing each at most once: the tree differ's old tree is the document
// returned. The two calls read from's body twice and parsed it twice:
// some 40 % of the time of a view of the diff of a 10 MB page. The errors
// are those of Document(from), then Diff's.
func (w *Warehouse) DocumentDiff(ctx context.Context, from, to int64) (*tree.Document, *delta.Delta, error) {
	return w.diff(ctx, from, to, true)
}

// diff is Diff, and Document(from) too when withDoc is set.
func (w *Warehouse) diff(ctx context.Context, from, to int64, withDoc bool) (*tree.Document, *delta.Delta, error) {
	a, err := w.store.FindVersionByID(ctx, from)
	if err != nil {
		return nil, nil, err
	}
	b, err := w.store.FindVersionByID(ctx, to)
	if err != nil {
		return nil, nil, err
	}
	if a.ResourceID != b.ResourceID {
		return nil, nil, vigil.Errorf(vigil.EINVALID, "versions %d and %d belong to different resources", from, to)
	}
	newer, err := w.Body(ctx, to)
	if err != nil {
		return nil, nil, err
	}
	// An older version's walk down the chain passes the newer one's.
	older, err := w.bodyFrom(ctx, from, &knownBody{resourceID: b.ResourceID, versionID: to, data: newer})
	if err != nil {
		return nil, nil, err
	}
	var doc *tree.Document
	if withDoc {
		if doc, err = w.document(older, a); err != nil {
			return nil, nil, err
		}
	}
	if b.Seq == a.Seq+1 {
		sb, err := w.store.Body(ctx, from)
		if err != nil {
			return nil, nil, err
		}
		if len(sb.TreeDelta) > 0 {
			d, err := w.storedTreeDelta(sb.TreeDelta, older, a, newer, b)
			if err == nil {
				return doc, d, nil
			}
			w.log.Warn("stored tree delta unreadable or built under another reading; diffing again", "version", from, "err", err)
		}
	}
	old := doc
	if old == nil {
		if old, err = w.parse(older, a); err != nil {
			return nil, nil, vigil.Errorf(vigil.EINVALID, "versions %d and %d cannot be compared as trees", from, to)
		}
		old.AssignXIDs()
	}
	cur, err := w.parse(newer, b)
	if err != nil {
		return nil, nil, vigil.Errorf(vigil.EINVALID, "versions %d and %d cannot be compared as trees", from, to)
	}
	// The differ changes nothing in old but its nodes' Post fields: it
	// stays the document of from, numbered afresh.
	d, err := treediff.Diff(old, cur, nil)
	if err != nil {
		return nil, nil, vigil.Errorf(vigil.EINVALID, "versions %d and %d cannot be compared as trees", from, to)
	}
	return doc, d, nil
}

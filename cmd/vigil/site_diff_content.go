package main

import (
	"fmt"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// contentChange compares the bodies of a modified page's two versions
// with the diff engine, as vigil diff does, and says in one line what
// changed: the counts of vigil diff's summary and, when the change is one
// text update, the text before and after (a date in a footer, say).
func (sd *siteDelta) contentChange(before, after *crawl.Page) string {
	switch {
	case before.Hash == "" || after.Hash == "":
		return "not compared: no body (a binary document)"
	case before.Hash == after.Hash && (!vigil.IsTextMediaType(before.ContentType) || !vigil.IsTextMediaType(after.ContentType)):
		// A binary document's digest: of a PDF, without its
		// generator's dates and identifiers.
		return "the same content (the version changed, the content did not)"
	case before.Hash == after.Hash:
		return "the same bytes (the version changed, the content did not)"
	case !vigil.IsTextMediaType(before.ContentType) || !vigil.IsTextMediaType(after.ContentType):
		return fmt.Sprintf("%d bytes -> %d bytes (%s, not compared: not HTML, XML or text)", before.Size, after.Size, after.ContentType)
	}
	parse := sd.parse
	if !vigil.IsMarkupMediaType(before.ContentType) || !vigil.IsMarkupMediaType(after.ContentType) {
		parse = parseSource
	}
	f1, err := parse(before)
	if err != nil {
		return "not compared: old version: " + err.Error()
	}
	f2, err := parse(after)
	if err != nil {
		return "not compared: new version: " + err.Error()
	}
	dd, err := treediff.DiffFlat(f1, f2, nil)
	if err != nil {
		return "not compared: " + err.Error()
	}
	text := statsText(dd.Stats(), true)
	if del, ins, ok := onlyUpdate(dd); ok {
		text += ": " + updateChange(del, ins)
	}
	return text
}

// parse parses a page's body as the warehouse does: by its media type
// (an XHTML page served as text/html is HTML).
func (sd *siteDelta) parse(p *crawl.Page) (*tree.Flat, error) {
	opt := *sd.opt
	opt.MediaType = p.ContentType
	f, _, err := parseFlat(p.URL, []byte(p.Body), &opt)
	return f, err
}

// parseSource reads the body of a page served as text that is not
// markup (text/plain, CSS, JSON...) as the crawl and the monitor read it
// (warehouse.ReadBody): its source text, a line a node, unless it begins
// as markup.
func parseSource(p *crawl.Page) (*tree.Flat, error) {
	doc, _, err := warehouse.ReadBody([]byte(p.Body), "utf-8", p.ContentType)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	f, _ := tree.FlattenDocument(doc)
	return f, nil
}

// onlyUpdate reports whether a delta is one text update, and returns its
// two halves.
func onlyUpdate(d *delta.Delta) (del, ins *delta.Op, ok bool) {
	if len(d.Ops) != 2 || d.Outside != nil {
		return nil, nil, false
	}
	for i := range d.Ops {
		op := &d.Ops[i]
		switch {
		case !op.Update:
			return nil, nil, false
		case op.Kind == delta.Delete:
			del = op
		case op.Kind == delta.Insert:
			ins = op
		}
	}
	return del, ins, del != nil && ins != nil
}

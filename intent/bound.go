package intent

// maxRecordText is the most bytes of one text that a change record holds:
// its Old and New, a link's or an image's texts and targets, a row's key
// or a column's header, each label of a list item's parents. A longer one
// is cut as Texts cuts what a reader is shown (clipPair), but to this
// bound: the two sides from a little before their first difference, with
// ellipses. A page read as its source text (a body that does not parse as
// HTML or XML) is one text of megabytes: without the cut, each record of
// its change would carry it twice, to the store, the API and the dashboard.
const maxRecordText = 4 << 10

// boundTexts cuts the texts of the records cs to maxRecordText bytes each.
func boundTexts(cs []Change) {
	for i := range cs {
		c := &cs[i]
		c.Old, c.New = boundPair(c.Old, c.New)
		if l := c.Link; l != nil {
			l.OldHref, l.NewHref = boundPair(l.OldHref, l.NewHref)
			l.OldText, l.NewText = boundPair(l.OldText, l.NewText)
			l.Context = clipTo(l.Context, maxRecordText)
		}
		if im := c.Image; im != nil {
			im.OldSrc, im.NewSrc = boundPair(im.OldSrc, im.NewSrc)
			im.OldAlt, im.NewAlt = boundPair(im.OldAlt, im.NewAlt)
		}
		if tb := c.Table; tb != nil {
			tb.Row, tb.Header = clipTo(tb.Row, maxRecordText), clipTo(tb.Header, maxRecordText)
		}
		if ls := c.List; ls != nil {
			ls.OldParents, ls.NewParents = boundLabels(ls.OldParents), boundLabels(ls.NewParents)
		}
	}
}

// boundPair is clipPairTo at maxRecordText, for the two sides of a change,
// either of which may be empty.
func boundPair(old, new string) (string, string) {
	if old != "" && new != "" {
		return clipPairTo(old, new, maxRecordText)
	}
	return clipTo(old, maxRecordText), clipTo(new, maxRecordText)
}

// boundLabels returns labels with each cut to maxRecordText, in a new
// slice if any is.
func boundLabels(labels []string) []string {
	var out []string
	for i, s := range labels {
		if len(s) <= maxRecordText {
			continue
		}
		if out == nil {
			out = append([]string(nil), labels...)
		}
		out[i] = clipTo(s, maxRecordText)
	}
	if out == nil {
		return labels
	}
	return out
}

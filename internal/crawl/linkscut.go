package crawl

import "fmt"

// LinksNote says of a page with more links in scope than a snapshot
// keeps (LinksTruncated) that the first MaxLinks were kept and followed
// and the others not, so that a user told of its change knows that the
// pages it links to past them are not read through it, nor their
// changes seen; "" for any other page.
func (p *Page) LinksNote() string {
	if !p.LinksTruncated {
		return ""
	}
	return fmt.Sprintf("more than %d links in scope: the first %d kept and followed, the others not", MaxLinks, MaxLinks)
}

// LinksCut returns the URLs of the pages of s whose links were cut at
// MaxLinks (Page.LinksTruncated), in the snapshot's order: a page no
// longer reached may still be linked from one of them, past the cut.
func (s *Snapshot) LinksCut() []string {
	var out []string
	for _, p := range s.Pages {
		if p.LinksTruncated {
			out = append(out, p.URL)
		}
	}
	return out
}

// CutNote is the note of a page no longer reached in a snapshot whose
// pages cut holds the URLs of those whose links were cut (LinksCut): it
// may be linked past the cut of one of them. With no page cut it is the
// note of a page no longer reached at all.
func CutNote(cut []string) string {
	if len(cut) == 0 {
		return "no longer reached"
	}
	note := fmt.Sprintf("no longer reached among the links kept; perhaps linked past the first %d of %s", MaxLinks, cut[0])
	if len(cut) > 1 {
		note += fmt.Sprintf(" or of %d other pages cut so", len(cut)-1)
	}
	return note
}

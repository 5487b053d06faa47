package intent

import (
	"html"
	"strings"
	"unicode"
)

// PageInfo describes a page of a site watched whole (a site sentinel)
// that was added (Insert: newly reached), deleted (Delete: no longer
// reached, or failing) or modified (Update) between two crawls of the
// site. A Change of kind KindPage carries it; its Old and New are the
// page's URL on the sides where the page is.
type PageInfo struct {
	// URL is the page's canonical URL.
	URL string `json:"url"`
	// Title is the page's title (in the newer crawl, but for a deleted
	// page); OldTitle its title before, when it changed.
	Title    string `json:"title,omitempty"`
	OldTitle string `json:"oldTitle,omitempty"`
	// Note says more, in words: why a page was deleted ("no longer
	// reached", "now failing: HTTP 404"), that an added page failed
	// before, or that a modified page is now read as its source text,
	// and why ("read as text: ..."), or read as a page again, or that a
	// modified binary document was hashed as its bytes, and why
	// ("hashed as bytes: pdf encrypted: ...", as the crawl noted it).
	Note string `json:"note,omitempty"`
	// Summary says, for a modified page, what changed in it: the change
	// types of the sentinel that matched and their records counted
	// ("keywords {x}: 1 keyword added").
	Summary string `json:"summary,omitempty"`
	// ResourceID, OldVersion and NewVersion identify the page and its
	// versions where a caller stores them (Vigil's warehouse): a
	// modified page's diff is between OldVersion and NewVersion.
	ResourceID int64 `json:"resourceId,omitempty"`
	OldVersion int64 `json:"oldVersion,omitempty"`
	NewVersion int64 `json:"newVersion,omitempty"`
}

// NewPageChange returns the Change of kind KindPage for a page of a site.
func NewPageChange(op Operation, p *PageInfo) Change {
	c := Change{Kind: KindPage, Op: op, Page: p}
	if op != Insert {
		c.Old = p.URL
	}
	if op != Delete {
		c.New = p.URL
	}
	return c
}

// line is Change.Line of a page: "+ page added: URL "Title"", "- page
// removed: URL "Title" (no longer reached)", "~ page changed: URL
// "Title": keywords {x}: 1 keyword added".
func (p *PageInfo) line(op Operation) string {
	s := sign(op) + " page " + op.participle() + ": " + p.URL
	if t := p.titleText(); t != "" {
		s += ` "` + t + `"`
	}
	return s + p.tail()
}

// lineHTML is line as HTML, with the URL a link.
func (p *PageInfo) lineHTML(op Operation) string {
	u := html.EscapeString(p.URL)
	s := "page " + op.participle() + `: <a href="` + u + `">` + u + "</a>"
	if t := p.titleText(); t != "" {
		s += " " + html.EscapeString(`"`+t+`"`)
	}
	return s + html.EscapeString(p.tail())
}

// titleText is the title a line shows, in quotes as it is (not as a Go
// string literal), control characters made spaces: "Old -> New" when it
// changed.
func (p *PageInfo) titleText() string {
	t := clip(p.Title)
	if p.OldTitle != "" && p.OldTitle != p.Title {
		t = clip(p.OldTitle) + " -> " + t
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, t)
}

// tail is what a line says after the page: its summary, and its note in
// parentheses.
func (p *PageInfo) tail() string {
	s := ""
	if p.Summary != "" {
		s += ": " + clip(p.Summary)
	}
	if p.Note != "" {
		s += " (" + clip(p.Note) + ")"
	}
	return s
}

// sign is the first character of a line: + inserted, - deleted, ~ else.
func sign(op Operation) string {
	switch op {
	case Insert:
		return "+"
	case Delete:
		return "-"
	}
	return "~"
}

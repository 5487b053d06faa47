package web

import (
	"net/http"
	"net/url"
	"strconv"
)

// pager is the paging of a dashboard list: the Shown items from Offset
// of the Total matching, at most Limit a page, with links to the pages
// before and after.
type pager struct {
	Offset, Limit, Total, Shown int
	// Path is the list's path; Query its other query values, kept in the
	// links.
	Path  string
	Query url.Values
}

// dashboardPage reads a dashboard list's offset and limit (as the API's
// paging, limit from 1 to max, def if absent) and returns its pager.
func dashboardPage(r *http.Request, def, max int) (*pager, error) {
	p, err := pagingWith(r, def, max)
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	for k, v := range r.URL.Query() {
		if k != "offset" {
			q[k] = v
		}
	}
	return &pager{Offset: p.Offset, Limit: p.Limit, Path: r.URL.Path, Query: q}, nil
}

// Paged reports whether the list needs its pager: it holds more than a
// page, or is shown from an offset.
func (p *pager) Paged() bool { return p.Total > p.Limit || p.Offset > 0 }

// First and Last are the 1-based positions of the items shown.
func (p *pager) First() int { return p.Offset + 1 }
func (p *pager) Last() int  { return p.Offset + p.Shown }

// Prev returns the link to the page before, "" on the first; past the
// end, to the last page.
func (p *pager) Prev() string {
	switch {
	case p.Offset == 0:
		return ""
	case p.Shown == 0:
		return p.link(max(p.Total-p.Limit, 0))
	}
	return p.link(max(p.Offset-p.Limit, 0))
}

// Next returns the link to the page after, "" on the last.
func (p *pager) Next() string {
	if p.Offset+p.Shown >= p.Total || p.Shown == 0 {
		return ""
	}
	return p.link(p.Offset + p.Shown)
}

func (p *pager) link(offset int) string {
	q := url.Values{}
	for k, v := range p.Query {
		q[k] = v
	}
	if offset > 0 {
		q.Set("offset", strconv.Itoa(offset))
	}
	if len(q) == 0 {
		return p.Path
	}
	return p.Path + "?" + q.Encode()
}

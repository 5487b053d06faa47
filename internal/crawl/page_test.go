package crawl

import "testing"

// TestPageReadAsText: ReadAsText tells why an HTML page read is read as
// its source text, in the warehouse's words, and whether the crawl read
// the page's body at all.
func TestPageReadAsText(t *testing.T) {
	for name, tc := range map[string]struct {
		page       Page
		why        string
		wantIsRead bool
	}{
		"a page":         {Page{ContentType: "text/html"}, "", true},
		"read as text":   {Page{ContentType: "text/html", Note: NoteReadAsText + "markup: parse HTML: deep"}, "parse HTML: deep", true},
		"XHTML as text":  {Page{ContentType: "application/xhtml+xml", Note: NoteReadAsText + "line 1"}, "line 1", true},
		"a failure":      {Page{ContentType: "text/html", Error: "parse: too large"}, "", false},
		"XML":            {Page{ContentType: "application/xml"}, "", true},
		"a feed as XML":  {Page{ContentType: "application/atom+xml", Note: NoteReadAsText + "markup: parse XML: EOF"}, "parse XML: EOF", true},
		"binary":         {Page{ContentType: "image/png"}, "", false},
		"served as text": {Page{ContentType: "text/plain", Note: NoteReadAsText + "served as text/plain"}, "served as text/plain", true},
		"JSON as a page": {Page{ContentType: "application/json"}, "", true},
		"text failed":    {Page{ContentType: "text/csv", Error: "fetch: 404"}, "", false},
	} {
		t.Run(name, func(t *testing.T) {
			why, read := ReadAsText(&tc.page)
			if why != tc.why || read != tc.wantIsRead {
				t.Errorf("ReadAsText = %q, %v; want %q, %v", why, read, tc.why, tc.wantIsRead)
			}
		})
	}
}

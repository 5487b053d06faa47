package vigil_test

import (
	"testing"

	"github.com/vigil-web/vigil"
)

// TestMediaType: every type that the fetcher, the crawl, the API and the
// warehouse named when each had its own list, with parameters, in upper
// case, and malformed (mime.ParseMediaType refuses the type and subtype):
// what MediaType reads, whether it is text, and whether it is markup.
func TestMediaType(t *testing.T) {
	tests := []struct {
		in, want     string // want: MediaType
		text, markup bool
	}{
		// text/*, markup or not
		{in: "text/plain", want: "text/plain", text: true},
		{in: "text/css", want: "text/css", text: true},
		{in: "text/csv", want: "text/csv", text: true},
		{in: "text/markdown", want: "text/markdown", text: true},
		{in: "text/javascript", want: "text/javascript", text: true},
		{in: "text/html", want: "text/html", text: true, markup: true},
		{in: "text/xml", want: "text/xml", text: true, markup: true},
		{in: "text/xsl", want: "text/xsl", text: true, markup: true},
		{in: "text/vnd.example+xml", want: "text/vnd.example+xml", text: true, markup: true},
		// XML and JSON
		{in: "application/xml", want: "application/xml", text: true, markup: true},
		{in: "application/xhtml+xml", want: "application/xhtml+xml", text: true, markup: true},
		{in: "application/rss+xml", want: "application/rss+xml", text: true, markup: true},
		{in: "application/atom+xml", want: "application/atom+xml", text: true, markup: true},
		{in: "image/svg+xml", want: "image/svg+xml", text: true, markup: true},
		{in: "application/json", want: "application/json", text: true},
		{in: "application/ld+json", want: "application/ld+json", text: true},
		{in: "application/vnd.api+json", want: "application/vnd.api+json", text: true},
		{in: "image/vnd.example+json", want: "image/vnd.example+json", text: true},
		// every JavaScript alias
		{in: "application/javascript", want: "application/javascript", text: true},
		{in: "application/ecmascript", want: "application/ecmascript", text: true},
		{in: "application/x-javascript", want: "application/x-javascript", text: true},
		{in: "application/x-ecmascript", want: "application/x-ecmascript", text: true},
		// every NDJSON (JSON Lines, JSON text sequences) alias
		{in: "application/x-ndjson", want: "application/x-ndjson", text: true},
		{in: "application/ndjson", want: "application/ndjson", text: true},
		{in: "application/jsonl", want: "application/jsonl", text: true},
		{in: "application/x-jsonlines", want: "application/x-jsonlines", text: true},
		{in: "application/json-seq", want: "application/json-seq", text: true},
		// not text
		{in: "application/octet-stream", want: "application/octet-stream"},
		{in: "application/pdf", want: "application/pdf"},
		{in: "image/png", want: "image/png"},
		{in: "application/xml-dtd", want: "application/xml-dtd"},
		{in: "application/jsonx", want: "application/jsonx"},
		{in: "application/x-xml", want: "application/x-xml"},
		{in: "application/vnd.example+xml-zip", want: "application/vnd.example+xml-zip"},
		// parameters and case
		{in: "text/plain; charset=utf-8", want: "text/plain", text: true},
		{in: "application/JSON;charset=UTF-8", want: "application/json", text: true},
		{in: "  Text/HTML ; charset=iso-8859-1", want: "text/html", text: true, markup: true},
		{in: "APPLICATION/X-NDJSON", want: "application/x-ndjson", text: true},
		{in: "application/ecmascript; version=5", want: "application/ecmascript", text: true},
		{in: "Image/SVG+XML", want: "image/svg+xml", text: true, markup: true},
		// malformed parameters do not change what the type is
		{in: "text/plain; charset", want: "text/plain", text: true},
		{in: "text/plain; charset=utf-8; charset=latin1", want: "text/plain", text: true},
		{in: `application/xml; a="unterminated`, want: "application/xml", text: true, markup: true},
		{in: "text/csv;", want: "text/csv", text: true},
		// malformed types
		{in: ""},
		{in: "   "},
		{in: "text"},
		{in: "text/"},
		{in: "/plain"},
		{in: "text/plain/x"},
		{in: "text /plain"},
		{in: "text/pl ain"},
		{in: "text/plain(x)"},
		{in: "tëxt/plain"},
		{in: "; charset=utf-8"},
		{in: "json"},
		{in: "+json"},
		{in: "+xml"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := vigil.MediaType(tt.in); got != tt.want {
				t.Errorf("MediaType(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got := vigil.IsTextMediaType(tt.in); got != tt.text {
				t.Errorf("IsTextMediaType(%q) = %v, want %v", tt.in, got, tt.text)
			}
			if got := vigil.IsMarkupMediaType(tt.in); got != tt.markup {
				t.Errorf("IsMarkupMediaType(%q) = %v, want %v", tt.in, got, tt.markup)
			}
		})
	}
}

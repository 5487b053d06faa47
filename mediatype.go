package vigil

import (
	"mime"
	"strings"
)

// MediaType returns the media type of a Content-Type value: its type and
// subtype, in lower case, without parameters ("Text/HTML; charset=x" is
// "text/html"). The parameters are not read: a malformed one (a charset
// without a value, one given twice) does not change what the body is. ""
// when the type and subtype are malformed (mime.ParseMediaType refuses
// them: an empty part, a character no token holds), without a slash, or
// absent.
func MediaType(contentType string) string {
	t, _, _ := strings.Cut(contentType, ";")
	mt, _, err := mime.ParseMediaType(t)
	if err != nil || !strings.Contains(mt, "/") {
		// ParseMediaType takes a lone token, as a Content-Disposition
		// holds ("attachment"), which is no media type.
		return ""
	}
	return mt
}

// IsTextMediaType reports whether a body served with a Content-Type
// value (or a media type, MediaType's) is text, the one rule every part
// of Vigil holds a body to: the fetcher keeps it (decoded to UTF-8) and
// refuses the others as binary, a crawl records it as a page with a
// version of its content, the API serves it as text/plain, and the
// warehouse reads it as a page (markup, IsMarkupMediaType) or as its
// source text (the others).
//
// Text is text/* (text/plain, text/css, text/csv, text/html, text/xml...),
// XML and JSON (application/xml, application/json, and every +xml and
// +json suffix, whatever the type: application/xhtml+xml, image/svg+xml,
// application/ld+json), every JavaScript alias (application/javascript,
// application/ecmascript, application/x-javascript,
// application/x-ecmascript) and every alias of newline-delimited JSON
// (application/x-ndjson, application/ndjson, application/jsonl,
// application/x-jsonlines, and the JSON text sequences of RFC 7464,
// application/json-seq). Case and parameters do not matter; a malformed
// type (MediaType "") is not text.
func IsTextMediaType(contentType string) bool {
	t := MediaType(contentType)
	if t == "" {
		return false
	}
	if strings.HasPrefix(t, "text/") || strings.HasSuffix(t, "+xml") || strings.HasSuffix(t, "+json") {
		return true
	}
	switch t {
	case "application/xml", "application/json",
		"application/javascript", "application/ecmascript", "application/x-javascript", "application/x-ecmascript",
		"application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines", "application/json-seq":
		return true
	}
	return false
}

// IsMarkupMediaType reports whether a body served with a Content-Type
// value (or a media type) is markup, text (IsTextMediaType) that the
// warehouse parses as HTML or XML rather than reads as its source: HTML
// (text/html, application/xhtml+xml) and XML (application/xml, text/xml,
// text/xsl, and every +xml suffix: application/rss+xml, image/svg+xml).
// Case and parameters do not matter; a malformed type is not markup.
func IsMarkupMediaType(contentType string) bool {
	t := MediaType(contentType)
	switch t {
	case "text/html", "application/xhtml+xml", "application/xml", "text/xml", "text/xsl":
		return true
	}
	return strings.HasSuffix(t, "+xml")
}
